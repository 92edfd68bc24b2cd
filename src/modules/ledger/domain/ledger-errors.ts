import { DomainError, errorCatalog, ErrorParams, validationError } from '../../../../libs/shared-kernel/src';

/**
 * Every code the ledger answers (its chart, Books, Dimensions, entries, lines and allocations, and
 * the references its lines name) with its HTTP status: the one place each is declared. The
 * compiler checks the table (D3: a *_NOT_FOUND_ERROR is 404) and that every error the ledger
 * builds names a code of it; VALIDATION_ERROR is the shared kernel's (validationError).
 */
export const LEDGER_ERROR_STATUS = {
  BOOK_ALREADY_EXISTS_ERROR: 409,
  BOOK_NAME_ALREADY_EXISTS_ERROR: 409,
  BOOK_NOT_FOUND_ERROR: 404,
  BOOK_REQUIRED_ERROR: 409,
  CHART_INITIALIZATION_ALREADY_EXISTS_ERROR: 409,
  CHART_TEMPLATE_NOT_FOUND_ERROR: 404,
  CHART_TEMPLATE_REQUIRES_EMPTY_CHART_ERROR: 409,
  DIMENSION_ALREADY_EXISTS_ERROR: 409,
  DIMENSION_HAS_VALUES_ERROR: 409,
  DIMENSION_NAME_ALREADY_EXISTS_ERROR: 409,
  DIMENSION_NOT_FOUND_ERROR: 404,
  DIMENSION_VALUE_ALREADY_EXISTS_ERROR: 409,
  DIMENSION_VALUE_CODE_ALREADY_EXISTS_ERROR: 409,
  DIMENSION_VALUE_HAS_CHILDREN_ERROR: 409,
  DIMENSION_VALUE_IN_USE_ERROR: 409,
  DIMENSION_VALUE_NOT_FOUND_ERROR: 404,
  DIMENSION_VALUE_PARENT_CYCLE_ERROR: 409,
  DIMENSION_VALUE_PARENT_NOT_FOUND_ERROR: 404,
  ENTITY_NOT_FOUND_ERROR: 404,
  LEDGER_ACCOUNT_ALREADY_EXISTS_ERROR: 409,
  LEDGER_ACCOUNT_CODE_ALREADY_EXISTS_ERROR: 409,
  LEDGER_ACCOUNT_GROUP_ALREADY_EXISTS_ERROR: 409,
  LEDGER_ACCOUNT_GROUP_ID_ALREADY_EXISTS_ERROR: 409,
  LEDGER_ACCOUNT_GROUP_NOT_FOUND_ERROR: 404,
  LEDGER_ACCOUNT_GROUP_PARENT_TYPE_INCOMPATIBLE_ERROR: 409,
  LEDGER_ACCOUNT_GROUP_TYPE_INCOMPATIBLE_ERROR: 409,
  LEDGER_ACCOUNT_IN_USE_ERROR: 409,
  LEDGER_ACCOUNT_NOT_FOUND_ERROR: 404,
  LEDGER_ACCOUNT_SUBTYPE_LOCKED_ERROR: 409,
  LEDGER_ACCOUNT_SUBTYPE_TRACKING_INCOMPATIBLE_ERROR: 409,
  LEDGER_ACCOUNT_SUBTYPE_TYPE_INCOMPATIBLE_ERROR: 409,
  LEDGER_ACCOUNT_TRACKING_LOCKED_ERROR: 409,
  LEDGER_ACCOUNT_TYPE_LOCKED_ERROR: 409,
  LEDGER_CLOSING_ACCOUNT_NOT_EQUITY_ERROR: 400,
  LEDGER_CLOSING_ALREADY_EXISTS_ERROR: 409,
  LEDGER_CLOSING_NOT_FOUND_ERROR: 404,
  LEDGER_CLOSING_NOT_LATEST_ERROR: 409,
  LEDGER_CLOSING_PERIOD_NOT_LOCKED_ERROR: 409,
  LEDGER_CLOSING_SEQUENCE_ERROR: 409,
  LEDGER_ENTRY_ALREADY_EXISTS_ERROR: 409,
  LEDGER_ENTRY_DATE_IN_FUTURE_ERROR: 409,
  LEDGER_ENTRY_LINE_COUNT_ERROR: 400,
  LEDGER_ENTRY_NOT_FOUND_ERROR: 404,
  LEDGER_ENTRY_NOT_LIVE_ERROR: 409,
  LEDGER_ENTRY_NOT_REVERSIBLE_ERROR: 409,
  LEDGER_ENTRY_NOT_SCHEDULED_ERROR: 409,
  LEDGER_ENTRY_UNBALANCED_ERROR: 400,
  LEDGER_LINE_ALREADY_EXISTS_ERROR: 409,
  LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR: 409,
  LEDGER_LINE_DOCUMENT_LINKED_ERROR: 409,
  LEDGER_LINE_DUPLICATE_DIMENSION_ERROR: 400,
  LEDGER_LINE_HAS_ALLOCATIONS_ERROR: 409,
  LEDGER_LINE_NOT_FOUND_ERROR: 404,
  LEDGER_LINE_TRANSACTION_AMOUNT_MISMATCH_ERROR: 400,
  LEDGER_LOCK_DATE_BEFORE_CLOSING_ERROR: 409,
  LEDGER_PERIOD_LOCKED_ERROR: 409,
  LEDGER_REVERSAL_DATE_INVALID_ERROR: 409,
  LEDGER_SCHEDULED_ENTRY_DATE_NOT_FUTURE_ERROR: 409,
  LEDGER_SCHEDULED_ENTRY_NOT_DUE_ERROR: 409,
  PARTNER_NOT_FOUND_ERROR: 404,
  RECONCILIATION_ALLOCATION_ACCOUNT_MUST_BE_OPEN_ITEM_ERROR: 409,
  RECONCILIATION_ALLOCATION_AMOUNT_EXCEEDS_OPEN_AMOUNT_ERROR: 409,
  RECONCILIATION_ALLOCATION_CREDIT_LINE_MUST_BE_CREDIT_ERROR: 409,
  RECONCILIATION_ALLOCATION_CREDIT_LINE_NOT_FOUND_ERROR: 404,
  RECONCILIATION_ALLOCATION_DEBIT_AND_CREDIT_LINE_IDS_CANNOT_BE_THE_SAME_ERROR: 409,
  RECONCILIATION_ALLOCATION_DEBIT_LINE_MUST_BE_DEBIT_ERROR: 409,
  RECONCILIATION_ALLOCATION_DEBIT_LINE_NOT_FOUND_ERROR: 404,
  RECONCILIATION_ALLOCATION_ID_CONFLICT_ERROR: 409,
  RECONCILIATION_ALLOCATION_LINES_IN_DIFFERENT_BOOKS_ERROR: 409,
  RECONCILIATION_ALLOCATION_LINES_ON_DIFFERENT_ACCOUNTS_ERROR: 409,
  RECONCILIATION_ALLOCATION_NETS_REVERSAL_ERROR: 409,
  RECONCILIATION_ALLOCATION_NOT_FOUND_ERROR: 404,
  RECONCILIATION_MATCH_LINES_IN_DIFFERENT_BOOKS_ERROR: 409,
  RECONCILIATION_MATCH_LINES_ON_DIFFERENT_ACCOUNTS_ERROR: 409,
  RECONCILIATION_MATCH_LINE_NOT_FOUND_ERROR: 404,
  RECONCILIATION_MATCH_NOTHING_TO_MATCH_ERROR: 409,
} as const;

export type LedgerErrorCode = keyof typeof LEDGER_ERROR_STATUS;

/** The constructor of the ledger's errors: a code of LEDGER_ERROR_STATUS, carrying its status. */
export const ledgerError = errorCatalog(LEDGER_ERROR_STATUS);

/** A ledger code, or the shared VALIDATION_ERROR (a refused field, with its path in params). */
export function ledgerOrValidationError(code: LedgerErrorCode | 'VALIDATION_ERROR', message: string, params: ErrorParams = {}): DomainError {
  return code === 'VALIDATION_ERROR' ? new DomainError(code, message, params) : ledgerError(code, message, params);
}

const e = (code: LedgerErrorCode, message: string) => (params: Record<string, unknown> = {}) => ledgerError(code, message, params);

export const ledgerAccountNotFound = e('LEDGER_ACCOUNT_NOT_FOUND_ERROR', 'No ledger account with this id in the Entity');
export const ledgerAccountAlreadyExists = e('LEDGER_ACCOUNT_ALREADY_EXISTS_ERROR', 'A ledger account with this id already exists');
export const ledgerAccountCodeAlreadyExists = e('LEDGER_ACCOUNT_CODE_ALREADY_EXISTS_ERROR', 'The account code is in use');
export const ledgerAccountInUse = e('LEDGER_ACCOUNT_IN_USE_ERROR', 'The account cannot be deleted while it is in use');
export const ledgerAccountTypeLocked = e('LEDGER_ACCOUNT_TYPE_LOCKED_ERROR', 'With entries, the type may change only inside its family');
export const ledgerAccountTrackingLocked = e('LEDGER_ACCOUNT_TRACKING_LOCKED_ERROR', 'Tracking cannot change once the account has entries');
export const ledgerAccountSubtypeLocked = e('LEDGER_ACCOUNT_SUBTYPE_LOCKED_ERROR', 'The subtype cannot change once the account has entries');
export const subtypeTypeIncompatible = e('LEDGER_ACCOUNT_SUBTYPE_TYPE_INCOMPATIBLE_ERROR', 'The subtype does not fit the account type');
export const subtypeTrackingIncompatible = e('LEDGER_ACCOUNT_SUBTYPE_TRACKING_INCOMPATIBLE_ERROR', 'The subtype does not fit the tracking');
export const groupNotFound = e('LEDGER_ACCOUNT_GROUP_NOT_FOUND_ERROR', 'No account group with this id in the Entity');
export const groupAlreadyExists = e('LEDGER_ACCOUNT_GROUP_ALREADY_EXISTS_ERROR', 'The group code prefix is in use');
export const groupIdAlreadyExists = e('LEDGER_ACCOUNT_GROUP_ID_ALREADY_EXISTS_ERROR', 'An account group with this id already exists');
export const groupParentTypeIncompatible = e('LEDGER_ACCOUNT_GROUP_PARENT_TYPE_INCOMPATIBLE_ERROR', 'The parent group is of another type family');
export const groupTypeIncompatible = e('LEDGER_ACCOUNT_GROUP_TYPE_INCOMPATIBLE_ERROR', 'The account type is not of the group type family');
export const chartTemplateNotFound = e('CHART_TEMPLATE_NOT_FOUND_ERROR', 'No chart template with this key and version');
export const chartRequiresEmpty = e('CHART_TEMPLATE_REQUIRES_EMPTY_CHART_ERROR', 'A template initializes only an empty chart');
export const chartInitializationExists = e('CHART_INITIALIZATION_ALREADY_EXISTS_ERROR', 'A chart initialization with this id already exists');

export { validationError };

/**
 * The lines list and the partner ledger answer every matching line at once (the spec gives them
 * no pages). Past `max` lines the query is refused rather than answered in part or built in
 * memory for seconds: the client narrows it (an account, a partner, dates) or walks a paged
 * route (general ledger, journal, open-item lines).
 */
export function tooManyLines(max: number): DomainError {
  return validationError('query', `matches more than ${max.toLocaleString('en')} lines: narrow it by account, partner or dates, or read a paged route (general ledger, journal, open-item lines)`);
}
