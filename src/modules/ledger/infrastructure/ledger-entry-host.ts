import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { HostedRecord, LinkSummary, RecordHost, RecordHostProvider } from '../../record-hosts';

/**
 * Ledger entries as hosts of attachments, comments and To-dos. Every entry that exists hosts
 * attachments and comments (an unbooked entry stays on record); a To-do links only live and
 * scheduled entries (spec, To-dos). Held `FOR SHARE`: an unbooking or cancellation (an UPDATE of
 * the entry) waits for the To-do being linked, then unlinks it; or the To-do waits, reads the
 * entry unbooked and is refused.
 */
@Injectable()
@RecordHostProvider()
export class LedgerEntryHost implements RecordHost {
  readonly kind = 'ledger_entry' as const;

  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {}

  async hold(entityId: string, id: string): Promise<HostedRecord | null> {
    const rows = (await this.txHost.tx.query(this.holdQuery(), [entityId, id])) as Array<{
      status: string;
    }>;
    return rows.length === 0 ? null : { linkable: rows[0].status !== 'deleted' && rows[0].status !== 'cancelled' };
  }
  holdQuery(): string {
    return `SELECT status FROM ledger_entries WHERE entity_id = $1 AND id = $2 FOR SHARE`;
  }

  async exists(entityId: string, id: string): Promise<boolean> {
    return ((await this.txHost.tx.query(`SELECT 1 FROM ledger_entries WHERE entity_id = $1 AND id = $2`, [entityId, id])) as unknown[]).length > 0;
  }


  async linkSummaries(entityId: string, ids: string[]): Promise<Map<string, LinkSummary>> {
    const rows = (await this.txHost.tx.query(`SELECT id, to_char(entry_date, 'YYYY-MM-DD') AS "entryDate", memo FROM ledger_entries WHERE entity_id = $1 AND id = ANY($2::uuid[])`, [
      entityId,
      ids,
    ])) as Array<{ id: string; entryDate: string; memo: string }>;
    return new Map(rows.map((row) => [row.id, { kind: 'ledger_entry', id: row.id, entryDate: row.entryDate, memo: row.memo }]));
  }
}
