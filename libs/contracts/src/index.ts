/**
 * Request and response shapes shared with the web client. Versioned with the package version;
 * the service's DTOs implement these interfaces so that a drift fails the type check.
 */
export * from './errors';
export * from './reference';
export * from './identity';
export * from './organizations';
