import { errorCatalog } from '../../../../libs/shared-kernel/src';

/**
 * Every code bank feeds answers, with its HTTP status: the one place each is declared. The
 * compiler checks the table (D3: a *_NOT_FOUND_ERROR is 404) and that every error built here names
 * a code of it.
 */
export const BANK_FEEDS_ERROR_STATUS = {
  BANK_ACCOUNT_ALREADY_FED_ERROR: 409,
  BANK_CONNECTION_ACCOUNT_PUBLICATION_UNSUPPORTED_ERROR: 409,
  BANK_CONNECTION_ALREADY_EXISTS_ERROR: 409,
  BANK_CONNECTION_NOT_FOUND_ERROR: 404,
  BANK_FEED_CURRENCY_MISMATCH_ERROR: 409,
  BANK_FEED_NOT_FOUND_ERROR: 404,
  BANK_PROVIDER_ACCOUNT_NOT_FOUND_ERROR: 404,
  BANK_PROVIDER_ERROR: 502,
} as const;

export const bankFeedsError = errorCatalog(BANK_FEEDS_ERROR_STATUS);

/** The bank-feeds module's codes (D68, D68a, D69, D78), one constructor each. */
const e =
  (code: keyof typeof BANK_FEEDS_ERROR_STATUS, message: string) =>
  (params: Record<string, unknown> = {}) =>
    bankFeedsError(code, message, params);

export const bankConnectionNotFound = e('BANK_CONNECTION_NOT_FOUND_ERROR', 'No bank connection with this id in the Entity');
export const bankConnectionAlreadyExists = e('BANK_CONNECTION_ALREADY_EXISTS_ERROR', 'A bank connection with this id already exists');
export const accountPublicationUnsupported = e(
  'BANK_CONNECTION_ACCOUNT_PUBLICATION_UNSUPPORTED_ERROR',
  "This connection's provider discovers its accounts by itself: there is nothing to publish",
);
export const providerAccountNotFound = e('BANK_PROVIDER_ACCOUNT_NOT_FOUND_ERROR', 'The connection has not discovered this provider account');
export const feedCurrencyMismatch = e('BANK_FEED_CURRENCY_MISMATCH_ERROR', "The provider account's currency is not the bank account's");
export const bankAccountAlreadyFed = e('BANK_ACCOUNT_ALREADY_FED_ERROR', 'The bank account (or the provider account) already has an active feed');
export const bankFeedNotFound = e('BANK_FEED_NOT_FOUND_ERROR', 'The bank account has no active feed');
/** D69: the provider could not be read (or the read could not land); never names a token. */
export const bankProviderError = e('BANK_PROVIDER_ERROR', 'The bank provider could not be read; the connection status tells why');
