import { Injectable } from '@nestjs/common';
import { EntitiesService } from '../../entities';
import { ReferenceDataService } from '../../reference';
import { AllocationRepository, EntryRepository, ListedLine } from '../domain/entry-ports';
import { assertOpenPeriod, entryNotFound, entryNotLive, LedgerEntry, LIVE_STATUSES, lineNotFound, LineInput, PostingContext } from '../domain/ledger-entry';
import { ChartRepository, DimensionRepository } from '../domain/ledger-ports';
import { EntryLifecycle, releasedEvent, SeveredDocuments } from './entry-lifecycle';
import { PartnerDirectory } from './partner-directory';

/**
 * What the entry use cases share: the locks they take, always in the same order (a reversal's
 * original before the entry, lines in id order), the release of allocations (told to the
 * lifecycle listeners), and the held references a new line set is judged against.
 */
@Injectable()
export class EntryLocks {
  constructor(
    private readonly entries: EntryRepository,
    private readonly allocations: AllocationRepository,
    private readonly chart: ChartRepository,
    private readonly dimensions: DimensionRepository,
    private readonly partners: PartnerDirectory,
    private readonly entities: EntitiesService,
    private readonly reference: ReferenceDataService,
    private readonly lifecycle: EntryLifecycle,
  ) {}

  async locked(entityId: string, entryId: string): Promise<LedgerEntry> {
    const entry = await this.entries.lock(entityId, entryId);
    if (!entry) throw entryNotFound(entryId);
    return entry;
  }

  /**
   * The original of a reversal (null for any other entry), locked. Every write to a reversal pair
   * locks it original first (unbooking the original, then its reversal, does too), so writes to
   * both halves at once queue instead of deadlocking. Call it before locking the entry itself.
   */
  async lockOriginalOf(entityId: string, entryId: string): Promise<LedgerEntry | null> {
    const originalId = await this.entries.reversalOfEntryId(entityId, entryId);
    return originalId ? this.entries.lock(entityId, originalId) : null;
  }

  /**
   * The entries as stored at the end of a mutation: allocations made or removed by it change
   * open amounts that the aggregates in hand do not follow (the response must equal a GET).
   */
  async persisted(entityId: string, entries: LedgerEntry[]): Promise<LedgerEntry[]> {
    const stored = await this.entries.findMany(entityId, entries.map((e) => e.id));
    if (stored.length !== entries.length) throw new Error('An entry written by this mutation could not be read back');
    return stored;
  }

  /**
   * Removes the allocations of these lines, locking every line they touch in id order first, and
   * tells the listeners (allocations_released).
   */
  async releaseAllocations(entityId: string, lineIds: string[]): Promise<SeveredDocuments> {
    const allocations = await this.allocations.allocationsOfLines(entityId, lineIds);
    if (allocations.length === 0) return {};
    const lines = await this.entries.lockLines(entityId, [...new Set(allocations.flatMap((a) => [a.debitLineId, a.creditLineId]))]);
    await this.allocations.removeAllocations(entityId, allocations);
    return this.lifecycle.notify(releasedEvent(entityId, allocations, lines));
  }

  /** The line, locked with its entry, when it may change: its entry live, its date after the lock date. */
  async editableLine(entityId: string, lineId: string): Promise<ListedLine> {
    const terms = await this.entities.postingTerms(entityId);
    const found = await this.entries.findLine(entityId, lineId);
    if (!found) throw lineNotFound(lineId);
    await this.locked(entityId, found.entryId);
    const [line] = await this.entries.lockLines(entityId, [lineId]);
    // D33a: the lines of an entry that is not live (a scheduled one included: its lines change
    // only with PATCH scheduled-entries, which replaces the whole set) do not change here.
    if (!LIVE_STATUSES.includes(line.status)) throw entryNotLive(line.entryId, line.status);
    assertOpenPeriod(line.entryDate, terms.ledgerLockDate);
    return line;
  }

  /**
   * One query each for the accounts, partners and values the lines name (no N+1), each held
   * (key-share-locked) until the transaction ends, as the posting statement holds them: lines are
   * judged on their latest version, and a delete or type change of one waits for these lines.
   */
  async postingContext(entityId: string, functionalCurrency: string, lines: Array<Pick<LineInput, 'ledgerAccountId' | 'partnerId' | 'dimensionValueIds'>>): Promise<PostingContext> {
    const accounts = new Map((await this.chart.accountsByIds(entityId, lines.map((l) => l.ledgerAccountId), true)).map((a) => [a.id, a]));
    const partners = await this.partners.holdExisting(entityId, lines.flatMap((l) => (l.partnerId ? [l.partnerId] : [])));
    const values = new Map((await this.dimensions.valuesByIds(entityId, lines.flatMap((l) => l.dimensionValueIds), true)).map((v) => [v.id, v]));
    return {
      functionalCurrency,
      account: (id) => accounts.get(id),
      partnerExists: (id) => partners.has(id),
      partnerNotFound: (id) => this.partners.notFound(id),
      dimensionValue: (id) => values.get(id),
      exponent: (code) => this.reference.findCurrency(code)?.minorUnits,
    };
  }
}
