import { Injectable } from '@nestjs/common';

/** Why an account cannot be deleted, in the order reported (D31, spec "Ledger account"). */
export const USAGE_REASONS = ['entries', 'bank_account', 'default_purchase_account'] as const;
export type AccountUsageReason = (typeof USAGE_REASONS)[number];

/**
 * What other modules know about an account's use: bank accounts and partners' default purchase
 * accounts. Each registers a probe that answers for all the Entity's accounts in one query, so
 * the chart never asks per account (no N+1).
 */
export interface AccountUsageProbe {
  reason: Exclude<AccountUsageReason, 'entries'>;
  accountIdsInUse(entityId: string, accountIds?: string[]): Promise<Set<string>>;
}

/**
 * The ledger's own lines. `named`: any line names the account, whatever its entry's status (the
 * books keep their history, so it cannot be deleted: `deleteBlockedBy` `entries`). `live`: a live
 * or scheduled line names it (`hasEntries`, which locks type family, tracking and subtype).
 */
export interface AccountLinesProbe {
  accountIdsWithLines(entityId: string, accountIds?: string[]): Promise<{ named: Set<string>; live: Set<string> }>;
}

export interface AccountUsage {
  hasEntries: boolean;
  deleteBlockedBy: AccountUsageReason | null;
  isDefaultPurchaseAccount: boolean;
}

@Injectable()
export class AccountUsageProbes {
  private readonly probes: AccountUsageProbe[] = [];
  private lines: AccountLinesProbe | null = null;

  register(probe: AccountUsageProbe): void {
    this.probes.push(probe);
  }

  registerLines(probe: AccountLinesProbe): void {
    this.lines = probe;
  }

  /** One query per probe, whatever the number of accounts. */
  async usage(entityId: string, accountIds?: string[]): Promise<(accountId: string) => AccountUsage> {
    const lines = (await this.lines?.accountIdsWithLines(entityId, accountIds)) ?? { named: new Set<string>(), live: new Set<string>() };
    const inUse = new Map<AccountUsageReason, Set<string>>([['entries', lines.named]]);
    for (const probe of this.probes) {
      const ids = await probe.accountIdsInUse(entityId, accountIds);
      inUse.set(probe.reason, new Set([...(inUse.get(probe.reason) ?? []), ...ids]));
    }
    return (accountId) => ({
      hasEntries: lines.live.has(accountId),
      deleteBlockedBy: USAGE_REASONS.find((reason) => inUse.get(reason)?.has(accountId)) ?? null,
      isDefaultPurchaseAccount: inUse.get('default_purchase_account')?.has(accountId) ?? false,
    });
  }
}
