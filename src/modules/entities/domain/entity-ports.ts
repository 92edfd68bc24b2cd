import type { LegalEntity } from './legal-entity';

export abstract class EntityRepository {
  abstract findById(entityId: string): Promise<LegalEntity | null>;
  /** Locks the row for the rest of the transaction. */
  abstract lock(entityId: string): Promise<LegalEntity | null>;
  /** Currency and lock date, share-locking the row: the lock date cannot change until the posting commits. */
  abstract postingTerms(entityId: string): Promise<{ currency: string; ledgerLockDate: string | null } | null>;
  abstract insert(entity: LegalEntity): Promise<void>;
  abstract save(entity: LegalEntity): Promise<void>;
  abstract listAll(): Promise<LegalEntity[]>;
  abstract listInOrganizations(organizationIds: string[]): Promise<LegalEntity[]>;
  /** The chain of parents above an Entity, nearest first. */
  abstract ancestorIds(entityId: string): Promise<string[]>;
  /** The Entity and every Entity below it through parentEntityId (any order); empty when it does not exist. */
  abstract withDescendants(entityId: string): Promise<LegalEntity[]>;
  abstract summaries(organizationIds: string[]): Promise<Array<{ id: string; name: string; organizationId: string }>>;
  abstract countInOrganization(organizationId: string): Promise<number>;
}
