import { Injectable } from '@nestjs/common';
import type { PostedEntry } from '../../application/post-entry/ledger-postings';
import { EntryRepository } from '../../domain/entry-ports';
import { LedgerEntry } from '../../domain/ledger-entry';
import type { EntryResponse } from './entries.dto';
import { EntryPresenter } from './entry-presenter';

/**
 * What document modules read of the ledger (issue 18, invoices): an entry in the entry routes'
 * read shape (D34, with its lines), and the accounts of a subtype (default open-item accounts).
 */
@Injectable()
export class LedgerReads {
  constructor(
    private readonly entries: EntryRepository,
    private readonly present: EntryPresenter,
  ) {}

  /** The entry with its lines as GET entries/:entryId shows them (without its related documents), or null. */
  async entryWithLines(entityId: string, entryId: string): Promise<EntryResponse | null> {
    const entry = await this.entries.find(entityId, entryId);
    return entry ? this.present.entry1(entityId, entry) : null;
  }

  /** An entry just posted (LedgerPostings.post's answer) in the same shape, without reading it back. */
  presentPosted(entityId: string, entry: PostedEntry): Promise<EntryResponse> {
    return this.present.entry1(entityId, LedgerEntry.restore(entry));
  }
}
