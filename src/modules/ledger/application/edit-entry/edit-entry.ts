import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';

import { Clock } from '../../../../platform/clock/clock';
import { EntitiesService } from '../../../entities';
import { EntryRepository } from '../../domain/entry-ports';
import { assertEntryDate, assertOpenPeriod, entryNotLive, LedgerEntry } from '../../domain/ledger-entry';
import { EntryLifecycle } from '../entry-lifecycle';
import { EntryLocks } from '../entry-locks';
import { ledgerError } from '../../domain/ledger-errors';

/** PATCH entries/:entryId: the header of a live entry (date, memo, notes). */
@Injectable()
export class EditEntry {
  constructor(
    private readonly entries: EntryRepository,
    private readonly entities: EntitiesService,
    private readonly locks: EntryLocks,
    private readonly clock: Clock,
    private readonly lifecycle: EntryLifecycle,
  ) {}

  @Transactional()
  async editHeader(entityId: string, entryId: string, change: { entryDate?: string; memo?: string; notes?: string | null }): Promise<LedgerEntry> {
    const terms = await this.entities.postingTerms(entityId);
    // A new date is judged against the other half of a reversal pair, read under its lock: two
    // date changes of its halves queue and the second sees the first's date.
    const original = change.entryDate !== undefined ? await this.locks.lockOriginalOf(entityId, entryId) : null;
    const entry = await this.locks.locked(entityId, entryId);
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
    if (moves) {
      await this.entries.shiftTotals(entityId, entryId, 1);
      await this.lifecycle.notify({ entityId, entryIds: [entryId], reason: 'redated', entryDate: entry.entryDate });
    }
    return entry;
  }

  /**
   * A reversal stays dated after its original when either date changes. `original` (the entry's,
   * when it is a reversal) was locked by the caller before the entry; the entry's reversal is
   * locked here, after it.
   */
  private async keepReversalOrder(entityId: string, entry: LedgerEntry, original: LedgerEntry | null, newDate: string): Promise<void> {
    const invalid = (originalDate: string, reversalDate: string) =>
      ledgerError('LEDGER_REVERSAL_DATE_INVALID_ERROR', 'A reversal is dated after its original', { entryDate: originalDate, reversalDate });
    if (entry.reversedByEntryId) {
      const reversal = await this.entries.lock(entityId, entry.reversedByEntryId);
      if (reversal && newDate >= reversal.entryDate) throw invalid(newDate, reversal.entryDate);
    }
    if (original && newDate <= original.entryDate) throw invalid(original.entryDate, newDate);
  }
}
