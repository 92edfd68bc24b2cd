export * from './domain-error';
export * from './ids';
