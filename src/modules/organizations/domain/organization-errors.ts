import { errorCatalog } from '../../../../libs/shared-kernel/src';

/**
 * Every code Organizations and Memberships answers, with its HTTP status: the one place each is
 * declared. The compiler checks the table (D3: a *_NOT_FOUND_ERROR is 404) and that every error
 * built here names a code of it.
 */
export const ORGANIZATION_ERROR_STATUS = {
  ORGANIZATION_ALREADY_EXISTS_ERROR: 409,
  ORGANIZATION_NAME_ALREADY_EXISTS_ERROR: 409,
  ORGANIZATION_NOT_EMPTY_ERROR: 409,
  ORGANIZATION_NOT_FOUND_ERROR: 404,
} as const;

export const organizationError = errorCatalog(ORGANIZATION_ERROR_STATUS);

export const organizationNotFound = (organizationId: string) =>
  organizationError('ORGANIZATION_NOT_FOUND_ERROR', 'No Organization with this id', { organizationId });

export const organizationAlreadyExists = (organizationId: string) =>
  organizationError('ORGANIZATION_ALREADY_EXISTS_ERROR', 'An Organization with this id already exists', { organizationId });

export const organizationNameAlreadyExists = (name: string) =>
  organizationError('ORGANIZATION_NAME_ALREADY_EXISTS_ERROR', 'An Organization with this name already exists (ignoring case)', { name });

export const organizationNotEmpty = (organizationId: string) =>
  organizationError('ORGANIZATION_NOT_EMPTY_ERROR', 'The Organization still holds an Entity', { organizationId });
