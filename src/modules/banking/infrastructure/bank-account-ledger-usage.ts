import { Injectable } from '@nestjs/common';
import { AccountUsageProbe, AccountUsageProvider } from '../../ledger';
import { BankAccountRepository } from '../application/banking-ports';

/** A ledger account mapped by a bank account cannot be deleted (chart `deleteBlockedBy: bank_account`). */
@AccountUsageProvider()
@Injectable()
export class BankAccountLedgerUsage implements AccountUsageProbe {
  readonly reason = 'bank_account' as const;

  constructor(private readonly accounts: BankAccountRepository) {}

  accountIdsInUse(entityId: string, accountIds?: string[]): Promise<Set<string>> {
    return this.accounts.ledgerAccountIdsInUse(entityId, accountIds);
  }
}
