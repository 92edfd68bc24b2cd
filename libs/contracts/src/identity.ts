export type GlobalRole = 'staff' | 'client';
export type MembershipRole = 'staff' | 'client' | 'viewer';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: GlobalRole;
}

/** D11 */
export interface SignInResponse {
  user: SessionUser;
}

/** D12 */
export interface SessionResponse {
  user: SessionUser;
  expiresAt: string;
}

export type ApiKeyPermissions = { erp: ['read'] } | null;

/** D13: listed keys never carry the secret. */
export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  permissions: ApiKeyPermissions;
  entityId: string | null;
  expiresAt: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** D13: the secret `key` is shown only in this response. */
export interface ApiKeyCreated {
  id: string;
  name: string;
  key: string;
  prefix: string;
  permissions: ApiKeyPermissions;
  entityId: string | null;
  expiresAt: string | null;
  createdAt: string;
}

/** D15 */
export interface OnboardingUser {
  id: string;
  email: string;
  name: string;
  role: GlobalRole;
  hasPassword: boolean;
  createdAt: string;
}

export interface SetPasswordLink {
  url: string;
  expiresAt: string;
}

/** D11: the password rules a client is shown before choosing one (the service checks them too). */
export const PASSWORD_RULES = { minLength: 12, maxLength: 1024 } as const;
