import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import type { RcvRow } from '../../domain/rcv-file';
import { RcvImport, RcvImportRepository } from '../../domain/ports';
import type { TaxDirection } from '../../domain/tax-period';

/** Rows per INSERT (unnest of arrays: one round trip each). */
const CHUNK = 10_000;

@Injectable()
export class SqlRcvImportRepository extends RcvImportRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  async insert(entityId: string, rcvImport: RcvImport, rows: RcvRow[]): Promise<void> {
    await this.txHost.tx.query(
      `INSERT INTO rcv_imports (entity_id, id, period, direction, row_count, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [entityId, rcvImport.id, rcvImport.period, rcvImport.direction, rcvImport.rowCount, rcvImport.createdAt],
    );
    for (let start = 0; start < rows.length; start += CHUNK) {
      const chunk = rows.slice(start, start + CHUNK);
      await this.txHost.tx.query(
        `INSERT INTO rcv_import_rows (entity_id, import_id, line, dte_type, folio, partner_tax_id, partner_name, issue_date, exempt_amount, net_amount, tax_amount, total_amount)
         SELECT $1, $2, r.* FROM unnest($3::int[], $4::smallint[], $5::bigint[], $6::text[], $7::text[], $8::date[], $9::bigint[], $10::bigint[], $11::bigint[], $12::bigint[]) AS r`,
        [
          entityId,
          rcvImport.id,
          chunk.map((r) => r.line),
          chunk.map((r) => r.dteType),
          chunk.map((r) => r.folio),
          chunk.map((r) => r.partnerTaxId),
          chunk.map((r) => r.partnerName),
          chunk.map((r) => r.issueDate),
          chunk.map((r) => r.exemptAmount.toString()),
          chunk.map((r) => r.netAmount.toString()),
          chunk.map((r) => r.taxAmount.toString()),
          chunk.map((r) => r.totalAmount.toString()),
        ],
      );
    }
  }

  async latest(entityId: string, period: string, direction: TaxDirection): Promise<RcvImport | null> {
    const rows = (await this.txHost.tx.query(
      `SELECT id, period, direction, row_count, created_at FROM rcv_imports
        WHERE entity_id = $1 AND period = $2 AND direction = $3 ORDER BY sequence DESC LIMIT 1`,
      [entityId, period, direction],
    )) as Array<{ id: string; period: string; direction: TaxDirection; row_count: number; created_at: Date }>;
    const row = rows[0];
    return row ? { id: row.id, period: row.period, direction: row.direction, rowCount: row.row_count, createdAt: row.created_at } : null;
  }

  async rows(entityId: string, importId: string): Promise<RcvRow[]> {
    const rows = (await this.txHost.tx.query(
      `SELECT line, dte_type, folio::text AS folio, partner_tax_id, partner_name, to_char(issue_date, 'YYYY-MM-DD') AS issue_date,
              exempt_amount::text AS exempt_amount, net_amount::text AS net_amount, tax_amount::text AS tax_amount, total_amount::text AS total_amount
         FROM rcv_import_rows WHERE entity_id = $1 AND import_id = $2 ORDER BY line`,
      [entityId, importId],
    )) as Array<Record<string, string | number>>;
    return rows.map((r) => ({
      line: Number(r.line),
      dteType: Number(r.dte_type),
      folio: String(r.folio),
      partnerTaxId: String(r.partner_tax_id),
      partnerName: String(r.partner_name),
      issueDate: String(r.issue_date),
      exemptAmount: BigInt(r.exempt_amount),
      netAmount: BigInt(r.net_amount),
      taxAmount: BigInt(r.tax_amount),
      totalAmount: BigInt(r.total_amount),
    }));
  }
}
