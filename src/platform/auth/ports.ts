import type { Principal } from './principal';

/** Verifies credentials presented with a request (implemented by the identity module). */
export abstract class CredentialVerifier {
  /** The principal of a raw `x-api-key` value, or null when unknown, revoked or expired. */
  abstract verifyApiKey(rawKey: string): Promise<Principal | null>;
  /** The principal of a signed-in session's user, or null when the user no longer exists. */
  abstract principalForSessionUser(userId: string): Promise<Principal | null>;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Seconds until a request would be admitted again (when refused). */
  retryAfterSeconds: number;
}

/** D14: per-key sliding-window limit, shared by every instance (implemented in PostgreSQL). */
export abstract class ApiKeyRateLimiter {
  abstract consume(apiKeyId: string): Promise<RateLimitDecision>;
}

export interface TenantScope {
  organizationId: string;
  /** The caller's Membership role in the Entity's Organization, null when none. */
  membershipRole: 'staff' | 'client' | 'viewer' | null;
}

/** Port for the tenant guard: the Organization of an Entity and the caller's role there. */
export abstract class TenantAccess {
  /** Null when the Entity does not exist. */
  abstract scopeFor(entityId: string, userId: string): Promise<TenantScope | null>;
}
