import { Injectable } from '@nestjs/common';
import {
  EntryDocumentSource,
  EntryLifecycleEvent,
  EntryLifecycleListener,
  LedgerDocumentSource,
  LedgerLifecycleListener,
  LedgerReads,
  RelatedDocuments,
  SeveredDocuments,
} from '../../../ledger';
import { Clock } from '../../../../platform/clock/clock';
import { InvoiceLinkSummary, InvoiceRepository } from '../../domain/ports';
import { InvoiceBookingListeners } from '../../application/invoice-hooks';

/** An invoice severed from the entry that had booked it (`entryId`), as a reversal or an unbooking answers it. */
export type SeveredInvoice = InvoiceLinkSummary & { entryId: string };

/**
 * The invoices' kinds in the ledger's contract (declaration merging, docs/ARCHITECTURE.md):
 * entries posted from invoices (source `invoice`), the invoices a reversal or an unbooking
 * severed (`severedInvoices`) and those an entry booked (`relatedInvoices`, on its detail).
 */
declare module '../../../ledger' {
  interface PostingSources {
    invoice: true;
  }
  interface SeveredDocumentKinds {
    severedInvoices: SeveredInvoice;
  }
  interface RelatedDocumentKinds {
    relatedInvoices: InvoiceLinkSummary;
  }
}

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
    private readonly ledger: LedgerReads,
    private readonly hooks: InvoiceBookingListeners,
    private readonly clock: Clock,
  ) {}

  async onEntryLifecycle(event: EntryLifecycleEvent): Promise<SeveredDocuments | void> {
    if (event.reason === 'restored') return this.rebook(event.entityId, event.entryIds);
    if (event.reason !== 'unbooked' && event.reason !== 'reversed') return;
    // An unbooked entry (a reversed original takes its reversal along) cannot come back.
    if (event.reason === 'unbooked') await this.invoices.forgetSeveredFrom(event.entityId, event.entryIds);
    const severed = await this.invoices.severByEntries(event.entityId, event.entryIds, event.reason === 'reversed', this.clock.now());
    if (severed.length === 0) return;
    const entryOf = new Map(severed.map((s) => [s.invoiceId, s.entryId]));
    const summaries = await this.invoices.summaries(event.entityId, [...entryOf.keys()]);
    return { severedInvoices: summaries.map((s) => ({ ...s, entryId: entryOf.get(s.id)! })) };
  }

  /**
   * D35: unbooking a reversal settles the chain back to its prior state, so the invoices the
   * reversal severed are booked by their original entry again. The unbooking itself is never
   * refused for an invoice (the spec's state table: its one condition is that the entry exists):
   * an invoice booked since by another entry, or edited since in a field a booked invoice keeps
   * (D61), is left as it is and the restored entry stays a plain entry; such invoices are answered
   * as severed from it (stop 17 review).
   */
  private async rebook(entityId: string, entryIds: string[]): Promise<SeveredDocuments> {
    const now = this.clock.now();
    const left: Array<{ invoiceId: string; entryId: string }> = [];
    for (const { invoice, entryId, openItemLineId, changedFields } of await this.invoices.lockSeveredFrom(entityId, entryIds)) {
      if (invoice.bookStatus === 'booked' || changedFields.length > 0) {
        left.push({ invoiceId: invoice.id, entryId });
        continue;
      }
      const entry = (await this.ledger.entryWithLines(entityId, entryId))!;
      const openLine = entry.lines.find((l) => l.id === openItemLineId)!;
      const readModels = this.hooks.invoiceBooked(entityId, {
        invoice: { ...invoice, bookStatus: 'booked', ledgerEntryId: entryId, openItemLineId, updatedAt: now },
        entryId,
        entryDate: entry.entryDate,
        bookId: entry.bookId,
        openItemLine: { id: openLine.id, side: openLine.side, amount: openLine.amount },
      });
      await this.invoices.setBooking(entityId, invoice.id, { ledgerEntryId: entryId, openItemLineId }, now, readModels);
    }
    await this.invoices.forgetSeveredFrom(entityId, entryIds);
    if (left.length === 0) return {};
    const summaries = new Map((await this.invoices.summaries(entityId, left.map((l) => l.invoiceId))).map((s) => [s.id, s]));
    return { severedInvoices: left.map((l) => ({ ...summaries.get(l.invoiceId)!, entryId: l.entryId })) };
  }

  async relatedDocuments(entityId: string, entryId: string): Promise<RelatedDocuments> {
    const booked = await this.invoices.bookedBy(entityId, [entryId]);
    return { relatedInvoices: await this.invoices.summaries(entityId, booked.map((i) => i.id)) };
  }

  documentLinkedLines(entityId: string, lineIds: string[]): Promise<Set<string>> {
    return this.invoices.openItemLinesOfBookedEntries(entityId, lineIds);
  }
}
