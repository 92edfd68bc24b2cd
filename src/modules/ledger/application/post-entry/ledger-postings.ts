import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DomainError, newId } from '../../../../../libs/shared-kernel/src';
import { AuditContext } from '../../../../platform/audit/audit-context';
import type { AuditRecord } from '../../../../platform/audit/audit-recorder';
import { Clock } from '../../../../platform/clock/clock';
import { translateUniqueViolation } from '../../../../platform/database/pg-errors';
import type { StatementPart, StatementQuery } from '../../../../platform/database/statement-parts';
import { ReferenceDataService } from '../../../reference';
import { bookOfNewEntry } from '../../domain/books-dimensions';
import { EntryRepository, PostingFacts, PostingReader, PostingReferences, PostingWrite, PostingWriter } from '../../domain/entry-ports';
import { assertEntryDate, entryAlreadyExists as alreadyExists, type PostingSource, LedgerEntry, lineAlreadyExists, LedgerEntryState, LineInput, PostingContext, Side } from '../../domain/ledger-entry';
import { assertExerciseLocked } from '../../domain/closing';
import { validationError } from '../../domain/ledger-errors';
import { RecentPostingFacts } from '../recent-posting-facts';
import { PartnerDirectory } from '../partner-directory';
import { FieldPath, renameFieldPaths } from './field-paths';
import { entityNotFound } from '../../../entities';

/** A line of a posting; what is left out is null (or no tags). */
export interface PostingLine {
  /** Made by the ledger when left out. */
  id?: string;
  side: Side;
  ledgerAccountId: string;
  /** Minor units of the Entity's functional currency, positive. */
  amount: number;
  description?: string | null;
  partnerId?: string | null;
  dimensionValueIds?: string[];
  /** The transaction trio (D7): all three or none. */
  transactionCurrency?: string | null;
  transactionAmount?: number | null;
  exchangeRate?: string | null;
}

export type { PostingSource };

export interface LedgerPosting {
  /** The entry id, client-supplied: the idempotency id (a replay is 409 LEDGER_ENTRY_ALREADY_EXISTS_ERROR). */
  id: string;
  source: PostingSource;
  entryDate: string;
  memo: string;
  notes?: string | null;
  /** Undefined or null: a common entry (every Book); an id: that Book's. */
  bookId?: string | null;
  lines: PostingLine[];
}

export interface PostingOptions {
  /**
   * Renames the posting's fields in refusals (`lines[1].amount`, `lines`, `entryDate`...) to
   * the caller's body; without it they are named as in LedgerPosting.
   */
  fieldPath?: FieldPath;
  /**
   * The caller's writes that go with the entry (a document booked by it, its read models, the
   * request's audit row), made from the entry as judged: the posting statement runs them as its
   * CTEs, in its round trip. Each takes its parameters from the statement (`host.param`) and
   * writes only under `host.written`, the condition that the statement writes the entry (a
   * statement whose guard finds the facts changed writes nothing, and the posting is judged again
   * and written by another one, with the parts made afresh).
   * Outside a transaction they are written by the one statement that writes the entry, or not
   * at all; inside one they follow the entry's fate, as every write of that transaction does.
   */
  alongside?: (entry: PostedEntry) => StatementPart[];
  /**
   * The request's audit row when the caller took it (AuditContext.takeStatementRow) to write its
   * document and the entry under it: the posting statement inserts it with the entry, as it does
   * the row it claims itself on a single-statement route.
   */
  audit?: AuditRecord | null;
}

/** PostingOptions of postIf(). */
export interface ConditionalPostingOptions extends PostingOptions {
  /**
   * A query on the caller's own rows that the entry is written under, run by the posting
   * statement as its CTE: it locks the rows it checks (FOR UPDATE) and yields a row only when
   * they are still as the caller read them (the version it read, the state it judged). No row:
   * nothing is written, the entry nor the parts alongside, and postIf() answers null.
   */
  precondition: StatementQuery;
}

/** A refused entry of a batch: where (its index and the field path), why (the code) and how. */
export interface BatchRefusal {
  /** The entry's index in the batch. */
  index: number;
  /** `entries[3].newLedgerEntryLines[1].amount`: `entryPath(index)` then the posting's field renamed by `fieldPath`. */
  path: string;
  code: string;
  message: string;
}

export interface BatchOptions extends PostingOptions {
  /** How an entry of the batch is named in refusals; `entries[i]` by default. */
  entryPath?: (index: number) => string;
}

/** What a batch wrote: every entry of it posted, or, by id, already in the books. */
export interface PostedBatch {
  postedEntries: number;
  postedLines: number;
  /** Ids of the batch's entries already in the Entity's books (any status), written by nothing here. */
  skippedEntryIds: string[];
}

/** Refusals a refused batch names, at most (the first ones, in batch order). */
export const BATCH_REFUSALS_MAX = 100;

/** 400 VALIDATION_ERROR naming the refused entries of a batch (BatchRefusal), nothing written. */
export function batchRefused(refusals: BatchRefusal[]): DomainError {
  const more = refusals.length >= BATCH_REFUSALS_MAX ? ` (the first ${BATCH_REFUSALS_MAX})` : '';
  return new DomainError('VALIDATION_ERROR', `The batch is refused whole, nothing written: ${refusals.length} refusals${more}; first ${refusals[0].path}: ${refusals[0].message}`, {
    errors: refusals,
  });
}

/** An entry's refusal: the field it names (params `path` or the first of `errors`), else what the code is about. */
function refusalPath(error: DomainError): string {
  const params = error.params as { path?: unknown; errors?: Array<{ path?: unknown }> };
  if (Array.isArray(params.errors) && typeof params.errors[0]?.path === 'string') return params.errors[0].path;
  if (typeof params.path === 'string') return params.path;
  if (error.code === 'LEDGER_ENTRY_UNBALANCED_ERROR' || error.code === 'LEDGER_ENTRY_LINE_COUNT_ERROR') return 'lines';
  if (error.code === 'BOOK_NOT_FOUND_ERROR' || error.code === 'BOOK_REQUIRED_ERROR') return 'bookId';
  if (error.code === 'LEDGER_ENTRY_ALREADY_EXISTS_ERROR') return 'id';
  return 'entryDate';
}

/** An entry as posted (a copy: changing it changes nothing). */
export type PostedEntry = LedgerEntryState;

/** A posting as judged and written: a caller's, or the closing entry (postClosingEntry). */
type InternalPosting = Omit<LedgerPosting, 'source'> & { source: PostingSource | 'closing' };
/** `closing`: the one entry posted into a locked period (D90), by the closing use case only. */
type Kind = 'booked' | 'scheduled' | 'closing';
/** A posting's lines, each with its id (sent, or made by the service). */
type NewLines = LineInput[];


export function linesOf(posting: Pick<LedgerPosting, 'lines'>): NewLines {
  return posting.lines.map((line) => ({
    id: line.id ?? newId(),
    side: line.side,
    ledgerAccountId: line.ledgerAccountId,
    amount: line.amount,
    description: line.description ?? null,
    partnerId: line.partnerId ?? null,
    dimensionValueIds: line.dimensionValueIds ?? [],
    transactionCurrency: line.transactionCurrency ?? null,
    transactionAmount: line.transactionAmount ?? null,
    exchangeRate: line.exchangeRate ?? null,
  }));
}

/** Scheduled entries take no transaction-currency lines (spec). */
export function refuseTransactionCurrency(lines: PostingLine[]): void {
  const index = lines.findIndex((l) => l.transactionCurrency || l.transactionAmount || l.exchangeRate);
  if (index >= 0) throw validationError(`lines[${index}]`, 'scheduled entries take no transaction-currency lines');
}

/**
 * The one way lines are written to the ledger: its own route and every module that books a
 * document (an invoice, a bank movement) post through here, with the same checks, locks, fast
 * path and audit row.
 *
 * Outside a transaction (the ledger's own single-statement route) it takes the fast path: the
 * posting facts (remembered from a recent posting with the same references, else read by
 * PostingReader) and one statement that writes the entry, its lines, totals and audit row only
 * if those facts still hold under the Entity's share lock. Should they have changed (a lock date
 * moved, a Book was added), the entry is judged again against facts read afresh, and in the end
 * under that lock, in a transaction. Inside a transaction (a use case of another module, a
 * non-HTTP job) the posting joins it: remembered facts are tried the same way (one statement);
 * without them, or should they have changed, the facts are read under their locks and the entry
 * is written in it.
 */
@Injectable()
export class LedgerPostings {
  constructor(
    private readonly entries: EntryRepository,
    private readonly writer: PostingWriter,
    private readonly postingReader: PostingReader,
    private readonly reference: ReferenceDataService,
    private readonly clock: Clock,
    private readonly auditContext: AuditContext,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly partners: PartnerDirectory,
  ) {}

  private readonly recentFacts = new RecentPostingFacts();

  /** Posts a booked entry (D33): dated today or earlier and after the lock date. */
  async post(entityId: string, posting: LedgerPosting, options: PostingOptions = {}): Promise<PostedEntry> {
    try {
      return (await this.write(entityId, posting, 'booked', options))!.snapshot();
    } catch (error) {
      throw renameFieldPaths(error, options.fieldPath);
    }
  }

  /**
   * As post(), written only while the caller's precondition holds, checked under its lock by the
   * posting statement itself: a document read without a lock is booked in one statement, no
   * transaction, should nobody have changed it meanwhile. Null when the precondition did not
   * hold: nothing written (the caller reads its rows again, under a lock).
   */
  async postIf(entityId: string, posting: LedgerPosting, options: ConditionalPostingOptions): Promise<PostedEntry | null> {
    try {
      return (await this.write(entityId, posting, 'booked', options))?.snapshot() ?? null;
    } catch (error) {
      throw renameFieldPaths(error, options.fieldPath);
    }
  }

  /**
   * D90: the closing entry of a year-end closing, the one entry the ledger posts into a locked
   * period: source `closing`, dated the exercise's end, which must be on or before the lock date
   * (the caller, CloseExercise, checked it under the Entity's share lock and holds it). Only inside
   * the closing's transaction; the date is not judged against the lock date nor today, every other
   * rule of post() holds.
   */
  async postClosingEntry(entityId: string, posting: Omit<LedgerPosting, 'source'>): Promise<PostedEntry> {
    if (!this.txHost.isTransactionActive()) throw new Error('A closing entry is posted inside the closing\'s transaction');
    return (await this.write(entityId, { ...posting, source: 'closing' }, 'closing'))!.snapshot();
  }

  /** A scheduled entry: dated after today, no transaction-currency lines (spec). */
  async schedule(entityId: string, posting: Omit<LedgerPosting, 'source'>, options: PostingOptions = {}): Promise<PostedEntry> {
    try {
      return (await this.write(entityId, { ...posting, source: 'manual' }, 'scheduled'))!.snapshot();
    } catch (error) {
      throw renameFieldPaths(error, options.fieldPath);
    }
  }

  /**
   * Posts a batch of booked entries of one Entity, all or nothing: each judged by the rules of
   * post() (the same checks and codes) against facts read once for the batch under the same
   * locks (the Entity share-locked, what the lines name key-share-locked, to the end of the
   * transaction), then written in one statement with the monthly totals updated once and one
   * audit row per entry (the template AuditedMutations offers on a single-statement route or
   * SystemWrites with `rowPerResource` offers). An entry whose id is already in the books is
   * skipped, not judged (a resumed import). Any refusal refuses the whole batch: 400
   * VALIDATION_ERROR whose `errors` name the first BATCH_REFUSALS_MAX refused entries
   * (BatchRefusal: index, path, code, message), nothing written.
   *
   * Joins the caller's transaction, or runs in its own (a single-statement route).
   */
  async postBatch(entityId: string, postings: LedgerPosting[], options: BatchOptions = {}): Promise<PostedBatch> {
    const run = () => this.writeBatch(entityId, postings, options);
    return this.txHost.isTransactionActive() ? run() : this.txHost.withTransaction(run);
  }

  private async writeBatch(entityId: string, postings: LedgerPosting[], options: BatchOptions): Promise<PostedBatch> {
    const entryPath = options.entryPath ?? ((index: number) => `entries[${index}]`);
    const refusals: BatchRefusal[] = [];
    const refuse = (index: number, error: unknown) => {
      if (!(error instanceof DomainError)) throw error;
      const renamed = renameFieldPaths(error, options.fieldPath) as DomainError;
      const path = options.fieldPath ? options.fieldPath(refusalPath(error)) : refusalPath(error);
      refusals.push({ index, path: [entryPath(index), path].filter((p) => p !== '').join('.'), code: renamed.code, message: renamed.message });
    };
    const linesOfEach = postings.map((posting) => linesOf(posting));
    const suppliedLineIds = postings.flatMap((posting) => posting.lines.flatMap((line) => (line.id ? [line.id] : [])));
    const existing = await this.postingReader.existing(entityId, postings.map((p) => p.id), suppliedLineIds);
    const distinct = (ids: Iterable<string>) => [...new Set(ids)].sort();
    const references: PostingReferences = {
      accountIds: distinct(linesOfEach.flatMap((lines) => lines.map((l) => l.ledgerAccountId))),
      partnerIds: distinct(linesOfEach.flatMap((lines) => lines.flatMap((l) => (l.partnerId ? [l.partnerId] : [])))),
      valueIds: distinct(linesOfEach.flatMap((lines) => lines.flatMap((l) => l.dimensionValueIds))),
    };
    const facts = await this.postingReader.read(entityId, references, true);
    if (!facts) throw entityNotFound(entityId);

    const entries: LedgerEntry[] = [];
    const skippedEntryIds: string[] = [];
    const entryIndex = new Map<string, number>();
    const lineIndex = new Map<string, number>();
    for (let index = 0; index < postings.length && refusals.length < BATCH_REFUSALS_MAX; index++) {
      const posting = postings[index];
      const first = entryIndex.get(posting.id);
      if (first !== undefined) {
        refuse(index, validationError('id', `repeats the id of ${entryPath(first)}`));
        continue;
      }
      entryIndex.set(posting.id, index);
      if (existing.entryIds.has(posting.id)) {
        skippedEntryIds.push(posting.id);
        continue;
      }
      const lines = linesOfEach[index];
      const taken = this.lineIdTaken(lines, index, existing.lineIds, lineIndex, entryPath);
      for (const line of lines) if (!lineIndex.has(line.id)) lineIndex.set(line.id, index);
      if (taken) {
        refuse(index, taken);
        continue;
      }
      try {
        const context = this.judgeShape(entityId, posting, lines, 'booked', facts);
        entries.push(this.judgeContent(entityId, posting, lines, 'booked', facts, context));
      } catch (error) {
        refuse(index, error);
      }
    }
    if (refusals.length > 0) throw batchRefused(refusals);
    // The audit template is claimed even when nothing is left to write: nothing written, no row.
    const audit = this.auditContext.statementRow('');
    const written = await this.writer.insertBatch(entityId, entries, audit);
    const writtenIds = new Set(written.entryIds);
    // An entry another transaction wrote between the look-up and the statement is skipped too.
    for (const entry of entries) if (!writtenIds.has(entry.id)) skippedEntryIds.push(entry.id);
    return { postedEntries: written.entryIds.length, postedLines: written.lineCount, skippedEntryIds };
  }

  /** A line id already in the books (409) or of a line of another entry of the batch (400), named at `lines[j].id`. */
  private lineIdTaken(lines: NewLines, index: number, stored: Set<string>, batch: Map<string, number>, entryPath: (index: number) => string): DomainError | null {
    for (let j = 0; j < lines.length; j++) {
      const id = lines[j].id;
      const other = batch.get(id);
      const error = stored.has(id)
        ? lineAlreadyExists(id)
        : other !== undefined && other !== index
          ? validationError(`lines[${j}].id`, `repeats the id of a line of ${entryPath(other)}`)
          : null;
      if (error) return new DomainError(error.code, error.message, { ...error.params, path: `lines[${j}].id` }, error.status);
    }
    return null;
  }

  /** The entry written, or null when the caller's precondition did not hold (nothing written). */
  private async write(entityId: string, input: InternalPosting, kind: Kind, options: PostingOptions & { precondition?: StatementQuery } = {}): Promise<LedgerEntry | null> {
    const { alongside, precondition } = options;
    const lines = linesOf(input);
    const distinct = (ids: string[]) => [...new Set(ids)].sort();
    const references: PostingReferences = {
      accountIds: distinct(lines.map((l) => l.ledgerAccountId)),
      partnerIds: distinct(lines.flatMap((l) => (l.partnerId ? [l.partnerId] : []))),
      valueIds: distinct(lines.flatMap((l) => l.dimensionValueIds)),
    };
    const audit = options.audit ?? this.auditContext.statementRow(input.id);
    const insert = (entry: LedgerEntry, write: PostingWrite) =>
      translateUniqueViolation(() => this.writer.insert(entry, { ...write, audit, parts: alongside?.(entry.snapshot()), precondition }), () => alreadyExists(input.id), {});
    const inTransaction = this.txHost.isTransactionActive();
    // Without a transaction the posting is one statement, atomic with its audit row: a caller
    // with no row to give (a job, the CLI) runs in a unit of work (SystemWrites) instead.
    if (!inTransaction && !audit) throw new Error('A posting outside a transaction must carry its audit row: run it in a use case transaction or SystemWrites.run');
    // Facts remembered from a recent posting with the same references, in a transaction too (a
    // document booked): the posting statement's guard takes the locks a locked read would (the
    // Entity row shared, what the lines name key-shared, in that order) and writes only if the
    // facts are unchanged under them; so a stale memory costs a second statement, and the read
    // of the facts a round trip only then.
    const key = RecentPostingFacts.key(entityId, references);
    const remembered = kind === 'closing' ? undefined : this.recentFacts.recall(key);
    if (remembered) {
      const entry = this.judgedOrNull(() => this.judge(entityId, input, lines, kind, remembered));
      const outcome = entry ? await insert(entry, { unchanged: { references, fingerprint: remembered.fingerprint } }) : 'facts_changed';
      if (outcome === 'written') return entry!;
      if (outcome === 'precondition_failed') return null;
      this.recentFacts.forget(key);
    }
    if (!inTransaction) {
      const facts = await this.postingReader.read(entityId, references, false);
      if (facts) this.recentFacts.remember(key, facts);
      const entry = await this.judgedOrReplayed(entityId, input, lines, kind, facts);
      const outcome = await insert(entry, { unchanged: { references, fingerprint: facts!.fingerprint } });
      if (outcome === 'written') return entry;
      if (outcome === 'precondition_failed') return null;
      this.recentFacts.forget(key);
    }
    return this.txHost.withTransaction(async () => {
      const facts = await this.postingReader.read(entityId, references, true);
      if (facts) this.recentFacts.remember(key, facts);
      const entry = await this.judgedOrReplayed(entityId, input, lines, kind, facts);
      return (await insert(entry, {})) === 'written' ? entry : null;
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
  private async judgedOrReplayed(entityId: string, input: InternalPosting, lines: NewLines, kind: Kind, facts: PostingFacts | null): Promise<LedgerEntry> {
    const context = this.judgeShape(entityId, input, lines, kind, facts);
    try {
      return this.judgeContent(entityId, input, lines, kind, facts!, context);
    } catch (error) {
      if (error instanceof DomainError && (await this.entries.exists(entityId, input.id))) throw alreadyExists(input.id);
      throw error;
    }
  }

  /** The entry as posted against these facts, or the refusal. */
  private judge(entityId: string, input: InternalPosting, lines: NewLines, kind: Kind, facts: PostingFacts | null): LedgerEntry {
    return this.judgeContent(entityId, input, lines, kind, facts!, this.judgeShape(entityId, input, lines, kind, facts));
  }

  /** 400: what the body alone shows (given the Entity's functional currency). Answers the context to judge the rest in. */
  private judgeShape(entityId: string, input: InternalPosting, lines: NewLines, kind: Kind, facts: PostingFacts | null): PostingContext {
    if (!facts) throw entityNotFound(entityId);
    const context: PostingContext = {
      functionalCurrency: facts.currency,
      account: (id) => facts.accounts.get(id),
      partnerExists: (id) => facts.partnerIds.has(id),
      partnerNotFound: (id) => this.partners.notFound(id),
      dimensionValue: (id) => facts.dimensionValues.get(id),
      exponent: (code) => this.reference.findCurrency(code)?.minorUnits,
    };
    if (kind === 'scheduled') refuseTransactionCurrency(input.lines);
    LedgerEntry.judgeLineShapes(lines, context);
    return context;
  }

  /** 404 (the Book, what the lines name), then 409 (Dimension Values off Result Accounts, then the date against today and the lock date). */
  private judgeContent(entityId: string, input: InternalPosting, lines: NewLines, kind: Kind, facts: PostingFacts, context: PostingContext): LedgerEntry {
    const bookId = bookOfNewEntry(facts.bookIds, input.bookId);
    const judged = LedgerEntry.judgeLineReferences(lines, context);
    if (kind === 'closing') assertExerciseLocked(input.entryDate, facts.ledgerLockDate);
    else assertEntryDate(input.entryDate, kind, this.clock.today(), facts.ledgerLockDate);
    return LedgerEntry.fromJudgedLines(
      {
        entityId,
        id: input.id,
        bookId,
        entryDate: input.entryDate,
        memo: input.memo,
        notes: input.notes ?? null,
        status: kind === 'scheduled' ? 'scheduled' : 'active',
        source: kind === 'scheduled' ? 'scheduled' : kind === 'closing' ? 'closing' : input.source,
      },
      judged,
      this.clock.now(),
    );
  }
}
