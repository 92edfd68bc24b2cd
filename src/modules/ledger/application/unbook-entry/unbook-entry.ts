import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { Clock } from '../../../../platform/clock/clock';
import { EntitiesService } from '../../../entities';
import { EntryRepository } from '../../domain/entry-ports';
import { assertOpenPeriod, entryNotLive, LedgerEntry } from '../../domain/ledger-entry';
import { EntryLifecycle, mergeSevered, SeveredDocuments } from '../entry-lifecycle';
import { EntryLocks } from '../entry-locks';

export interface UnbookResult {
  unbookedEntry: LedgerEntry;
  settledChainEntries: LedgerEntry[];
  /** The documents the entries that left the books had booked, by kind (SeveredDocumentKinds). */
  severed: SeveredDocuments;
}

/** DELETE entries/:entryId (D35). */
@Injectable()
export class UnbookEntry {
  constructor(
    private readonly entries: EntryRepository,
    private readonly entities: EntitiesService,
    private readonly locks: EntryLocks,
    private readonly lifecycle: EntryLifecycle,
    private readonly clock: Clock,
  ) {}

  /**
   * D35: a live entry becomes `deleted`; its lines' allocations go (the other sides get their
   * open amounts back). Unbooking a reversal puts its original back to `active`; unbooking an
   * original that has been reversed takes its reversal with it (both `deleted`, the reversal
   * listed among the settled chain entries).
   */
  @Transactional()
  async unbook(entityId: string, entryId: string): Promise<UnbookResult> {
    const terms = await this.entities.postingTerms(entityId);
    const original = await this.locks.lockOriginalOf(entityId, entryId);
    const entry = await this.locks.locked(entityId, entryId);
    // The entry's state (409 LEDGER_ENTRY_NOT_LIVE_ERROR) before its date against the lock date.
    if (!entry.isLive) throw entryNotLive(entryId, entry.status);
    assertOpenPeriod(entry.entryDate, terms.ledgerLockDate);
    const reversal = entry.status === 'reversed' && entry.reversedByEntryId ? await this.entries.lock(entityId, entry.reversedByEntryId) : null;
    if (reversal) assertOpenPeriod(reversal.entryDate, terms.ledgerLockDate);
    const now = this.clock.now();
    entry.unbook(now, reversal);
    const gone = reversal ? [entry, reversal] : [entry];
    const released = await this.locks.releaseAllocations(entityId, gone.flatMap((e) => e.lines.map((l) => l.id)));
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
    const unbooked = await this.lifecycle.notify({ entityId, entryIds: gone.map((e) => e.id), reason: 'unbooked' });
    // The original back in the books: documents booked (or changed) since stay as they are, severed from it.
    const restored = original ? await this.lifecycle.notify({ entityId, entryIds: [original.id], reason: 'restored' }) : null;
    const severed = mergeSevered(released, unbooked, ...(restored ? [restored] : []));
    const [unbookedEntry, ...settled] = await this.locks.persisted(entityId, [entry, ...settledChainEntries]);
    return { unbookedEntry, settledChainEntries: settled, severed };
  }
}
