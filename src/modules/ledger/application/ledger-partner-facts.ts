import { Injectable } from '@nestjs/common';
import { EntryRepository } from '../domain/entry-ports';

/** What the ledger tells the partners module about a partner's lines (D45, the partner pages). */
@Injectable()
export class LedgerPartnerFacts {
  constructor(private readonly entries: EntryRepository) {}

  /** Whether any line (of any status) names the partner. */
  partnerIsNamed(entityId: string, partnerId: string): Promise<boolean> {
    return this.entries.partnerIsNamed(entityId, partnerId);
  }

  /** Open amounts per partner in one Book read: receivable debit-positive, payable credit-positive. */
  partnerOpenBalances(entityId: string, bookId: string | null, partnerIds: string[]): Promise<Map<string, { receivable: number; payable: number }>> {
    return this.entries.partnerOpenBalances(entityId, bookId, partnerIds);
  }
}
