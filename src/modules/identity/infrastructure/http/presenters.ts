import type { ApiKeyCreated, ApiKeySummary, OnboardingUser, SessionUser } from '../../../../../libs/contracts/src';
import type { ApiKey } from '../../domain/api-key';
import type { User } from '../../domain/user';

export function presentSessionUser(user: { id: string; email: string; name: string; role: 'staff' | 'client' }): SessionUser {
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

export function presentOnboardingUser(user: User): OnboardingUser {
  return { ...presentSessionUser(user), hasPassword: user.hasPassword, createdAt: user.createdAt.toISOString() };
}

export function presentApiKey(apiKey: ApiKey): ApiKeySummary {
  const s = apiKey.snapshot();
  return {
    id: s.id,
    name: s.name,
    prefix: s.prefix,
    permissions: s.permissions,
    entityId: s.entityId,
    expiresAt: s.expiresAt?.toISOString() ?? null,
    createdAt: s.createdAt.toISOString(),
    lastUsedAt: s.lastUsedAt?.toISOString() ?? null,
    revokedAt: s.revokedAt?.toISOString() ?? null,
  };
}

export function presentCreatedApiKey(apiKey: ApiKey, plaintext: string): ApiKeyCreated {
  const { id, name, prefix, permissions, entityId, expiresAt, createdAt } = presentApiKey(apiKey);
  return { id, name, key: plaintext, prefix, permissions, entityId, expiresAt, createdAt };
}
