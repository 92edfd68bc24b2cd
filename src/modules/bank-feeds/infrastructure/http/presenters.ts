import { presentAccount } from '../../../banking';
import type { ConnectionWithFeeds, PanelAccount } from '../../application/bank-connections.service';
import type { BankConnectionWithFedAccountsResponse, DiscoveredAccountResponse } from './bank-feeds.dto';

export function presentConnection({ connection: c, fedBankAccounts }: ConnectionWithFeeds): BankConnectionWithFedAccountsResponse {
  return {
    id: c.id,
    entityId: c.entityId,
    provider: c.provider,
    institutionName: c.institutionName,
    holderName: c.holderName,
    status: c.status,
    lastError: c.lastError,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    fedBankAccounts: fedBankAccounts.map(presentAccount),
  };
}

export function presentPanelAccount(a: PanelAccount): DiscoveredAccountResponse {
  return {
    providerAccountId: a.providerAccountId,
    name: a.name,
    number: a.number,
    type: a.type,
    currency: a.currency,
    balances: a.balances,
    refreshedAt: a.refreshedAt?.toISOString() ?? null,
    observed: a.observed,
    ...(a.fedBankAccount ? { fedBankAccount: presentAccount(a.fedBankAccount) } : {}),
  };
}
