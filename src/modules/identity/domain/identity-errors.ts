import { DomainError } from '../../../../libs/shared-kernel/src';

export const invalidEmailOrPassword = () =>
  new DomainError('INVALID_EMAIL_OR_PASSWORD_ERROR', 'The e-mail or the password is wrong');

export const userNotFound = (params: Record<string, unknown> = {}) =>
  new DomainError('USER_NOT_FOUND_ERROR', 'No User matches', params);

export const userAlreadyExists = (userId: string) =>
  new DomainError('USER_ALREADY_EXISTS_ERROR', 'A User with this id already exists', { userId });

export const userEmailAlreadyExists = (email: string) =>
  new DomainError('USER_EMAIL_ALREADY_EXISTS_ERROR', 'A User with this e-mail already exists', { email });

export const setPasswordTokenInvalid = () =>
  new DomainError('SET_PASSWORD_TOKEN_INVALID_ERROR', 'The set-password link is unknown, used or expired');

export const apiKeyNotFound = (apiKeyId: string) =>
  new DomainError('API_KEY_NOT_FOUND_ERROR', 'No API key of the caller has this id', { apiKeyId });
