import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { InvoicesModule } from '../invoices';
import { PartnersModule } from '../partners';
import { ReferenceModule } from '../reference';
import { TaxBooksService } from './application/tax-books.service';
import { RcvFileReader, RcvImportRepository } from './domain/ports';
import { RcvUploadMiddleware } from './infrastructure/http/rcv-upload.middleware';
import { RCV_IMPORT_ROUTE, TaxController } from './infrastructure/http/tax.controller';
import { TaxJurisdictionGuard } from './infrastructure/http/tax-jurisdiction.guard';
import { SqlRcvImportRepository } from './infrastructure/persistence/rcv-import.repository';
import { OffThreadRcvReader } from './infrastructure/off-thread-rcv-reader';

/**
 * Chilean tax books (D92, issue 37): the Registro de Compras y Ventas from the invoices (read
 * through the invoices module's SiiPeriodDocuments), the SII's RCV files and their
 * reconciliation, and the propuesta F29.
 */
@Module({
  imports: [InvoicesModule, PartnersModule, ReferenceModule],
  controllers: [TaxController],
  providers: [
    TaxBooksService,
    TaxJurisdictionGuard,
    { provide: RcvImportRepository, useClass: SqlRcvImportRepository },
    { provide: RcvFileReader, useClass: OffThreadRcvReader },
  ],
})
export class TaxModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RcvUploadMiddleware).forRoutes({ path: RCV_IMPORT_ROUTE, method: RequestMethod.POST });
  }
}
