import { Module, OnModuleInit } from '@nestjs/common';
import { BookkeepingProbes } from '../entities';
import { PartnersService } from '../partners';
import { LedgerModule } from '../ledger';
import { ReferenceModule } from '../reference';
import { DteXmlReader } from './application/dte-xml-reader';
import { DtesService } from './application/dtes.service';
import { InvoiceLifecycleHooks } from './application/invoice-hooks';
import { InvoicesService } from './application/invoices.service';
import { InvoiceBookingService } from './application/invoice-booking.service';
import { InvoiceLedgerPort } from './infrastructure/ledger/invoice-ledger-port';
import { InvoiceQueries } from './application/invoice-queries';
import { DteRepository, InvoiceRepository } from './domain/ports';
import { DtesController } from './infrastructure/http/dtes.controller';
import { InvoicesController } from './infrastructure/http/invoices.controller';
import { SqlDteRepository } from './infrastructure/persistence/dte.repository';
import { SqlInvoiceRepository } from './infrastructure/persistence/invoice.repository';
import { SiiDteXmlReader } from './infrastructure/sii-dte-xml-reader';

/** AR and AP invoices, their booking to the ledger, and imported SII DTEs (D60-D65). */
@Module({
  imports: [ReferenceModule, LedgerModule],
  controllers: [InvoicesController, DtesController],
  providers: [
    { provide: InvoiceRepository, useClass: SqlInvoiceRepository },
    { provide: DteRepository, useClass: SqlDteRepository },
    { provide: DteXmlReader, useClass: SiiDteXmlReader },
    InvoiceLifecycleHooks,
    InvoicesService,
    InvoiceBookingService,
    InvoiceLedgerPort,
    DtesService,
    InvoiceQueries,
  ],
  exports: [InvoiceLifecycleHooks, InvoiceQueries],
})
export class InvoicesModule implements OnModuleInit {
  constructor(
    private readonly invoices: InvoiceRepository,
    private readonly bookkeeping: BookkeepingProbes,
    private readonly partners: PartnersService,
  ) {}

  /** D22: invoices lock the Entity's identity fields; D45: an invoice's partner is in use. */
  onModuleInit(): void {
    this.bookkeeping.register({ hasRecords: (entityId) => this.invoices.hasAny(entityId) });
    this.partners.registerProbe({ isNamed: (entityId, partnerId) => this.invoices.partnerIsNamed(entityId, partnerId) });
  }
}
