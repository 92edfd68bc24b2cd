import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { BankFeedStore, FedMovementInput, FeedColumns } from '../../application/bank-feed-accounts.service';
import type { BankAccount } from '../../domain/bank-account';
import { ACCOUNT_COLUMNS, AccountRow, toAccount } from './bank-account.repository';
import { unreconciledPlus } from './bank-movement.repository';

/** Rows per INSERT statement when landing a feed (bounded parameter arrays). */
const LANDING_CHUNK = 5000;

@Injectable()
export class SqlBankFeedStore extends BankFeedStore {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  async setFeed(entityId: string, bankAccountId: string, feed: FeedColumns | null, now: Date): Promise<void> {
    await this.txHost.tx.query(
      `UPDATE bank_accounts SET feed_bank_connection_id = $3, feed_provider_account_id = $4, feed_institution_name = $5, feed_last_synced_at = NULL, updated_at = $6
        WHERE entity_id = $1 AND id = $2`,
      [entityId, bankAccountId, feed?.bankConnectionId ?? null, feed?.providerAccountId ?? null, feed?.institutionName ?? null, now],
    );
  }

  async unfeedConnection(entityId: string, bankConnectionId: string, now: Date): Promise<string[]> {
    const rows = (await this.txHost.tx.query(
      `WITH fed AS (SELECT id FROM bank_accounts WHERE entity_id = $1 AND feed_bank_connection_id = $2 ORDER BY id FOR UPDATE)
       UPDATE bank_accounts a SET feed_bank_connection_id = NULL, feed_provider_account_id = NULL, feed_institution_name = NULL, feed_last_synced_at = NULL, updated_at = $3
         FROM fed WHERE a.entity_id = $1 AND a.id = fed.id
       RETURNING a.id`,
      [entityId, bankConnectionId, now],
    )) as [Array<{ id: string }>, number];
    return rows[0].map((r) => r.id).sort();
  }

  async fedByConnections(entityId: string, bankConnectionIds: string[]): Promise<BankAccount[]> {
    if (bankConnectionIds.length === 0) return [];
    const rows = (await this.txHost.tx.query(
      `SELECT ${ACCOUNT_COLUMNS} FROM bank_accounts a WHERE a.entity_id = $1 AND a.feed_bank_connection_id = ANY($2::uuid[]) ORDER BY a.name, a.id`,
      [entityId, bankConnectionIds],
    )) as AccountRow[];
    return rows.map(toAccount);
  }

  async land(entityId: string, bankAccountId: string, movements: FedMovementInput[], now: Date): Promise<number> {
    let landed = 0;
    for (let start = 0; start < movements.length; start += LANDING_CHUNK) {
      const chunk = movements.slice(start, start + LANDING_CHUNK);
      const result = (await this.txHost.tx.query(
        `WITH inserted AS (
           INSERT INTO bank_movements (entity_id, id, bank_account_id, movement_date, description, amount, side, reference, counterparty_name, counterparty_tax_id,
                                       source, provider_movement_id, created_at, updated_at)
           SELECT $1, r.id, $2, r.movement_date, r.description, r.amount, r.side, r.reference, r.counterparty_name, r.counterparty_tax_id, 'feed', r.provider_movement_id, $3, $3
             FROM unnest($4::uuid[], $5::date[], $6::text[], $7::bigint[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[])
                  AS r(id, movement_date, description, amount, side, reference, counterparty_name, counterparty_tax_id, provider_movement_id)
           ON CONFLICT (entity_id, bank_account_id, provider_movement_id) WHERE provider_movement_id IS NOT NULL DO NOTHING
           RETURNING ledger_entry_id),
         counted AS (${unreconciledPlus('inserted', '$2')})
         SELECT count(*)::int AS landed FROM inserted`,
        [
          entityId,
          bankAccountId,
          now,
          chunk.map((m) => m.id),
          chunk.map((m) => m.movementDate),
          chunk.map((m) => m.description),
          chunk.map((m) => String(m.amount)),
          chunk.map((m) => m.side),
          chunk.map((m) => m.reference),
          chunk.map((m) => m.counterpartyName),
          chunk.map((m) => m.counterpartyTaxId),
          chunk.map((m) => m.providerMovementId),
        ],
      )) as Array<{ landed: number }>;
      landed += result[0].landed;
    }
    return landed;
  }

  async markSynced(entityId: string, bankAccountId: string, at: Date): Promise<void> {
    await this.txHost.tx.query(
      `UPDATE bank_accounts SET feed_last_synced_at = GREATEST(coalesce(feed_last_synced_at, $3), $3) WHERE entity_id = $1 AND id = $2 AND feed_bank_connection_id IS NOT NULL`,
      [entityId, bankAccountId, at],
    );
  }

  async everyFeed(): Promise<Array<{ entityId: string; bankAccountId: string }>> {
    const rows = (await this.txHost.tx.query(
      `/* citus:multi-shard the periodic sync's list of every Entity's feeds (a read) */ SELECT entity_id, id FROM bank_accounts WHERE feed_bank_connection_id IS NOT NULL ORDER BY entity_id, id`,
      [],
    )) as Array<{ entity_id: string; id: string }>;
    return rows.map((r) => ({ entityId: r.entity_id, bankAccountId: r.id }));
  }
}
