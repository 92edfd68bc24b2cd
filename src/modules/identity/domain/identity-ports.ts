import type { ApiKey, ApiKeyPermissions } from './api-key';

export interface AuthenticatedKey {
  apiKeyId: string;
  permissions: ApiKeyPermissions;
  entityId: string | null;
  owner: { id: string; email: string; name: string; role: 'staff' | 'client' };
  rateLimit: { allowed: boolean; retryAfterSeconds: number };
  /**
   * When asked for an Entity: its Organization and the owner's Membership role there, or null
   * when the Entity does not exist; undefined when no Entity was asked for.
   */
  tenant?: { organizationId: string; membershipRole: 'staff' | 'client' | 'viewer' | null } | null;
}
import type { User } from './user';

export abstract class UserRepository {
  abstract findById(userId: string): Promise<User | null>;
  abstract findByEmail(email: string): Promise<User | null>;
  /**
   * The User by e-mail, share-locked until the transaction ends: a password change (which
   * updates the row) waits for a sign-in judged on the password read here, or comes first and
   * is read.
   */
  abstract holdByEmail(email: string): Promise<User | null>;
  abstract findByIds(userIds: string[]): Promise<User[]>;
  /** Inserts; the caller checked id and e-mail, the unique keys still guard a race. */
  abstract insert(user: User): Promise<void>;
  abstract save(user: User): Promise<void>;
}

export abstract class ApiKeyRepository {
  /**
   * The key with this prefix and secret hash, unrevoked and unexpired at `now`, with its owner;
   * counts the request against `limitPerHour` and notes lastUsedAt (at most once a minute); with
   * an Entity id, also reads the tenant scope of that Entity for the key's owner.
   */
  abstract authenticate(prefix: string, secretHash: string, limitPerHour: number, now: Date, entityId: string | null): Promise<AuthenticatedKey | null>;
  abstract findOwned(userId: string, apiKeyId: string): Promise<ApiKey | null>;
  abstract listOwned(userId: string): Promise<ApiKey[]>;
  abstract insert(apiKey: ApiKey): Promise<void>;
  /**
   * Writes the key's revocation, and only it: the row's other columns are written by the key's
   * own requests meanwhile (lastUsedAt). A key already revoked keeps its first revocation time.
   */
  abstract recordRevocation(apiKey: ApiKey): Promise<void>;
  /** Deletes those of `apiKeyIds` that the User owns and that expired at or before `now`; answers how many. */
  abstract deleteExpiredOwned(userId: string, apiKeyIds: string[], now: Date): Promise<number>;
}

export abstract class PasswordHasher {
  abstract hash(password: string): Promise<string>;
  /** Verifies against a hash; with null, spends the same time and answers false. */
  abstract verify(passwordHash: string | null, password: string): Promise<boolean>;
}

export abstract class SetPasswordTokens {
  /** Stores the hash of a new single-use token; returns its expiry. */
  abstract issue(userId: string, tokenHash: string, expiresAt: Date, now: Date): Promise<void>;
  /** Marks the token used and returns its user, or null when unknown, used or expired. */
  abstract consume(tokenHash: string, now: Date): Promise<string | null>;
  /** D15a: ends every unused link of the User (a newer link was made, or the password was set). */
  abstract endAll(userId: string, now: Date): Promise<void>;
}

export abstract class UserSessions {
  /** Ends every session of the User at once. */
  abstract revokeAll(userId: string): Promise<number>;
}

export interface FailureCount {
  count: number;
  oldest: Date | null;
}

/** D11a: failures per (e-mail, client address) and per client address across e-mails. */
export abstract class SignInFailures {
  abstract countSince(email: string, clientAddress: string, since: Date): Promise<{ pair: FailureCount; address: FailureCount }>;
  /** Recorded outside the request's transaction: a refused sign-in still counts. */
  abstract record(email: string, clientAddress: string, now: Date): Promise<void>;
  /** A successful sign-in clears its own pair's failures (not the address's others). */
  abstract clear(email: string, clientAddress: string): Promise<void>;
}

/** Random material for credentials, behind a port like every side effect. */
export abstract class SecretGenerator {
  abstract apiKeyMaterial(): { prefix: string; secret: string };
  abstract token(): string;
}
