import { compareText } from '../../../../libs/shared-kernel/src';
import { LIVE_STATUSES, type EntryStatus, type Side } from './ledger-entry';
import { ledgerError } from './ledger-errors';

/** What the allocation rules need to know of a line, read under its row lock. */
export interface LineForAllocation {
  id: string;
  side: Side;
  accountId: string;
  isOpenItem: boolean;
  bookId: string | null;
  status: EntryStatus;
  entryId: string;
  entryDate: string;
  /** The entry this line's entry reverses, if it is a reversal. */
  reversalOfEntryId: string | null;
  amount: number;
  allocatedAmount: number;
}

const e = ledgerError;

export function openAmountOf(line: Pick<LineForAllocation, 'amount' | 'allocatedAmount'>): number {
  return line.amount - line.allocatedAmount;
}

/**
 * An Allocation settles one debit line against one credit line of one open-item account, in one
 * Book (or both common), for a positive amount not above either open amount, never on a line of
 * a non-live entry and never netting a reversal by hand (D36).
 */
export function judgeAllocation(debit: LineForAllocation, credit: LineForAllocation, amount: number): void {
  if (debit.id === credit.id) {
    throw e('RECONCILIATION_ALLOCATION_DEBIT_AND_CREDIT_LINE_IDS_CANNOT_BE_THE_SAME_ERROR', 'The debit and credit lines must differ', { lineId: debit.id });
  }
  if (debit.side !== 'debit') throw e('RECONCILIATION_ALLOCATION_DEBIT_LINE_MUST_BE_DEBIT_ERROR', 'The debit line is on the credit side', { lineId: debit.id });
  if (credit.side !== 'credit') throw e('RECONCILIATION_ALLOCATION_CREDIT_LINE_MUST_BE_CREDIT_ERROR', 'The credit line is on the debit side', { lineId: credit.id });
  for (const line of [debit, credit]) {
    if (!LIVE_STATUSES.includes(line.status)) throw e('LEDGER_ENTRY_NOT_LIVE_ERROR', 'The line belongs to an entry that is not live', { lineId: line.id, status: line.status });
  }
  if (debit.accountId !== credit.accountId) {
    throw e('RECONCILIATION_ALLOCATION_LINES_ON_DIFFERENT_ACCOUNTS_ERROR', 'Both lines must be on one account', { debitAccountId: debit.accountId, creditAccountId: credit.accountId });
  }
  if (!debit.isOpenItem || !credit.isOpenItem) {
    throw e('RECONCILIATION_ALLOCATION_ACCOUNT_MUST_BE_OPEN_ITEM_ERROR', 'Allocations settle lines of open-item accounts', { accountId: debit.accountId });
  }
  if (debit.bookId !== credit.bookId) {
    throw e('RECONCILIATION_ALLOCATION_LINES_IN_DIFFERENT_BOOKS_ERROR', 'Both lines must be of one Book, or both common', { debitBookId: debit.bookId, creditBookId: credit.bookId });
  }
  if (debit.reversalOfEntryId === credit.entryId || credit.reversalOfEntryId === debit.entryId) {
    throw e('RECONCILIATION_ALLOCATION_NETS_REVERSAL_ERROR', 'A reversal is netted with its original by the service', { debitLineId: debit.id, creditLineId: credit.id });
  }
  const open = Math.min(openAmountOf(debit), openAmountOf(credit));
  if (amount > open) {
    throw e('RECONCILIATION_ALLOCATION_AMOUNT_EXCEEDS_OPEN_AMOUNT_ERROR', 'The amount is above an open amount', {
      amount,
      debitOpenAmount: openAmountOf(debit),
      creditOpenAmount: openAmountOf(credit),
    });
  }
}

export interface MatchPair {
  debitLineId: string;
  creditLineId: string;
  amount: number;
}

/**
 * D39: debits and credits each by entry date then line id; pair the oldest open debit with the
 * oldest open credit, allocate the smaller open amount, repeat.
 */
export function greedyMatch(lines: LineForAllocation[]): MatchPair[] {
  const order = (a: LineForAllocation, b: LineForAllocation) => compareText(a.entryDate, b.entryDate) || compareText(a.id, b.id);
  const open = new Map(lines.map((l) => [l.id, openAmountOf(l)]));
  const debits = lines.filter((l) => l.side === 'debit' && open.get(l.id)! > 0).sort(order);
  const credits = lines.filter((l) => l.side === 'credit' && open.get(l.id)! > 0).sort(order);
  const pairs: MatchPair[] = [];
  let d = 0;
  let c = 0;
  while (d < debits.length && c < credits.length) {
    const debit = debits[d];
    const credit = credits[c];
    // A reversal and its original are netted by the service, never by hand: skip the credit.
    if (debit.reversalOfEntryId === credit.entryId || credit.reversalOfEntryId === debit.entryId) {
      c++;
      continue;
    }
    const amount = Math.min(open.get(debit.id)!, open.get(credit.id)!);
    pairs.push({ debitLineId: debit.id, creditLineId: credit.id, amount });
    open.set(debit.id, open.get(debit.id)! - amount);
    open.set(credit.id, open.get(credit.id)! - amount);
    if (open.get(debit.id) === 0) d++;
    if (open.get(credit.id) === 0) c++;
  }
  return pairs;
}

/** What a match selection's checks read of a line. */
export interface MatchSelectionLine {
  id: string;
  ledgerAccountId: string;
  bookId: string | null;
  isOpenItem: boolean;
  status: string;
}

/**
 * D39 (and D66 for a bank match): the selected lines exist, are of one account and one Book (with
 * `bookId` given, that Book: a bank match's entry is posted there), of an open-item account, and
 * of live entries; the codes in that order. The one place these codes are judged: the ledger's
 * match and banking's match both call it.
 */
export function judgeMatchSelection(lineIds: string[], lines: MatchSelectionLine[], options: { bookId?: string | null } = {}): void {
  const found = new Set(lines.map((l) => l.id));
  const missing = lineIds.find((id) => !found.has(id));
  if (missing) throw e('RECONCILIATION_MATCH_LINE_NOT_FOUND_ERROR', 'A selected line does not exist', { lineId: missing });
  const accounts = [...new Set(lines.map((l) => l.ledgerAccountId))];
  if (accounts.length > 1) throw e('RECONCILIATION_MATCH_LINES_ON_DIFFERENT_ACCOUNTS_ERROR', 'The selection spans accounts', { accountIds: accounts });
  if (options.bookId !== undefined) {
    if (new Set(lines.map((l) => l.bookId)).size > 1 || lines[0].bookId !== options.bookId) {
      throw e('RECONCILIATION_MATCH_LINES_IN_DIFFERENT_BOOKS_ERROR', 'The selection and the entry span Books', { bookId: options.bookId });
    }
  } else if (new Set(lines.map((l) => l.bookId)).size > 1) {
    throw e('RECONCILIATION_MATCH_LINES_IN_DIFFERENT_BOOKS_ERROR', 'The selection spans Books', {});
  }
  if (!lines.every((l) => l.isOpenItem)) {
    throw e('RECONCILIATION_ALLOCATION_ACCOUNT_MUST_BE_OPEN_ITEM_ERROR', 'Allocations settle lines of open-item accounts', { accountId: accounts[0] });
  }
  const dead = lines.find((l) => !(LIVE_STATUSES as readonly string[]).includes(l.status));
  if (dead) throw e('LEDGER_ENTRY_NOT_LIVE_ERROR', 'A selected line belongs to an entry that is not live', { lineId: dead.id, status: dead.status });
}
