import { Injectable } from '@nestjs/common';
import { BookkeepingProbe, BookkeepingProbeProvider } from '../../entities';
import type { DomainError } from '../../../../libs/shared-kernel/src';
import { ClosingRepository, lockDateRefusal } from '../domain/closing';
import { LedgerUsageQueries } from '../domain/entry-ports';

/** What the Entities module must know about entries (D22, D24, D90): any entry, the earliest scheduled one, the closings holding the lock date. */
@BookkeepingProbeProvider()
@Injectable()
export class LedgerBookkeeping implements BookkeepingProbe {
  constructor(
    private readonly usage: LedgerUsageQueries,
    private readonly closings: ClosingRepository,
  ) {}

  hasRecords(entityId: string): Promise<boolean> {
    return this.usage.hasAnyEntry(entityId);
  }

  earliestScheduledEntryDate(entityId: string): Promise<string | null> {
    return this.usage.earliestScheduledEntryDate(entityId);
  }

  /** D90 item 3: 409 LEDGER_LOCK_DATE_BEFORE_CLOSING_ERROR before the end of the latest active closing, or cleared while one is active. */
  async lockDateRefusal(entityId: string, ledgerLockDate: string | null): Promise<DomainError | null> {
    return lockDateRefusal(ledgerLockDate, await this.closings.latestActiveOfEntity(entityId));
  }
}
