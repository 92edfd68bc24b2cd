import { Injectable } from '@nestjs/common';
import {
  EntryDocumentSource,
  EntryLifecycleEvent,
  EntryLifecycleListener,
  LedgerDocumentSource,
  LedgerLifecycleListener,
  RelatedDocuments,
  SeveredDocuments,
} from '../../../ledger';
import { Clock } from '../../../../platform/clock/clock';
import { InvoiceRepository } from '../../domain/ports';

/**
 * The invoices' side of the ledger's ports: entries that leave the books (unbooked, or reversed)
 * return the invoices they booked to `unbooked`, inside the ledger's transaction, and are
 * reported as severed (D62, D64); the entry detail lists the invoices an entry booked; an
 * invoice's open-item lines keep their account (LEDGER_LINE_DOCUMENT_LINKED_ERROR).
 */
@Injectable()
@LedgerLifecycleListener()
@LedgerDocumentSource()
export class InvoiceLedgerPort implements EntryLifecycleListener, EntryDocumentSource {
  constructor(
    private readonly invoices: InvoiceRepository,
    private readonly clock: Clock,
  ) {}

  async onEntryLifecycle(event: EntryLifecycleEvent): Promise<Partial<SeveredDocuments> | void> {
    if (event.reason !== 'unbooked' && event.reason !== 'reversed') return;
    const booked = await this.invoices.lockBookedBy(event.entityId, event.entryIds);
    if (booked.length === 0) return;
    const now = this.clock.now();
    for (const invoice of booked) await this.invoices.setBooking(event.entityId, invoice.id, null, now);
    const entryOf = new Map(booked.map((i) => [i.id, i.ledgerEntryId!]));
    const summaries = await this.invoices.summaries(event.entityId, booked.map((i) => i.id));
    return { severedInvoices: summaries.map((s) => ({ ...s, entryId: entryOf.get(s.id)! })) };
  }

  async relatedDocuments(entityId: string, entryId: string): Promise<Partial<RelatedDocuments>> {
    const booked = await this.invoices.bookedBy(entityId, [entryId]);
    return { relatedInvoices: await this.invoices.summaries(entityId, booked.map((i) => i.id)) };
  }

  documentLinkedLines(entityId: string, lineIds: string[]): Promise<Set<string>> {
    return this.invoices.openItemLinesOfBookedEntries(entityId, lineIds);
  }
}
