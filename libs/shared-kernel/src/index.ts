export * from './chilean-rut';
export * from './domain-error';
export * from './ids';
