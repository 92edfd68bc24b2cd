import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import type { Dte, DteDocument } from '../../domain/dte';
import { DtePageFilter, DteRepository, InvoicePageKey } from '../../domain/ports';

const COLUMNS = `d.entity_id, d.id, d.dte_type, d.folio, d.issuer_tax_id, d.issuer_name, d.receiver_tax_id, d.receiver_name,
  to_char(d.issue_date, 'YYYY-MM-DD') AS issue_date, d.net_amount::text AS net_amount, d.exempt_amount::text AS exempt_amount,
  d.tax_amount::text AS tax_amount, d.total_amount::text AS total_amount, d.foreign_currency, d.foreign_currency_name,
  d.foreign_exempt_amount::text AS foreign_exempt_amount, d.foreign_total_amount::text AS foreign_total_amount,
  d.foreign_exchange_rate::text AS foreign_exchange_rate, d.direction, d."references", d.created_at,
  (SELECT i.id FROM invoices i WHERE i.entity_id = $1 AND i.dte_id = d.id) AS invoice_id`;
// D94: the subquery names the Entity's parameter ($1 in every statement here), not d.entity_id,
// so that on Citus the statement goes to one shard (under FOR NO KEY UPDATE too).

interface Row {
  entity_id: string;
  id: string;
  dte_type: number;
  folio: string;
  issuer_tax_id: string;
  issuer_name: string;
  receiver_tax_id: string;
  receiver_name: string | null;
  issue_date: string;
  net_amount: string;
  exempt_amount: string | null;
  tax_amount: string;
  total_amount: string | null;
  foreign_currency: string | null;
  foreign_currency_name: string | null;
  foreign_exempt_amount: string | null;
  foreign_total_amount: string | null;
  foreign_exchange_rate: string | null;
  direction: Dte['direction'];
  references: Dte['references'];
  created_at: Date;
  invoice_id: string | null;
}

const toDte = (r: Row): Dte => ({
  entityId: r.entity_id,
  id: r.id,
  dteType: r.dte_type,
  folio: r.folio,
  issuerTaxId: r.issuer_tax_id,
  issuerName: r.issuer_name,
  receiverTaxId: r.receiver_tax_id,
  receiverName: r.receiver_name,
  issueDate: r.issue_date,
  netAmount: Number(r.net_amount),
  exemptAmount: r.exempt_amount === null ? null : Number(r.exempt_amount),
  taxAmount: Number(r.tax_amount),
  totalAmount: r.total_amount === null ? null : Number(r.total_amount),
  foreignTotals:
    r.foreign_currency_name === null
      ? null
      : {
          currency: r.foreign_currency,
          currencyName: r.foreign_currency_name,
          exemptAmount: r.foreign_exempt_amount!,
          totalAmount: r.foreign_total_amount!,
          exchangeRate: r.foreign_exchange_rate,
        },
  direction: r.direction,
  references: r.references,
  invoiceId: r.invoice_id,
  createdAt: r.created_at,
});

/** Rows per INSERT statement: 19 values each stays well under PostgreSQL's 65,535 parameters. */
const BATCH = 1000;

@Injectable()
export class SqlDteRepository extends DteRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private async rows(sql: string, values: unknown[]): Promise<Dte[]> {
    return ((await this.txHost.tx.query(sql, values)) as Row[]).map(toDte);
  }

  async find(entityId: string, dteId: string): Promise<Dte | null> {
    return (await this.rows(`SELECT ${COLUMNS} FROM dtes d WHERE d.entity_id = $1 AND d.id = $2`, [entityId, dteId]))[0] ?? null;
  }

  async lock(entityId: string, dteId: string): Promise<Dte | null> {
    return (await this.rows(`SELECT ${COLUMNS} FROM dtes d WHERE d.entity_id = $1 AND d.id = $2 FOR NO KEY UPDATE OF d`, [entityId, dteId]))[0] ?? null;
  }

  async findMany(entityId: string, dteIds: string[]): Promise<Map<string, Dte>> {
    if (dteIds.length === 0) return new Map();
    const dtes = await this.rows(`SELECT ${COLUMNS} FROM dtes d WHERE d.entity_id = $1 AND d.id = ANY($2::uuid[])`, [entityId, [...new Set(dteIds)]]);
    return new Map(dtes.map((dte) => [dte.id, dte]));
  }

  async insertNew(entityId: string, documents: Array<DteDocument & { id: string; direction: Dte['direction'] }>, now: Date): Promise<Dte[]> {
    const inserted: Dte[] = [];
    for (let start = 0; start < documents.length; start += BATCH) {
      const batch = documents.slice(start, start + BATCH);
      const values: unknown[] = [entityId, now];
      const tuples = batch.map((d) => {
        const base = values.length;
        values.push(
          d.id,
          d.dteType,
          d.folio,
          d.issuerTaxId,
          d.issuerName,
          d.receiverTaxId,
          d.receiverName,
          d.issueDate,
          d.netAmount,
          d.exemptAmount,
          d.taxAmount,
          d.totalAmount,
          d.direction,
          JSON.stringify(d.references),
          d.foreignTotals?.currency ?? null,
          d.foreignTotals?.currencyName ?? null,
          d.foreignTotals?.exemptAmount ?? null,
          d.foreignTotals?.totalAmount ?? null,
          d.foreignTotals?.exchangeRate ?? null,
        );
        const p = (n: number) => `$${base + n}`;
        return `($1, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)}, ${p(10)}, ${p(11)}, ${p(12)}, ${p(13)}, ${p(14)}::jsonb, ${p(15)}, ${p(16)}, ${p(17)}::numeric, ${p(18)}::numeric, ${p(19)}::numeric, $2)`;
      });
      const rows = (await this.txHost.tx.query(
        `INSERT INTO dtes (entity_id, id, dte_type, folio, issuer_tax_id, issuer_name, receiver_tax_id, receiver_name, issue_date,
           net_amount, exempt_amount, tax_amount, total_amount, direction, "references", foreign_currency, foreign_currency_name,
           foreign_exempt_amount, foreign_total_amount, foreign_exchange_rate, created_at)
         VALUES ${tuples.join(', ')}
         ON CONFLICT (entity_id, issuer_tax_id, dte_type, folio) DO NOTHING
         RETURNING id`,
        values,
      )) as Array<{ id: string }>;
      const ids = new Set(rows.map((r) => r.id));
      for (const d of batch) {
        if (ids.has(d.id)) inserted.push({ ...d, entityId, invoiceId: null, createdAt: now });
      }
    }
    return inserted;
  }

  list(entityId: string, filter: DtePageFilter): Promise<Dte[]> {
    return this.page(entityId, filter, null, null);
  }

  async page(entityId: string, filter: DtePageFilter, after: InvoicePageKey | null, limit: number | null): Promise<Dte[]> {
    const values: unknown[] = [entityId];
    const conditions = ['d.entity_id = $1'];
    if (filter.from) {
      values.push(filter.from);
      conditions.push(`d.issue_date >= $${values.length}`);
    }
    if (filter.to) {
      values.push(filter.to);
      conditions.push(`d.issue_date <= $${values.length}`);
    }
    if (filter.linked !== undefined) {
      conditions.push(`${filter.linked ? '' : 'NOT '}EXISTS (SELECT 1 FROM invoices i WHERE i.entity_id = $1 AND i.dte_id = d.id)`);
    }
    if (after) {
      values.push(after.issueDate, after.id);
      conditions.push(`(d.issue_date, d.id) < ($${values.length - 1}::date, $${values.length}::uuid)`);
    }
    let limitClause = '';
    if (limit !== null) {
      values.push(limit + 1);
      limitClause = ` LIMIT $${values.length}`;
    }
    return this.rows(`SELECT ${COLUMNS} FROM dtes d WHERE ${conditions.join(' AND ')} ORDER BY d.issue_date DESC, d.id DESC${limitClause}`, values);
  }
}
