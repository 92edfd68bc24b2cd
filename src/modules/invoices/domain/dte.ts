import type { Direction, DocumentKind, Invoice } from './invoice';
import { SII_CODE_BY_KIND } from './invoice';

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
  netAmount: number;
  exemptAmount: number;
  taxAmount: number;
  totalAmount: number;
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

const withoutLeadingZeros = (folio: string) => folio.replace(/^0+(?=\d)/, '');

/** Which of D65a's conditions fail, by field name (empty: the DTE matches the invoice). */
export function dteMismatches(
  dte: Dte,
  invoice: Pick<Invoice, 'documentKind' | 'documentNumber' | 'direction' | 'totalAmount'> & { documentKind: DocumentKind },
  partnerTaxId: string | null,
): string[] {
  const mismatches: string[] = [];
  if (SII_CODE_BY_KIND[invoice.documentKind] !== dte.dteType) mismatches.push('dteType');
  if (withoutLeadingZeros(dte.folio) !== withoutLeadingZeros(invoice.documentNumber)) mismatches.push('folio');
  if (dte.direction !== invoice.direction) mismatches.push('direction');
  if (partnerTaxId === null || dteCounterpartyTaxId(dte) !== partnerTaxId) mismatches.push('partnerTaxId');
  if (dte.totalAmount !== invoice.totalAmount) mismatches.push('totalAmount');
  return mismatches;
}
