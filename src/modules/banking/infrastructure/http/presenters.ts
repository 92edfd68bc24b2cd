import type { BankAccount, BankAccountSummary } from '../../domain/bank-account';
import type { BankMovement } from '../../domain/bank-movement';
import type { BankAccountResponse, BankAccountWithSummaryResponse, BankMovementResponse } from './banking.dto';

export function presentAccount(a: BankAccount): BankAccountResponse {
  return {
    id: a.id,
    entityId: a.entityId,
    name: a.name,
    kind: a.kind,
    ledgerAccountId: a.ledgerAccountId,
    currency: a.currency,
    feed: a.feed
      ? {
          bankConnectionId: a.feed.bankConnectionId,
          providerAccountId: a.feed.providerAccountId,
          institutionName: a.feed.institutionName,
          lastSyncedAt: a.feed.lastSyncedAt?.toISOString() ?? null,
        }
      : null,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}

export function presentSummary(s: BankAccountSummary): BankAccountWithSummaryResponse {
  return { ...presentAccount(s.account), balance: s.balance, unreconciledCount: s.unreconciledCount };
}

export function presentMovement(m: BankMovement): BankMovementResponse {
  return {
    id: m.id,
    entityId: m.entityId,
    bankAccountId: m.bankAccountId,
    movementDate: m.movementDate,
    description: m.description,
    amount: m.amount,
    side: m.side,
    reference: m.reference,
    counterpartyName: m.counterpartyName,
    counterpartyTaxId: m.counterpartyTaxId,
    source: m.source,
    providerMovementId: m.providerMovementId,
    ledgerEntryId: m.ledgerEntryId,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}
