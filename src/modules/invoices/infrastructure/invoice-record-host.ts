import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { HostedRecord, LinkSummary, RecordHost, RecordHostProvider } from '../../record-hosts';
import { InvoiceRepository } from '../domain/ports';

/**
 * Invoices as hosts of attachments, comments and To-dos (issue 21). Held `FOR KEY SHARE`: a
 * deletion (which tells RecordHosts, see InvoicesModule) waits for what is being written on it.
 */
@Injectable()
@RecordHostProvider()
export class InvoiceRecordHost implements RecordHost {
  readonly kind = 'invoice' as const;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly invoices: InvoiceRepository,
  ) {}

  async hold(entityId: string, id: string): Promise<HostedRecord | null> {
    const rows = (await this.txHost.tx.query(this.holdQuery(), [entityId, id])) as unknown[];
    return rows.length === 0 ? null : { linkable: true };
  }

  holdQuery(): string {
    return `SELECT 1 FROM invoices WHERE entity_id = $1 AND id = $2 FOR KEY SHARE`;
  }

  async exists(entityId: string, id: string): Promise<boolean> {
    return ((await this.txHost.tx.query(`SELECT 1 FROM invoices WHERE entity_id = $1 AND id = $2`, [entityId, id])) as unknown[]).length > 0;
  }

  async linkSummaries(entityId: string, ids: string[]): Promise<Map<string, LinkSummary>> {
    return new Map((await this.invoices.summaries(entityId, ids)).map((s) => [s.id, { kind: 'invoice', ...s }]));
  }
}
