import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DashboardQueries, OpenPositions, RealizationConversion, RealizationInvoiceRow, RealizationMonthFigures, RealizationPage } from '../../application/dashboard-ports';
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
  async realizationInvoices(entityId: string, bookId: string | null, from: string, to: string, page?: RealizationPage): Promise<RealizationInvoiceRow[]> {
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
        ${page?.after ? 'WHERE (u.issued, u.id) > ($5::date, $6::uuid)' : ''}
        ORDER BY u.issued, u.id ${page ? `LIMIT ${Math.trunc(page.limit)}` : ''}`,
      page?.after ? [entityId, bookId ?? NIL_BOOK, from, to, page.after.date, page.after.id] : [entityId, bookId ?? NIL_BOOK, from, to],
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

  /**
   * realizationMonths in one statement over the same selection as realizationInvoices (each
   * criterion an index range): recognized per month from each invoice's spread (only the months
   * its period meets), billed by issue month, collected by settlement month, and outstanding at
   * each month's end as the invoices open now (by booking month, accumulated) plus the settlements
   * made after that end of invoices booked by it (grouped by booking and settlement month).
   */
  async realizationMonths(
    entityId: string,
    bookId: string | null,
    from: string,
    to: string,
    spans: Array<{ from: string; to: string }>,
    conversion: RealizationConversion,
  ): Promise<RealizationMonthFigures[]> {
    const n = spans.length;
    // The span (1..n) of a date inside the range: calendar months counted from `from`'s.
    const bucket = (d: string) => `((date_part('year', ${d}) - date_part('year', $3::date)) * 12 + date_part('month', ${d}) - date_part('month', $3::date) + 1)::int`;
    const columns = `r.invoice_id, r.issue_date, coalesce(r.service_period_start, r.issue_date) AS ps, coalesce(r.service_period_end, r.issue_date) AS pe,
              r.booked_on, r.receivable_amount, r.settled_amount, r.currency, r.exchange_rate, r.net_amount, r.exempt_amount, r.receivable_side, r.document_kind`;
    const scope = `r.entity_id = $1 AND r.direction = 'ar' AND r.book_key IN ('${NIL_BOOK}', $2::uuid) AND r.issue_date <= $4::date`;
    const through = (d: string) => `CASE WHEN ${d} < i.ps THEN 0 WHEN ${d} >= i.pe THEN i.sign * i.amount ELSE i.sign * div(i.amount * ((${d} - i.ps) + 1), (i.pe - i.ps) + 1) END`;
    const rows = await this.query<{ kind: string; k: number; k2: number; v: string }>(
      `WITH sel AS MATERIALIZED (
              SELECT ${columns} FROM report_booked_invoices r WHERE ${scope} AND r.period_end >= $3::date AND r.period_start <= $4::date
        UNION SELECT ${columns} FROM report_booked_invoices r WHERE ${scope} AND r.issue_date BETWEEN $3::date AND $4::date
        UNION SELECT ${columns} FROM report_booked_invoices r WHERE ${scope} AND r.settled_amount < r.receivable_amount AND r.booked_on <= $4::date
        UNION SELECT ${columns} FROM report_booked_invoices r WHERE ${scope} AND r.last_settled_on >= $3::date AND r.booked_on <= $4::date
       ), i AS MATERIALIZED (
         SELECT s.invoice_id, s.issue_date, s.ps, s.pe, s.booked_on, s.receivable_amount, s.settled_amount,
                CASE WHEN s.receivable_side = 'credit' OR s.document_kind IN ('credit_note', 'export_credit_note') THEN -1 ELSE 1 END AS sign,
                CASE WHEN s.currency <> $5 AND s.exchange_rate IS NOT NULL
                     THEN round((s.net_amount + s.exempt_amount)::numeric * s.exchange_rate * power(10::numeric, $6::int - coalesce(($7::jsonb ->> s.currency)::int, 0)))
                     ELSE (s.net_amount + s.exempt_amount)::numeric END AS amount
           FROM sel s
       )
       SELECT 'recognized' AS kind, k, 0 AS k2, sum(${through('($9::date[])[k]')} - ${through('(($8::date[])[k] - 1)')})::text AS v
         FROM i CROSS JOIN LATERAL generate_series(${bucket('greatest(i.ps, $3::date)')}, ${bucket('least(i.pe, $4::date)')}) AS k
        WHERE i.pe >= $3::date AND i.ps <= $4::date
        GROUP BY k
       UNION ALL
       SELECT 'billed', ${bucket('i.issue_date')}, 0, sum(i.sign * i.amount)::text FROM i WHERE i.issue_date BETWEEN $3::date AND $4::date GROUP BY 2
       UNION ALL
       SELECT 'open', ${bucket('greatest(i.booked_on, $3::date)')}, 0, sum(i.sign * (i.receivable_amount - i.settled_amount))::text
         FROM i WHERE i.settled_amount < i.receivable_amount AND i.booked_on <= $4::date GROUP BY 2
       UNION ALL
       SELECT 'settled', CASE WHEN i.booked_on > $4::date THEN ${n + 1} ELSE ${bucket('greatest(i.booked_on, $3::date)')} END,
              CASE WHEN st.settled_on > $4::date THEN ${n + 1} ELSE ${bucket('st.settled_on')} END, sum(i.sign * st.amount)::text
         FROM report_invoice_settlements st JOIN i ON i.invoice_id = st.invoice_id
        WHERE st.entity_id = $1 AND st.settled_on >= $3::date
        GROUP BY 2, 3`,
      [
        entityId,
        bookId ?? NIL_BOOK,
        from,
        to,
        conversion.functionalCurrency,
        conversion.functionalExponent,
        JSON.stringify(conversion.exponents),
        spans.map((s) => s.from),
        spans.map((s) => s.to),
      ],
    );
    const months: RealizationMonthFigures[] = spans.map(() => ({ recognized: 0n, billed: 0n, collected: 0n, outstanding: 0n }));
    const openFrom = Array.from({ length: n + 2 }, () => 0n);
    for (const r of rows) {
      const v = BigInt(r.v);
      if (r.kind === 'recognized') months[r.k - 1].recognized += v;
      else if (r.kind === 'billed') months[r.k - 1].billed += v;
      else if (r.kind === 'open') openFrom[r.k] += v;
      else {
        // Settled in span k2 (n + 1: after the range) of an invoice booked by span k: collected in
        // k2, and still outstanding at the end of every span from k to the one before k2.
        if (r.k2 <= n) months[r.k2 - 1].collected += v;
        for (let k = r.k; k < r.k2 && k <= n; k++) months[k - 1].outstanding += v;
      }
    }
    let open = 0n;
    for (let k = 1; k <= n; k++) {
      open += openFrom[k];
      months[k - 1].outstanding += open;
    }
    return months;
  }
}
