import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DomainError, encodeDateIdCursor, newId } from '../../../../libs/shared-kernel/src';
import { Clock } from '../../../platform/clock/clock';
import type { RuntimeConfig } from '../../../platform/config/app-config';
import { translateUniqueViolation } from '../../../platform/database/pg-errors';
import { EntitiesService } from '../../entities/application/entities.service';
import { ReferenceDataService } from '../../reference/application/reference-data.service';
import { isResultType } from '../domain/account-types';
import { AllocationRow, EntryRepository, ListedLine } from '../domain/entry-ports';
import { assertEntryDate, assertOpenPeriod, entryNotFound, entryNotLive, LedgerEntry, LIVE_STATUSES, lineNotFound, LineInput, PostingContext } from '../domain/ledger-entry';
import { ledgerAccountNotFound, tooManyLines, validationError } from '../domain/ledger-errors';
import { ChartRepository, DimensionRepository } from '../domain/ledger-ports';
import { BooksService } from './books.service';
import { EntryLifecycle, mergeSevered, releasedEvent, PartnerDirectory, RelatedDocuments, SeveredDocuments } from './entry-lifecycle';
import { readDateIdCursor } from './date-id-cursor';
import { renameFieldPaths } from './post-entry/field-paths';
import { LedgerPosting, linesOf, PostingOptions, refuseTransactionCurrency } from './post-entry/ledger-postings';

export interface EntryDetail extends RelatedDocuments {
  entry: LedgerEntry;
  allocations: AllocationRow[];
}

export interface ReversalResult extends SeveredDocuments {
  reversalEntry: LedgerEntry;
  reversedEntry: LedgerEntry;
  settledChainEntries: LedgerEntry[];
}

export interface UnbookResult extends SeveredDocuments {
  unbookedEntry: LedgerEntry;
  settledChainEntries: LedgerEntry[];
}

const alreadyExists = (entryId: string) => new DomainError('LEDGER_ENTRY_ALREADY_EXISTS_ERROR', 'A ledger entry with this id already exists', { entryId });

/** `to` before `from` is a client's mistake, not an empty range (as D58 rules for the reports). */
function refuseReversedRange(query: { from?: string; to?: string }): void {
  if (query.from !== undefined && query.to !== undefined && query.to < query.from) throw validationError('to', 'must be on or after from');
}

@Injectable()
export class LedgerEntriesService {
  constructor(
    private readonly entries: EntryRepository,
    private readonly chart: ChartRepository,
    private readonly dimensions: DimensionRepository,
    private readonly books: BooksService,
    private readonly partners: PartnerDirectory,
    private readonly entities: EntitiesService,
    private readonly reference: ReferenceDataService,
    private readonly lifecycle: EntryLifecycle,
    private readonly clock: Clock,
    @Inject(ConfigService) private readonly config: ConfigService<RuntimeConfig, true>,
  ) {}

  async get(entityId: string, entryId: string): Promise<EntryDetail> {
    const entry = await this.entries.find(entityId, entryId);
    if (!entry) throw entryNotFound(entryId);
    const allocations = await this.entries.allocationsOfLines(entityId, entry.lines.map((l) => l.id));
    return { entry, allocations, ...(await this.lifecycle.relatedDocuments(entityId, entryId)) };
  }

  async list(
    entityId: string,
    query: { from?: string; to?: string; status?: string; search?: string; accountId?: string; partnerId?: string; bookId?: string; cursor?: string; limit?: number },
  ): Promise<{ entries: LedgerEntry[]; nextCursor: string | null }> {
    refuseReversedRange(query);
    // The cursor is part of the query's shape (400), judged before the Book is looked up.
    const after = query.cursor ? readDateIdCursor(query.cursor) : undefined;
    const limit = query.limit ?? 50;
    const bookId = query.bookId !== undefined ? await this.books.resolve(entityId, query.bookId) : undefined;
    const found = await this.entries.list(entityId, { ...query, bookId, after, limit: limit + 1 });
    const page = found.slice(0, limit);
    return { entries: page, nextCursor: found.length > limit ? encodeDateIdCursor({ date: page[page.length - 1].entryDate, id: page[page.length - 1].id }) : null };
  }

  async editHeader(entityId: string, entryId: string, change: { entryDate?: string; memo?: string; notes?: string | null }): Promise<LedgerEntry> {
    const terms = await this.entities.postingTerms(entityId);
    // A new date is judged against the other half of a reversal pair, read under its lock: two
    // date changes of its halves queue and the second sees the first's date.
    const original = change.entryDate !== undefined ? await this.lockOriginalOf(entityId, entryId) : null;
    const entry = await this.locked(entityId, entryId);
    if (!entry.isLive) throw entryNotLive(entryId, entry.status);
    assertOpenPeriod(entry.entryDate, terms.ledgerLockDate);
    if (change.entryDate !== undefined) {
      assertEntryDate(change.entryDate, 'booked', this.clock.today(), terms.ledgerLockDate);
      await this.keepReversalOrder(entityId, entry, original, change.entryDate);
    }
    const moves = change.entryDate !== undefined && change.entryDate !== entry.entryDate;
    entry.editHeader(change, this.clock.now());
    if (moves) await this.entries.shiftTotals(entityId, entryId, -1);
    await this.entries.saveHeader(entry);
    if (moves) await this.entries.shiftTotals(entityId, entryId, 1);
    return entry;
  }

  /**
   * A reversal stays dated after its original when either date changes. `original` (the entry's,
   * when it is a reversal) was locked by the caller before the entry; the entry's reversal is
   * locked here, after it.
   */
  private async keepReversalOrder(entityId: string, entry: LedgerEntry, original: LedgerEntry | null, newDate: string): Promise<void> {
    const invalid = (originalDate: string, reversalDate: string) =>
      new DomainError('LEDGER_REVERSAL_DATE_INVALID_ERROR', 'A reversal is dated after its original', { entryDate: originalDate, reversalDate });
    if (entry.reversedByEntryId) {
      const reversal = await this.entries.lock(entityId, entry.reversedByEntryId);
      if (reversal && newDate >= reversal.entryDate) throw invalid(newDate, reversal.entryDate);
    }
    if (original && newDate <= original.entryDate) throw invalid(original.entryDate, newDate);
  }

  /**
   * D36: posts the mirror in the original's Book; allocations on the original's open-item lines
   * are removed, then each open-item line is netted against its mirror by an allocation.
   */
  async reverse(entityId: string, entryId: string, input: { id: string; reversalDate: string; memo?: string }): Promise<ReversalResult> {
    const terms = await this.entities.postingTerms(entityId);
    const original = await this.locked(entityId, entryId);
    // The reversal id is the idempotency id: a replay answers that it exists, not that the
    // original (reversed by the first call) is no longer reversible.
    if (await this.entries.exists(entityId, input.id)) throw alreadyExists(input.id);
    const now = this.clock.now();
    const mirror = original.reverse({ ...input, lineIds: original.lines.map(() => newId()), ledgerLockDate: terms.ledgerLockDate }, now);
    await translateUniqueViolation(() => this.entries.insert(mirror), () => alreadyExists(input.id));
    await this.entries.saveHeader(original);

    const released = await this.releaseAllocations(entityId, original.lines.map((l) => l.id));
    const netting: AllocationRow[] = original.lines
      .map((line, i) => ({ line, mirror: mirror.lines[i] }))
      .filter(({ line }) => line.isOpenItem)
      .map(({ line, mirror: m }) => ({
        entityId,
        id: newId(),
        debitLineId: line.side === 'debit' ? line.id : m.id,
        creditLineId: line.side === 'credit' ? line.id : m.id,
        accountId: line.ledgerAccountId,
        amount: line.amount,
        kind: 'reversal',
        createdAt: now,
        updatedAt: now,
      }));
    await this.entries.insertAllocations(netting);
    const severed = mergeSevered(released, await this.lifecycle.notify({ entityId, entryIds: [original.id], reason: 'reversed' }));
    const [reversalEntry, reversedEntry] = await this.persisted(entityId, [mirror, original]);
    return { reversalEntry, reversedEntry, settledChainEntries: [], ...severed };
  }

  /**
   * The entries as stored at the end of a mutation: allocations made or removed by it change
   * open amounts that the aggregates in hand do not follow (the response must equal a GET).
   */
  private async persisted(entityId: string, entries: LedgerEntry[]): Promise<LedgerEntry[]> {
    const stored = await this.entries.findMany(entityId, entries.map((e) => e.id));
    if (stored.length !== entries.length) throw new Error('An entry written by this mutation could not be read back');
    return stored;
  }

  /**
   * D35: a live entry becomes `deleted`; its lines' allocations go (the other sides get their
   * open amounts back). Unbooking a reversal puts its original back to `active`; unbooking an
   * original that has been reversed takes its reversal with it (both `deleted`, the reversal
   * listed among the settled chain entries).
   */
  async unbook(entityId: string, entryId: string): Promise<UnbookResult> {
    const terms = await this.entities.postingTerms(entityId);
    const original = await this.lockOriginalOf(entityId, entryId);
    const entry = await this.locked(entityId, entryId);
    // The entry's state (409 LEDGER_ENTRY_NOT_LIVE_ERROR) before its date against the lock date.
    if (!entry.isLive) throw entryNotLive(entryId, entry.status);
    assertOpenPeriod(entry.entryDate, terms.ledgerLockDate);
    const reversal = entry.status === 'reversed' && entry.reversedByEntryId ? await this.entries.lock(entityId, entry.reversedByEntryId) : null;
    if (reversal) assertOpenPeriod(reversal.entryDate, terms.ledgerLockDate);
    const now = this.clock.now();
    entry.unbook(now, reversal);
    const gone = reversal ? [entry, reversal] : [entry];
    const released = await this.releaseAllocations(entityId, gone.flatMap((e) => e.lines.map((l) => l.id)));
    for (const e of gone) {
      await this.entries.saveHeader(e);
      await this.entries.shiftTotals(entityId, e.id, -1);
    }
    const settledChainEntries: LedgerEntry[] = reversal ? [reversal] : [];
    if (original) {
      original.restoreAfterReversalUnbooked(now);
      await this.entries.saveHeader(original);
      settledChainEntries.push(original);
    }
    const severed = mergeSevered(released, await this.lifecycle.notify({ entityId, entryIds: gone.map((e) => e.id), reason: 'unbooked' }));
    const [unbookedEntry, ...settled] = await this.persisted(entityId, [entry, ...settledChainEntries]);
    return { unbookedEntry, settledChainEntries: settled, ...severed };
  }

  async bookScheduled(entityId: string, entryId: string): Promise<LedgerEntry> {
    const terms = await this.entities.postingTerms(entityId);
    const entry = await this.locked(entityId, entryId);
    entry.book(this.clock.today(), this.clock.now());
    assertOpenPeriod(entry.entryDate, terms.ledgerLockDate);
    await this.entries.saveHeader(entry);
    await this.entries.shiftTotals(entityId, entryId, 1);
    return entry;
  }

  async replaceScheduled(
    entityId: string,
    entryId: string,
    input: Pick<LedgerPosting, 'entryDate' | 'memo' | 'notes' | 'lines'>,
    options: PostingOptions = {},
  ): Promise<LedgerEntry> {
    try {
      return await this.rescheduled(entityId, entryId, input);
    } catch (error) {
      throw renameFieldPaths(error, options.fieldPath);
    }
  }

  private async rescheduled(entityId: string, entryId: string, input: Pick<LedgerPosting, 'entryDate' | 'memo' | 'notes' | 'lines'>): Promise<LedgerEntry> {
    const terms = await this.entities.postingTerms(entityId);
    const entry = await this.locked(entityId, entryId);
    // The body's shape was checked by the pipe (400); the entry's state (409) comes before the
    // checks of the new content (dates, lines), as on every other route.
    entry.requireScheduled();
    refuseTransactionCurrency(input.lines);
    const lines = linesOf(input);
    const judged = LedgerEntry.judgeLines(lines, await this.postingContext(entityId, terms.currency, lines));
    assertEntryDate(input.entryDate, 'scheduled', this.clock.today(), terms.ledgerLockDate);
    entry.reschedule({ entryDate: input.entryDate, memo: input.memo, notes: input.notes ?? null }, judged, this.clock.now());
    await this.entries.replaceLines(entry);
    return entry;
  }

  async cancelScheduled(entityId: string, entryId: string): Promise<LedgerEntry> {
    const entry = await this.locked(entityId, entryId);
    entry.cancel(this.clock.now());
    await this.entries.saveHeader(entry);
    await this.lifecycle.notify({ entityId, entryIds: [entry.id], reason: 'cancelled' });
    return entry;
  }

  async lines(entityId: string, query: { accountId?: string; partnerId?: string; from?: string; to?: string; status?: string; bookId?: string }): Promise<ListedLine[]> {
    refuseReversedRange(query);
    const bookId = query.bookId !== undefined ? await this.books.resolve(entityId, query.bookId) : undefined;
    const max = this.config.get('linesPerAnswerMax', { infer: true });
    const lines = await this.entries.listLines(entityId, { ...query, bookId, limit: max + 1 });
    if (lines.length > max) throw tooManyLines(max);
    return lines;
  }

  async setLinePartner(entityId: string, lineId: string, partnerId: string | null): Promise<ListedLine> {
    const line = await this.editableLine(entityId, lineId);
    if (partnerId !== null && !(await this.partners.holdExisting(entityId, [partnerId])).has(partnerId)) {
      throw new DomainError('PARTNER_NOT_FOUND_ERROR', 'No partner with this id in the Entity', { partnerId });
    }
    await this.entries.updateLine(entityId, line.id, { partnerId });
    return (await this.entries.findLine(entityId, lineId))!;
  }

  /** Only a line with no allocation and no document link, of an entry in an open period. */
  async setLineAccount(entityId: string, lineId: string, accountId: string): Promise<ListedLine> {
    const line = await this.editableLine(entityId, lineId);
    if (line.allocatedAmount > 0 || (await this.entries.allocationsOfLines(entityId, [lineId])).length > 0) {
      throw new DomainError('LEDGER_LINE_HAS_ALLOCATIONS_ERROR', 'The line is settled by an allocation', { lineId });
    }
    if ((await this.lifecycle.documentLinkedLines(entityId, [lineId])).has(lineId)) {
      throw new DomainError('LEDGER_LINE_DOCUMENT_LINKED_ERROR', 'A document (invoice or bank movement) is linked to the line', { lineId });
    }
    const [account] = await this.chart.accountsByIds(entityId, [accountId], true);
    if (!account) throw ledgerAccountNotFound({ accountId });
    if (line.dimensionValues.length > 0 && !isResultType(account.type)) {
      throw new DomainError('LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR', 'Only lines on Result Accounts carry Dimension Values', { lineId });
    }
    await this.entries.shiftLineTotals(entityId, lineId, -1);
    await this.entries.updateLine(entityId, lineId, { accountId, isOpenItem: account.tracking === 'open_item' });
    await this.entries.shiftLineTotals(entityId, lineId, 1);
    return (await this.entries.findLine(entityId, lineId))!;
  }

  async setLineDimensionValues(entityId: string, lineId: string, valueIds: string[]): Promise<ListedLine> {
    const line = await this.editableLine(entityId, lineId);
    const context = await this.postingContext(entityId, '', [{ ...line, dimensionValueIds: valueIds }]);
    const values = valueIds.length === 0 ? [] : LedgerEntry.judgeDimensionValues(valueIds, context.account(line.ledgerAccountId)!.type, context, { lineId });
    await this.entries.replaceLineDimensionValues(entityId, lineId, values);
    return (await this.entries.findLine(entityId, lineId))!;
  }

  /** The line, locked with its entry, when it may change: its entry live, its date after the lock date. */
  private async editableLine(entityId: string, lineId: string): Promise<ListedLine> {
    const terms = await this.entities.postingTerms(entityId);
    const found = await this.entries.findLine(entityId, lineId);
    if (!found) throw lineNotFound(lineId);
    await this.locked(entityId, found.entryId);
    const [line] = await this.entries.lockLines(entityId, [lineId]);
    // D33a: the lines of an entry that is not live (a scheduled one included: its lines change
    // only with PATCH scheduled-entries, which replaces the whole set) do not change here.
    if (!LIVE_STATUSES.includes(line.status)) throw entryNotLive(line.entryId, line.status);
    assertOpenPeriod(line.entryDate, terms.ledgerLockDate);
    return line;
  }

  /**
   * Removes the allocations of these lines, locking every line they touch in id order first, and
   * tells the listeners (allocations_released).
   */
  private async releaseAllocations(entityId: string, lineIds: string[]): Promise<SeveredDocuments> {
    const allocations = await this.entries.allocationsOfLines(entityId, lineIds);
    if (allocations.length === 0) return { severedInvoices: [], severedMovements: [] };
    const lines = await this.entries.lockLines(entityId, [...new Set(allocations.flatMap((a) => [a.debitLineId, a.creditLineId]))]);
    await this.entries.removeAllocations(entityId, allocations);
    return this.lifecycle.notify(releasedEvent(entityId, allocations, lines));
  }

  /**
   * The original of a reversal (null for any other entry), locked. Every write to a reversal pair
   * locks it original first (unbooking the original, then its reversal, does too), so writes to
   * both halves at once queue instead of deadlocking. Call it before locking the entry itself.
   */
  private async lockOriginalOf(entityId: string, entryId: string): Promise<LedgerEntry | null> {
    const originalId = await this.entries.reversalOfEntryId(entityId, entryId);
    return originalId ? this.entries.lock(entityId, originalId) : null;
  }

  private async locked(entityId: string, entryId: string): Promise<LedgerEntry> {
    const entry = await this.entries.lock(entityId, entryId);
    if (!entry) throw entryNotFound(entryId);
    return entry;
  }

  /**
   * One query each for the accounts, partners and values the lines name (no N+1), each held
   * (key-share-locked) until the transaction ends, as the posting statement holds them: lines are
   * judged on their latest version, and a delete or type change of one waits for these lines.
   */
  private async postingContext(entityId: string, functionalCurrency: string, lines: Array<Pick<LineInput, 'ledgerAccountId' | 'partnerId' | 'dimensionValueIds'>>): Promise<PostingContext> {
    const accounts = new Map((await this.chart.accountsByIds(entityId, lines.map((l) => l.ledgerAccountId), true)).map((a) => [a.id, a]));
    const partners = await this.partners.holdExisting(entityId, lines.flatMap((l) => (l.partnerId ? [l.partnerId] : [])));
    const values = new Map((await this.dimensions.valuesByIds(entityId, lines.flatMap((l) => l.dimensionValueIds), true)).map((v) => [v.id, v]));
    return {
      functionalCurrency,
      account: (id) => accounts.get(id),
      partnerExists: (id) => partners.has(id),
      dimensionValue: (id) => values.get(id),
      exponent: (code) => this.reference.findCurrency(code)?.minorUnits,
    };
  }
}
