import type { AccountTypeName } from './ledger-facts';
import { bankAccountKindMismatch } from './banking-errors';

export const BANK_ACCOUNT_KINDS = ['bank', 'card'] as const;
export type BankAccountKind = (typeof BANK_ACCOUNT_KINDS)[number];

/** An active feed (issue of bank feeds): which provider account lands movements here. */
export interface BankFeed {
  bankConnectionId: string;
  providerAccountId: string;
  institutionName: string;
  lastSyncedAt: Date | null;
}

export interface BankAccount {
  entityId: string;
  id: string;
  name: string;
  kind: BankAccountKind;
  ledgerAccountId: string;
  currency: string;
  feed: BankFeed | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface BankAccountSummary {
  account: BankAccount;
  /** The mapped ledger account's balance over live common entries, in its normal-side sign (D78). */
  balance: number;
  /** Movements without a booking entry. */
  unreconciledCount: number;
}

/** Spec "Bank account": `bank` maps an asset ledger account, `card` a liability (D78: 400 on mismatch). */
export function assertKindFitsLedgerType(kind: BankAccountKind, ledgerType: AccountTypeName, ledgerAccountId: string): void {
  const expected = kind === 'bank' ? 'asset' : 'liability';
  if (ledgerType !== expected) throw bankAccountKindMismatch({ kind, ledgerAccountId, ledgerAccountType: ledgerType, expectedType: expected });
}

export function newBankAccount(input: Omit<BankAccount, 'feed' | 'createdAt' | 'updatedAt'>, now: Date): BankAccount {
  return { ...input, name: input.name.trim(), feed: null, createdAt: now, updatedAt: now };
}

export function renameBankAccount(account: BankAccount, name: string, now: Date): BankAccount {
  return { ...account, name: name.trim(), updatedAt: now };
}
