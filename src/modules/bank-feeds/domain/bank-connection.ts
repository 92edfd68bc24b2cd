import { addDays } from '../../../../libs/shared-kernel/src';

export const BANK_PROVIDERS = ['fintoc', 'sandbox'] as const;
export type BankProviderKind = (typeof BANK_PROVIDERS)[number];

export const CONNECTION_STATUSES = ['active', 'login_required', 'error'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

export const HOLDER_TYPES = ['individual', 'business'] as const;
export type HolderType = (typeof HOLDER_TYPES)[number];

/** D68: a connection as presented (the link token never leaves the persistence layer unencrypted but for the adapter call). */
export interface BankConnection {
  entityId: string;
  id: string;
  provider: BankProviderKind;
  institutionName: string;
  holderName: string;
  status: ConnectionStatus;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A provider failure, as the connection records it: `login_required` for credentials, `error` otherwise. */
export interface ProviderFailureInfo {
  status: Exclude<ConnectionStatus, 'active'>;
  /** A sentence safe to show and to log: never a token, a secret or a URL carrying one. */
  message: string;
}


/**
 * D69: the window a sync reads, inclusive of both ends: from the day of the last successful sync
 * minus 7 days (90 days back on the first sync) to today.
 */
export function syncWindow(today: string, lastSyncedDay: string | null): { since: string; until: string } {
  const since = lastSyncedDay === null ? addDays(today, -90) : addDays(lastSyncedDay < today ? lastSyncedDay : today, -7);
  return { since, until: today };
}
