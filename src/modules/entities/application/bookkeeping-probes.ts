import { Injectable } from '@nestjs/common';

/**
 * What other modules know about an Entity's books. The ledger module (entries, scheduled
 * entries) and the invoices module register a probe when they start; with none registered the
 * Entity has no bookkeeping records.
 */
export interface BookkeepingProbe {
  /** D22: any ledger entry (any status) or invoice. */
  hasRecords(entityId: string): Promise<boolean>;
  /** The earliest entry date of a Scheduled Entry, for the lock-date rule. */
  earliestScheduledEntryDate?(entityId: string): Promise<string | null>;
}

@Injectable()
export class BookkeepingProbes {
  private readonly probes: BookkeepingProbe[] = [];

  register(probe: BookkeepingProbe): void {
    this.probes.push(probe);
  }

  async hasRecords(entityId: string): Promise<boolean> {
    for (const probe of this.probes) {
      if (await probe.hasRecords(entityId)) return true;
    }
    return false;
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
