import { errorCatalog } from '../../../../libs/shared-kernel/src';

/**
 * Every code identity (Users, sign-in, set-password links, API keys) answers, with its HTTP
 * status: the one place each is declared. The compiler checks the table (D3: a *_NOT_FOUND_ERROR
 * is 404) and that every error built here names a code of it.
 */
export const IDENTITY_ERROR_STATUS = {
  API_KEY_NOT_FOUND_ERROR: 404,
  INVALID_EMAIL_OR_PASSWORD_ERROR: 401,
  SET_PASSWORD_TOKEN_INVALID_ERROR: 400,
  USER_ALREADY_EXISTS_ERROR: 409,
  USER_EMAIL_ALREADY_EXISTS_ERROR: 409,
  USER_NOT_FOUND_ERROR: 404,
} as const;

export const identityError = errorCatalog(IDENTITY_ERROR_STATUS);

export const invalidEmailOrPassword = () =>
  identityError('INVALID_EMAIL_OR_PASSWORD_ERROR', 'The e-mail or the password is wrong');

export const userNotFound = (params: Record<string, unknown> = {}) =>
  identityError('USER_NOT_FOUND_ERROR', 'No User matches', params);

export const userAlreadyExists = (userId: string) =>
  identityError('USER_ALREADY_EXISTS_ERROR', 'A User with this id already exists', { userId });

export const userEmailAlreadyExists = (email: string) =>
  identityError('USER_EMAIL_ALREADY_EXISTS_ERROR', 'A User with this e-mail already exists', { email });

export const setPasswordTokenInvalid = () =>
  identityError('SET_PASSWORD_TOKEN_INVALID_ERROR', 'The set-password link is unknown, used or expired');

export const apiKeyNotFound = (apiKeyId: string) =>
  identityError('API_KEY_NOT_FOUND_ERROR', 'No API key of the caller has this id', { apiKeyId });
