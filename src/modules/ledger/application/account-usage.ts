import { Injectable } from '@nestjs/common';

/** Why an account cannot be deleted, in the order reported (D31, spec "Ledger account"). */
export const USAGE_REASONS = ['entries', 'bank_account', 'default_purchase_account'] as const;
export type AccountUsageReason = (typeof USAGE_REASONS)[number];

/**
 * What other modules know about an account's use: the ledger's lines (entries), bank accounts
 * and partners' default purchase accounts. Each registers a probe that answers for all the
 * Entity's accounts in one query, so the chart never asks per account (no N+1).
 */
export interface AccountUsageProbe {
  reason: AccountUsageReason;
  accountIdsInUse(entityId: string, accountIds?: string[]): Promise<Set<string>>;
}

export interface AccountUsage {
  hasEntries: boolean;
  deleteBlockedBy: AccountUsageReason | null;
  isDefaultPurchaseAccount: boolean;
}

@Injectable()
export class AccountUsageProbes {
  private readonly probes: AccountUsageProbe[] = [];

  register(probe: AccountUsageProbe): void {
    this.probes.push(probe);
  }

  /** One query per probe, whatever the number of accounts. */
  async usage(entityId: string, accountIds?: string[]): Promise<(accountId: string) => AccountUsage> {
    const inUse = new Map<AccountUsageReason, Set<string>>();
    for (const probe of this.probes) {
      const ids = await probe.accountIdsInUse(entityId, accountIds);
      inUse.set(probe.reason, new Set([...(inUse.get(probe.reason) ?? []), ...ids]));
    }
    return (accountId) => ({
      hasEntries: inUse.get('entries')?.has(accountId) ?? false,
      deleteBlockedBy: USAGE_REASONS.find((reason) => inUse.get(reason)?.has(accountId)) ?? null,
      isDefaultPurchaseAccount: inUse.get('default_purchase_account')?.has(accountId) ?? false,
    });
  }
}
