import type { MembershipRole } from './membership';
import type { Organization } from './organization';

export abstract class OrganizationRepository {
  abstract findById(organizationId: string): Promise<Organization | null>;
  abstract findByNameKey(nameKey: string): Promise<Organization | null>;
  /** Locks the row for the rest of the transaction. */
  abstract lock(organizationId: string): Promise<Organization | null>;
  /**
   * Reads the row with a key-share lock for the rest of the transaction: a concurrent delete
   * waits for this transaction (then finds what it wrote), or this read waits for the delete
   * (then finds no row). For a write that is about to point at the Organization.
   */
  abstract holdForReference(organizationId: string): Promise<Organization | null>;
  /** Inserts; false when the name is taken (the unique key decides under races). */
  abstract insert(organization: Organization): Promise<'inserted' | 'name_taken'>;
  abstract save(organization: Organization): Promise<'saved' | 'name_taken'>;
  /** Deletes the Organization with its Memberships. */
  abstract delete(organizationId: string): Promise<void>;
  abstract listAll(): Promise<Organization[]>;
  abstract listByIds(organizationIds: string[]): Promise<Organization[]>;
}

export interface MembershipRow {
  userId: string;
  organizationId: string;
  role: MembershipRole;
}

export abstract class MembershipRepository {
  abstract upsert(membership: MembershipRow, now: Date): Promise<void>;
  abstract delete(userId: string, organizationId: string): Promise<void>;
  abstract roleOf(userId: string, organizationId: string): Promise<MembershipRole | null>;
  abstract listForOrganization(organizationId: string): Promise<MembershipRow[]>;
  abstract listForUser(userId: string): Promise<MembershipRow[]>;
  abstract organizationIdsOf(userId: string, roles?: MembershipRole[]): Promise<string[]>;
}

/** Port to the entities module: the Entities an Organization holds. */
export abstract class OrganizationEntities {
  abstract summaries(organizationIds: string[]): Promise<Map<string, Array<{ id: string; name: string }>>>;
  abstract holdsAny(organizationId: string): Promise<boolean>;
}

/** Port to the identity module: who a User is. */
export abstract class UserDirectory {
  abstract exists(userId: string): Promise<boolean>;
  abstract describe(userIds: string[]): Promise<Map<string, { name: string; email: string }>>;
}
