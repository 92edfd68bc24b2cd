/** The identity module's API for other modules; import from here only (eslint `boundaries` rule). */
export { IdentityModule } from './identity.module';
export { EntityReachability } from './application/entity-reachability';
export { UserDirectoryService } from './application/user-directory.service';
export { StaffProvisioningService } from './application/staff-provisioning.service';
export { ApiKeysService } from './application/api-keys.service';
export type { MintApiKeyInput } from './application/api-keys.service';
export { IDENTITY_RECORDS } from './infrastructure/persistence/identity.records';
export { SessionMiddleware } from './infrastructure/http/session';
// Errors other modules answer with identity's own code (declared once, here).
export { userNotFound } from './domain/identity-errors';
