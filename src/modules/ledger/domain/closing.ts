import { addDays, DomainError } from '../../../../libs/shared-kernel/src';
import type { AccountType } from './account-types';
import { ledgerError, validationError } from './ledger-errors';

/**
 * D90 Year-end closing (cierre del ejercicio): the Result Accounts of an exercise go to zero
 * through one `closing` entry dated its last day, the net result into a retained-earnings
 * account; the exercise must be locked first, closings of one Book (or of the common books)
 * follow each other day after day, and only the latest active one may be reopened.
 */
export type ClosingStatus = 'active' | 'reopened';

export interface ClosingState {
  entityId: string;
  id: string;
  /** The closing's Book, or null for the common books (an Entity without Books). */
  bookId: string | null;
  exerciseStart: string;
  exerciseEnd: string;
  retainedEarningsAccountId: string;
  /** The closing entry; null when no Result Account had a balance. */
  entryId: string | null;
  /** The net result closed, profit positive (D50 sign), minor units. */
  result: number;
  status: ClosingStatus;
  createdAt: Date;
  updatedAt: Date;
}

/** A Result Account's live balance over the exercise: Σdebit − Σcredit (debit positive). */
export interface ResultBalance {
  accountId: string;
  raw: bigint;
}

/** A line of the closing entry. */
export interface ClosingLine {
  side: 'debit' | 'credit';
  ledgerAccountId: string;
  amount: number;
}

const err = (code: Parameters<typeof ledgerError>[0], message: string, params: Record<string, unknown>) => ledgerError(code, message, params);

export const closingNotFound = (closingId: string) => err('LEDGER_CLOSING_NOT_FOUND_ERROR', 'No closing with this id in the Entity', { closingId });
export const closingAlreadyExists = (closingId: string) => err('LEDGER_CLOSING_ALREADY_EXISTS_ERROR', 'A closing with this id already exists', { closingId });
export const closingPeriodNotLocked = (exerciseEnd: string, ledgerLockDate: string | null) =>
  err('LEDGER_CLOSING_PERIOD_NOT_LOCKED_ERROR', 'Lock the exercise first: its end must be on or before the ledger lock date', { exerciseEnd, ledgerLockDate });
export const closingSequence = (exerciseStart: string, expectedStart: string, latestClosingId: string) =>
  err('LEDGER_CLOSING_SEQUENCE_ERROR', 'An exercise starts the day after the latest active closing of its Book ends', {
    exerciseStart,
    expectedExerciseStart: expectedStart,
    latestClosingId,
  });
export const closingAccountNotEquity = (accountId: string, type: AccountType) =>
  err('LEDGER_CLOSING_ACCOUNT_NOT_EQUITY_ERROR', 'The retained-earnings account must be of type equity', { retainedEarningsAccountId: accountId, type });
export const closingNotLatest = (closingId: string, latestClosingId: string | null) =>
  err('LEDGER_CLOSING_NOT_LATEST_ERROR', 'Only the latest active closing of its Book can be reopened', { closingId, latestClosingId });
export const lockDateBeforeClosing = (ledgerLockDate: string | null, exerciseEnd: string, closingId: string) =>
  err('LEDGER_LOCK_DATE_BEFORE_CLOSING_ERROR', 'The lock date cannot move before the end of an active closing, nor be cleared while one is active', {
    ledgerLockDate,
    exerciseEnd,
    closingId,
  });

/** 400: an exercise ends on or after its start. */
export function assertExercise(exerciseStart: string, exerciseEnd: string): void {
  if (exerciseStart > exerciseEnd) throw validationError('exerciseStart', 'must be on or before exerciseEnd');
}

/** D90 item 2: the exercise is locked (its end on or before the lock date). */
export function assertExerciseLocked(exerciseEnd: string, ledgerLockDate: string | null): void {
  if (ledgerLockDate === null || exerciseEnd > ledgerLockDate) throw closingPeriodNotLocked(exerciseEnd, ledgerLockDate);
}

/** D90 item 2: after an active closing of the Book, the next exercise starts the day after it. */
export function assertFollows(exerciseStart: string, latest: Pick<ClosingState, 'id' | 'exerciseEnd'> | null): void {
  if (latest === null) return;
  const expected = addDays(latest.exerciseEnd, 1);
  if (exerciseStart !== expected) throw closingSequence(exerciseStart, expected, latest.id);
}

/** D90 item 3: a lock date (null: cleared) that an active closing ending `exerciseEnd` allows. */
export function lockDateRefusal(ledgerLockDate: string | null, latest: { id: string; exerciseEnd: string } | null): DomainError | null {
  if (latest === null) return null;
  if (ledgerLockDate === null || ledgerLockDate < latest.exerciseEnd) return lockDateBeforeClosing(ledgerLockDate, latest.exerciseEnd, latest.id);
  return null;
}

/**
 * D90 item 1: one line per Result Account with a balance, for that balance on the opposite side,
 * and one on the retained-earnings account for the net (credit for a profit, debit for a loss, none
 * when it is 0). `result` is the profit (positive) or loss (negative), D50 sign. No lines when no
 * Result Account has a balance. Lines in the order of `balances` (the caller's: by account code).
 */
export function closingLines(balances: ResultBalance[], retainedEarningsAccountId: string): { lines: ClosingLine[]; result: bigint } {
  const lines: ClosingLine[] = [];
  let net = 0n;
  for (const { accountId, raw } of balances) {
    if (raw === 0n) continue;
    net += raw;
    lines.push({ side: raw > 0n ? 'credit' : 'debit', ledgerAccountId: accountId, amount: Number(raw > 0n ? raw : -raw) });
  }
  const result = -net;
  if (result !== 0n) lines.push({ side: result > 0n ? 'credit' : 'debit', ledgerAccountId: retainedEarningsAccountId, amount: Number(result > 0n ? result : -result) });
  return { lines, result };
}

/** A closing's record: created active, reopened once. */
export class Closing {
  private constructor(private state: ClosingState) {}

  static restore(state: ClosingState): Closing {
    return new Closing({ ...state });
  }

  static close(input: Omit<ClosingState, 'status' | 'createdAt' | 'updatedAt'>, now: Date): Closing {
    return new Closing({ ...input, status: 'active', createdAt: now, updatedAt: now });
  }

  get id(): string {
    return this.state.id;
  }

  get entryId(): string | null {
    return this.state.entryId;
  }

  get bookId(): string | null {
    return this.state.bookId;
  }

  get isActive(): boolean {
    return this.state.status === 'active';
  }

  reopen(now: Date): void {
    this.state = { ...this.state, status: 'reopened', updatedAt: now };
  }

  snapshot(): ClosingState {
    return { ...this.state };
  }
}

/** The closings' store (D90). Writes and locks run in the use case's transaction. */
export abstract class ClosingRepository {
  /** Serializes the closings and reopenings of an Entity to the end of the transaction (the sequence rule). */
  abstract lockSequence(entityId: string): Promise<void>;
  abstract find(entityId: string, closingId: string): Promise<Closing | null>;
  /** Every closing, newest exerciseEnd first; of one Book when `bookId` is given. */
  abstract list(entityId: string, bookId: string | null | undefined): Promise<Closing[]>;
  /** The active closing of the Book (null: the common books) with the latest exerciseEnd. */
  abstract latestActive(entityId: string, bookId: string | null): Promise<Closing | null>;
  /** The active closing, of any Book, with the latest exerciseEnd (the lock date's floor). */
  abstract latestActiveOfEntity(entityId: string): Promise<{ id: string; exerciseEnd: string } | null>;
  /** The closing whose entry this is, if any. */
  abstract closingIdOfEntry(entityId: string, entryId: string): Promise<string | null>;
  abstract insert(closing: Closing): Promise<void>;
  abstract saveStatus(closing: Closing): Promise<void>;
  /**
   * Σdebit − Σcredit of every Result Account over [from, to] in the Book read (common lines plus
   * the Book's; null: common only), live entries only (D50), accounts with a balance, by code:
   * whole months from the monthly totals, the days at the edges from the lines.
   */
  abstract resultBalances(entityId: string, bookId: string | null, from: string, to: string): Promise<ResultBalance[]>;
}
