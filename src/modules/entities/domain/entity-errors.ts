import { DomainError } from '../../../../libs/shared-kernel/src';

/** The same body whether the Entity is missing or the caller may not see it (no probing). */
export const entityNotFound = (entityId: string) =>
  new DomainError('ENTITY_NOT_FOUND_ERROR', 'No Entity with this id', { entityId });

export const entityAlreadyExists = (entityId: string) =>
  new DomainError('ENTITY_ALREADY_EXISTS_ERROR', 'An Entity with this id already exists', { entityId });

export const entityIdentityFieldsLocked = (entityId: string) =>
  new DomainError(
    'ENTITY_IDENTITY_FIELDS_LOCKED_ERROR',
    'Country, tax id and currency cannot change once the Entity has ledger entries or invoices',
    { entityId },
  );

export const entitySelfParent = (entityId: string) =>
  new DomainError('ENTITY_SELF_PARENT_ERROR', 'An Entity cannot control itself', { entityId });

export const entityParentNotFound = (parentEntityId: string) =>
  new DomainError('ENTITY_PARENT_NOT_FOUND_ERROR', 'The named parent Entity does not exist', { parentEntityId });

export const entityParentCycle = (entityId: string, parentEntityId: string) =>
  new DomainError('ENTITY_PARENT_CYCLE_ERROR', 'The parent would make the Entity control itself through others', {
    entityId,
    parentEntityId,
  });

export const lockDateOverScheduledEntry = (ledgerLockDate: string, scheduledEntryDate: string) =>
  new DomainError(
    'ENTITY_LOCK_DATE_OVER_SCHEDULED_ENTRY_ERROR',
    'The lock date cannot reach the date of a scheduled entry',
    { ledgerLockDate, scheduledEntryDate },
  );
