import { Injectable } from '@nestjs/common';
import { InvoiceFolios } from '../application/banking-ports';

/**
 * The invoices module is not part of this build: no folio matches. With it, an adapter asks
 * `InvoiceQueries.byDocumentNumbers(entityId, folios)` and answers their `openItemLineId`s.
 */
@Injectable()
export class NoInvoiceFolios extends InvoiceFolios {
  openItemLinesByFolios(): Promise<Set<string>> {
    return Promise.resolve(new Set());
  }
}
