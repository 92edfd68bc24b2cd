import { Injectable } from '@nestjs/common';
import { AccountUsageProbe, AccountUsageProvider, LedgerPartnerFacts } from '../../ledger';
import { PartnerUsageProbe, PartnerUsageProvider } from '../application/partners.service';
import { PartnerRepository } from '../domain/partner';

/** A partner named by a ledger line (of any status) is in use (D45). */
@PartnerUsageProvider()
@Injectable()
export class LedgerLinesPartnerUsage implements PartnerUsageProbe {
  constructor(private readonly ledger: LedgerPartnerFacts) {}

  isNamed(entityId: string, partnerId: string): Promise<boolean> {
    return this.ledger.partnerIsNamed(entityId, partnerId);
  }
}

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
