import { errorCatalog } from '../../../../libs/shared-kernel/src';

/**
 * Every code Entities answers, with its HTTP status: the one place each is declared. The compiler
 * checks the table (D3: a *_NOT_FOUND_ERROR is 404) and that every error built here names a code
 * of it.
 */
export const ENTITY_ERROR_STATUS = {
  ENTITY_ALREADY_EXISTS_ERROR: 409,
  ENTITY_IDENTITY_FIELDS_LOCKED_ERROR: 409,
  ENTITY_LOCK_DATE_OVER_SCHEDULED_ENTRY_ERROR: 409,
  ENTITY_NOT_FOUND_ERROR: 404,
  ENTITY_PARENT_CYCLE_ERROR: 409,
  ENTITY_PARENT_NOT_FOUND_ERROR: 404,
  ENTITY_SELF_PARENT_ERROR: 409,
  ENTITY_TAX_ID_INVALID_ERROR: 400,
} as const;

export const entityError = errorCatalog(ENTITY_ERROR_STATUS);

/** The same body whether the Entity is missing or the caller may not see it (no probing). */
export const entityNotFound = (entityId: string) =>
  entityError('ENTITY_NOT_FOUND_ERROR', 'No Entity with this id', { entityId });

export const entityAlreadyExists = (entityId: string) =>
  entityError('ENTITY_ALREADY_EXISTS_ERROR', 'An Entity with this id already exists', { entityId });

export const entityIdentityFieldsLocked = (entityId: string) =>
  entityError(
    'ENTITY_IDENTITY_FIELDS_LOCKED_ERROR',
    'Country, tax id and currency cannot change once the Entity has ledger entries or invoices',
    { entityId },
  );

export const entitySelfParent = (entityId: string) =>
  entityError('ENTITY_SELF_PARENT_ERROR', 'An Entity cannot control itself', { entityId });

export const entityParentNotFound = (parentEntityId: string) =>
  entityError('ENTITY_PARENT_NOT_FOUND_ERROR', 'The named parent Entity does not exist', { parentEntityId });

export const entityParentCycle = (entityId: string, parentEntityId: string) =>
  entityError('ENTITY_PARENT_CYCLE_ERROR', 'The parent would make the Entity control itself through others', {
    entityId,
    parentEntityId,
  });

export const lockDateOverScheduledEntry = (ledgerLockDate: string, scheduledEntryDate: string) =>
  entityError(
    'ENTITY_LOCK_DATE_OVER_SCHEDULED_ENTRY_ERROR',
    'The lock date cannot reach the date of a scheduled entry',
    { ledgerLockDate, scheduledEntryDate },
  );
