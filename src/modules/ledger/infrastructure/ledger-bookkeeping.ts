import { Injectable } from '@nestjs/common';
import { BookkeepingProbe, BookkeepingProbeProvider } from '../../entities';
import { LedgerUsageQueries } from '../domain/entry-ports';

/** What the Entities module must know about entries (D22, D24): any entry, the earliest scheduled one. */
@BookkeepingProbeProvider()
@Injectable()
export class LedgerBookkeeping implements BookkeepingProbe {
  constructor(private readonly usage: LedgerUsageQueries) {}

  hasRecords(entityId: string): Promise<boolean> {
    return this.usage.hasAnyEntry(entityId);
  }

  earliestScheduledEntryDate(entityId: string): Promise<string | null> {
    return this.usage.earliestScheduledEntryDate(entityId);
  }
}
