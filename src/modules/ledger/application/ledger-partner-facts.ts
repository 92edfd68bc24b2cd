import { Injectable } from '@nestjs/common';
import { LedgerUsageQueries } from '../domain/entry-ports';

/** What the ledger tells the partners module about a partner's lines (D45, the partner pages). */
@Injectable()
export class LedgerPartnerFacts {
  constructor(private readonly usage: LedgerUsageQueries) {}

  /** Whether any line (of any status) names the partner. */
  partnerIsNamed(entityId: string, partnerId: string): Promise<boolean> {
    return this.usage.partnerIsNamed(entityId, partnerId);
  }

  /** Open amounts per partner in one Book read: receivable debit-positive, payable credit-positive. */
  partnerOpenBalances(entityId: string, bookId: string | null, partnerIds: string[]): Promise<Map<string, { receivable: number; payable: number }>> {
    return this.usage.partnerOpenBalances(entityId, bookId, partnerIds);
  }
}
