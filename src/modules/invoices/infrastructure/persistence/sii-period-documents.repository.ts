import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { SII_CODE_BY_KIND, type Direction } from '../../domain/invoice';
import { SiiPeriodDocument, SiiPeriodDocuments, SiiPeriodTotal } from '../../domain/sii-period-documents';

/** The SII code of each document kind as SQL (D60), `other` left out by the WHERE. */
const dteType = (alias: string) => `CASE ${alias}.document_kind ${Object.entries(SII_CODE_BY_KIND)
  .filter(([, code]) => code !== null)
  .map(([kind, code]) => `WHEN '${kind}' THEN ${code}`)
  .join(' ')} END`;

/** numeric(24,12) reads back with trailing zeros: the written form of a rate has none (D7). */
const plainRate = (rate: string | null) => (rate === null ? null : rate.includes('.') ? rate.replace(/0+$/, '').replace(/\.$/, '') : rate);

/**
 * The documents range over invoices_issue_date_idx (entity_id, issue_date, id): the period's rows
 * only, whatever the Entity's history. The month's totals come from invoice_month_totals, kept by
 * the statements that write invoices (SqlInvoiceRepository).
 */
@Injectable()
export class SqlSiiPeriodDocuments extends SiiPeriodDocuments {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  async documents(entityId: string, direction: Direction, from: string, to: string): Promise<SiiPeriodDocument[]> {
    const rows = (await this.txHost.tx.query(
      `SELECT i.id, ${dteType('i')} AS dte_type, i.document_number, i.partner_id, to_char(i.issue_date, 'YYYY-MM-DD') AS issue_date, i.currency,
              i.exchange_rate::text AS exchange_rate, i.exempt_amount::text AS exempt_amount, i.net_amount::text AS net_amount,
              i.tax_amount::text AS tax_amount, i.total_amount::text AS total_amount
         FROM invoices i
        WHERE i.entity_id = $1 AND i.issue_date >= $2::date AND i.issue_date <= $3::date AND i.direction = $4 AND i.document_kind <> 'other'`,
      [entityId, from, to, direction],
    )) as Array<Record<string, string | null>>;
    return rows.map((r) => ({
      invoiceId: r.id!,
      dteType: Number(r.dte_type),
      folio: r.document_number!,
      partnerId: r.partner_id!,
      issueDate: r.issue_date!,
      currency: r.currency!,
      exchangeRate: plainRate(r.exchange_rate),
      exemptAmount: BigInt(r.exempt_amount!),
      netAmount: BigInt(r.net_amount!),
      taxAmount: BigInt(r.tax_amount!),
      totalAmount: BigInt(r.total_amount!),
    }));
  }

  async monthTotals(entityId: string, from: string, to: string): Promise<SiiPeriodTotal[]> {
    // invoice_month_totals for the invoices in the Entity's currency (summed over its slots), and
    // the foreign-currency ones one by one through their partial index.
    const rows = (await this.txHost.tx.query(
      `SELECT t.direction, ${dteType('t')} AS dte_type, NULL AS currency, NULL AS exchange_rate, sum(t.invoice_count)::int AS n,
              sum(t.exempt_amount)::text AS exempt_amount, sum(t.net_amount)::text AS net_amount, sum(t.tax_amount)::text AS tax_amount, sum(t.total_amount)::text AS total_amount
         FROM invoice_month_totals t
        WHERE t.entity_id = $1 AND t.month = $2::date AND t.document_kind <> 'other'
        GROUP BY t.direction, t.document_kind
       HAVING sum(t.invoice_count) <> 0
       UNION ALL
       SELECT i.direction, ${dteType('i')} AS dte_type, i.currency, i.exchange_rate::text AS exchange_rate, 1 AS n,
              i.exempt_amount::text, i.net_amount::text, i.tax_amount::text, i.total_amount::text
         FROM invoices i
        WHERE i.entity_id = $1 AND i.issue_date >= $2::date AND i.issue_date <= $3::date AND i.exchange_rate IS NOT NULL AND i.document_kind <> 'other'`,
      [entityId, from, to],
    )) as Array<Record<string, string | number | null>>;
    return rows.map((r) => ({
      direction: r.direction as Direction,
      dteType: Number(r.dte_type),
      currency: r.currency === null ? null : String(r.currency),
      exchangeRate: plainRate(r.exchange_rate as string | null),
      count: Number(r.n),
      exemptAmount: BigInt(r.exempt_amount as string),
      netAmount: BigInt(r.net_amount as string),
      taxAmount: BigInt(r.tax_amount as string),
      totalAmount: BigInt(r.total_amount as string),
    }));
  }
}
