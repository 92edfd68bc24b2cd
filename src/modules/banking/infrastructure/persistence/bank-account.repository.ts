import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { exactAmount } from '../../../../../libs/shared-kernel/src';
import { BankAccountRepository } from '../../application/banking-ports';
import type { BankAccount, BankAccountSummary } from '../../domain/bank-account';
import { LedgerReadSql } from '../../../ledger';
import { entityFactsSql } from '../../../entities';


export const ACCOUNT_COLUMNS = `a.entity_id, a.id, a.name, a.kind, a.ledger_account_id, a.currency, a.feed_bank_connection_id,
  a.feed_provider_account_id, a.feed_institution_name, a.feed_last_synced_at, a.created_at, a.updated_at`;

export interface AccountRow {
  entity_id: string;
  id: string;
  name: string;
  kind: 'bank' | 'card';
  ledger_account_id: string;
  currency: string;
  feed_bank_connection_id: string | null;
  feed_provider_account_id: string | null;
  feed_institution_name: string | null;
  feed_last_synced_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export function toAccount(row: AccountRow): BankAccount {
  return {
    entityId: row.entity_id,
    id: row.id,
    name: row.name,
    kind: row.kind,
    ledgerAccountId: row.ledger_account_id,
    currency: row.currency,
    feed: row.feed_bank_connection_id
      ? {
          bankConnectionId: row.feed_bank_connection_id,
          providerAccountId: row.feed_provider_account_id!,
          institutionName: row.feed_institution_name!,
          lastSyncedAt: row.feed_last_synced_at,
        }
      : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

@Injectable()
export class SqlBankAccountRepository extends BankAccountRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private query<T>(sql: string, parameters: unknown[]): Promise<T[]> {
    return this.txHost.tx.query(sql, parameters);
  }

  /**
   * One statement for the whole list: the balance from the ledger's monthly totals of the mapped
   * account (live common entries only: the totals keep live lines, book_key nil is the common
   * Book), signed by the account's normal side; the unreconciled count kept by the statements
   * that write the movements.
   */
  async summaries(entityId: string, bankAccountId?: string): Promise<BankAccountSummary[]> {
    const rows = await this.query<AccountRow & { raw: string; debit_normal: boolean; unreconciled_count: number }>(
      `SELECT ${ACCOUNT_COLUMNS}, a.unreconciled_count,
              la.type IN ('asset', 'cost_of_goods_sold', 'operating_expense', 'other_expense') AS debit_normal,
              coalesce((SELECT sum(t.debit - t.credit) FROM ${LedgerReadSql.accountMonthlyTotals({ entity: '$1', book: 'NULL::uuid' })} t
                         WHERE t.account_id = a.ledger_account_id), 0)::text AS raw
         FROM bank_accounts a
         JOIN ${LedgerReadSql.chartAccounts('$1')} la ON la.id = a.ledger_account_id
        WHERE a.entity_id = $1 AND ($2::uuid IS NULL OR a.id = $2::uuid)
        ORDER BY a.name, a.id`,
      [entityId, bankAccountId ?? null],
    );
    return rows.map((row) => {
      const raw = exactAmount(row.raw, 'balance');
      return { account: toAccount(row), balance: row.debit_normal ? raw : -raw || 0, unreconciledCount: row.unreconciled_count };
    });
  }

  private async one(entityId: string, bankAccountId: string, lock: string): Promise<BankAccount | null> {
    const rows = await this.query<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM bank_accounts a WHERE a.entity_id = $1 AND a.id = $2 ${lock}`, [entityId, bankAccountId]);
    return rows.length ? toAccount(rows[0]) : null;
  }

  find(entityId: string, bankAccountId: string): Promise<BankAccount | null> {
    return this.one(entityId, bankAccountId, '');
  }

  lock(entityId: string, bankAccountId: string): Promise<BankAccount | null> {
    return this.one(entityId, bankAccountId, 'FOR UPDATE');
  }

  hold(entityId: string, bankAccountId: string): Promise<BankAccount | null> {
    return this.one(entityId, bankAccountId, 'FOR KEY SHARE');
  }

  async insert(account: BankAccount): Promise<void> {
    await this.query(
      `INSERT INTO bank_accounts (entity_id, id, name, kind, ledger_account_id, currency, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [account.entityId, account.id, account.name, account.kind, account.ledgerAccountId, account.currency, account.createdAt, account.updatedAt],
    );
  }

  async rename(account: BankAccount): Promise<void> {
    await this.query(`UPDATE bank_accounts SET name = $3, updated_at = $4 WHERE entity_id = $1 AND id = $2`, [account.entityId, account.id, account.name, account.updatedAt]);
  }

  async delete(entityId: string, bankAccountId: string): Promise<void> {
    await this.query(`DELETE FROM bank_accounts WHERE entity_id = $1 AND id = $2`, [entityId, bankAccountId]);
  }

  async hasMovements(entityId: string, bankAccountId: string): Promise<boolean> {
    const rows = await this.query(`SELECT 1 FROM bank_movements WHERE entity_id = $1 AND bank_account_id = $2 LIMIT 1`, [entityId, bankAccountId]);
    return rows.length > 0;
  }

  async functionalCurrency(entityId: string): Promise<string> {
    return (await this.query<{ currency: string }>(`SELECT e.currency FROM ${entityFactsSql('$1')} e`, [entityId]))[0].currency;
  }

  async currencies(entityId: string, bankAccountIds: string[]): Promise<Map<string, string>> {
    const rows = await this.query<{ id: string; currency: string }>(`SELECT id, currency FROM bank_accounts WHERE entity_id = $1 AND id = ANY($2::uuid[])`, [entityId, bankAccountIds]);
    return new Map(rows.map((r) => [r.id, r.currency]));
  }

  async ledgerAccountIdsInUse(entityId: string, accountIds?: string[]): Promise<Set<string>> {
    const rows = await this.query<{ id: string }>(
      `SELECT DISTINCT ledger_account_id AS id FROM bank_accounts WHERE entity_id = $1 AND ($2::uuid[] IS NULL OR ledger_account_id = ANY($2::uuid[]))`,
      [entityId, accountIds ?? null],
    );
    return new Set(rows.map((r) => r.id));
  }
}
