import { errorCatalog } from '../../../../libs/shared-kernel/src';

/**
 * Every code the reports answer of their own, with its HTTP status: the one place each is declared
 * (compiler-checked, D3). VALIDATION_ERROR and AMOUNT_OUT_OF_RANGE_ERROR are the shared kernel's.
 */
export const REPORT_ERROR_STATUS = {
  DIMENSION_NOT_FOUND_ERROR: 404,
} as const;

export const reportError = errorCatalog(REPORT_ERROR_STATUS);

export const reportDimensionNotFound = (dimensionId: string) => reportError('DIMENSION_NOT_FOUND_ERROR', 'No Dimension with this id in the Entity', { dimensionId });
