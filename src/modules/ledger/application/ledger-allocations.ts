import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { encodeDateIdCursor, exactAmount, newId } from '../../../../libs/shared-kernel/src';
import { Clock } from '../../../platform/clock/clock';
import { translateUniqueViolation } from '../../../platform/database/pg-errors';
import { greedyMatch, judgeAllocation, judgeMatchSelection, LineForAllocation, openAmountOf } from '../domain/allocation';
import { AllocationRepository, AllocationRow, EntryRepository, ListedLine, OpenItemSummary } from '../domain/entry-ports';
import { lineNotFound } from '../domain/ledger-entry';
import { ledgerAccountNotFound, ledgerError, validationError } from '../domain/ledger-errors';
import { ChartRepository } from '../domain/ledger-ports';
import { BooksService } from './books.service';
import { readDateIdCursor } from './date-id-cursor';
import { EntryLifecycle, madeEvent, releasedEvent } from './entry-lifecycle';

/** A new allocation: `manual` (the allocations route, a module settling two lines) or `match` (a bank match). */
export interface AllocationInput {
  id: string;
  debitLineId: string;
  creditLineId: string;
  amount: number;
  kind?: 'manual' | 'match';
}

/** What a match made. */
export interface MatchResult {
  allocations: AllocationRow[];
  /** Lines whose open amount the match took to 0, in the order they were settled. */
  settledLines: string[];
  /** Signed open total of the selection after the match, debit positive. */
  openTotal: number;
}

const e = ledgerError;

function forAllocation(line: ListedLine): LineForAllocation {
  return {
    id: line.id,
    side: line.side,
    accountId: line.ledgerAccountId,
    isOpenItem: line.isOpenItem,
    bookId: line.bookId,
    status: line.status,
    entryId: line.entryId,
    entryDate: line.entryDate,
    reversalOfEntryId: line.reversalOfEntryId ?? null,
    amount: line.amount,
    allocatedAmount: line.allocatedAmount,
  };
}

/**
 * Reconciliation. Every writer locks the lines it touches in id order (EntryRepository.lockLines)
 * before reading their open amounts, so racing allocations and matches serialize on the lines
 * they share and never deadlock; the line's check constraint is the last guard against
 * over-settling. New allocations first share-lock the lines' entries, which unbooking and
 * reversing lock before reading allocations: none is left on a line whose entry left the books.
 */
@Injectable()
export class LedgerAllocations {
  constructor(
    private readonly entries: EntryRepository,
    private readonly store: AllocationRepository,
    private readonly books: BooksService,
    private readonly chart: ChartRepository,
    private readonly clock: Clock,
    private readonly lifecycle: EntryLifecycle,
  ) {}

  async ofLine(entityId: string, lineId: string): Promise<AllocationRow[]> {
    if (!(await this.entries.findLine(entityId, lineId))) throw lineNotFound(lineId);
    return this.store.allocationsOfLines(entityId, [lineId]);
  }

  /** Settles `amount` of a debit line against a credit line of the same open-item account. */
  @Transactional()
  async allocate(entityId: string, input: AllocationInput): Promise<AllocationRow> {
    const conflict = () => e('RECONCILIATION_ALLOCATION_ID_CONFLICT_ERROR', 'An allocation with this id already exists', { allocationId: input.id });
    if (await this.store.findAllocation(entityId, input.id)) throw conflict();
    if (input.debitLineId === input.creditLineId) {
      throw e('RECONCILIATION_ALLOCATION_DEBIT_AND_CREDIT_LINE_IDS_CANNOT_BE_THE_SAME_ERROR', 'The debit and credit lines must differ', { lineId: input.debitLineId });
    }
    await this.entries.holdEntriesOfLines(entityId, [input.debitLineId, input.creditLineId]);
    const lines = new Map((await this.entries.lockLines(entityId, [input.debitLineId, input.creditLineId])).map((l) => [l.id, l]));
    const debit = lines.get(input.debitLineId);
    const credit = lines.get(input.creditLineId);
    if (!debit) throw e('RECONCILIATION_ALLOCATION_DEBIT_LINE_NOT_FOUND_ERROR', 'No line with the debit line id', { lineId: input.debitLineId });
    if (!credit) throw e('RECONCILIATION_ALLOCATION_CREDIT_LINE_NOT_FOUND_ERROR', 'No line with the credit line id', { lineId: input.creditLineId });
    judgeAllocation(forAllocation(debit), forAllocation(credit), input.amount);
    const now = this.clock.now();
    const allocation: AllocationRow = {
      entityId,
      id: input.id,
      debitLineId: debit.id,
      creditLineId: credit.id,
      accountId: debit.ledgerAccountId,
      amount: input.amount,
      kind: input.kind ?? 'manual',
      createdAt: now,
      updatedAt: now,
    };
    await translateUniqueViolation(() => this.store.insertAllocations([allocation]), conflict);
    await this.lifecycle.notify(madeEvent(entityId, [allocation], [debit, credit]));
    return allocation;
  }

  /**
   * Restores both open amounts. The service's reversal netting is not undone by hand (D36). The
   * allocation is read again once its lines are locked, the lock under which every writer removes
   * allocations: one that an unbooking removed meanwhile is not found.
   */
  @Transactional()
  async delete(entityId: string, allocationId: string): Promise<AllocationRow> {
    const notFound = () => e('RECONCILIATION_ALLOCATION_NOT_FOUND_ERROR', 'No allocation with this id', { allocationId });
    const found = await this.store.findAllocation(entityId, allocationId);
    if (!found) throw notFound();
    if (found.kind === 'reversal') {
      throw e('RECONCILIATION_ALLOCATION_NETS_REVERSAL_ERROR', 'This allocation nets a reversal; unbook the reversal instead', { allocationId });
    }
    const lines = await this.entries.lockLines(entityId, [found.debitLineId, found.creditLineId]);
    const allocation = await this.store.findAllocation(entityId, allocationId);
    if (!allocation) throw notFound();
    await this.store.removeAllocations(entityId, [allocation]);
    await this.lifecycle.notify(releasedEvent(entityId, [allocation], lines));
    return allocation;
  }

  /** D39: greedy, oldest first, every allocation in one transaction. */
  @Transactional()
  async match(entityId: string, lineIds: string[]): Promise<MatchResult> {
    const wanted = [...new Set(lineIds)];
    await this.entries.holdEntriesOfLines(entityId, wanted);
    const locked = await this.entries.lockLines(entityId, wanted);
    judgeMatchSelection(wanted, locked);

    const lines = locked.map(forAllocation);
    const pairs = greedyMatch(lines);
    if (pairs.length === 0) throw e('RECONCILIATION_MATCH_NOTHING_TO_MATCH_ERROR', 'The selection has no open debit and credit to pair', {});
    const now = this.clock.now();
    const allocations: AllocationRow[] = pairs.map((pair) => ({
      entityId,
      id: newId(),
      ...pair,
      accountId: locked[0].ledgerAccountId,
      kind: 'match',
      createdAt: now,
      updatedAt: now,
    }));
    await this.store.insertAllocations(allocations);
    await this.lifecycle.notify(madeEvent(entityId, allocations, locked));

    // Walk the pairs as they were made: a line is settled by the pair that takes its open amount
    // to 0, so settledLines lists lines in the order they were settled (a pair's debit first).
    const open = new Map(lines.map((l) => [l.id, openAmountOf(l)]));
    const settledLines: string[] = [];
    for (const pair of pairs) {
      for (const lineId of [pair.debitLineId, pair.creditLineId]) {
        open.set(lineId, open.get(lineId)! - pair.amount);
        if (open.get(lineId) === 0) settledLines.push(lineId);
      }
    }
    return {
      allocations,
      settledLines,
      openTotal: exactAmount(lines.reduce((sum, l) => sum + BigInt(l.side === 'debit' ? open.get(l.id)! : -open.get(l.id)!), 0n), 'openTotal'),
    };
  }

  /**
   * D38: unsettled by default; the totals describe the whole filtered set. Book-scoped. After the
   * cursor (400), the account is what is read: unknown, 404 LEDGER_ACCOUNT_NOT_FOUND_ERROR; not
   * open-item, 400 (as the partner ledger); then the Book.
   */
  async openItemLines(
    entityId: string,
    query: { accountId: string; partnerId?: string; includeSettled?: boolean; bookId?: string; cursor?: string; limit?: number },
  ): Promise<{ lines: ListedLine[]; nextCursor: string | null } & OpenItemSummary> {
    // The cursor is part of the query's shape (400), judged before the account and the Book.
    const after = query.cursor ? readDateIdCursor(query.cursor) : undefined;
    const [account] = await this.chart.accountsByIds(entityId, [query.accountId]);
    if (!account) throw ledgerAccountNotFound({ accountId: query.accountId });
    if (account.tracking !== 'open_item') throw validationError('accountId', 'must be an open-item account');
    const bookId = await this.books.resolve(entityId, query.bookId);
    const limit = query.limit ?? 50;
    const filter = { accountId: query.accountId, partnerId: query.partnerId, includeSettled: query.includeSettled ?? false, bookId };
    const found = await this.store.openItemLines(entityId, { ...filter, after, limit: limit + 1 });
    const page = found.slice(0, limit);
    return {
      lines: page,
      nextCursor: found.length > limit ? encodeDateIdCursor({ date: page[page.length - 1].entryDate, id: page[page.length - 1].id }) : null,
      ...(await this.store.openItemSummary(entityId, filter)),
    };
  }
}
