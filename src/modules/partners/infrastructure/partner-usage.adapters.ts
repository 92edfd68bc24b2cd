import { Injectable } from '@nestjs/common';
import { AccountUsageProbe, AccountUsageProvider } from '../../ledger';
import { PartnerRepository } from '../domain/partner';

/** A partner's default purchase account cannot be deleted (D31). */
@AccountUsageProvider()
@Injectable()
export class DefaultPurchaseAccountUsage implements AccountUsageProbe {
  readonly reason = 'default_purchase_account' as const;

  constructor(private readonly partners: PartnerRepository) {}

  accountIdsInUse(entityId: string, accountIds?: string[]): Promise<Set<string>> {
    return this.partners.defaultPurchaseAccountIds(entityId, accountIds);
  }
}
