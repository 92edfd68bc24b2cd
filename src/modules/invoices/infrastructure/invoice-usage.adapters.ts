import { Injectable } from '@nestjs/common';
import { BookkeepingProbe, BookkeepingProbeProvider } from '../../entities';
import { PartnerUsageProbe, PartnerUsageProvider } from '../../partners';
import { InvoiceRepository } from '../domain/ports';

/** D22: an invoice locks its Entity's identity fields. */
@BookkeepingProbeProvider()
@Injectable()
export class InvoiceBookkeeping implements BookkeepingProbe {
  constructor(private readonly invoices: InvoiceRepository) {}

  hasRecords(entityId: string): Promise<boolean> {
    return this.invoices.hasAny(entityId);
  }
}

/** D45: an invoice's partner is in use. */
@PartnerUsageProvider()
@Injectable()
export class InvoicePartnerUsage implements PartnerUsageProbe {
  constructor(private readonly invoices: InvoiceRepository) {}

  isNamed(entityId: string, partnerId: string): Promise<boolean> {
    return this.invoices.partnerIsNamed(entityId, partnerId);
  }
}
