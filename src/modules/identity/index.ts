// The identity module's application API for other modules.
export { IdentityModule } from './identity.module';
export { ApiKeysService } from './application/api-keys.service';
export type { MintApiKeyInput } from './application/api-keys.service';
