import type { BankAccount, BankAccountSummary } from '../domain/bank-account';
import type { OpenLine } from '../domain/matching';
import type { BankMovement } from '../domain/bank-movement';
import type { StatementRow } from '../domain/statement';
import type { StatementPart, StatementQuery } from '../../../platform/database/statement-parts';

export interface MovementFilter {
  from?: string;
  to?: string;
  booked?: boolean;
  /** Keyset: rows strictly after this (movementDate, id) in the list order (newest first). */
  after?: { date: string; id: string } | null;
  limit: number;
}

export abstract class BankAccountRepository {
  /** Every bank account of the Entity with its balance and unreconciled count: one query (D78). */
  abstract summaries(entityId: string, bankAccountId?: string): Promise<BankAccountSummary[]>;
  abstract find(entityId: string, bankAccountId: string): Promise<BankAccount | null>;
  /** Row-locked for the rest of the transaction (rename, delete). */
  abstract lock(entityId: string, bankAccountId: string): Promise<BankAccount | null>;
  /** Key-share-locked: movements are being written to it, it must not be deleted meanwhile. */
  abstract hold(entityId: string, bankAccountId: string): Promise<BankAccount | null>;
  abstract insert(account: BankAccount): Promise<void>;
  abstract rename(account: BankAccount): Promise<void>;
  abstract delete(entityId: string, bankAccountId: string): Promise<void>;
  abstract hasMovements(entityId: string, bankAccountId: string): Promise<boolean>;
  /** The Entity's functional currency. */
  abstract functionalCurrency(entityId: string): Promise<string>;
  /** The currency of each of these bank accounts (one query). */
  abstract currencies(entityId: string, bankAccountIds: string[]): Promise<Map<string, string>>;
  /** Which ledger accounts (of these, or all) a bank account maps: one query (chart `deleteBlockedBy`). */
  abstract ledgerAccountIdsInUse(entityId: string, accountIds?: string[]): Promise<Set<string>>;
}

export abstract class BankMovementRepository {
  abstract page(entityId: string, bankAccountId: string, filter: MovementFilter): Promise<BankMovement[]>;
  /** D93: every movement of the filter in list order, in batches from a database cursor (cancelled when `signal` aborts). */
  abstract readAll<R>(entityId: string, bankAccountId: string, filter: Omit<MovementFilter, 'after' | 'limit'>, signal: AbortSignal, use: (batches: AsyncIterable<BankMovement[]>) => Promise<R>): Promise<R>;
  abstract find(entityId: string, movementId: string): Promise<BankMovement | null>;
  abstract lock(entityId: string, movementId: string): Promise<BankMovement | null>;
  /** The movement with its row version (`xmin`), locked or not: what a booking judges and then posts under (issue 33). */
  abstract readForBooking(entityId: string, movementId: string, locked: boolean): Promise<{ movement: BankMovement; version: string } | null>;
  /** The booking's precondition (postIf): the movement still unbooked and unchanged since that version, locked. */
  abstract bookingPrecondition(entityId: string, movementId: string, version: string): StatementQuery;
  /** The unbooked movement's link to the entry that books it, and its account's unreconciled count, as parts of the posting statement (written with its entry). */
  abstract bookingParts(movement: BankMovement, entryId: string, now: Date): StatementPart[];
  abstract insert(movement: BankMovement): Promise<void>;
  /** Lands the rows not landed before (by content hash, under concurrent imports too); answers how many landed. */
  abstract importRows(entityId: string, bankAccountId: string, rows: StatementRow[], ids: string[], now: Date): Promise<number>;
  abstract delete(entityId: string, movementId: string): Promise<void>;
  abstract setEntry(entityId: string, movementId: string, entryId: string, now: Date): Promise<void>;
  /** Unbooks the movements booked by these entries; answers them as they are now, with the entry each was booked by. */
  abstract severByEntries(entityId: string, entryIds: string[], now: Date): Promise<Array<{ movement: BankMovement; entryId: string }>>;
  /** As severByEntries, keeping the entry aside: if its reversal is unbooked, it books the movement again (D35). */
  abstract severByReversedEntries(entityId: string, entryIds: string[], now: Date): Promise<Array<{ movement: BankMovement; entryId: string }>>;
  /** Movements a reversal severed from one of these entries, locked, with that entry. */
  abstract lockSeveredFrom(entityId: string, entryIds: string[]): Promise<Array<{ movement: BankMovement; entryId: string }>>;
  /** These entries left the books for good: nothing severed from them can come back. */
  abstract forgetSeveredFrom(entityId: string, entryIds: string[]): Promise<void>;
  abstract byEntries(entityId: string, entryIds: string[]): Promise<BankMovement[]>;
  /** Of these lines, the bank-side lines of entries that booked a movement (they keep their account). */
  abstract bankLinesOfBookings(entityId: string, lineIds: string[]): Promise<Set<string>>;
}

/** Reads a statement file's records (CSV: quoted fields, BOM, CRLF, `,` or `;` separators). */
export abstract class StatementFileReader {
  /**
   * The statement's movement rows, judged whole (D78: StatementReading): BANK_IMPORT_ROW_INVALID_ERROR
   * naming the row on malformed CSV or the first bad row, a validation error on an empty file.
   * D2b: read as a bounded stream, off the service's main thread.
   */
  abstract read(file: Buffer): Promise<StatementRow[]>;
}

/**
 * Banking's read model of the ledger's open-item lines (SQL over the ledger's tables in
 * banking's infrastructure, as the reports read them): the lines a match names, and the
 * candidates of a movement, each with its partner's tax id.
 */
export abstract class OpenLineReader {
  abstract linesByIds(entityId: string, lineIds: string[]): Promise<OpenLine[]>;
  /**
   * Unsettled live open-item lines on `side`, in the Book read (common lines plus that Book's):
   * those whose open amount is `amount`, those of partners with one of `taxIds`, those in
   * `lineIds`, and the nearest in date on each open-item account. At most `perCriterion` each.
   */
  abstract candidates(
    entityId: string,
    query: { side: 'debit' | 'credit'; amount: number; date: string; bookId: string | null; taxIds: string[]; lineIds: string[]; perCriterion: number },
  ): Promise<OpenLine[]>;
}

/**
 * Port to the invoices module (D66 folio criterion): the open-item lines of booked invoices whose
 * folio (document number) is one of `folios`. Until the invoices module provides it, no line has
 * a folio (NoInvoiceFolios).
 */
export abstract class InvoiceFolios {
  abstract openItemLinesByFolios(entityId: string, folios: string[]): Promise<Set<string>>;
}

/**
 * Port to the FX module: the rate (functional units per unit of `currency`, D7) that books a
 * movement of that date. Without the FX module every foreign currency is refused
 * (NoExchangeRates: 404 FX_RATE_NOT_FOUND_ERROR), so no foreign amount is ever posted as a
 * functional one.
 */
export abstract class ExchangeRates {
  /** `functionalCurrency`: the Entity's, as the caller read it (the port does not read it again). */
  abstract rateOn(currency: string, date: string, functionalCurrency: string): Promise<string>;
}
