import type { InvoiceView } from '../../application/invoices.service';
import type { Dte } from '../../domain/dte';
import type { DteResponse, InvoiceResponse } from './invoices.dto';

export function presentDte(d: Dte): DteResponse {
  return {
    id: d.id,
    dteType: d.dteType,
    folio: d.folio,
    issuerTaxId: d.issuerTaxId,
    issuerName: d.issuerName,
    receiverTaxId: d.receiverTaxId,
    receiverName: d.receiverName,
    issueDate: d.issueDate,
    netAmount: d.netAmount,
    exemptAmount: d.exemptAmount,
    taxAmount: d.taxAmount,
    totalAmount: d.totalAmount,
    foreignTotals: d.foreignTotals,
    direction: d.direction,
    references: d.references,
    invoiceId: d.invoiceId,
  };
}

/** D60 read shape. */
export function presentInvoice({ invoice: i, dte }: InvoiceView): InvoiceResponse {
  return {
    id: i.id,
    entityId: i.entityId,
    direction: i.direction,
    documentKind: i.documentKind,
    documentNumber: i.documentNumber,
    issueDate: i.issueDate,
    dueDate: i.dueDate,
    partnerId: i.partnerId,
    currency: i.currency,
    exchangeRate: i.exchangeRate,
    netAmount: i.netAmount,
    exemptAmount: i.exemptAmount,
    taxAmount: i.taxAmount,
    totalAmount: i.totalAmount,
    servicePeriodStart: i.servicePeriodStart,
    servicePeriodEnd: i.servicePeriodEnd,
    description: i.description,
    bookStatus: i.bookStatus,
    ledgerEntryId: i.ledgerEntryId,
    dte: dte ? presentDte(dte) : null,
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
  };
}
