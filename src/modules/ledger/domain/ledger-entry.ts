import { canonicalRate, convertMinorUnits, DomainError, isRate, MAX_AMOUNT } from '../../../../libs/shared-kernel/src';
import { AccountType, isResultType, Tracking } from './account-types';
import { LedgerErrorCode, ledgerOrValidationError } from './ledger-errors';

export type Side = 'debit' | 'credit';
export type EntryStatus = 'active' | 'reversed' | 'deleted' | 'cancelled' | 'scheduled';
/**
 * The sources other modules post entries from, one key each, declared by the module that brings
 * the documents (declaration merging, docs/ARCHITECTURE.md), e.g. in invoices:
 * `declare module '../../../ledger' { interface PostingSources { invoice: true } }`.
 * The ledger's own route posts `manual`.
 */
export interface PostingSources {
  manual: true;
}
/** Who posts: the ledger's own route (`manual`) or a document module (its declared kind). */
export type PostingSource = keyof PostingSources;
/** An entry's source: a posting's, or the ledger's own kinds (a scheduled entry, a reversal, a year-end closing's entry). */
export type EntrySource = PostingSource | 'scheduled' | 'reversal' | 'closing';

/** D35: live entries count in the books and reports. */
export const LIVE_STATUSES: readonly EntryStatus[] = ['active', 'reversed'];

export interface LineInput {
  id: string;
  side: Side;
  ledgerAccountId: string;
  amount: number;
  description: string | null;
  partnerId: string | null;
  dimensionValueIds: string[];
  transactionCurrency: string | null;
  transactionAmount: number | null;
  exchangeRate: string | null;
}

export interface EntryLine extends Omit<LineInput, 'dimensionValueIds'> {
  lineNo: number;
  /** The account was open-item when posted (tracking is locked once it has entries). */
  isOpenItem: boolean;
  /** Sum of the allocations settling the line; its open amount is amount - allocatedAmount. */
  allocatedAmount: number;
  dimensionValues: Array<{ id: string; dimensionId: string }>;
}

export interface LedgerEntryState {
  entityId: string;
  id: string;
  bookId: string | null;
  entryDate: string;
  memo: string;
  notes: string | null;
  status: EntryStatus;
  source: EntrySource;
  reversalOfEntryId: string | null;
  reversedByEntryId: string | null;
  createdAt: Date;
  updatedAt: Date;
  lines: EntryLine[];
}

/** What the application looked up for the lines, so the aggregate can judge them without I/O. */
export interface PostingContext {
  functionalCurrency: string;
  account(accountId: string): { type: AccountType; tracking: Tracking } | undefined;
  partnerExists(partnerId: string): boolean;
  /** 404 PARTNER_NOT_FOUND_ERROR in the partners' own words (the code they declare). */
  partnerNotFound(partnerId: string): DomainError;
  dimensionValue(valueId: string): { dimensionId: string } | undefined;
  /** ISO 4217 minor-unit exponent, undefined for an unknown code. */
  exponent(currency: string): number | undefined;
}

const err = ledgerOrValidationError;

export const entryNotFound = (entryId: string) => err('LEDGER_ENTRY_NOT_FOUND_ERROR', 'No ledger entry with this id in the Entity', { entryId });
export const entryAlreadyExists = (entryId: string) => err('LEDGER_ENTRY_ALREADY_EXISTS_ERROR', 'A ledger entry with this id already exists', { entryId });
export const lineNotFound = (lineId: string) => err('LEDGER_LINE_NOT_FOUND_ERROR', 'No ledger line with this id in the Entity', { lineId });
export const lineAlreadyExists = (lineId: string | null) =>
  err('LEDGER_LINE_ALREADY_EXISTS_ERROR', 'A ledger line with this id already exists', lineId ? { lineId } : {});
export const entryNotLive = (entryId: string, status: EntryStatus) => err('LEDGER_ENTRY_NOT_LIVE_ERROR', 'The entry is not live', { entryId, status });
export const periodLocked = (date: string, ledgerLockDate: string) =>
  err('LEDGER_PERIOD_LOCKED_ERROR', 'The date is on or before the ledger lock date', { date, ledgerLockDate });

/**
 * Where a refused line is: its index in the posting's `lines` (params `line` and
 * `path`), or the id of a stored line changed by its own route (params `lineId`).
 */
type LinePlace = number | { lineId: string };

function lineError(code: LedgerErrorCode | 'VALIDATION_ERROR', message: string, at: LinePlace, params: Record<string, unknown> = {}): DomainError {
  return err(code, message, typeof at === 'number' ? { ...params, line: at, path: `lines[${at}]` } : { ...params, lineId: at.lineId });
}

/** Another module's refusal of a line (its code, status and params), placed at the line. */
function atLine(error: DomainError, at: LinePlace): DomainError {
  const place = typeof at === 'number' ? { line: at, path: `lines[${at}]` } : { lineId: at.lineId };
  return new DomainError(error.code, error.message, { ...error.params, ...place }, error.status);
}

/**
 * A double-entry ledger entry. It cannot exist unbalanced: at least two lines, positive integer
 * amounts, debits equal to credits, the transaction trio all-or-nothing and consistent with the
 * amount (D7), at most one value per Dimension and only on Result Accounts, and every account,
 * partner and value of the Entity. Status changes only through the named transitions (D35).
 */
export class LedgerEntry {
  private constructor(private state: LedgerEntryState) {}

  static post(
    header: { entityId: string; id: string; bookId: string | null; entryDate: string; memo: string; notes: string | null; status: 'active' | 'scheduled'; source: EntrySource; reversalOfEntryId?: string | null },
    lines: LineInput[],
    context: PostingContext,
    now: Date,
  ): LedgerEntry {
    return LedgerEntry.fromJudgedLines(header, LedgerEntry.judgeLines(lines, context), now);
  }

  /** A new entry of lines already judged by judgeLines (the caller judged more in between). */
  static fromJudgedLines(
    header: { entityId: string; id: string; bookId: string | null; entryDate: string; memo: string; notes: string | null; status: 'active' | 'scheduled'; source: EntrySource; reversalOfEntryId?: string | null },
    lines: EntryLine[],
    now: Date,
  ): LedgerEntry {
    return new LedgerEntry({
      ...header,
      memo: header.memo.trim(),
      reversalOfEntryId: header.reversalOfEntryId ?? null,
      reversedByEntryId: null,
      createdAt: now,
      updatedAt: now,
      lines,
    });
  }

  static restore(state: LedgerEntryState): LedgerEntry {
    return new LedgerEntry({ ...state, lines: state.lines.map((line) => ({ ...line })) });
  }

  /**
   * The rules a line set obeys that need nothing looked up (400): at least two lines, line ids
   * not repeated, positive integer amounts, the transaction trio all or nothing and consistent
   * with the amount (D7), debits equal to credits.
   */
  static judgeLineShapes(lines: LineInput[], context: Pick<PostingContext, 'functionalCurrency' | 'exponent'>): void {
    if (lines.length < 2) throw err('LEDGER_ENTRY_LINE_COUNT_ERROR', 'An entry has at least two lines', { lineCount: lines.length });
    const firstWithId = new Map<string, number>();
    lines.forEach((line, index) => {
      const first = firstWithId.get(line.id);
      if (first === undefined) firstWithId.set(line.id, index);
      else {
        const path = `lines[${index}].id`;
        throw lineError('VALIDATION_ERROR', `${path} repeats the id of line ${first}`, index, { errors: [{ path, message: `repeats the id of line ${first}` }] });
      }
    });
    // Summed exactly: totals of amounts up to 2^53 - 1 each go past what a double holds exactly.
    let debits = 0n;
    let credits = 0n;
    lines.forEach((line, index) => {
      if (!Number.isSafeInteger(line.amount) || line.amount <= 0 || line.amount > MAX_AMOUNT) {
        throw lineError('VALIDATION_ERROR', 'amount must be a positive integer in minor units', index, {
          errors: [{ path: `lines[${index}].amount`, message: 'amount must be a positive integer in minor units' }],
        });
      }
      LedgerEntry.judgeTrio(line, context, index);
      if (line.side === 'debit') debits += BigInt(line.amount);
      else credits += BigInt(line.amount);
    });
    // D6: an entry's total is an amount too, within the safe range (so are the balances it moves).
    if (debits > BigInt(MAX_AMOUNT) || credits > BigInt(MAX_AMOUNT)) {
      const message = `total debits and total credits must each be at most ${MAX_AMOUNT}`;
      throw err('VALIDATION_ERROR', `lines ${message}`, { errors: [{ path: 'lines', message }] });
    }
    if (debits !== credits) {
      throw err('LEDGER_ENTRY_UNBALANCED_ERROR', 'Total debits must equal total credits', { debits: Number(debits), credits: Number(credits) });
    }
  }

  /**
   * Every rule of a line set, on create and when a scheduled entry's lines are replaced, in the
   * order of the service's checks: what the body alone shows (400, judgeLineShapes), then the
   * accounts, partners and Dimension Values it names (404), then at most one value per Dimension
   * (400), then Dimension Values only on Result Accounts (409).
   */
  static judgeLines(lines: LineInput[], context: PostingContext): EntryLine[] {
    LedgerEntry.judgeLineShapes(lines, context);
    return LedgerEntry.judgeLineReferences(lines, context);
  }

  /** What lines already judged by judgeLineShapes name: accounts, partners, Dimension Values (404, then 409). */
  static judgeLineReferences(lines: LineInput[], context: PostingContext): EntryLine[] {
    const accounts = lines.map((line, index) => {
      const account = context.account(line.ledgerAccountId);
      if (!account) throw lineError('LEDGER_ACCOUNT_NOT_FOUND_ERROR', 'No ledger account with this id in the Entity', index, { accountId: line.ledgerAccountId });
      if (line.partnerId !== null && !context.partnerExists(line.partnerId)) {
        throw atLine(context.partnerNotFound(line.partnerId), index);
      }
      LedgerEntry.knownDimensionValues(line.dimensionValueIds, context, index);
      return account;
    });
    lines.forEach((line, index) => LedgerEntry.onePerDimension(line.dimensionValueIds, context, index));
    return lines.map((line, index): EntryLine => {
      const account = accounts[index];
      return {
        id: line.id,
        lineNo: index + 1,
        side: line.side,
        ledgerAccountId: line.ledgerAccountId,
        amount: line.amount,
        description: line.description,
        partnerId: line.partnerId,
        transactionCurrency: line.transactionCurrency,
        transactionAmount: line.transactionAmount,
        exchangeRate: line.exchangeRate === null ? null : canonicalRate(line.exchangeRate),
        isOpenItem: account.tracking === 'open_item',
        allocatedAmount: 0,
        dimensionValues: LedgerEntry.judgeDimensionValues(line.dimensionValueIds, account.type, context, index),
      };
    });
  }

  /**
   * A line's Dimension Values: each a value of the Entity (404), at most one per Dimension (400),
   * and only on a Result Account (409).
   */
  static judgeDimensionValues(valueIds: string[], accountType: AccountType, context: PostingContext, index: LinePlace): Array<{ id: string; dimensionId: string }> {
    if (valueIds.length === 0) return [];
    LedgerEntry.knownDimensionValues(valueIds, context, index);
    LedgerEntry.onePerDimension(valueIds, context, index);
    if (!isResultType(accountType)) {
      throw lineError('LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR', 'Only lines on Result Accounts carry Dimension Values', index);
    }
    return valueIds.map((valueId) => ({ id: valueId, dimensionId: context.dimensionValue(valueId)!.dimensionId }));
  }

  private static knownDimensionValues(valueIds: string[], context: PostingContext, index: LinePlace): void {
    for (const valueId of valueIds) {
      if (!context.dimensionValue(valueId)) throw lineError('DIMENSION_VALUE_NOT_FOUND_ERROR', 'No Dimension Value with this id in the Entity', index, { dimensionValueId: valueId });
    }
  }

  private static onePerDimension(valueIds: string[], context: PostingContext, index: LinePlace): void {
    const seen = new Set<string>();
    for (const valueId of valueIds) {
      const { dimensionId } = context.dimensionValue(valueId)!;
      if (seen.has(dimensionId)) throw lineError('LEDGER_LINE_DUPLICATE_DIMENSION_ERROR', 'A line carries at most one value per Dimension', index, { dimensionId });
      seen.add(dimensionId);
    }
  }

  private static judgeTrio(line: LineInput, context: Pick<PostingContext, 'functionalCurrency' | 'exponent'>, index: number): void {
    const present = [line.transactionCurrency, line.transactionAmount, line.exchangeRate].filter((v) => v !== null).length;
    if (present === 0) return;
    const path = `lines[${index}]`;
    if (present !== 3) {
      throw lineError('VALIDATION_ERROR', 'transactionCurrency, transactionAmount and exchangeRate go together', index, {
        errors: [{ path, message: 'transactionCurrency, transactionAmount and exchangeRate go together' }],
      });
    }
    const from = context.exponent(line.transactionCurrency!);
    const to = context.exponent(context.functionalCurrency);
    if (from === undefined || to === undefined) {
      throw lineError('VALIDATION_ERROR', 'transactionCurrency must be an ISO 4217 code', index, {
        errors: [{ path: `${path}.transactionCurrency`, message: 'must be an ISO 4217 currency code' }],
      });
    }
    if (!isRate(line.exchangeRate)) {
      throw lineError('VALIDATION_ERROR', 'exchangeRate must be a decimal string greater than zero', index, {
        errors: [{ path: `${path}.exchangeRate`, message: 'must be a decimal string greater than zero' }],
      });
    }
    const expected = convertMinorUnits(line.transactionAmount!, line.exchangeRate, from, to);
    if (expected !== line.amount) {
      throw lineError('LEDGER_LINE_TRANSACTION_AMOUNT_MISMATCH_ERROR', 'amount is not transactionAmount converted at exchangeRate', index, {
        expectedAmount: expected,
        amount: line.amount,
      });
    }
  }

  get id(): string {
    return this.state.id;
  }
  get entityId(): string {
    return this.state.entityId;
  }
  get status(): EntryStatus {
    return this.state.status;
  }
  get entryDate(): string {
    return this.state.entryDate;
  }
  get bookId(): string | null {
    return this.state.bookId;
  }
  get lines(): readonly EntryLine[] {
    return this.state.lines;
  }
  get isLive(): boolean {
    return LIVE_STATUSES.includes(this.state.status);
  }
  get reversalOfEntryId(): string | null {
    return this.state.reversalOfEntryId;
  }
  get reversedByEntryId(): string | null {
    return this.state.reversedByEntryId;
  }

  debitTotal(): number {
    return this.state.lines.filter((l) => l.side === 'debit').reduce((sum, l) => sum + l.amount, 0);
  }

  creditTotal(): number {
    return this.state.lines.filter((l) => l.side === 'credit').reduce((sum, l) => sum + l.amount, 0);
  }

  /** Header edits of a live entry. */
  editHeader(change: { entryDate?: string; memo?: string; notes?: string | null }, now: Date): void {
    if (!this.isLive) throw entryNotLive(this.state.id, this.state.status);
    this.state = {
      ...this.state,
      entryDate: change.entryDate ?? this.state.entryDate,
      memo: change.memo !== undefined ? change.memo.trim() : this.state.memo,
      notes: change.notes !== undefined ? change.notes : this.state.notes,
      updatedAt: now,
    };
  }

  /** A scheduled entry's date, texts and whole line set are replaced together. */
  reschedule(change: { entryDate: string; memo: string; notes: string | null }, lines: EntryLine[], now: Date): void {
    this.requireScheduled();
    this.state = { ...this.state, entryDate: change.entryDate, memo: change.memo.trim(), notes: change.notes, lines, updatedAt: now };
  }

  /** D35: a scheduled entry becomes active when booked on or after its date. */
  book(today: string, now: Date): void {
    this.requireScheduled();
    if (this.state.entryDate > today) {
      throw err('LEDGER_SCHEDULED_ENTRY_NOT_DUE_ERROR', 'A scheduled entry is booked on or after its date', { entryDate: this.state.entryDate, today });
    }
    this.state = { ...this.state, status: 'active', updatedAt: now };
  }

  cancel(now: Date): void {
    this.requireScheduled();
    this.state = { ...this.state, status: 'cancelled', updatedAt: now };
  }

  /**
   * D36: the mirror of an active, non-reversal entry, dated after it and after the lock date, with
   * every line on the other side. The original becomes `reversed`. The refusals come in D36's
   * order: the original's state, then the reversal date against the original, then against the
   * lock date. A reversal may be dated after today: D33's future-date rule is for create and
   * PATCH, and D36 names every refusal of a reversal.
   */
  reverse(input: { id: string; reversalDate: string; memo?: string; lineIds: string[]; ledgerLockDate: string | null }, now: Date): LedgerEntry {
    if (this.state.status !== 'active' || this.state.source === 'reversal' || this.state.reversalOfEntryId !== null) {
      throw err('LEDGER_ENTRY_NOT_REVERSIBLE_ERROR', 'Only an active entry that is not itself a reversal can be reversed', {
        entryId: this.state.id,
        status: this.state.status,
      });
    }
    if (input.reversalDate <= this.state.entryDate) {
      throw err('LEDGER_REVERSAL_DATE_INVALID_ERROR', 'The reversal date must be after the entry date', {
        entryDate: this.state.entryDate,
        reversalDate: input.reversalDate,
      });
    }
    // D90: a closing entry changes only by reopening its closing; it stays in the locked period.
    if (this.state.source === 'closing') assertOpenPeriod(this.state.entryDate, input.ledgerLockDate);
    assertOpenPeriod(input.reversalDate, input.ledgerLockDate);
    const mirror = new LedgerEntry({
      entityId: this.state.entityId,
      id: input.id,
      bookId: this.state.bookId,
      entryDate: input.reversalDate,
      memo: (input.memo ?? `Reversal of ${this.state.memo}`).trim(),
      notes: null,
      status: 'active',
      source: 'reversal',
      reversalOfEntryId: this.state.id,
      reversedByEntryId: null,
      createdAt: now,
      updatedAt: now,
      lines: this.state.lines.map((line, i) => ({
        ...line,
        id: input.lineIds[i],
        side: line.side === 'debit' ? 'credit' : 'debit',
        allocatedAmount: 0,
        dimensionValues: line.dimensionValues.map((v) => ({ ...v })),
      })),
    });
    this.state = { ...this.state, status: 'reversed', reversedByEntryId: input.id, updatedAt: now };
    return mirror;
  }

  /**
   * D35: unbooking makes a live entry (`active` or `reversed`, spec state table) `deleted`. An
   * original that has been reversed leaves the books with its reversal, which is passed in and
   * becomes `deleted` too: a reversal left without its original would misstate every account it
   * touches. Both keep their links (`reversedByEntryId`, `reversalOfEntryId`) as history.
   */
  unbook(now: Date, reversal: LedgerEntry | null = null): void {
    if (!this.isLive) throw entryNotLive(this.state.id, this.state.status);
    if (this.state.status === 'reversed') {
      if (!reversal || reversal.id !== this.state.reversedByEntryId || reversal.reversalOfEntryId !== this.state.id) {
        throw new Error(`Entry ${this.state.id} has been reversed: it is unbooked together with its reversal`);
      }
      reversal.unbook(now);
    }
    this.state = { ...this.state, status: 'deleted', updatedAt: now };
  }

  /** The original of an unbooked reversal goes back to `active` (a settled chain entry). */
  restoreAfterReversalUnbooked(now: Date): void {
    if (this.state.status !== 'reversed') return;
    this.state = { ...this.state, status: 'active', reversedByEntryId: null, updatedAt: now };
  }

  snapshot(): LedgerEntryState {
    return { ...this.state, lines: this.state.lines.map((line) => ({ ...line, dimensionValues: [...line.dimensionValues] })) };
  }

  /** Scheduled-entry routes judge the entry's state before the content of the request. */
  requireScheduled(): void {
    if (this.state.status !== 'scheduled') {
      throw err('LEDGER_ENTRY_NOT_SCHEDULED_ERROR', 'The entry is not a scheduled entry', { entryId: this.state.id, status: this.state.status });
    }
  }
}

/**
 * D24, D33: a booked entry's date is not after today and not on or before the lock date; a
 * scheduled entry's date is after today (and so after any lock date the rule allows).
 */
export function assertEntryDate(entryDate: string, kind: 'booked' | 'scheduled', today: string, ledgerLockDate: string | null): void {
  if (ledgerLockDate !== null && entryDate <= ledgerLockDate) throw periodLocked(entryDate, ledgerLockDate);
  if (kind === 'booked' && entryDate > today) {
    throw err('LEDGER_ENTRY_DATE_IN_FUTURE_ERROR', 'The entry date is after today: use a scheduled entry', { entryDate, today });
  }
  if (kind === 'scheduled' && entryDate <= today) {
    throw err('LEDGER_SCHEDULED_ENTRY_DATE_NOT_FUTURE_ERROR', 'A scheduled entry is dated after today', { entryDate, today });
  }
}

/** D24: nothing dated on or before the lock date changes. */
export function assertOpenPeriod(date: string, ledgerLockDate: string | null): void {
  if (ledgerLockDate !== null && date <= ledgerLockDate) throw periodLocked(date, ledgerLockDate);
}
