import { bankMovementNotFound } from '../../banking';
import { invoiceNotFound } from '../../invoices';

/**
 * The recommendations answer no code of their own: the record to recommend for is missing, in
 * its owner's words (banking's BANK_MOVEMENT_NOT_FOUND_ERROR, the invoices' INVOICE_NOT_FOUND_ERROR).
 */
export const recommendedRecordNotFound = (kind: 'bank_movement' | 'invoice', id: string) =>
  kind === 'bank_movement' ? bankMovementNotFound({ movementId: id }) : invoiceNotFound({ invoiceId: id });
