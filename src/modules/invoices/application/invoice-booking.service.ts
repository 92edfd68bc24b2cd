import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { newId, validationError } from '../../../../libs/shared-kernel/src';
import { AuditContext } from '../../../platform/audit/audit-context';
import type { AuditRecord } from '../../../platform/audit/audit-recorder';
import { Clock } from '../../../platform/clock/clock';
import type { StatementPart } from '../../../platform/database/statement-parts';
import { LedgerPostings, PostedEntry } from '../../ledger';
import { ReferenceDataService } from '../../reference';
import { bookingLines } from '../domain/booking';
import { Invoice, invoiceAlreadyBooked, invoiceCounterAccountRequired, invoiceNotFound, invoiceTaxAccountRequired } from '../domain/invoice';
import { DteRepository, InvoiceRepository } from '../domain/ports';
import { InvoiceBookingListeners } from './invoice-hooks';
import type { InvoiceView } from './invoices.service';

export interface BookingInstructions {
  entryId: string;
  entryDate?: string;
  counterAccountId?: string;
  openItemAccountId?: string;
  taxAccountId?: string;
  partnerId?: string;
  dimensionValueIds?: string[];
  memo?: string;
  bookId?: string | null;
}

/** A posting's field path (`lines[2].ledgerAccountId`) as the booking body names it. */
function bookingFieldOf(path: string, lines: Array<{ isOpenItem: boolean; ledgerAccountId: string }>, counterAccountId: string): string {
  const match = /^lines\[(\d+)\](?:\.([A-Za-z]+))?/.exec(path);
  const line = match ? lines[Number(match[1])] : undefined;
  if (!match || !line) return path;
  if (match[2] === 'partnerId' || match[2] === 'dimensionValueIds') return path.slice(match[0].length - match[2].length);
  if (match[2] === 'ledgerAccountId' || match[2] === undefined) {
    return line.isOpenItem ? 'openItemAccountId' : line.ledgerAccountId === counterAccountId ? 'counterAccountId' : 'taxAccountId';
  }
  return `entryLines[${match[1]}].${match[2]}`;
}

const kindLabel = (invoice: Invoice) => {
  const words = invoice.documentKind.replace(/_/g, ' ');
  return words[0].toUpperCase() + words.slice(1);
};

/**
 * D62, D64: books an invoice through the ledger's posting API: the entry, the invoice's new
 * state, the read models kept from it and the audit row are written together or not at all.
 *
 * Outside a transaction (its route), in one statement after one read: the invoice is read
 * unlocked with what booking needs, then the ledger's posting statement carries the invoice's
 * update and the read models' writes (the InvoiceBookingListeners) as its CTEs
 * (PostingOptions.alongside), and the route's audit row (PostingOptions.audit), and writes only under the precondition that the invoice is still
 * unbooked and unchanged since that read, checked under its row lock (postIf). Should it have
 * changed (another booking, an edit), nothing is written and the booking starts again in a
 * transaction with the invoice locked from the start, so the second attempt decides. Inside a
 * caller's transaction it takes that locked way at once.
 */
@Injectable()
export class InvoiceBookingService {
  constructor(
    private readonly invoices: InvoiceRepository,
    private readonly dtes: DteRepository,
    private readonly postings: LedgerPostings,
    private readonly reference: ReferenceDataService,
    private readonly clock: Clock,
    private readonly hooks: InvoiceBookingListeners,
    private readonly auditContext: AuditContext,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
  ) {}

  async book(entityId: string, invoiceId: string, input: BookingInstructions): Promise<{ invoice: InvoiceView; entry: PostedEntry }> {
    // The route's audit row (an ownTransaction route), taken to be written with the entry and
    // the invoice's update, naming the invoice. Null where none is offered (inside a caller's
    // transaction or unit of work, which records the change): then the locked way at once.
    const audit = this.auditContext.takeStatementRow(invoiceId);
    if (audit && !this.txHost.isTransactionActive()) {
      const booked = await this.attempt(entityId, invoiceId, input, audit, false);
      if (booked) return booked;
    }
    return this.txHost.withTransaction(async () => (await this.attempt(entityId, invoiceId, input, audit, true))!);
  }

  /** One booking attempt; null when the invoice changed between its unlocked read and the posting (nothing written). */
  private async attempt(
    entityId: string,
    invoiceId: string,
    input: BookingInstructions,
    audit: AuditRecord | null,
    locked: boolean,
  ): Promise<{ invoice: InvoiceView; entry: PostedEntry } | null> {
    // Locked (the second attempt): a second booking of the same invoice waits, then finds it
    // booked. Read with it in the same statement: its partner, the Entity's currency, and the
    // open-item accounts when the body names none.
    const context = await this.invoices.readForBooking(entityId, invoiceId, input.openItemAccountId === undefined, locked);
    if (!context) throw invoiceNotFound({ invoiceId });
    const { invoice } = context;
    if (invoice.bookStatus === 'booked') throw invoiceAlreadyBooked({ invoiceId, ledgerEntryId: invoice.ledgerEntryId });
    // AR names its counter (income) account; AP defaults to the partner's default purchase account.
    const counterAccountId = input.counterAccountId ?? (invoice.direction === 'ap' ? context.partnerDefaultPurchaseAccountId : null);
    if (!counterAccountId) throw invoiceCounterAccountRequired({ invoiceId, direction: invoice.direction });
    if (invoice.taxAmount > 0 && !input.taxAccountId) throw invoiceTaxAccountRequired({ invoiceId, taxAmount: invoice.taxAmount });
    const openItemAccountId = input.openItemAccountId ?? defaultOpenItemAccount(invoice, context.openItemAccountIds ?? []);
    const functional = context.entityCurrency;
    const lines = bookingLines(
      invoice,
      {
        openItemAccountId,
        counterAccountId,
        taxAccountId: invoice.taxAmount > 0 ? input.taxAccountId! : null,
        partnerId: input.partnerId ?? invoice.partnerId,
        dimensionValueIds: input.dimensionValueIds ?? [],
      },
      { functional, exponentOf: (code) => this.reference.findCurrency(code)!.minorUnits },
    ).map((line) => ({ ...line, id: newId() }));
    // Read before the posting: in the locked attempt its statement holds the ledger's and the
    // read models' rows until COMMIT.
    const dte = invoice.dteId ? await this.dtes.find(entityId, invoice.dteId) : null;
    const openItemLineId = lines.find((l) => l.isOpenItem)!.id;
    const now = this.clock.now();
    let booked: Invoice | null = null;
    // The invoice's update and the read models' rows, made from the entry as judged: the posting
    // statement writes them with the entry (under its condition), in its round trip.
    const alongside = (entry: PostedEntry): StatementPart[] => {
      booked = { ...invoice, bookStatus: 'booked', ledgerEntryId: entry.id, openItemLineId, updatedAt: now };
      const openLine = entry.lines.find((l) => l.id === openItemLineId)!;
      return [
        this.invoices.bookingPart(entityId, invoiceId, { ledgerEntryId: entry.id, openItemLineId }, now),
        ...this.hooks.invoiceBooked(
          entityId,
          { invoice: booked, entryId: entry.id, entryDate: entry.entryDate, bookId: entry.bookId, openItemLine: { id: openLine.id, side: openLine.side, amount: openLine.amount } },
        ),
      ];
    };
    const posting = {
      id: input.entryId,
      source: 'invoice' as const,
      entryDate: input.entryDate ?? invoice.issueDate,
      memo: input.memo ?? `${kindLabel(invoice)} ${invoice.documentNumber} ${context.partnerName}`,
      bookId: input.bookId ?? null,
      lines: lines.map(({ isOpenItem: _open, ...line }) => line),
    };
    // The lines are the service's: a refusal about one names the booking field it came from.
    const fieldPath = (path: string) => bookingFieldOf(path, lines, counterAccountId);
    // The audit row goes with the entry too (written only with it).
    const entry = locked
      ? await this.postings.post(entityId, posting, { fieldPath, alongside, audit })
      : await this.postings.postIf(entityId, posting, { fieldPath, alongside, audit, precondition: this.invoices.bookingPrecondition(entityId, invoiceId, context.version) });
    return entry ? { invoice: { invoice: booked!, dte }, entry } : null;
  }
}

/** D62: the Entity's only account of subtype `receivable` (AR) or `payable` (AP); otherwise 400. */
function defaultOpenItemAccount(invoice: Invoice, ids: string[]): string {
  const subtype = invoice.direction === 'ar' ? 'receivable' : 'payable';
  if (ids.length !== 1) {
    throw validationError('openItemAccountId', `is required: the Entity has ${ids.length === 0 ? 'no' : 'more than one'} account of subtype ${subtype}`);
  }
  return ids[0];
}
