import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { newId } from '../../../../../libs/shared-kernel/src';
import { Clock } from '../../../../platform/clock/clock';
import { translateUniqueViolation } from '../../../../platform/database/pg-errors';
import { EntitiesService } from '../../../entities';
import { AllocationRepository, AllocationRow, EntryRepository, PostingWriter } from '../../domain/entry-ports';
import { entryAlreadyExists as alreadyExists, LedgerEntry } from '../../domain/ledger-entry';
import { EntryLifecycle, madeEvent, mergeSevered, SeveredDocuments } from '../entry-lifecycle';
import { EntryLocks } from '../entry-locks';

export interface ReversalResult {
  reversalEntry: LedgerEntry;
  reversedEntry: LedgerEntry;
  settledChainEntries: LedgerEntry[];
  /** The documents the reversed entry had booked, by kind (SeveredDocumentKinds). */
  severed: SeveredDocuments;
}

/** POST entries/:entryId/reverse (D36). */
@Injectable()
export class ReverseEntry {
  constructor(
    private readonly entries: EntryRepository,
    private readonly allocations: AllocationRepository,
    private readonly writer: PostingWriter,
    private readonly entities: EntitiesService,
    private readonly locks: EntryLocks,
    private readonly lifecycle: EntryLifecycle,
    private readonly clock: Clock,
  ) {}

  /**
   * D36: posts the mirror in the original's Book; allocations on the original's open-item lines
   * are removed, then each open-item line is netted against its mirror by an allocation.
   */
  @Transactional()
  async reverse(entityId: string, entryId: string, input: { id: string; reversalDate: string; memo?: string }): Promise<ReversalResult> {
    const terms = await this.entities.postingTerms(entityId);
    const original = await this.locks.locked(entityId, entryId);
    // The reversal id is the idempotency id: a replay answers that it exists, not that the
    // original (reversed by the first call) is no longer reversible.
    if (await this.entries.exists(entityId, input.id)) throw alreadyExists(input.id);
    const now = this.clock.now();
    const mirror = original.reverse({ ...input, lineIds: original.lines.map(() => newId()), ledgerLockDate: terms.ledgerLockDate }, now);
    await translateUniqueViolation(() => this.writer.insert(mirror), () => alreadyExists(input.id));
    await this.entries.saveHeader(original);

    const released = await this.locks.releaseAllocations(entityId, original.lines.map((l) => l.id));
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
    await this.allocations.insertAllocations(netting);
    if (netting.length > 0) {
      const dated = [...original.lines.map((l) => ({ id: l.id, entryId: original.id, entryDate: original.entryDate })), ...mirror.lines.map((l) => ({ id: l.id, entryId: mirror.id, entryDate: mirror.entryDate }))];
      await this.lifecycle.notify(madeEvent(entityId, netting, dated));
    }
    const severed = mergeSevered(released, await this.lifecycle.notify({ entityId, entryIds: [original.id], reason: 'reversed' }));
    const [reversalEntry, reversedEntry] = await this.locks.persisted(entityId, [mirror, original]);
    return { reversalEntry, reversedEntry, settledChainEntries: [], severed };
  }
}
