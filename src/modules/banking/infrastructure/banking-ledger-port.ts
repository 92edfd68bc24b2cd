import { Injectable } from '@nestjs/common';
import {
  type EntryDocumentSource,
  type EntryLifecycleEvent,
  type EntryLifecycleListener,
  LedgerDocumentSource,
  LedgerLifecycleListener,
  type RelatedDocuments,
  type SeveredDocuments,
} from '../../ledger';
import { BankAccountRepository, BankMovementRepository } from '../application/banking-ports';
import type { BankMovement } from '../domain/bank-movement';
import { Clock } from '../../../platform/clock/clock';

/** A bank movement as the entry routes name it (the fields of a to-do's bank movement link). */
export interface BankMovementSummary {
  id: string;
  bankAccountId: string;
  movementDate: string;
  amount: number;
  side: 'debit' | 'credit';
  bankAccountCurrency: string;
}
/** A movement severed from the entry that had booked it (`entryId`). */
export type SeveredMovement = BankMovementSummary & { entryId: string };

/**
 * Banking's kinds in the ledger's contract (declaration merging, docs/ARCHITECTURE.md): entries
 * posted from bank movements (source `bank_movement`), the movements a reversal or an unbooking
 * severed (`severedMovements`) and those an entry booked (`relatedBankMovements`).
 */
declare module '../../ledger' {
  interface PostingSources {
    bank_movement: true;
  }
  interface SeveredDocumentKinds {
    severedMovements: SeveredMovement;
  }
  interface RelatedDocumentKinds {
    relatedBankMovements: BankMovementSummary;
  }
}

/**
 * Banking's side of the ledger's ports: reversing or unbooking an entry severs the movement it
 * booked (back to unreconciled, listed in `severedMovements`), in the ledger's transaction; the
 * entry detail's `relatedBankMovements` names it; and the bank-side line of a booking keeps its
 * account (LEDGER_LINE_DOCUMENT_LINKED_ERROR).
 */
@Injectable()
@LedgerLifecycleListener()
@LedgerDocumentSource()
export class BankingLedgerPort implements EntryLifecycleListener, EntryDocumentSource {
  constructor(
    private readonly accounts: BankAccountRepository,
    private readonly movements: BankMovementRepository,
    private readonly clock: Clock,
  ) {}

  async onEntryLifecycle(event: EntryLifecycleEvent): Promise<SeveredDocuments | void> {
    if (event.reason === 'restored') return this.rebook(event.entityId, event.entryIds);
    if (event.reason !== 'reversed' && event.reason !== 'unbooked') return;
    // An unbooked entry (a reversed original takes its reversal along) cannot come back.
    if (event.reason === 'unbooked') await this.movements.forgetSeveredFrom(event.entityId, event.entryIds);
    const severed =
      event.reason === 'reversed'
        ? await this.movements.severByReversedEntries(event.entityId, event.entryIds, this.clock.now())
        : await this.movements.severByEntries(event.entityId, event.entryIds, this.clock.now());
    const summaries = await this.summaries(event.entityId, severed.map((s) => s.movement));
    return { severedMovements: summaries.map((summary, i) => ({ ...summary, entryId: severed[i].entryId })) };
  }

  /**
   * D35: unbooking a reversal settles the chain back to its prior state: the movements the
   * reversal severed are booked by their original entry again. The unbooking is never refused for
   * a movement (the spec's state table): one booked since by another entry is left as it is, the
   * restored entry stays a plain entry, and the movement is answered as severed from it (stop 17 review).
   */
  private async rebook(entityId: string, entryIds: string[]): Promise<SeveredDocuments> {
    const now = this.clock.now();
    const left: Array<{ movement: BankMovement; entryId: string }> = [];
    for (const severed of await this.movements.lockSeveredFrom(entityId, entryIds)) {
      if (severed.movement.ledgerEntryId) left.push(severed);
      else await this.movements.setEntry(entityId, severed.movement.id, severed.entryId, now);
    }
    await this.movements.forgetSeveredFrom(entityId, entryIds);
    if (left.length === 0) return {};
    const summaries = await this.summaries(entityId, left.map((l) => l.movement));
    return { severedMovements: summaries.map((summary, i) => ({ ...summary, entryId: left[i].entryId })) };
  }

  async relatedDocuments(entityId: string, entryId: string): Promise<RelatedDocuments> {
    return { relatedBankMovements: await this.summaries(entityId, await this.movements.byEntries(entityId, [entryId])) };
  }

  documentLinkedLines(entityId: string, lineIds: string[]): Promise<Set<string>> {
    return this.movements.bankLinesOfBookings(entityId, lineIds);
  }

  private async summaries(entityId: string, movements: BankMovement[]): Promise<BankMovementSummary[]> {
    const currencies = await this.accounts.currencies(entityId, [...new Set(movements.map((m) => m.bankAccountId))]);
    return movements.map((m) => ({
      id: m.id,
      bankAccountId: m.bankAccountId,
      movementDate: m.movementDate,
      amount: m.amount,
      side: m.side,
      bankAccountCurrency: currencies.get(m.bankAccountId)!,
    }));
  }
}
