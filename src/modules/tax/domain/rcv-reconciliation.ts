import { compareFolios } from './tax-period';
import type { TaxAmounts } from './purchase-sales-register';

export const RECONCILIATION_STATUSES = ['matched', 'missing_in_books', 'missing_in_sii', 'amount_mismatch'] as const;
export type ReconciliationStatus = (typeof RECONCILIATION_STATUSES)[number];

/** A document on one side: its key (D92: dteType, folio, partnerTaxId) and its four amounts. */
export interface ReconciledDocument extends TaxAmounts {
  dteType: number;
  /** Canonical digits (D63a). */
  folio: string;
  partnerTaxId: string;
}

export interface ReconciliationRow {
  dteType: number;
  folio: string;
  partnerTaxId: string;
  status: ReconciliationStatus;
  sii: TaxAmounts | null;
  books: TaxAmounts | null;
}

const AMOUNTS = ['exemptAmount', 'netAmount', 'taxAmount', 'totalAmount'] as const;
const abs = (n: bigint) => (n < 0n ? -n : n);
const positive = (d: TaxAmounts): TaxAmounts => ({
  exemptAmount: abs(d.exemptAmount),
  netAmount: abs(d.netAmount),
  taxAmount: abs(d.taxAmount),
  totalAmount: abs(d.totalAmount),
});
const keyOf = (d: ReconciledDocument) => `${d.dteType}|${d.folio}|${d.partnerTaxId}`;

/**
 * D92 item 2: the SII's documents against the books'. The same document on both sides when
 * dteType, folio and partnerTaxId agree; amounts compared as positive figures. A key found twice
 * on a side pairs in order, the extra ones missing on the other side. Rows by dteType, folio,
 * partnerTaxId.
 */
export function reconcile(sii: ReconciledDocument[], books: ReconciledDocument[]): { counts: Record<ReconciliationStatus, number>; rows: ReconciliationRow[] } {
  const booksByKey = new Map<string, ReconciledDocument[]>();
  for (const document of books) {
    const list = booksByKey.get(keyOf(document));
    if (list) list.push(document);
    else booksByKey.set(keyOf(document), [document]);
  }
  const rows: ReconciliationRow[] = [];
  for (const document of sii) {
    const book = booksByKey.get(keyOf(document))?.shift();
    const siiAmounts = positive(document);
    if (!book) {
      rows.push({ dteType: document.dteType, folio: document.folio, partnerTaxId: document.partnerTaxId, status: 'missing_in_books', sii: siiAmounts, books: null });
      continue;
    }
    const bookAmounts = positive(book);
    const same = AMOUNTS.every((key) => siiAmounts[key] === bookAmounts[key]);
    rows.push({ dteType: document.dteType, folio: document.folio, partnerTaxId: document.partnerTaxId, status: same ? 'matched' : 'amount_mismatch', sii: siiAmounts, books: bookAmounts });
  }
  for (const left of booksByKey.values()) {
    for (const book of left) {
      rows.push({ dteType: book.dteType, folio: book.folio, partnerTaxId: book.partnerTaxId, status: 'missing_in_sii', sii: null, books: positive(book) });
    }
  }
  rows.sort((a, b) => a.dteType - b.dteType || compareFolios(a.folio, b.folio) || (a.partnerTaxId < b.partnerTaxId ? -1 : a.partnerTaxId > b.partnerTaxId ? 1 : 0));
  const counts: Record<ReconciliationStatus, number> = { matched: 0, missing_in_books: 0, missing_in_sii: 0, amount_mismatch: 0 };
  for (const row of rows) counts[row.status]++;
  return { counts, rows };
}
