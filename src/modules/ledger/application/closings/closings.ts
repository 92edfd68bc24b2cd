import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { newId } from '../../../../../libs/shared-kernel/src';
import { Clock } from '../../../../platform/clock/clock';
import { EntitiesService } from '../../../entities';
import {
  assertExercise,
  assertExerciseLocked,
  assertFollows,
  Closing,
  closingAccountNotEquity,
  closingAlreadyExists,
  closingLines,
  closingNotFound,
  closingNotLatest,
  ClosingRepository,
} from '../../domain/closing';
import { EntryRepository } from '../../domain/entry-ports';
import { BooksService } from '../books.service';
import { ChartService } from '../chart.service';
import { EntryLocks } from '../entry-locks';
import { LedgerPostings } from '../post-entry/ledger-postings';

export interface CloseExerciseInput {
  id: string;
  exerciseStart: string;
  exerciseEnd: string;
  retainedEarningsAccountId: string;
  bookId?: string | null;
}

/**
 * D90 Year-end closing. A closing and a reopening hold the Entity row shared (the lock date cannot
 * move meanwhile; a move waits and then sees the closing) and the Entity's closing sequence
 * (ClosingRepository.lockSequence: two closings or reopenings of one Entity queue), both to the
 * end of the transaction. The exercise is locked, so no posting, reversal, unbooking or edit can
 * change its balances while they are read: they meet LEDGER_PERIOD_LOCKED_ERROR.
 */
@Injectable()
export class LedgerClosings {
  constructor(
    private readonly closings: ClosingRepository,
    private readonly entities: EntitiesService,
    private readonly books: BooksService,
    private readonly chart: ChartService,
    private readonly postings: LedgerPostings,
    private readonly entries: EntryRepository,
    private readonly locks: EntryLocks,
    private readonly clock: Clock,
  ) {}

  /**
   * Refusals in this order: 400 the exercise's dates; 409 a reused closing id; the Book (409
   * BOOK_REQUIRED_ERROR, 404 BOOK_NOT_FOUND_ERROR); the retained-earnings account (404, then 400
   * not equity); 409 the exercise not locked; 409 the sequence.
   */
  @Transactional()
  async close(entityId: string, input: CloseExerciseInput): Promise<Closing> {
    assertExercise(input.exerciseStart, input.exerciseEnd);
    const terms = await this.entities.postingTerms(entityId);
    await this.closings.lockSequence(entityId);
    if (await this.closings.find(entityId, input.id)) throw closingAlreadyExists(input.id);
    const bookId = await this.books.resolve(entityId, input.bookId);
    const account = await this.chart.holdAccountForReference(entityId, input.retainedEarningsAccountId);
    if (account.type !== 'equity') throw closingAccountNotEquity(account.id, account.type);
    assertExerciseLocked(input.exerciseEnd, terms.ledgerLockDate);
    assertFollows(input.exerciseStart, (await this.closings.latestActive(entityId, bookId))?.snapshot() ?? null);

    const balances = await this.closings.resultBalances(entityId, bookId, input.exerciseStart, input.exerciseEnd);
    const { lines, result } = closingLines(balances, account.id);
    const entry =
      lines.length === 0
        ? null
        : await this.postings.postClosingEntry(entityId, {
            id: newId(),
            bookId,
            entryDate: input.exerciseEnd,
            memo: `Closing of the exercise ${input.exerciseStart} to ${input.exerciseEnd}`,
            lines,
          });
    const closing = Closing.close(
      {
        entityId,
        id: input.id,
        bookId,
        exerciseStart: input.exerciseStart,
        exerciseEnd: input.exerciseEnd,
        retainedEarningsAccountId: account.id,
        entryId: entry?.id ?? null,
        result: Number(result),
      },
      this.clock.now(),
    );
    await this.closings.insert(closing);
    return closing;
  }

  /** A `bookId` filter names a Book of the Entity (404 BOOK_NOT_FOUND_ERROR otherwise). */
  async list(entityId: string, bookId?: string): Promise<Closing[]> {
    if (bookId) await this.books.get(entityId, bookId);
    return this.closings.list(entityId, bookId);
  }

  async get(entityId: string, closingId: string): Promise<Closing> {
    const closing = await this.closings.find(entityId, closingId);
    if (!closing) throw closingNotFound(closingId);
    return closing;
  }

  /** The closing whose entry this is (the entry detail names it), or null. */
  closingIdOfEntry(entityId: string, entryId: string): Promise<string | null> {
    return this.closings.closingIdOfEntry(entityId, entryId);
  }

  /**
   * D90 item 3: only the latest active closing of its Book reopens (a reopened one, or an earlier
   * one, is 409 LEDGER_CLOSING_NOT_LATEST_ERROR); the closing becomes `reopened`, its entry
   * `deleted` (its totals withdrawn), the one change the ledger makes to an entry of a locked
   * period. The lock date stays where it is; it may move back afterwards.
   */
  @Transactional()
  async reopen(entityId: string, closingId: string): Promise<Closing> {
    await this.entities.postingTerms(entityId);
    await this.closings.lockSequence(entityId);
    const closing = await this.get(entityId, closingId);
    const latest = await this.closings.latestActive(entityId, closing.bookId);
    if (!closing.isActive || latest === null || latest.id !== closing.id) throw closingNotLatest(closing.id, latest?.id ?? null);
    const now = this.clock.now();
    if (closing.entryId) {
      const entry = await this.locks.locked(entityId, closing.entryId);
      if (entry.isLive) {
        entry.unbook(now);
        await this.locks.releaseAllocations(entityId, entry.lines.map((l) => l.id));
        await this.entries.saveHeader(entry);
        await this.entries.shiftTotals(entityId, entry.id, -1);
      }
    }
    closing.reopen(now);
    await this.closings.saveStatus(closing);
    return closing;
  }
}
