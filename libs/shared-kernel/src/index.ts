export * from './chilean-rut';
export * from './cursors';
export * from './dates';
export * from './domain-error';
export * from './ids';
export * from './money';
export * from './text';
