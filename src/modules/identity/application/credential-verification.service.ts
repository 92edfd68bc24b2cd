import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { RuntimeConfig } from '../../../platform/config/app-config';
import { CredentialVerifier } from '../../../platform/auth/ports';
import type { Principal } from '../../../platform/auth/principal';
import { Clock } from '../../../platform/clock/clock';
import { hashSecret, parseApiKey } from '../domain/api-key';
import { ApiKeyRepository, UserRepository } from '../domain/identity-ports';
import type { User } from '../domain/user';

function userOf(user: User): Principal['user'] {
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

@Injectable()
export class CredentialVerificationService extends CredentialVerifier {
  private readonly rateLimitPerHour: number;

  constructor(
    private readonly apiKeys: ApiKeyRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
    @Inject(ConfigService) config: ConfigService<RuntimeConfig, true>,
  ) {
    super();
    this.rateLimitPerHour = config.get('apiKeyRateLimitPerHour', { infer: true });
  }

  /**
   * One database call: the key by prefix and secret hash, usable now, counted against its limit,
   * and the tenant scope of `entityId` when the route names one.
   */
  async verifyApiKey(rawKey: string, entityId?: string): Promise<Principal | null> {
    const material = parseApiKey(rawKey.trim());
    if (!material) return null;
    const found = await this.apiKeys.authenticate(material.prefix, hashSecret(material.secret), this.rateLimitPerHour, this.clock.now(), entityId ?? null);
    if (!found) return null;
    return {
      user: found.owner,
      credential: 'api_key',
      apiKey: { id: found.apiKeyId, readOnly: found.permissions !== null, entityId: found.entityId, rateLimit: found.rateLimit },
      ...(entityId !== undefined && found.tenant !== undefined ? { tenantScope: { entityId, scope: found.tenant } } : {}),
    };
  }

  async principalForSessionUser(userId: string, passwordStamp: string | undefined): Promise<Principal | null> {
    const user = await this.users.findById(userId);
    // A session signed in with another password than the User's now is over (the password was set since).
    return user && passwordStamp !== undefined && user.passwordStamp === passwordStamp ? { user: userOf(user), credential: 'session' } : null;
  }
}
