import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { Clock } from '../../../../platform/clock/clock';
import { EntitiesService } from '../../../entities';
import { EntryRepository } from '../../domain/entry-ports';
import { assertEntryDate, assertOpenPeriod, LedgerEntry } from '../../domain/ledger-entry';
import { EntryLifecycle } from '../entry-lifecycle';
import { EntryLocks } from '../entry-locks';
import { renameFieldPaths } from '../post-entry/field-paths';
import { LedgerPosting, linesOf, PostingOptions, refuseTransactionCurrency } from '../post-entry/ledger-postings';

/** The scheduled entries' routes after their creation (LedgerPostings.schedule): book, replace, cancel. */
@Injectable()
export class ScheduledEntries {
  constructor(
    private readonly entries: EntryRepository,
    private readonly entities: EntitiesService,
    private readonly locks: EntryLocks,
    private readonly lifecycle: EntryLifecycle,
    private readonly clock: Clock,
  ) {}

  @Transactional()
  async bookScheduled(entityId: string, entryId: string): Promise<LedgerEntry> {
    const terms = await this.entities.postingTerms(entityId);
    const entry = await this.locks.locked(entityId, entryId);
    entry.book(this.clock.today(), this.clock.now());
    assertOpenPeriod(entry.entryDate, terms.ledgerLockDate);
    await this.entries.saveHeader(entry);
    await this.entries.shiftTotals(entityId, entryId, 1);
    return entry;
  }

  @Transactional()
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
    const entry = await this.locks.locked(entityId, entryId);
    // The body's shape was checked by the pipe (400); the entry's state (409) comes before the
    // checks of the new content (dates, lines), as on every other route.
    entry.requireScheduled();
    refuseTransactionCurrency(input.lines);
    const lines = linesOf(input);
    const judged = LedgerEntry.judgeLines(lines, await this.locks.postingContext(entityId, terms.currency, lines));
    assertEntryDate(input.entryDate, 'scheduled', this.clock.today(), terms.ledgerLockDate);
    entry.reschedule({ entryDate: input.entryDate, memo: input.memo, notes: input.notes ?? null }, judged, this.clock.now());
    await this.entries.replaceLines(entry);
    return entry;
  }

  @Transactional()
  async cancelScheduled(entityId: string, entryId: string): Promise<LedgerEntry> {
    const entry = await this.locks.locked(entityId, entryId);
    entry.cancel(this.clock.now());
    await this.entries.saveHeader(entry);
    await this.lifecycle.notify({ entityId, entryIds: [entry.id], reason: 'cancelled' });
    return entry;
  }
}
