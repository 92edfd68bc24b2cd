import { MiddlewareConsumer, Module, NestModule, OnModuleInit, RequestMethod } from '@nestjs/common';
import { AccountUsageProbes } from '../ledger/application/account-usage';
import { LedgerModule } from '../ledger/ledger.module';
import { ReferenceModule } from '../reference/reference.module';
import { BankAccountsService } from './application/bank-accounts.service';
import { BankMovementsService } from './application/bank-movements.service';
import { BankAccountRepository, BankMovementRepository, StatementFileReader } from './application/banking-ports';
import { CsvStatementReader } from './infrastructure/csv-statement-reader';
import { BankAccountsController } from './infrastructure/http/bank-accounts.controller';
import { BankMovementsController, IMPORT_ROUTE } from './infrastructure/http/bank-movements.controller';
import { StatementUploadMiddleware } from './infrastructure/http/statement-upload.middleware';
import { SqlBankAccountRepository } from './infrastructure/persistence/bank-account.repository';
import { SqlBankMovementRepository } from './infrastructure/persistence/bank-movement.repository';

/** Bank accounts and their movements: statement import, booking and matching through the ledger. */
@Module({
  imports: [LedgerModule, ReferenceModule],
  controllers: [BankAccountsController, BankMovementsController],
  providers: [
    { provide: BankAccountRepository, useClass: SqlBankAccountRepository },
    { provide: BankMovementRepository, useClass: SqlBankMovementRepository },
    { provide: StatementFileReader, useClass: CsvStatementReader },
    BankAccountsService,
    BankMovementsService,
  ],
  exports: [BankAccountsService, BankMovementsService],
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
