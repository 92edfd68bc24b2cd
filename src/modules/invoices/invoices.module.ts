import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { InvoiceBookingListeners } from './application/invoice-hooks';
import { LedgerModule } from '../ledger';
import { PartnersModule } from '../partners';
import { ReferenceModule } from '../reference';
import { DteXmlReader } from './application/dte-xml-reader';
import { DtesService } from './application/dtes.service';
import { InvoicesService } from './application/invoices.service';
import { InvoiceBookingService } from './application/invoice-booking.service';
import { InvoiceLedgerPort } from './infrastructure/ledger/invoice-ledger-port';
import { InvoiceQueries } from './application/invoice-queries';
import { DteRepository, InvoiceRepository } from './domain/ports';
import { DtesController } from './infrastructure/http/dtes.controller';
import { InvoicesController } from './infrastructure/http/invoices.controller';
import { SqlDteRepository } from './infrastructure/persistence/dte.repository';
import { SqlInvoiceRepository } from './infrastructure/persistence/invoice.repository';
import { SiiPeriodDocuments } from './domain/sii-period-documents';
import { SqlSiiPeriodDocuments } from './infrastructure/persistence/sii-period-documents.repository';
import { OffThreadDteXmlReader } from './infrastructure/off-thread-dte-xml-reader';
import { InvoiceRecordHost } from './infrastructure/invoice-record-host';
import { InvoiceBookkeeping, InvoicePartnerUsage } from './infrastructure/invoice-usage.adapters';

/** AR and AP invoices, their booking to the ledger, and imported SII DTEs (D60-D65). */
@Module({
  imports: [ReferenceModule, LedgerModule, PartnersModule, DiscoveryModule],
  controllers: [InvoicesController, DtesController],
  providers: [
    InvoiceBookingListeners,
    { provide: InvoiceRepository, useClass: SqlInvoiceRepository },
    { provide: DteRepository, useClass: SqlDteRepository },
    { provide: DteXmlReader, useClass: OffThreadDteXmlReader },
    InvoicesService,
    InvoiceBookingService,
    InvoiceLedgerPort,
    DtesService,
    InvoiceQueries,
    InvoiceRecordHost,
    InvoiceBookkeeping,
    InvoicePartnerUsage,
    { provide: SiiPeriodDocuments, useClass: SqlSiiPeriodDocuments },
  ],
  exports: [InvoiceQueries, SiiPeriodDocuments],
})
export class InvoicesModule {}
