import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DomainError, encodeDateIdCursor, newId } from '../../../../libs/shared-kernel/src';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { AuditContext } from '../../../platform/audit/audit-context';
import { Clock } from '../../../platform/clock/clock';
import type { RuntimeConfig } from '../../../platform/config/app-config';
import { translateUniqueViolation } from '../../../platform/database/pg-errors';
import { EntitiesService } from '../../entities/application/entities.service';
import { ReferenceDataService } from '../../reference/application/reference-data.service';
import { isResultType } from '../domain/account-types';
import { AllocationRow, EntryRepository, ListedLine, PostingFacts, PostingReader, PostingReferences, PostingWrite } from '../domain/entry-ports';
import { bookOfNewEntry } from '../domain/books-dimensions';
import {
  assertEntryDate,
  assertOpenPeriod,
  entryNotFound,
  entryNotLive,
  LedgerEntry,
  LIVE_STATUSES,
  lineNotFound,
  LineInput,
  PostingContext,
} from '../domain/ledger-entry';
import { ledgerAccountNotFound, tooManyLines, validationError } from '../domain/ledger-errors';
import { ChartRepository, DimensionRepository } from '../domain/ledger-ports';
import { BooksService } from './books.service';
import { EntryLifecycleHooks, PartnerDirectory, SeveredRecords } from './entry-hooks';
import { readDateIdCursor } from './date-id-cursor';
import { RecentPostingFacts } from './recent-posting-facts';

export interface NewEntryInput {
  id: string;
  entryDate: string;
  memo: string;
  notes?: string | null;
  bookId?: string | null;
  lines: Array<Omit<LineInput, 'id'> & { id?: string }>;
}

export interface EntryDetail {
  entry: LedgerEntry;
  allocations: AllocationRow[];
}

export interface ReversalResult extends SeveredRecords {
  reversalEntry: LedgerEntry;
  reversedEntry: LedgerEntry;
  settledChainEntries: LedgerEntry[];
}

export interface UnbookResult extends SeveredRecords {
  unbookedEntry: LedgerEntry;
  settledChainEntries: LedgerEntry[];
}

const alreadyExists = (entryId: string) => new DomainError('LEDGER_ENTRY_ALREADY_EXISTS_ERROR', 'A ledger entry with this id already exists', { entryId });

/** A posting's lines, each with its id (sent, or made by the service). */
type NewLines = Array<NewEntryInput['lines'][number] & { id: string }>;

/** `to` before `from` is a client's mistake, not an empty range (as D58 rules for the reports). */
function refuseReversedRange(query: { from?: string; to?: string }): void {
  if (query.from !== undefined && query.to !== undefined && query.to < query.from) throw validationError('to', 'must be on or after from');
}

@Injectable()
export class LedgerEntriesService {
  constructor(
    private readonly entries: EntryRepository,
    private readonly postingReader: PostingReader,
    private readonly chart: ChartRepository,
    private readonly dimensions: DimensionRepository,
    private readonly books: BooksService,
    private readonly partners: PartnerDirectory,
    private readonly entities: EntitiesService,
    private readonly reference: ReferenceDataService,
    private readonly hooks: EntryLifecycleHooks,
    private readonly clock: Clock,
    private readonly auditContext: AuditContext,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    @Inject(ConfigService) private readonly config: ConfigService<RuntimeConfig, true>,
  ) {}

  private readonly recentFacts = new RecentPostingFacts();

  /** Posts a booked entry (D33): dated today or earlier and after the lock date. */
  async create(entityId: string, input: NewEntryInput): Promise<LedgerEntry> {
    return this.post(entityId, input, 'booked');
  }

  /** A scheduled entry: dated after today, no transaction-currency lines (spec). */
  async createScheduled(entityId: string, input: NewEntryInput): Promise<LedgerEntry> {
    return this.post(entityId, input, 'scheduled');
  }

  /**
   * The hot path: the posting facts (remembered from a recent posting with the same references,
   * else read by PostingReader) and one statement that writes the entry, its lines, totals and
   * audit row only if those facts still hold under the Entity's share lock. Should they have
   * changed (a lock date moved, a Book was added), the entry is judged again against facts read
   * afresh, and in the end under that lock, in a transaction.
   */
  private async post(entityId: string, input: NewEntryInput, kind: 'booked' | 'scheduled'): Promise<LedgerEntry> {
    const lines = input.lines.map((line) => ({ ...line, id: line.id ?? newId() }));
    const distinct = (ids: string[]) => [...new Set(ids)].sort();
    const references: PostingReferences = {
      accountIds: distinct(lines.map((l) => l.ledgerAccountId)),
      partnerIds: distinct(lines.flatMap((l) => (l.partnerId ? [l.partnerId] : []))),
      valueIds: distinct(lines.flatMap((l) => l.dimensionValueIds)),
    };
    const audit = this.auditContext.statementRow(input.id);
    const insert = (entry: LedgerEntry, write: PostingWrite) =>
      translateUniqueViolation(() => this.entries.insert(entry, { ...write, audit }), () => alreadyExists(input.id), {});

    if (!this.txHost.isTransactionActive()) {
      const key = RecentPostingFacts.key(entityId, references);
      const remembered = this.recentFacts.recall(key);
      if (remembered) {
        const entry = this.judgedOrNull(() => this.judge(entityId, input, lines, kind, remembered));
        if (entry && (await insert(entry, { unchanged: { references, fingerprint: remembered.fingerprint } }))) return entry;
        this.recentFacts.forget(key);
      }
      const facts = await this.postingReader.read(entityId, references, false);
      if (facts) this.recentFacts.remember(key, facts);
      const entry = await this.judgedOrReplayed(entityId, input, lines, kind, facts);
      if (await insert(entry, { unchanged: { references, fingerprint: facts!.fingerprint } })) return entry;
      this.recentFacts.forget(key);
    }
    return this.txHost.withTransaction(async () => {
      const facts = await this.postingReader.read(entityId, references, true);
      const entry = await this.judgedOrReplayed(entityId, input, lines, kind, facts);
      await insert(entry, {});
      return entry;
    });
  }

  /** A refusal on remembered facts is not given: they are read afresh and judged again. */
  private judgedOrNull(judge: () => LedgerEntry): LedgerEntry | null {
    try {
      return judge();
    } catch (error) {
      if (error instanceof DomainError) return null;
      throw error;
    }
  }

  /**
   * The entry judged on facts read afresh, or the refusal. What the body alone shows (400) is
   * refused first. The id is the idempotency id: when the content is then refused (the Book,
   * what the lines name, the dates) and the id is already an entry's, a replay is answered as
   * such (409 LEDGER_ENTRY_ALREADY_EXISTS_ERROR), as reverse answers one, not with what changed
   * since the first call (a lock date moved over it, today passing a scheduled date). The id is
   * looked up only on such a refusal: a posting that is written takes no extra round trip.
   */
  private async judgedOrReplayed(entityId: string, input: NewEntryInput, lines: NewLines, kind: 'booked' | 'scheduled', facts: PostingFacts | null): Promise<LedgerEntry> {
    const context = this.judgeShape(entityId, input, lines, kind, facts);
    try {
      return this.judgeContent(entityId, input, lines, kind, facts!, context);
    } catch (error) {
      if (error instanceof DomainError && (await this.entries.exists(entityId, input.id))) throw alreadyExists(input.id);
      throw error;
    }
  }

  /** The entry as posted against these facts, or the refusal. */
  private judge(entityId: string, input: NewEntryInput, lines: NewLines, kind: 'booked' | 'scheduled', facts: PostingFacts | null): LedgerEntry {
    return this.judgeContent(entityId, input, lines, kind, facts!, this.judgeShape(entityId, input, lines, kind, facts));
  }

  /** 400: what the body alone shows (given the Entity's functional currency). Answers the context to judge the rest in. */
  private judgeShape(entityId: string, input: NewEntryInput, lines: NewLines, kind: 'booked' | 'scheduled', facts: PostingFacts | null): PostingContext {
    if (!facts) throw new DomainError('ENTITY_NOT_FOUND_ERROR', 'No Entity with this id', { entityId });
    const context: PostingContext = {
      functionalCurrency: facts.currency,
      account: (id) => facts.accounts.get(id),
      partnerExists: (id) => facts.partnerIds.has(id),
      dimensionValue: (id) => facts.dimensionValues.get(id),
      exponent: (code) => this.reference.findCurrency(code)?.minorUnits,
    };
    if (kind === 'scheduled') this.refuseTransactionCurrency(input.lines);
    LedgerEntry.judgeLineShapes(lines, context);
    return context;
  }

  /** 404 (the Book, what the lines name), then 409 (Dimension Values off Result Accounts, then the date against today and the lock date). */
  private judgeContent(
    entityId: string,
    input: NewEntryInput,
    lines: NewLines,
    kind: 'booked' | 'scheduled',
    facts: PostingFacts,
    context: PostingContext,
  ): LedgerEntry {
    const bookId = bookOfNewEntry(facts.bookIds, input.bookId);
    const judged = LedgerEntry.judgeLineReferences(lines, context);
    assertEntryDate(input.entryDate, kind, this.clock.today(), facts.ledgerLockDate);
    return LedgerEntry.fromJudgedLines(
      {
        entityId,
        id: input.id,
        bookId,
        entryDate: input.entryDate,
        memo: input.memo,
        notes: input.notes ?? null,
        status: kind === 'booked' ? 'active' : 'scheduled',
        source: kind === 'booked' ? 'manual' : 'scheduled',
      },
      judged,
      this.clock.now(),
    );
  }

  async get(entityId: string, entryId: string): Promise<EntryDetail> {
    const entry = await this.entries.find(entityId, entryId);
    if (!entry) throw entryNotFound(entryId);
    return { entry, allocations: await this.entries.allocationsOfLines(entityId, entry.lines.map((l) => l.id)) };
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

    await this.releaseAllocations(entityId, original.lines.map((l) => l.id));
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
    const severed = await this.hooks.entriesLeftBooks(entityId, [original.id]);
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
    await this.releaseAllocations(entityId, gone.flatMap((e) => e.lines.map((l) => l.id)));
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
    const severed = await this.hooks.entriesLeftBooks(entityId, gone.map((e) => e.id));
    await this.hooks.entriesGone(entityId, gone.map((e) => e.id));
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

  async replaceScheduled(entityId: string, entryId: string, input: Omit<NewEntryInput, 'id' | 'bookId'>): Promise<LedgerEntry> {
    const terms = await this.entities.postingTerms(entityId);
    const entry = await this.locked(entityId, entryId);
    // The body's shape was checked by the pipe (400); the entry's state (409) comes before the
    // checks of the new content (dates, lines), as on every other route.
    entry.requireScheduled();
    this.refuseTransactionCurrency(input.lines);
    const lines = input.lines.map((line) => ({ ...line, id: line.id ?? newId() }));
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
    await this.hooks.entriesGone(entityId, [entry.id]);
    return entry;
  }

  /**
   * The unpaged lines list (D2a): refused before the first byte when more than the most lines of
   * one answer match; otherwise `send` gets the lines in batches from a database cursor.
   */
  async streamLines(
    entityId: string,
    query: { accountId?: string; partnerId?: string; from?: string; to?: string; status?: string; bookId?: string },
    signal: AbortSignal,
    send: (batches: AsyncIterable<ListedLine[]>) => Promise<void>,
  ): Promise<void> {
    refuseReversedRange(query);
    const bookId = query.bookId !== undefined ? await this.books.resolve(entityId, query.bookId) : undefined;
    const max = this.config.get('linesPerAnswerMax', { infer: true });
    await this.entries.readLines(entityId, { ...query, bookId, limit: max + 1 }, signal, async (count, batches) => {
      if (count > max) throw tooManyLines(max);
      await send(batches);
    });
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
    if ((await this.hooks.documentLinkedLines(entityId, [lineId])).has(lineId)) {
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

  /** Removes the allocations of these lines, locking every line they touch in id order first. */
  private async releaseAllocations(entityId: string, lineIds: string[]): Promise<void> {
    const allocations = await this.entries.allocationsOfLines(entityId, lineIds);
    if (allocations.length === 0) return;
    await this.entries.lockLines(entityId, [...new Set(allocations.flatMap((a) => [a.debitLineId, a.creditLineId]))]);
    await this.entries.removeAllocations(entityId, allocations);
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

  private refuseTransactionCurrency(lines: NewEntryInput['lines']): void {
    const index = lines.findIndex((l) => l.transactionCurrency || l.transactionAmount || l.exchangeRate);
    if (index >= 0) throw validationError(`newLedgerEntryLines[${index}]`, 'scheduled entries take no transaction-currency lines');
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
