import { Injectable } from '@nestjs/common';
import { InvoiceQueries } from '../../invoices';
import { InvoiceFolios } from '../application/banking-ports';

/** D66's folio criterion: the open-item lines of booked invoices whose document number is named. */
@Injectable()
export class InvoiceFoliosFromInvoices extends InvoiceFolios {
  constructor(private readonly invoices: InvoiceQueries) {
    super();
  }

  async openItemLinesByFolios(entityId: string, folios: string[]): Promise<Set<string>> {
    if (folios.length === 0) return new Set();
    const found = await this.invoices.byDocumentNumbers(entityId, folios);
    return new Set(found.map((invoice) => invoice.openItemLineId).filter((id): id is string => id !== null));
  }
}
