import { createHash } from 'node:crypto';

/** `permissions` is absent (full access of the owner) or exactly `{ "erp": ["read"] }` (D13). */
export type ApiKeyPermissions = { erp: ['read'] } | null;

const KEY_PATTERN = /^mea_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

export interface ApiKeyState {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  secretHash: string;
  permissions: ApiKeyPermissions;
  entityId: string | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

export interface ApiKeySecretMaterial {
  /** 12 alphanumeric characters: looked up in the index. */
  prefix: string;
  /** 256 random bits, base64url (43 characters): only its hash is stored. */
  secret: string;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Splits `mea_<prefix>_<secret>`; null when the value cannot be a key. */
export function parseApiKey(raw: string): ApiKeySecretMaterial | null {
  const match = KEY_PATTERN.exec(raw);
  return match ? { prefix: match[1], secret: match[2] } : null;
}

/**
 * A credential for integrations and agents; authenticates as its owning User. Authentication
 * itself (secret hash, revocation, expiry, rate limit) happens in one database call: see the
 * ApiKeyAuthentication migration.
 */
export class ApiKey {
  private constructor(private state: ApiKeyState) {}

  static mint(
    input: { id: string; userId: string; name: string; permissions: ApiKeyPermissions; entityId: string | null; expiresAt: Date | null },
    material: ApiKeySecretMaterial,
    now: Date,
  ): { apiKey: ApiKey; plaintext: string } {
    const apiKey = new ApiKey({
      ...input,
      name: input.name.trim(),
      prefix: material.prefix,
      secretHash: hashSecret(material.secret),
      revokedAt: null,
      lastUsedAt: null,
      createdAt: now,
    });
    return { apiKey, plaintext: `mea_${material.prefix}_${material.secret}` };
  }

  static restore(state: ApiKeyState): ApiKey {
    return new ApiKey({ ...state });
  }

  get id(): string {
    return this.state.id;
  }
  get userId(): string {
    return this.state.userId;
  }
  get isReadOnly(): boolean {
    return this.state.permissions !== null;
  }
  get entityId(): string | null {
    return this.state.entityId;
  }

  revoke(now: Date): void {
    if (this.state.revokedAt === null) this.state = { ...this.state, revokedAt: now };
  }

  snapshot(): ApiKeyState {
    return { ...this.state };
  }
}
