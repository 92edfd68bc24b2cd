import { MiddlewareConsumer, Module, NestModule, OnModuleInit, RequestMethod } from '@nestjs/common';
import { AccountUsageProbes, LedgerModule } from '../ledger';
import { ReferenceModule } from '../reference';
import { BankAccountsService } from './application/bank-accounts.service';
import { BankMovementsService } from './application/bank-movements.service';
import { BankBookingService } from './application/bank-booking.service';
import { BankAccountRepository, BankMovementRepository, ExchangeRates, InvoiceFolios, OpenLineReader, StatementFileReader } from './application/banking-ports';
import { FxModule } from '../fx';
import { InvoicesModule } from '../invoices';
import { FxExchangeRates } from './infrastructure/fx-exchange-rates';
import { BankingLedgerPort } from './infrastructure/banking-ledger-port';
import { BankBookingController } from './infrastructure/http/bank-booking.controller';
import { InvoiceFoliosFromInvoices } from './infrastructure/invoice-folios.adapter';
import { SqlOpenLineReader } from './infrastructure/persistence/open-line.reader';
import { CsvStatementReader } from './infrastructure/csv-statement-reader';
import { BankAccountsController } from './infrastructure/http/bank-accounts.controller';
import { BankMovementsController, IMPORT_ROUTE } from './infrastructure/http/bank-movements.controller';
import { StatementUploadMiddleware } from './infrastructure/http/statement-upload.middleware';
import { SqlBankAccountRepository } from './infrastructure/persistence/bank-account.repository';
import { SqlBankMovementRepository } from './infrastructure/persistence/bank-movement.repository';

/** Bank accounts and their movements: statement import, booking and matching through the ledger. */
@Module({
  imports: [LedgerModule, ReferenceModule, FxModule, InvoicesModule],
  controllers: [BankAccountsController, BankMovementsController, BankBookingController],
  providers: [
    { provide: BankAccountRepository, useClass: SqlBankAccountRepository },
    { provide: BankMovementRepository, useClass: SqlBankMovementRepository },
    { provide: StatementFileReader, useClass: CsvStatementReader },
    { provide: OpenLineReader, useClass: SqlOpenLineReader },
    { provide: InvoiceFolios, useClass: InvoiceFoliosFromInvoices },
    { provide: ExchangeRates, useClass: FxExchangeRates },
    BankAccountsService,
    BankMovementsService,
    BankBookingService,
    BankingLedgerPort,
  ],
  exports: [BankAccountsService, BankMovementsService, BankBookingService],
})
export class BankingModule implements NestModule, OnModuleInit {
  constructor(
    private readonly usage: AccountUsageProbes,
    private readonly accounts: BankAccountRepository,
  ) {}

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(StatementUploadMiddleware).forRoutes({ path: IMPORT_ROUTE, method: RequestMethod.POST });
  }

  /** A ledger account mapped by a bank account cannot be deleted (chart `deleteBlockedBy: bank_account`). */
  onModuleInit(): void {
    this.usage.register({ reason: 'bank_account', accountIdsInUse: (entityId, accountIds) => this.accounts.ledgerAccountIdsInUse(entityId, accountIds) });
  }
}
