/**
 * The invoices module's public API (other modules import only from here): its Nest module, the
 * read API (InvoiceQueries) and the types it returns.
 */
export { InvoicesModule } from './invoices.module';
export { InvoiceQueries } from './application/invoice-queries';
export { InvoiceBookingListenerProvider } from './application/invoice-hooks';
export type { InvoiceBooked, InvoiceBookingListener } from './application/invoice-hooks';
export type { Invoice, InvoiceListFilter, Direction, DocumentKind, BookStatus } from './domain/invoice';
export { SII_CODE_BY_KIND, DOCUMENT_KINDS } from './domain/invoice';
export type { Dte, DteReference } from './domain/dte';
export type { InvoiceLinkSummary } from './domain/ports';
export { DTE_IMPORT_MAX_BYTES } from './application/dte-xml-reader';
// For the tax books (issue 37): a period's invoices with an SII kind, and their sums.
export { SiiPeriodDocuments } from './domain/sii-period-documents';
export type { SiiPeriodDocument, SiiPeriodTotal } from './domain/sii-period-documents';
// Read seam (issue 32): the invoices as an SQL part, for other modules' statements.
export { invoicesSql } from './infrastructure/persistence/invoice-read.sql';

/** The route that takes raw XML (app.ts mounts its body parser there). */
export const DTE_IMPORT_PATH = '/api/entities/:entityId/dtes/import';

import { INVOICE_RECORDS as RECORDS } from './infrastructure/persistence/invoice.records';
/** The module's tables, for the schema list of the composition root (src/schema.ts). */
export const INVOICE_RECORDS = RECORDS;
