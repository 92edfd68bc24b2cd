import { errorCatalog } from '../../../../libs/shared-kernel/src';

/**
 * Every code the recommendations answer, with its HTTP status: the one place each is declared
 * (compiler-checked, D3). The record to recommend for is missing.
 */
export const RECOMMENDATION_ERROR_STATUS = {
  BANK_MOVEMENT_NOT_FOUND_ERROR: 404,
  INVOICE_NOT_FOUND_ERROR: 404,
} as const;

export const recommendationError = errorCatalog(RECOMMENDATION_ERROR_STATUS);

export const recommendedRecordNotFound = (kind: 'bank_movement' | 'invoice', id: string) =>
  kind === 'bank_movement'
    ? recommendationError('BANK_MOVEMENT_NOT_FOUND_ERROR', 'No bank movement with this id in the Entity', { movementId: id })
    : recommendationError('INVOICE_NOT_FOUND_ERROR', 'No invoice with this id in the Entity', { invoiceId: id });
