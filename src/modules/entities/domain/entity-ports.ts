import type { LegalEntity } from './legal-entity';

export abstract class EntityRepository {
  abstract findById(entityId: string): Promise<LegalEntity | null>;
  /** Locks the row for the rest of the transaction. */
  abstract lock(entityId: string): Promise<LegalEntity | null>;
  /** Share-locks the row: postings read a lock date that cannot change until they commit. */
  abstract lockForShare(entityId: string): Promise<LegalEntity | null>;
  abstract insert(entity: LegalEntity): Promise<void>;
  abstract save(entity: LegalEntity): Promise<void>;
  abstract listAll(): Promise<LegalEntity[]>;
  abstract listInOrganizations(organizationIds: string[]): Promise<LegalEntity[]>;
  /** The chain of parents above an Entity, nearest first. */
  abstract ancestorIds(entityId: string): Promise<string[]>;
  abstract summaries(organizationIds: string[]): Promise<Array<{ id: string; name: string; organizationId: string }>>;
  abstract countInOrganization(organizationId: string): Promise<number>;
}
