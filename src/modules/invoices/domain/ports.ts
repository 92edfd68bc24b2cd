import type { StatementPart, StatementQuery } from '../../../platform/database/statement-parts';
import type { Dte, DteDocument } from './dte';
import type { Invoice, InvoiceListFilter } from './invoice';

export interface InvoiceLinkSummary {
  id: string;
  direction: Invoice['direction'];
  documentKind: Invoice['documentKind'];
  documentNumber: string;
  partnerName: string | null;
}

/** What booking an invoice reads besides the invoice (D62), read with it in one statement. */
export interface BookingContext {
  invoice: Invoice;
  partnerName: string;
  partnerDefaultPurchaseAccountId: string | null;
  /** The Entity's (functional) currency. */
  entityCurrency: string;
  /**
   * When asked for: up to two accounts of subtype `receivable` (AR) or `payable` (AP), enough to
   * tell none, one and several apart; null when not asked for.
   */
  openItemAccountIds: string[] | null;
  /** The version of the invoice's row read (its `xmin`): bookingPrecondition() checks it is still the one. */
  version: string;
}

export interface InvoicePageKey {
  issueDate: string;
  id: string;
}

/** A booking a reversal severed, as kept aside for the unbooking of that reversal (D35). */
export interface SeveredBooking {
  invoice: Invoice;
  entryId: string;
  openItemLineId: string;
  /** The fields a booked invoice may not change (D61) that differ from what the entry was booked on. */
  changedFields: string[];
}

export abstract class InvoiceRepository {
  abstract find(entityId: string, invoiceId: string): Promise<Invoice | null>;
  /** The row locked for the rest of the transaction (FOR UPDATE). */
  abstract lock(entityId: string, invoiceId: string): Promise<Invoice | null>;
  /**
   * The invoice with its partner, the Entity's currency and, if asked, its open-item accounts;
   * with `lock`, the invoice's row locked for the rest of the transaction (FOR UPDATE).
   */
  abstract readForBooking(entityId: string, invoiceId: string, withOpenItemAccounts: boolean, lock: boolean): Promise<BookingContext | null>;
  /**
   * The posting statement's precondition (PostingOptions.precondition) for booking an invoice
   * read unlocked: the row locked, a row yielded only while it is still unbooked and at the
   * version read (no write of any kind since).
   */
  abstract bookingPrecondition(entityId: string, invoiceId: string, version: string): StatementQuery;
  abstract insert(invoice: Invoice): Promise<'inserted' | 'id_taken' | 'number_taken'>;
  abstract save(invoice: Invoice): Promise<'saved' | 'number_taken'>;
  abstract delete(entityId: string, invoiceId: string): Promise<void>;
  /** Every invoice matching the filter, newest issue date first (then id, descending). */
  abstract list(entityId: string, filter: InvoiceListFilter): Promise<Invoice[]>;
  /** Keyset page in the list's order after `after`, at most `limit` + 1 rows. */
  abstract page(entityId: string, filter: InvoiceListFilter, search: string | undefined, after: InvoicePageKey | null, limit: number): Promise<Invoice[]>;
  /** D93: every invoice of the filter in list order, in batches from a database cursor (cancelled when `signal` aborts). */
  abstract readAll<R>(entityId: string, filter: InvoiceListFilter, search: string | undefined, signal: AbortSignal, use: (batches: AsyncIterable<Invoice[]>) => Promise<R>): Promise<R>;
  abstract hasAny(entityId: string): Promise<boolean>;
  abstract partnerIsNamed(entityId: string, partnerId: string): Promise<boolean>;
  /** Invoices booked by these entries (any status of the entry), for the entry detail. */
  abstract bookedBy(entityId: string, entryIds: string[]): Promise<Invoice[]>;
  /** The write booking the invoice by this entry, under its host's condition: a part of the posting statement (PostingOptions.alongside). */
  abstract bookingPart(entityId: string, invoiceId: string, booking: { ledgerEntryId: string; openItemLineId: string }, now: Date): StatementPart;
  /** The invoice booked by this entry, in one statement with `alongside` (read models, the audit row) run as its CTEs. */
  abstract setBooking(entityId: string, invoiceId: string, booking: { ledgerEntryId: string; openItemLineId: string }, now: Date, alongside?: StatementPart[]): Promise<void>;
  /**
   * The invoices booked by these entries back to unbooked, in one statement (locked in id order);
   * answers each with the entry it was booked by. `restorable`: their entry was reversed, so the
   * booking is kept aside (beside any kept from other entries) for the unbooking of that reversal
   * to put back (D35).
   */
  abstract severByEntries(entityId: string, entryIds: string[], restorable: boolean, now: Date): Promise<Array<{ invoiceId: string; entryId: string }>>;
  /**
   * Invoices whose booking by one of these entries a reversal severed (however they were booked
   * and severed since), locked, with that booking and the fields changed since it was made.
   */
  abstract lockSeveredFrom(entityId: string, entryIds: string[]): Promise<SeveredBooking[]>;
  /** These entries left the books for good: nothing severed from them can come back. */
  abstract forgetSeveredFrom(entityId: string, entryIds: string[]): Promise<void>;
  abstract findMany(entityId: string, invoiceIds: string[]): Promise<Invoice[]>;
  abstract byOpenItemLines(entityId: string, lineIds: string[]): Promise<Invoice[]>;
  /** Unbooked invoices by direction. */
  abstract unbookedCounts(entityId: string): Promise<{ ar: number; ap: number }>;
  /** Invoices whose document number is one of these (banking: folios printed in a description). */
  abstract byDocumentNumbers(entityId: string, documentNumbers: string[], direction?: Invoice['direction']): Promise<Invoice[]>;
  /** The link fields the entry routes show (D34 related and severed invoices), with the partner's name. */
  abstract summaries(entityId: string, invoiceIds: string[]): Promise<InvoiceLinkSummary[]>;
  /** Which of these lines are open-item lines of a booked invoice's entry. */
  abstract openItemLinesOfBookedEntries(entityId: string, lineIds: string[]): Promise<Set<string>>;
  /** The invoice linked to this DTE, if any. */
  abstract linkedToDte(entityId: string, dteId: string): Promise<string | null>;
}

export interface DtePageFilter {
  linked?: boolean;
  from?: string;
  to?: string;
}

export abstract class DteRepository {
  abstract find(entityId: string, dteId: string): Promise<Dte | null>;
  /** Held (key-share) for the rest of the transaction, so it cannot be linked twice at once. */
  abstract lock(entityId: string, dteId: string): Promise<Dte | null>;
  abstract findMany(entityId: string, dteIds: string[]): Promise<Map<string, Dte>>;
  /** Inserts those not stored yet (by their natural key); returns the inserted ones. */
  abstract insertNew(entityId: string, documents: Array<DteDocument & { id: string; direction: Dte['direction'] }>, now: Date): Promise<Dte[]>;
  /** Every DTE matching the filter, newest issue date first (then id, descending). */
  abstract list(entityId: string, filter: DtePageFilter): Promise<Dte[]>;
  /** Newest issue date first; keyset after `after`; at most `limit` + 1 rows. */
  abstract page(entityId: string, filter: DtePageFilter, after: InvoicePageKey | null, limit: number): Promise<Dte[]>;
}
