import { errorCatalog } from '../../../../libs/shared-kernel/src';

/**
 * Every code the consolidated reports answer of their own, with its HTTP status (D91): the one
 * place each is declared. Books' codes are the ledger's, PERMISSION_DENIED_ERROR the kernel's.
 */
export const CONSOLIDATION_ERROR_STATUS = {
  CONSOLIDATION_ACCOUNT_TYPE_CONFLICT_ERROR: 409,
  CONSOLIDATION_RATE_MISSING_ERROR: 409,
} as const;

export const consolidationError = errorCatalog(CONSOLIDATION_ERROR_STATUS);

export const accountTypeConflict = (code: string) =>
  consolidationError('CONSOLIDATION_ACCOUNT_TYPE_CONFLICT_ERROR', 'Two Entities of the group give this account code types of different families', { code });

export const rateMissing = (currency: string) =>
  consolidationError('CONSOLIDATION_RATE_MISSING_ERROR', 'No rate to translate this currency into the group currency: send it or store FX rates', { currency });
