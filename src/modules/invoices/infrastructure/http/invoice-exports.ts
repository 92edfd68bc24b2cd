import type { TableColumn } from '../../../../platform/exports/table';
import type { InvoiceResponse } from './invoices.dto';

/**
 * D93: the invoice lists as a table, a row per invoice and a column per field, amounts in major
 * units of the invoice's own currency; the linked DTE (an object) as its id.
 */
export function invoiceColumns(exponentOf: (currency: string) => number): Array<TableColumn<InvoiceResponse>> {
  const amount = (header: string, value: (i: InvoiceResponse) => number): TableColumn<InvoiceResponse> => ({ header, type: 'amount', exponent: (i) => exponentOf(i.currency), value });
  return [
    { header: 'id', type: 'text', value: (i) => i.id },
    { header: 'entityId', type: 'text', value: (i) => i.entityId },
    { header: 'direction', type: 'text', value: (i) => i.direction },
    { header: 'documentKind', type: 'text', value: (i) => i.documentKind },
    { header: 'documentNumber', type: 'text', value: (i) => i.documentNumber },
    { header: 'issueDate', type: 'date', value: (i) => i.issueDate },
    { header: 'dueDate', type: 'date', value: (i) => i.dueDate },
    { header: 'partnerId', type: 'text', value: (i) => i.partnerId },
    { header: 'currency', type: 'text', value: (i) => i.currency },
    { header: 'exchangeRate', type: 'text', value: (i) => i.exchangeRate },
    amount('netAmount', (i) => i.netAmount),
    amount('exemptAmount', (i) => i.exemptAmount),
    amount('taxAmount', (i) => i.taxAmount),
    amount('totalAmount', (i) => i.totalAmount),
    { header: 'servicePeriodStart', type: 'date', value: (i) => i.servicePeriodStart },
    { header: 'servicePeriodEnd', type: 'date', value: (i) => i.servicePeriodEnd },
    { header: 'description', type: 'text', value: (i) => i.description },
    { header: 'bookStatus', type: 'text', value: (i) => i.bookStatus },
    { header: 'ledgerEntryId', type: 'text', value: (i) => i.ledgerEntryId },
    { header: 'dteId', type: 'text', value: (i) => (i.dte as { id?: string } | null)?.id ?? null },
    { header: 'createdAt', type: 'timestamp', value: (i) => i.createdAt },
    { header: 'updatedAt', type: 'timestamp', value: (i) => i.updatedAt },
  ];
}
