import { errorCatalog } from '../../../../libs/shared-kernel/src';

/**
 * Every code banking (and the ledger codes its matching answers) answers, with its HTTP status:
 * the one place each is declared. The compiler checks the table (D3: a *_NOT_FOUND_ERROR is 404)
 * and that every error built here names a code of it.
 */
export const BANKING_ERROR_STATUS = {
  BANK_ACCOUNT_ALREADY_EXISTS_ERROR: 409,
  BANK_ACCOUNT_HAS_FEED_ERROR: 409,
  BANK_ACCOUNT_HAS_MOVEMENTS_ERROR: 409,
  BANK_ACCOUNT_KIND_LEDGER_TYPE_MISMATCH_ERROR: 400,
  BANK_ACCOUNT_NOT_FOUND_ERROR: 404,
  BANK_IMPORT_ROW_INVALID_ERROR: 400,
  BANK_MOVEMENT_ALREADY_BOOKED_ERROR: 409,
  BANK_MOVEMENT_ALREADY_EXISTS_ERROR: 409,
  BANK_MOVEMENT_BOOKED_ERROR: 409,
  BANK_MOVEMENT_MATCH_AMOUNT_MISMATCH_ERROR: 409,
  BANK_MOVEMENT_NOT_FOUND_ERROR: 404,
} as const;

export const bankingError = errorCatalog(BANKING_ERROR_STATUS);

/** The banking module's codes (D65, D66, D74, D78), one constructor each. */
const e =
  (code: keyof typeof BANKING_ERROR_STATUS, message: string) =>
  (params: Record<string, unknown> = {}) =>
    bankingError(code, message, params);

export const bankAccountNotFound = e('BANK_ACCOUNT_NOT_FOUND_ERROR', 'No bank account with this id in the Entity');
export const bankAccountAlreadyExists = e('BANK_ACCOUNT_ALREADY_EXISTS_ERROR', 'A bank account with this id already exists');
export const bankAccountKindMismatch = e(
  'BANK_ACCOUNT_KIND_LEDGER_TYPE_MISMATCH_ERROR',
  'A bank account of kind bank maps an asset ledger account, a card a liability ledger account',
);
export const bankAccountHasMovements = e('BANK_ACCOUNT_HAS_MOVEMENTS_ERROR', 'The bank account has movements');
export const bankAccountHasFeed = e('BANK_ACCOUNT_HAS_FEED_ERROR', 'The bank account has an active feed');
export const bankMovementNotFound = e('BANK_MOVEMENT_NOT_FOUND_ERROR', 'No bank movement with this id in the Entity');
export const bankMovementAlreadyExists = e('BANK_MOVEMENT_ALREADY_EXISTS_ERROR', 'A bank movement with this id already exists');
export const bankMovementBooked = e('BANK_MOVEMENT_BOOKED_ERROR', 'The bank movement is booked: unbook its entry first');
export const bankMovementAlreadyBooked = e('BANK_MOVEMENT_ALREADY_BOOKED_ERROR', 'The bank movement is already booked');
export const bankMovementMatchAmountMismatch = e(
  'BANK_MOVEMENT_MATCH_AMOUNT_MISMATCH_ERROR',
  'The open total of the selected lines does not cover the movement amount',
);
export const bankImportRowInvalid = (row: number, reason: string) =>
  bankingError('BANK_IMPORT_ROW_INVALID_ERROR', `Statement row ${row}: ${reason}`, { row, reason });
