import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { DomainError } from '../../../../libs/shared-kernel/src';
import { discoverablePort } from '../../../platform/discovery/discoverable-port';

/**
 * Port: what other modules know about an Entity's books. A provider of the ledger (entries,
 * scheduled entries) or of the invoices module, decorated @BookkeepingProbeProvider(), answers;
 * with none in the application the Entity has no bookkeeping records.
 */
export interface BookkeepingProbe {
  /** D22: any ledger entry (any status) or invoice. */
  hasRecords(entityId: string): Promise<boolean>;
  /** The earliest entry date of a Scheduled Entry, for the lock-date rule. */
  earliestScheduledEntryDate?(entityId: string): Promise<string | null>;
  /**
   * Why this lock date (null: cleared) may not be set, in the refusing module's own code (D90: the
   * ledger's closings hold it), or null. Asked with the Entity row locked for update.
   */
  lockDateRefusal?(entityId: string, ledgerLockDate: string | null): Promise<DomainError | null>;
}

const BOOKKEEPING = discoverablePort<BookkeepingProbe>();
/** Marks a provider of any module as a BookkeepingProbe; the Entities module finds it through DiscoveryService. */
export const BookkeepingProbeProvider = BOOKKEEPING.Implementation;

@Injectable()
export class BookkeepingProbes {
  private found?: BookkeepingProbe[];

  constructor(private readonly discovery: DiscoveryService) {}

  private get probes(): BookkeepingProbe[] {
    return (this.found ??= BOOKKEEPING.implementations(this.discovery));
  }

  async hasRecords(entityId: string): Promise<boolean> {
    for (const probe of this.probes) {
      if (await probe.hasRecords(entityId)) return true;
    }
    return false;
  }

  /** The first refusal a probe gives for this lock date, or null. */
  async lockDateRefusal(entityId: string, ledgerLockDate: string | null): Promise<DomainError | null> {
    for (const probe of this.probes) {
      const refusal = (await probe.lockDateRefusal?.(entityId, ledgerLockDate)) ?? null;
      if (refusal) return refusal;
    }
    return null;
  }

  async earliestScheduledEntryDate(entityId: string): Promise<string | null> {
    let earliest: string | null = null;
    for (const probe of this.probes) {
      const date = (await probe.earliestScheduledEntryDate?.(entityId)) ?? null;
      if (date !== null && (earliest === null || date < earliest)) earliest = date;
    }
    return earliest;
  }
}
