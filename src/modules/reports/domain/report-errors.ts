import { dimensionNotFound } from '../../ledger';

/**
 * The reports answer no code of their own: a Dimension they are asked to split by is missing, in
 * the ledger's words (DIMENSION_NOT_FOUND_ERROR, declared once by the ledger).
 */
export const reportDimensionNotFound = (dimensionId: string) => dimensionNotFound({ dimensionId });
