import { Injectable } from '@nestjs/common';
import type { ListedLine } from '../domain/entry-ports';
import type { LedgerEntry } from '../domain/ledger-entry';
import { EditEntry } from './edit-entry/edit-entry';
import { EntryDetail, EntryQueries } from './entry-queries/entry-queries';
import { LineEdits } from './line-edits/line-edits';
import type { LedgerPosting, PostingOptions } from './post-entry/ledger-postings';
import { ReversalResult, ReverseEntry } from './reverse-entry/reverse-entry';
import { ScheduledEntries } from './scheduled-entries/scheduled-entries';
import { UnbookEntry, UnbookResult } from './unbook-entry/unbook-entry';

export type { EntryDetail, ReversalResult, UnbookResult };

/**
 * The entry use cases after posting (LedgerPostings), in one place for the entry routes and for
 * other modules (an agent's proposal, a job run in SystemWrites): each method is the use case of
 * its folder (edit-entry/, reverse-entry/, unbook-entry/, scheduled-entries/, line-edits/,
 * entry-queries/), which owns its transaction.
 */
@Injectable()
export class LedgerEntriesService {
  constructor(
    private readonly queries: EntryQueries,
    private readonly edits: EditEntry,
    private readonly reversal: ReverseEntry,
    private readonly unbooking: UnbookEntry,
    private readonly scheduled: ScheduledEntries,
    private readonly lineEdits: LineEdits,
  ) {}

  get(entityId: string, entryId: string): Promise<EntryDetail> {
    return this.queries.get(entityId, entryId);
  }

  list(...args: Parameters<EntryQueries['list']>): ReturnType<EntryQueries['list']> {
    return this.queries.list(...args);
  }

  streamEntries(...args: Parameters<EntryQueries['streamEntries']>): Promise<void> {
    return this.queries.streamEntries(...args);
  }

  streamLines(...args: Parameters<EntryQueries['streamLines']>): Promise<void> {
    return this.queries.streamLines(...args);
  }


  editHeader(entityId: string, entryId: string, change: { entryDate?: string; memo?: string; notes?: string | null }): Promise<LedgerEntry> {
    return this.edits.editHeader(entityId, entryId, change);
  }

  reverse(entityId: string, entryId: string, input: { id: string; reversalDate: string; memo?: string }): Promise<ReversalResult> {
    return this.reversal.reverse(entityId, entryId, input);
  }

  unbook(entityId: string, entryId: string): Promise<UnbookResult> {
    return this.unbooking.unbook(entityId, entryId);
  }

  bookScheduled(entityId: string, entryId: string): Promise<LedgerEntry> {
    return this.scheduled.bookScheduled(entityId, entryId);
  }

  replaceScheduled(entityId: string, entryId: string, input: Pick<LedgerPosting, 'entryDate' | 'memo' | 'notes' | 'lines'>, options: PostingOptions = {}): Promise<LedgerEntry> {
    return this.scheduled.replaceScheduled(entityId, entryId, input, options);
  }

  cancelScheduled(entityId: string, entryId: string): Promise<LedgerEntry> {
    return this.scheduled.cancelScheduled(entityId, entryId);
  }

  setLinePartner(entityId: string, lineId: string, partnerId: string | null): Promise<ListedLine> {
    return this.lineEdits.setLinePartner(entityId, lineId, partnerId);
  }

  setLineAccount(entityId: string, lineId: string, accountId: string): Promise<ListedLine> {
    return this.lineEdits.setLineAccount(entityId, lineId, accountId);
  }

  setLineDimensionValues(entityId: string, lineId: string, valueIds: string[]): Promise<ListedLine> {
    return this.lineEdits.setLineDimensionValues(entityId, lineId, valueIds);
  }
}
