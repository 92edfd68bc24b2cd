import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { HostedRecord, LinkSummary, RecordHost, RecordHostProvider } from '../../record-hosts';

/**
 * Bank movements as hosts of attachments, comments and To-dos (issue 21). Held `FOR KEY SHARE`:
 * a deletion (BankMovementsService.delete tells RecordHosts) waits for what is being written on it.
 */
@Injectable()
@RecordHostProvider()
export class BankMovementRecordHost implements RecordHost {
  readonly kind = 'bank_movement' as const;

  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {}

  async hold(entityId: string, id: string): Promise<HostedRecord | null> {
    const rows = (await this.txHost.tx.query(this.holdQuery(), [entityId, id])) as unknown[];
    return rows.length === 0 ? null : { linkable: true };
  }

  holdQuery(): string {
    return `SELECT 1 FROM bank_movements WHERE entity_id = $1 AND id = $2 FOR KEY SHARE`;
  }

  async exists(entityId: string, id: string): Promise<boolean> {
    return ((await this.txHost.tx.query(`SELECT 1 FROM bank_movements WHERE entity_id = $1 AND id = $2`, [entityId, id])) as unknown[]).length > 0;
  }

  async linkSummaries(entityId: string, ids: string[]): Promise<Map<string, LinkSummary>> {
    const rows = (await this.txHost.tx.query(
      `SELECT m.id, m.bank_account_id AS "bankAccountId", to_char(m.movement_date, 'YYYY-MM-DD') AS "movementDate", m.amount::text AS amount, m.side,
              a.currency AS "bankAccountCurrency"
         FROM bank_movements m JOIN bank_accounts a ON a.entity_id = m.entity_id AND a.id = m.bank_account_id
        WHERE m.entity_id = $1 AND m.id = ANY($2::uuid[])`,
      [entityId, ids],
    )) as Array<{ id: string; bankAccountId: string; movementDate: string; amount: string; side: string; bankAccountCurrency: string }>;
    return new Map(rows.map((r) => [r.id, { kind: 'bank_movement', ...r, amount: Number(r.amount) }]));
  }
}
