import { Injectable } from '@nestjs/common';
import { CredentialVerifier } from '../../../platform/auth/ports';
import type { Principal } from '../../../platform/auth/principal';
import { Clock } from '../../../platform/clock/clock';
import { parseApiKey } from '../domain/api-key';
import { ApiKeyRepository, UserRepository } from '../domain/identity-ports';
import type { User } from '../domain/user';

function userOf(user: User): Principal['user'] {
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

@Injectable()
export class CredentialVerificationService extends CredentialVerifier {
  constructor(
    private readonly apiKeys: ApiKeyRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  async verifyApiKey(rawKey: string): Promise<Principal | null> {
    const material = parseApiKey(rawKey.trim());
    if (!material) return null;
    const found = await this.apiKeys.findByPrefix(material.prefix);
    const now = this.clock.now();
    if (!found || !found.apiKey.matches(material.secret) || !found.apiKey.isUsableAt(now)) return null;
    if (found.apiKey.isUsageNoteDue(now)) await this.apiKeys.touchLastUsed(found.apiKey.id, now);
    return {
      user: userOf(found.owner),
      credential: 'api_key',
      apiKey: { id: found.apiKey.id, readOnly: found.apiKey.isReadOnly, entityId: found.apiKey.entityId },
    };
  }

  async principalForSessionUser(userId: string): Promise<Principal | null> {
    const user = await this.users.findById(userId);
    return user ? { user: userOf(user), credential: 'session' } : null;
  }
}
