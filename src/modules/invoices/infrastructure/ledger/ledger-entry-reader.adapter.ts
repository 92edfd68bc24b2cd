import { Injectable } from '@nestjs/common';
import { InvoiceEntryReader } from '../../application/invoice-entry-reader';

/** Until booking exists no invoice names an entry. */
@Injectable()
export class LedgerInvoiceEntryReader extends InvoiceEntryReader {
  entryOf(_entityId: string, entryId: string | null): Promise<Record<string, unknown> | null> {
    if (entryId === null) return Promise.resolve(null);
    return Promise.resolve({ id: entryId });
  }
}
