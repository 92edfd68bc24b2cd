import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DataSource } from 'typeorm';
import { BankConnectionRepository, StoredConnection } from '../../application/bank-feeds-ports';
import type { BankConnection, ProviderFailureInfo } from '../../domain/bank-connection';

const PUBLIC_COLUMNS = 'entity_id, id, provider, institution_name, holder_name, status, last_error, created_at, updated_at';

interface Row {
  entity_id: string;
  id: string;
  provider: BankConnection['provider'];
  institution_name: string;
  holder_name: string;
  status: BankConnection['status'];
  last_error: string | null;
  link_token_ciphertext?: string;
  created_at: Date;
  updated_at: Date;
}

function toConnection(row: Row): BankConnection {
  return {
    entityId: row.entity_id,
    id: row.id,
    provider: row.provider,
    institutionName: row.institution_name,
    holderName: row.holder_name,
    status: row.status,
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toStored(row: Row): StoredConnection {
  return { ...toConnection(row), linkTokenCiphertext: row.link_token_ciphertext! };
}

@Injectable()
export class SqlBankConnectionRepository extends BankConnectionRepository {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly dataSource: DataSource,
  ) {
    super();
  }

  private query<T>(sql: string, parameters: unknown[]): Promise<T[]> {
    return this.txHost.tx.query(sql, parameters);
  }

  private async one(entityId: string, id: string, lock: string): Promise<StoredConnection | null> {
    const rows = await this.query<Row>(`SELECT ${PUBLIC_COLUMNS}, link_token_ciphertext FROM bank_connections WHERE entity_id = $1 AND id = $2 ${lock}`, [entityId, id]);
    return rows.length ? toStored(rows[0]) : null;
  }

  find(entityId: string, id: string): Promise<StoredConnection | null> {
    return this.one(entityId, id, '');
  }

  lock(entityId: string, id: string): Promise<StoredConnection | null> {
    return this.one(entityId, id, 'FOR UPDATE');
  }

  async list(entityId: string): Promise<BankConnection[]> {
    const rows = await this.query<Row>(`SELECT ${PUBLIC_COLUMNS} FROM bank_connections WHERE entity_id = $1 ORDER BY created_at, id`, [entityId]);
    return rows.map(toConnection);
  }

  async insert(c: StoredConnection): Promise<void> {
    await this.query(
      `INSERT INTO bank_connections (entity_id, id, provider, institution_name, holder_name, status, last_error, link_token_ciphertext, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [c.entityId, c.id, c.provider, c.institutionName, c.holderName, c.status, c.lastError, c.linkTokenCiphertext, c.createdAt, c.updatedAt],
    );
  }

  async update(c: StoredConnection): Promise<void> {
    await this.query(
      `UPDATE bank_connections SET institution_name = $3, holder_name = $4, status = $5, last_error = $6, link_token_ciphertext = $7, updated_at = $8
        WHERE entity_id = $1 AND id = $2`,
      [c.entityId, c.id, c.institutionName, c.holderName, c.status, c.lastError, c.linkTokenCiphertext, c.updatedAt],
    );
  }

  async delete(entityId: string, id: string): Promise<void> {
    await this.query(`DELETE FROM bank_connections WHERE entity_id = $1 AND id = $2`, [entityId, id]);
  }

  /** On its own pooled connection, outside the caller's transaction (autocommit). */
  async recordFailureNow(entityId: string, id: string, failure: ProviderFailureInfo, now: Date): Promise<void> {
    await this.dataSource.query(`UPDATE bank_connections SET status = $3, last_error = $4, updated_at = $5 WHERE entity_id = $1 AND id = $2`, [
      entityId,
      id,
      failure.status,
      failure.message,
      now,
    ]);
  }
}
