import { Injectable } from '@nestjs/common';
import type { Subtype } from '../../domain/account-types';
import { EntryRepository } from '../../domain/entry-ports';
import { ChartRepository } from '../../domain/ledger-ports';
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
    private readonly chart: ChartRepository,
    private readonly present: EntryPresenter,
  ) {}

  /** The entry with its lines as GET entries/:entryId shows them (without its related documents), or null. */
  async entryWithLines(entityId: string, entryId: string): Promise<EntryResponse | null> {
    const entry = await this.entries.find(entityId, entryId);
    return entry ? this.present.entry1(entityId, entry) : null;
  }

  /** Ids of the Entity's accounts of this subtype, by code. */
  async accountIdsWithSubtype(entityId: string, subtype: Subtype): Promise<string[]> {
    return (await this.chart.accounts(entityId)).filter((a) => a.snapshot().subtype === subtype).map((a) => a.id);
  }
}
