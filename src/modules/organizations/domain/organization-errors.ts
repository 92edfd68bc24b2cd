import { DomainError } from '../../../../libs/shared-kernel/src';

export const organizationNotFound = (organizationId: string) =>
  new DomainError('ORGANIZATION_NOT_FOUND_ERROR', 'No Organization with this id', { organizationId });

export const organizationAlreadyExists = (organizationId: string) =>
  new DomainError('ORGANIZATION_ALREADY_EXISTS_ERROR', 'An Organization with this id already exists', { organizationId });

export const organizationNameAlreadyExists = (name: string) =>
  new DomainError('ORGANIZATION_NAME_ALREADY_EXISTS_ERROR', 'An Organization with this name already exists (ignoring case)', { name });

export const organizationNotEmpty = (organizationId: string) =>
  new DomainError('ORGANIZATION_NOT_EMPTY_ERROR', 'The Organization still holds an Entity', { organizationId });
