import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { discoverablePort } from '../../../platform/discovery/discoverable-port';
import { LedgerUsageQueries } from '../domain/entry-ports';

/** Why an account cannot be deleted, in the order reported (D31, spec "Ledger account"). */
export const USAGE_REASONS = ['entries', 'bank_account', 'default_purchase_account'] as const;
export type AccountUsageReason = (typeof USAGE_REASONS)[number];

/**
 * Port: what other modules know about an account's use (bank accounts, partners' default purchase
 * accounts). A provider of such a module, decorated @AccountUsageProvider(), answers for all the
 * Entity's accounts in one query, so the chart never asks per account (no N+1).
 */
export interface AccountUsageProbe {
  reason: Exclude<AccountUsageReason, 'entries'>;
  accountIdsInUse(entityId: string, accountIds?: string[]): Promise<Set<string>>;
}

const ACCOUNT_USAGE = discoverablePort<AccountUsageProbe>();
/** Marks a provider of any module as an AccountUsageProbe; the ledger finds it through DiscoveryService. */
export const AccountUsageProvider = ACCOUNT_USAGE.Implementation;

/**
 * An account's use. The ledger's own lines (LedgerUsageQueries.accountIdsWithLines): any line
 * naming it, whatever its entry's status, blocks its deletion (`entries`: the books keep their
 * history); a live or scheduled line naming it is `hasEntries` (which locks type family, tracking
 * and subtype). Then the other modules' probes, in the order of USAGE_REASONS.
 */
export interface AccountUsage {
  hasEntries: boolean;
  deleteBlockedBy: AccountUsageReason | null;
  isDefaultPurchaseAccount: boolean;
  /** A bank account maps it: its kind was judged against this account's type (D78). */
  isMappedByBankAccount: boolean;
}

@Injectable()
export class AccountUsageProbes {
  private found?: AccountUsageProbe[];

  constructor(
    private readonly lines: LedgerUsageQueries,
    private readonly discovery: DiscoveryService,
  ) {}

  private get probes(): AccountUsageProbe[] {
    return (this.found ??= ACCOUNT_USAGE.implementations(this.discovery));
  }

  /** One query per probe, whatever the number of accounts. */
  async usage(entityId: string, accountIds?: string[]): Promise<(accountId: string) => AccountUsage> {
    const lines = await this.lines.accountIdsWithLines(entityId, accountIds);
    const inUse = new Map<AccountUsageReason, Set<string>>([['entries', lines.named]]);
    for (const probe of this.probes) {
      const ids = await probe.accountIdsInUse(entityId, accountIds);
      inUse.set(probe.reason, new Set([...(inUse.get(probe.reason) ?? []), ...ids]));
    }
    return (accountId) => ({
      hasEntries: lines.live.has(accountId),
      deleteBlockedBy: USAGE_REASONS.find((reason) => inUse.get(reason)?.has(accountId)) ?? null,
      isDefaultPurchaseAccount: inUse.get('default_purchase_account')?.has(accountId) ?? false,
      isMappedByBankAccount: inUse.get('bank_account')?.has(accountId) ?? false,
    });
  }
}
