import { Injectable } from '@nestjs/common';
import { LedgerReads } from '../../../ledger';
import { InvoiceEntryReader } from '../../application/invoice-entry-reader';

/** The booked entry in the entry routes' read shape (D34), through the ledger's read API. */
@Injectable()
export class LedgerInvoiceEntryReader extends InvoiceEntryReader {
  constructor(private readonly ledger: LedgerReads) {
    super();
  }

  async entryOf(entityId: string, entryId: string | null): Promise<Record<string, unknown> | null> {
    if (entryId === null) return null;
    return (await this.ledger.entryWithLines(entityId, entryId)) as unknown as Record<string, unknown> | null;
  }
}
