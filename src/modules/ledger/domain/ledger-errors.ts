import { DomainError, validationError } from '../../../../libs/shared-kernel/src';

const e = (code: string, message: string) => (params: Record<string, unknown> = {}) => new DomainError(code, message, params);

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
