import { convertMinorUnitsExact } from '../../../../libs/shared-kernel/src';
import type { SiiPeriodDocument } from '../../invoices';
import { canonicalFolio, compareFolios, CREDIT_NOTE_TYPES } from './tax-period';

/** The four amounts of a document in CLP (minor units = pesos), exact. */
export interface TaxAmounts {
  exemptAmount: bigint;
  netAmount: bigint;
  taxAmount: bigint;
  totalAmount: bigint;
}

/** An invoice of the period as the invoices module gives it (amounts in its own currency). */
export type PeriodDocument = SiiPeriodDocument;

export interface RegisterRow extends TaxAmounts {
  invoiceId: string;
  dteType: number;
  /** Canonical digits (D63a); presented as an integer. */
  folio: string;
  partnerTaxId: string | null;
  partnerName: string | null;
  issueDate: string;
}

export interface RegisterSummary extends TaxAmounts {
  dteType: number;
  count: number;
}

export interface CurrencyExponents {
  /** ISO 4217 minor-unit exponent of a currency (CLP 0, USD 2). */
  exponentOf(currency: string): number;
}

const AMOUNTS = ['exemptAmount', 'netAmount', 'taxAmount', 'totalAmount'] as const;

/**
 * D92, D7: a document's amounts in CLP. A foreign-currency invoice's four amounts are each
 * converted at its exchangeRate, round half up (each is a figure the SII reads on its own).
 */
export function inPesos(document: Pick<PeriodDocument, 'currency' | 'exchangeRate' | keyof TaxAmounts>, exponents: CurrencyExponents): TaxAmounts {
  if (document.exchangeRate === null) {
    return { exemptAmount: document.exemptAmount, netAmount: document.netAmount, taxAmount: document.taxAmount, totalAmount: document.totalAmount };
  }
  const from = exponents.exponentOf(document.currency);
  const to = exponents.exponentOf('CLP');
  const convert = (amount: bigint) => convertMinorUnitsExact(amount, document.exchangeRate!, from, to);
  return {
    exemptAmount: convert(document.exemptAmount),
    netAmount: convert(document.netAmount),
    taxAmount: convert(document.taxAmount),
    totalAmount: convert(document.totalAmount),
  };
}

/**
 * D92 item 1: the Registro de Compras y Ventas from the books. Rows by dteType, then folio (then
 * invoice id, for two partners' documents of one folio); one summary entry per dteType that has
 * rows, credit notes (61, 112) with negative amounts and a positive count.
 */
export function purchaseSalesRegister(
  documents: PeriodDocument[],
  partners: ReadonlyMap<string, { name: string; taxId: string }>,
  exponents: CurrencyExponents,
): { rows: RegisterRow[]; summary: RegisterSummary[] } {
  const rows: RegisterRow[] = documents.map((document) => {
    const partner = partners.get(document.partnerId);
    return {
      invoiceId: document.invoiceId,
      dteType: document.dteType,
      folio: canonicalFolio(document.folio),
      partnerTaxId: partner?.taxId ?? null,
      partnerName: partner?.name ?? null,
      issueDate: document.issueDate,
      ...inPesos(document, exponents),
    };
  });
  rows.sort((a, b) => a.dteType - b.dteType || compareFolios(a.folio, b.folio) || (a.invoiceId < b.invoiceId ? -1 : a.invoiceId > b.invoiceId ? 1 : 0));

  const summary = new Map<number, RegisterSummary>();
  for (const row of rows) {
    let entry = summary.get(row.dteType);
    if (!entry) summary.set(row.dteType, (entry = { dteType: row.dteType, count: 0, exemptAmount: 0n, netAmount: 0n, taxAmount: 0n, totalAmount: 0n }));
    const sign = CREDIT_NOTE_TYPES.has(row.dteType) ? -1n : 1n;
    entry.count++;
    for (const key of AMOUNTS) entry[key] += sign * row[key];
  }
  return { rows, summary: [...summary.values()] };
}
