import type { DomainError } from '../../../../libs/shared-kernel/src';

/**
 * Port: can a User reach an Entity (global staff: any existing Entity; others: through a
 * Membership)? Provided by the organizations module.
 */
export abstract class EntityReachability {
  abstract canReach(user: { id: string; role: 'staff' | 'client' }, entityId: string): Promise<boolean>;
  /** 404 ENTITY_NOT_FOUND_ERROR in the entities' own words (the code they declare). */
  abstract notFound(entityId: string): DomainError;
}
