import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { LedgerModule } from '../ledger';
import { ReferenceModule } from '../reference';
import { BankAccountsService } from './application/bank-accounts.service';
import { BankMovementsService } from './application/bank-movements.service';
import { BankBookingService } from './application/bank-booking.service';
import { BankFeedAccounts, BankFeedStore } from './application/bank-feed-accounts.service';
import { SqlBankFeedStore } from './infrastructure/persistence/bank-feed.store';
import { BankAccountRepository, BankMovementRepository, ExchangeRates, InvoiceFolios, OpenLineReader, StatementFileReader } from './application/banking-ports';
import { FxModule } from '../fx';
import { InvoicesModule } from '../invoices';
import { FxExchangeRates } from './infrastructure/fx-exchange-rates';
import { BankingLedgerPort } from './infrastructure/banking-ledger-port';
import { BankBookingController } from './infrastructure/http/bank-booking.controller';
import { InvoiceFoliosFromInvoices } from './infrastructure/invoice-folios.adapter';
import { SqlOpenLineReader } from './infrastructure/persistence/open-line.reader';
import { OffThreadStatementReader } from './infrastructure/off-thread-statement-reader';
import { BankAccountsController } from './infrastructure/http/bank-accounts.controller';
import { BankMovementsController, IMPORT_ROUTE } from './infrastructure/http/bank-movements.controller';
import { StatementUploadMiddleware } from './infrastructure/http/statement-upload.middleware';
import { SqlBankAccountRepository } from './infrastructure/persistence/bank-account.repository';
import { SqlBankMovementRepository } from './infrastructure/persistence/bank-movement.repository';
import { BankMovementRecordHost } from './infrastructure/bank-movement-record-host';
import { BankAccountLedgerUsage } from './infrastructure/bank-account-ledger-usage';

/** Bank accounts and their movements: statement import, booking and matching through the ledger. */
@Module({
  imports: [LedgerModule, ReferenceModule, FxModule, InvoicesModule],
  controllers: [BankAccountsController, BankMovementsController, BankBookingController],
  providers: [
    { provide: BankAccountRepository, useClass: SqlBankAccountRepository },
    { provide: BankMovementRepository, useClass: SqlBankMovementRepository },
    { provide: StatementFileReader, useClass: OffThreadStatementReader },
    { provide: OpenLineReader, useClass: SqlOpenLineReader },
    { provide: InvoiceFolios, useClass: InvoiceFoliosFromInvoices },
    { provide: ExchangeRates, useClass: FxExchangeRates },
    BankAccountsService,
    BankMovementsService,
    BankBookingService,
    BankingLedgerPort,
    BankMovementRecordHost,
    BankAccountLedgerUsage,
    { provide: BankFeedStore, useClass: SqlBankFeedStore },
    BankFeedAccounts,
  ],
  exports: [BankAccountsService, BankMovementsService, BankBookingService, BankFeedAccounts],
})
export class BankingModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(StatementUploadMiddleware).forRoutes({ path: IMPORT_ROUTE, method: RequestMethod.POST });
  }
}
