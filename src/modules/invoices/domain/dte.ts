import Big from 'big.js';
import type { Direction, DocumentKind, Invoice } from './invoice';
import { SII_CODE_BY_KIND } from './invoice';

/** Export documents (factura, nota de débito, nota de crédito de exportación). */
export const EXPORT_DTE_TYPES: ReadonlySet<number> = new Set([110, 111, 112]);
/** The liquidación-factura, whose totals may be negative (ValorType, lib-cl-sii). */
export const LIQUIDACION_FACTURA = 43;

/**
 * An export document's totals as it states them (DTE_v10.xsd, `Exportaciones`): in the currency
 * of `Totales.TpoMoneda`, with up to 4 decimals, kept as exact decimal strings (never floats).
 */
export interface DteForeignTotals {
  /** ISO 4217 code of `TpoMoneda`, or null when the customs name has none (`OTRAS MONEDAS`, a retired currency). */
  currency: string | null;
  /** `TpoMoneda` as written (the customs table's name, e.g. `DOLAR USA`). */
  currencyName: string;
  exemptAmount: string;
  totalAmount: string;
  /** `OtraMoneda.TpoCambio` (pesos per unit) when the other currency is the peso, else null. */
  exchangeRate: string | null;
}

/** One `Referencia` of a DTE, as the SII writes it (phase2-anchors section 1). */
export interface DteReference {
  lineNumber: number | null;
  documentType: string;
  folio: string;
  date: string | null;
  code: number | null;
  reason: string | null;
}

/** What the import reads of one DTE document (D63), before it is stored. */
export interface DteDocument {
  dteType: number;
  folio: string;
  issuerTaxId: string;
  issuerName: string;
  receiverTaxId: string;
  receiverName: string | null;
  issueDate: string;
  /**
   * Peso amounts, integers. Negative only on a liquidación-factura (43). On an export document
   * net and tax are 0 and exempt and total come from its peso figures (`OtraMoneda` in `PESO CL`,
   * rounded to the peso), or are null when it states none.
   */
  netAmount: number;
  exemptAmount: number | null;
  taxAmount: number;
  totalAmount: number | null;
  /** Export documents (110-112) only: the totals in the document's currency; null otherwise. */
  foreignTotals: DteForeignTotals | null;
  references: DteReference[];
}

export interface Dte extends DteDocument {
  entityId: string;
  id: string;
  direction: Direction;
  /** The invoice it is linked to, or null. */
  invoiceId: string | null;
  createdAt: Date;
}

/**
 * D63/D65b: `ar` when the Entity issued it, `ap` when it received it; a factura de compra (46) is
 * issued by the buyer, so the Entity issuing one is buying (`ap`). Null: the Entity is neither
 * the issuer nor the receiver.
 */
export function dteDirection(document: Pick<DteDocument, 'dteType' | 'issuerTaxId' | 'receiverTaxId'>, entityTaxId: string): Direction | null {
  const issued = document.issuerTaxId === entityTaxId;
  const received = document.receiverTaxId === entityTaxId;
  if (!issued && !received) return null;
  if (document.dteType === 46) return issued ? 'ap' : 'ar';
  return issued ? 'ar' : 'ap';
}

/** The other party's RUT: the receiver when the Entity issued it, else the issuer (46 mirrored). */
export function dteCounterpartyTaxId(dte: Pick<Dte, 'dteType' | 'direction' | 'issuerTaxId' | 'receiverTaxId'>): string {
  const entityIssued = dte.dteType === 46 ? dte.direction === 'ap' : dte.direction === 'ar';
  return entityIssued ? dte.receiverTaxId : dte.issuerTaxId;
}

/** The SII's RUT for a foreign buyer or seller (an export's receiver): it names no one. */
const FOREIGN_PARTY_RUT = '55555555-5';

/**
 * D65a's counterparty: the partner's RUT (a Chilean partner's tax id). An export whose
 * counterparty is the SII's RUT for foreigners matches a partner outside Chile instead.
 */
function counterpartyMatches(dte: Dte, partner: { country: string; taxId: string | null }): boolean {
  const counterparty = dteCounterpartyTaxId(dte);
  if (EXPORT_DTE_TYPES.has(dte.dteType) && counterparty === FOREIGN_PARTY_RUT) return partner.country !== 'CL';
  return partner.country === 'CL' && partner.taxId !== null && counterparty === partner.taxId;
}

const withoutLeadingZeros = (folio: string) => folio.replace(/^0+(?=\d)/, '');

/**
 * D65a's total: a peso DTE's total against the invoice's; an export DTE's foreign total against
 * the invoice's total in the invoice's currency (its minor units, exactly, never rounded), the
 * currencies being the same.
 */
function totalMismatches(dte: Dte, invoice: Pick<Invoice, 'currency' | 'totalAmount'>, exponentOf: (currency: string) => number | undefined): string[] {
  if (dte.foreignTotals === null) return dte.totalAmount === invoice.totalAmount ? [] : ['totalAmount'];
  const { currency, totalAmount } = dte.foreignTotals;
  if (currency === null || currency !== invoice.currency) return ['currency', 'totalAmount'];
  const exponent = exponentOf(currency);
  if (exponent === undefined) return ['totalAmount'];
  return new Big(totalAmount).eq(new Big(invoice.totalAmount).div(new Big(10).pow(exponent))) ? [] : ['totalAmount'];
}

/** Which of D65a's conditions fail, by field name (empty: the DTE matches the invoice). */
export function dteMismatches(
  dte: Dte,
  invoice: Pick<Invoice, 'documentKind' | 'documentNumber' | 'direction' | 'totalAmount' | 'currency'> & { documentKind: DocumentKind },
  partner: { country: string; taxId: string | null },
  exponentOf: (currency: string) => number | undefined,
): string[] {
  const mismatches: string[] = [];
  if (SII_CODE_BY_KIND[invoice.documentKind] !== dte.dteType) mismatches.push('dteType');
  if (withoutLeadingZeros(dte.folio) !== withoutLeadingZeros(invoice.documentNumber)) mismatches.push('folio');
  if (dte.direction !== invoice.direction) mismatches.push('direction');
  if (!counterpartyMatches(dte, partner)) mismatches.push('partnerTaxId');
  mismatches.push(...totalMismatches(dte, invoice, exponentOf));
  return mismatches;
}
