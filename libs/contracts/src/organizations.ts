import type { MembershipRole } from './identity';

export interface OrganizationRecord {
  id: string;
  name: string;
  createdAt: string;
}

export interface OrganizationSummary {
  id: string;
  name: string;
  createdAt: string;
  entities: Array<{ id: string; name: string }>;
}

/** Issue 33: a User's Memberships, as the onboarding screen shows them. */
export interface UserMembership {
  organizationId: string;
  organizationName: string;
  role: MembershipRole;
}

export interface OrganizationMember {
  userId: string;
  name: string;
  email: string;
  role: MembershipRole;
}

/** The spec's Entity, plus `organizationId` (D20). */
export interface Entity {
  id: string;
  organizationId: string;
  name: string;
  country: string;
  taxId: string;
  currency: string;
  ledgerLockDate: string | null;
  accountingPolicies: string | null;
  parentEntityId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface EntityEditability {
  identityFieldsEditable: boolean;
}

/** D18 */
export interface AuditTrailRow {
  id: string;
  occurredAt: string;
  entityId: string | null;
  organizationId: string | null;
  actorUserId: string | null;
  declaredActor: string | null;
  credential: 'session' | 'api_key' | null;
  apiKeyId: string | null;
  /** Null (with `path` and `requestId`) for a write made outside an HTTP request by a `system:` actor. */
  method: string | null;
  path: string | null;
  action: string;
  resourceType: string | null;
  resourceId: string | null;
  requestId: string | null;
  reason: string | null;
}

export interface Page<T> {
  rows: T[];
  nextCursor: string | null;
}
