import type { Principal } from './principal';

/** Verifies credentials presented with a request (implemented by the identity module). */
export abstract class CredentialVerifier {
  /**
   * The principal of a raw `x-api-key` value, or null when unknown, revoked or expired. The
   * request is counted against the key's rate limit in the same call (D14). Given the route's
   * Entity id, the same call reads the tenant scope the tenant guard needs.
   */
  abstract verifyApiKey(rawKey: string, entityId?: string): Promise<Principal | null>;
  /**
   * The principal of a signed-in session's user, or null when the user no longer exists or its
   * password is no longer the one the session was signed in with (`passwordStamp`).
   */
  abstract principalForSessionUser(userId: string, passwordStamp: string | undefined): Promise<Principal | null>;
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
