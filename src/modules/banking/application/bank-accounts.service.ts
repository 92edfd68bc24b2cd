import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { validationError } from '../../../../libs/shared-kernel/src';
import { Clock } from '../../../platform/clock/clock';
import { translateUniqueViolation } from '../../../platform/database/pg-errors';
import { ChartService } from '../../ledger';
import { ReferenceDataService } from '../../reference';
import { assertKindFitsLedgerType, BankAccount, BankAccountKind, BankAccountSummary, newBankAccount, renameBankAccount } from '../domain/bank-account';
import { bankAccountAlreadyExists, bankAccountHasFeed, bankAccountHasMovements, bankAccountNotFound } from '../domain/banking-errors';
import type { AccountTypeName } from '../domain/ledger-facts';
import { BankAccountRepository } from './banking-ports';

export interface NewBankAccountInput {
  id: string;
  name: string;
  kind: BankAccountKind;
  ledgerAccountId: string;
  currency: string;
}

/** Bank accounts (spec "Bank accounts", D78). Each write owns its transaction. */
@Injectable()
export class BankAccountsService {
  constructor(
    private readonly accounts: BankAccountRepository,
    private readonly chart: ChartService,
    private readonly reference: ReferenceDataService,
    private readonly clock: Clock,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
  ) {}

  list(entityId: string): Promise<BankAccountSummary[]> {
    return this.accounts.summaries(entityId);
  }

  async get(entityId: string, bankAccountId: string): Promise<BankAccount> {
    const account = await this.accounts.find(entityId, bankAccountId);
    if (!account) throw bankAccountNotFound({ bankAccountId });
    return account;
  }

  /**
   * Refusals in the order 409 (the id is the idempotency id: a reused one is answered as such,
   * whatever else the body says), 400 (currency), 404 (ledger account), 400 (kind against its
   * type). The ledger account is key-share-locked until commit, so it cannot be deleted meanwhile.
   */
  create(entityId: string, input: NewBankAccountInput): Promise<BankAccountSummary> {
    return this.txHost.withTransaction(async () => {
      if (await this.accounts.find(entityId, input.id)) throw bankAccountAlreadyExists({ bankAccountId: input.id });
      if (!this.reference.findCurrency(input.currency)) throw validationError('currency', 'must be an ISO 4217 currency code');
      const ledgerAccount = await this.chart.holdAccountForReference(entityId, input.ledgerAccountId);
      assertKindFitsLedgerType(input.kind, ledgerAccount.type as AccountTypeName, input.ledgerAccountId);
      const account = newBankAccount({ entityId, ...input }, this.clock.now());
      await translateUniqueViolation(() => this.accounts.insert(account), () => bankAccountAlreadyExists({ bankAccountId: input.id }));
      return (await this.accounts.summaries(entityId, account.id))[0];
    });
  }

  rename(entityId: string, bankAccountId: string, name: string): Promise<BankAccount> {
    return this.txHost.withTransaction(async () => {
      const account = await this.accounts.lock(entityId, bankAccountId);
      if (!account) throw bankAccountNotFound({ bankAccountId });
      const renamed = renameBankAccount(account, name, this.clock.now());
      await this.accounts.rename(renamed);
      return renamed;
    });
  }

  /** Only with no movements and no feed (409 BANK_ACCOUNT_HAS_MOVEMENTS_ERROR, then BANK_ACCOUNT_HAS_FEED_ERROR). */
  delete(entityId: string, bankAccountId: string): Promise<{ deletedBankAccountId: string }> {
    return this.txHost.withTransaction(async () => {
      // Row-locked: a movement being written holds the account (key share) and is waited for.
      const account = await this.accounts.lock(entityId, bankAccountId);
      if (!account) throw bankAccountNotFound({ bankAccountId });
      if (await this.accounts.hasMovements(entityId, bankAccountId)) throw bankAccountHasMovements({ bankAccountId });
      if (account.feed) throw bankAccountHasFeed({ bankAccountId, bankConnectionId: account.feed.bankConnectionId });
      await this.accounts.delete(entityId, bankAccountId);
      return { deletedBankAccountId: bankAccountId };
    });
  }
}
