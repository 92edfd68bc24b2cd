/**
 * Port to the ledger: the booked entry of an invoice with its lines, in the ledger's read shape
 * (D34), or null when the invoice is not booked.
 */
export abstract class InvoiceEntryReader {
  abstract entryOf(entityId: string, entryId: string | null): Promise<Record<string, unknown> | null>;
}
