import type { AccountType, Tracking } from './account-types';
import type { EntryLine, EntryStatus, LedgerEntry } from './ledger-entry';
import type { AuditRecord } from '../../../platform/audit/audit-recorder';
import type { StatementPart, StatementQuery } from '../../../platform/database/statement-parts';

/** What a new entry is judged against, read together (PostingReader). */
export interface PostingFacts {
  currency: string;
  ledgerLockDate: string | null;
  bookIds: string[];
  accounts: Map<string, { type: AccountType; tracking: Tracking }>;
  partnerIds: Set<string>;
  dimensionValues: Map<string, { dimensionId: string }>;
  /** Identifies these facts: a posting judged against them is written only while they hold. */
  fingerprint: string;
}

/** The ids a new entry names, distinct. */
export interface PostingReferences {
  accountIds: string[];
  partnerIds: string[];
  valueIds: string[];
}

export abstract class PostingReader {
  /**
   * Null when the Entity does not exist. With `lock`, share-locks the Entity and locks the named
   * accounts, partners and Dimension Values FOR KEY SHARE until the transaction ends, so neither
   * the posting terms (D24) nor what the lines name can change or go before the posting commits.
   */
  abstract read(entityId: string, ids: PostingReferences, lock: boolean): Promise<PostingFacts | null>;
  /** Which of these entry ids and line ids the Entity already has (of any status). */
  abstract existing(entityId: string, entryIds: string[], lineIds: string[]): Promise<{ entryIds: Set<string>; lineIds: Set<string> }>;
}

/** How a posting is written (EntryRepository.insert). */
export interface PostingWrite {
  /**
   * Write only if the facts of these references still have this fingerprint, checked under the
   * Entity's share lock and the references' key-share locks in the writing statement itself;
   * without it the caller holds those locks (PostingReader.read with `lock`).
   */
  unchanged?: { references: PostingReferences; fingerprint: string };
  /** The request's audit row, inserted by the same statement (single-statement routes). */
  audit?: AuditRecord | null;
  /** The caller's writes, run by the statement as its CTEs after the entry's, under its condition that the entry is written (PostingOptions.alongside). */
  parts?: StatementPart[];
  /** The caller's condition the entry is written under, a CTE of the statement (PostingOptions.precondition). */
  precondition?: StatementQuery;
}

/**
 * What a posting statement did: wrote the entry; found the facts of `unchanged` changed (nothing
 * written); or found the caller's `precondition` not holding (nothing written).
 */
export type PostingOutcome = 'written' | 'facts_changed' | 'precondition_failed';

export interface EntryListFilter {
  from?: string;
  to?: string;
  /** `live` (default), `all`, or one status. */
  status?: string;
  search?: string;
  accountId?: string;
  partnerId?: string;
  /** Undefined: every Book; null: common entries only; an id: common plus that Book's. */
  bookId?: string | null;
  after?: { entryDate: string; id: string };
  limit: number;
}

export interface LineListFilter {
  accountId?: string;
  partnerId?: string;
  from?: string;
  to?: string;
  status?: string;
  bookId?: string | null;
  /** At most this many lines, the first in list order. */
  limit: number;
}

export interface ListedLine extends EntryLine {
  entryId: string;
  entryDate: string;
  memo: string;
  status: EntryStatus;
  bookId: string | null;
  /** The entry this line's entry reverses, when it is a reversal. */
  reversalOfEntryId?: string | null;
}

export interface OpenItemFilter {
  accountId: string;
  partnerId?: string;
  includeSettled: boolean;
  bookId: string | null;
  after?: { entryDate: string; id: string };
  limit: number;
}

export interface OpenItemSummary {
  /** Signed open total of the whole filtered set, debit positive. */
  openTotal: number;
  lineCount: number;
  partnerOptions: Array<{ partnerId: string | null; partnerName: string | null; lineCount: number; openTotal: number }>;
}

export interface AllocationRow {
  entityId: string;
  id: string;
  debitLineId: string;
  creditLineId: string;
  accountId: string;
  amount: number;
  kind: 'manual' | 'reversal' | 'match';
  createdAt: Date;
  updatedAt: Date;
}

/** Writes new entries (the posting statement). */
export abstract class PostingWriter {
  /** Writes the entry, its lines, their tags and totals, unless `unchanged` or `precondition` did not hold. */
  abstract insert(entry: LedgerEntry, write?: PostingWrite): Promise<PostingOutcome>;
  /**
   * Writes a batch of booked entries of one Entity in one statement, in the caller's transaction
   * (which holds the posting facts' locks): the entries, lines, tags, the monthly totals once for
   * the batch and, with `audit`, one audit row per entry from that template. An entry whose id
   * another transaction wrote meanwhile is left out with its lines. Answers the ids written.
   */
  abstract insertBatch(entityId: string, entries: LedgerEntry[], audit: AuditRecord | null): Promise<{ entryIds: string[]; lineCount: number }>;
}

/** Ledger entries and lines; every method takes the Entity first. */
export abstract class EntryRepository {
  abstract find(entityId: string, entryId: string): Promise<LedgerEntry | null>;
  /** The entries with these ids, as stored now, in the order of `entryIds` (missing ones left out). */
  abstract findMany(entityId: string, entryIds: string[]): Promise<LedgerEntry[]>;
  /** Whether an entry (of any status) has this id. */
  abstract exists(entityId: string, entryId: string): Promise<boolean>;
  /** The original an entry reverses (null for any other entry, or no such entry): its header only. */
  abstract reversalOfEntryId(entityId: string, entryId: string): Promise<string | null>;
  /** Locks the entry row (FOR UPDATE) for the rest of the transaction. */
  abstract lock(entityId: string, entryId: string): Promise<LedgerEntry | null>;
  /** Writes header and status, and the lines' copies of date and status. */
  abstract saveHeader(entry: LedgerEntry): Promise<void>;
  /**
   * Adds (1) or takes away (-1) an entry's lines, as stored now, to the monthly totals: called
   * when an entry enters or leaves the live set, or moves in time (insert() adds live entries).
   */
  abstract shiftTotals(entityId: string, entryId: string, sign: 1 | -1): Promise<void>;
  abstract shiftLineTotals(entityId: string, lineId: string, sign: 1 | -1): Promise<void>;
  /** Replaces the whole line set of a (scheduled) entry. */
  abstract replaceLines(entry: LedgerEntry): Promise<void>;
  abstract list(entityId: string, filter: EntryListFilter): Promise<LedgerEntry[]>;
  /** D93: every entry of the filter in list order, in batches from a cursor (cancelled when `signal` aborts). */
  abstract readEntries<R>(entityId: string, filter: Omit<EntryListFilter, 'after' | 'limit'>, signal: AbortSignal, use: (batches: AsyncIterable<LedgerEntry[]>) => Promise<R>): Promise<R>;
  /** D2a: `use` gets the count (up to `filter.limit`) and then the lines in batches, from a cursor. */
  abstract readLines<R>(entityId: string, filter: LineListFilter, signal: AbortSignal, use: (count: number, batches: AsyncIterable<ListedLine[]>) => Promise<R>): Promise<R>;
  abstract findLine(entityId: string, lineId: string): Promise<ListedLine | null>;
  /** Locks lines (FOR UPDATE) in id order, the one order every writer uses. */
  abstract lockLines(entityId: string, lineIds: string[]): Promise<ListedLine[]>;
  /**
   * Share-locks the entries of these lines until the transaction ends, originals before
   * reversals (the order in which unbooking and date changes lock a reversal pair), each in id
   * order. A new allocation holds them before locking its lines: unbooking or reversing one of
   * them (which locks the entry, then reads its allocations) waits for the allocation to commit
   * and then sees it, or the allocation waits and then finds the entry no longer live.
   */
  abstract holdEntriesOfLines(entityId: string, lineIds: string[]): Promise<void>;
  abstract updateLine(entityId: string, lineId: string, change: { partnerId?: string | null; accountId?: string; isOpenItem?: boolean }): Promise<void>;
  abstract replaceLineDimensionValues(entityId: string, lineId: string, values: Array<{ id: string; dimensionId: string }>): Promise<void>;
}

/** Allocations between open-item lines, and the open-item reads. */
export abstract class AllocationRepository {
  abstract allocationsOfLines(entityId: string, lineIds: string[]): Promise<AllocationRow[]>;
  /** Not locked: an allocation is removed only under the locks of its two lines (lockLines). */
  abstract findAllocation(entityId: string, allocationId: string): Promise<AllocationRow | null>;
  abstract openItemLines(entityId: string, filter: OpenItemFilter): Promise<ListedLine[]>;
  abstract openItemSummary(entityId: string, filter: Omit<OpenItemFilter, 'after' | 'limit'>): Promise<OpenItemSummary>;
  abstract insertAllocations(allocations: AllocationRow[]): Promise<void>;
  /**
   * Deletes allocations and gives their amounts back to both lines (callers hold the line locks);
   * one that is already gone (removed by a transaction that committed since it was read) is
   * given back by that transaction, not again.
   */
  abstract removeAllocations(entityId: string, allocations: AllocationRow[]): Promise<void>;
}

/** What the rest of the books asks about entries (the Entity, accounts, partners, Dimension Values). */
export abstract class LedgerUsageQueries {
  abstract earliestScheduledEntryDate(entityId: string): Promise<string | null>;
  abstract hasAnyEntry(entityId: string): Promise<boolean>;
  /**
   * Accounts any line names (`named`, whatever its entry's status: such an account cannot be
   * deleted) and those a live or scheduled line names (`live`, the chart's `hasEntries`).
   */
  abstract accountIdsWithLines(entityId: string, accountIds?: string[]): Promise<{ named: Set<string>; live: Set<string> }>;
  abstract partnerIsNamed(entityId: string, partnerId: string): Promise<boolean>;
  /**
   * Open amounts per partner in one Book read: on receivable accounts debit-positive, on payable
   * accounts credit-positive.
   */
  abstract partnerOpenBalances(entityId: string, bookId: string | null, partnerIds: string[]): Promise<Map<string, { receivable: number; payable: number }>>;
  abstract dimensionValueIsTagged(entityId: string, valueId: string): Promise<boolean>;
}
