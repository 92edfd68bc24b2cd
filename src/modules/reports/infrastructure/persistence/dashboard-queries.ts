import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DashboardQueries, OpenPositions, RealizationInvoiceRow } from '../../application/dashboard-ports';
import { LedgerFigures, LedgerReadSql, NIL_BOOK } from '../../../ledger';


/**
 * The reports' read model for home and revenue realization: the ledger's figures through its read
 * seam (LedgerFigures, LedgerReadSql), the reports' own read models (booked invoices, open positions). Sums are read as text and parsed as bigint: never a float.
 */
@Injectable()
export class SqlDashboardQueries extends DashboardQueries {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly figures: LedgerFigures,
  ) {
    super();
  }

  private query<T>(sql: string, values: unknown[]): Promise<T[]> {
    return this.txHost.tx.query(sql, values);
  }

  async dailyMovements(entityId: string, ledgerAccountIds: string[], from: string): Promise<Array<{ day: string; ledgerAccountId: string; net: bigint }>> {
    if (ledgerAccountIds.length === 0) return [];
    const rows = await this.query<{ day: string; account_id: string; net: string }>(
      `SELECT to_char(l.entry_date, 'YYYY-MM-DD') AS day, l.account_id, sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END)::text AS net
         FROM ${LedgerReadSql.liveLines({ entity: '$1', book: 'NULL::uuid' })} l
        WHERE l.account_id = ANY($2::uuid[]) AND l.entry_date >= $3::date
        GROUP BY l.entry_date, l.account_id`,
      [entityId, ledgerAccountIds, from],
    );
    return rows.map((r) => ({ day: r.day, ledgerAccountId: r.account_id, net: BigInt(r.net) }));
  }

  /** D81a's months, each leaving out the closing entries dated in it (D90 item 4). */
  monthlyResults(entityId: string, bookId: string | null, firstMonth: string, lastMonth: string): Promise<Map<string, { income: bigint; expenses: bigint }>> {
    return this.figures.monthlyResults(entityId, bookId, firstMonth, lastMonth, { leaveOutClosings: true });
  }

  /** The kept open positions (report_open_positions): one row per Book, direction and due date. */
  async openPositions(entityId: string, bookId: string | null, today: string): Promise<OpenPositions> {
    const rows = await this.query<{ direction: 'ar' | 'ap'; open: string; overdue: string }>(
      `SELECT p.direction, coalesce(sum(p.open_amount), 0)::text AS open, coalesce(sum(p.open_amount) FILTER (WHERE p.due_on < $3::date), 0)::text AS overdue
         FROM report_open_positions p
        WHERE p.entity_id = $1 AND p.book_key IN ('${NIL_BOOK}', $2::uuid)
        GROUP BY p.direction`,
      [entityId, bookId ?? NIL_BOOK, today],
    );
    const of = (direction: 'ar' | 'ap') => rows.find((r) => r.direction === direction);
    const ar = of('ar');
    const ap = of('ap');
    // Payables are shown credit-positive.
    return {
      receivables: { open: BigInt(ar?.open ?? 0), overdue: BigInt(ar?.overdue ?? 0) },
      payables: { open: -BigInt(ap?.open ?? 0), overdue: -BigInt(ap?.overdue ?? 0) },
    };
  }

  /**
   * The AR rows of the booked-invoices read model with a figure in `from`..`to` (D82b): a
   * recognition period that meets the range, an issue date in it, or an open amount at the end
   * of one of its months (booked by \`to\` and open now, or settled on or after \`from\`), each
   * criterion an index range; then their settlements by primary key.
   */
  async realizationInvoices(entityId: string, bookId: string | null, from: string, to: string): Promise<RealizationInvoiceRow[]> {
    // Each criterion an index range of its own; UNION keeps each row once. No scan of the Entity's invoices.
    const columns = `r.invoice_id AS id, r.document_kind, r.document_number, r.partner_id, to_char(r.issue_date, 'YYYY-MM-DD') AS issue_date,
              to_char(r.service_period_start, 'YYYY-MM-DD') AS service_period_start, to_char(r.service_period_end, 'YYYY-MM-DD') AS service_period_end,
              r.currency, r.exchange_rate::text AS exchange_rate, r.net_amount::text AS net_amount, r.exempt_amount::text AS exempt_amount,
              r.receivable_side AS side, r.receivable_amount::text AS amount, to_char(r.booked_on, 'YYYY-MM-DD') AS booked_on, r.last_settled_on IS NOT NULL AS settled,
              r.issue_date AS issued`;
    const scope = `r.entity_id = $1 AND r.direction = 'ar' AND r.book_key IN ('${NIL_BOOK}', $2::uuid) AND r.issue_date <= $4::date`;
    const invoices = await this.query<Record<string, string | null>>(
      `SELECT u.* FROM (
              SELECT ${columns} FROM report_booked_invoices r WHERE ${scope} AND r.period_end >= $3::date AND r.period_start <= $4::date
        UNION SELECT ${columns} FROM report_booked_invoices r WHERE ${scope} AND r.issue_date BETWEEN $3::date AND $4::date
        UNION SELECT ${columns} FROM report_booked_invoices r WHERE ${scope} AND r.settled_amount < r.receivable_amount AND r.booked_on <= $4::date
        UNION SELECT ${columns} FROM report_booked_invoices r WHERE ${scope} AND r.last_settled_on >= $3::date AND r.booked_on <= $4::date) u
        ORDER BY u.issued, u.document_number, u.id`,
      [entityId, bookId ?? NIL_BOOK, from, to],
    );
    if (invoices.length === 0) return [];
    const settledIds = invoices.filter((r) => r.settled).map((r) => r.id as string);
    const settlements = settledIds.length
      ? await this.query<{ invoice_id: string; day: string; amount: string }>(
          `SELECT s.invoice_id, to_char(s.settled_on, 'YYYY-MM-DD') AS day, s.amount::text AS amount
             FROM report_invoice_settlements s WHERE s.entity_id = $1 AND s.invoice_id = ANY($2::uuid[])`,
          [entityId, settledIds],
        )
      : [];
    const byInvoice = new Map<string, Array<{ date: string; amount: bigint }>>();
    for (const s of settlements) {
      const list = byInvoice.get(s.invoice_id);
      if (list) list.push({ date: s.day, amount: BigInt(s.amount) });
      else byInvoice.set(s.invoice_id, [{ date: s.day, amount: BigInt(s.amount) }]);
    }
    return invoices.map((r) => ({
      invoiceId: r.id as string,
      documentKind: r.document_kind as string,
      documentNumber: r.document_number as string,
      partnerId: r.partner_id as string,
      issueDate: r.issue_date as string,
      servicePeriodStart: r.service_period_start,
      servicePeriodEnd: r.service_period_end,
      currency: r.currency as string,
      exchangeRate: r.exchange_rate,
      netAmount: BigInt(r.net_amount as string),
      exemptAmount: BigInt(r.exempt_amount as string),
      receivableSide: r.side as 'debit' | 'credit',
      receivableAmount: BigInt(r.amount as string),
      bookedOn: r.booked_on as string,
      settlements: byInvoice.get(r.id as string) ?? [],
    }));
  }
}
