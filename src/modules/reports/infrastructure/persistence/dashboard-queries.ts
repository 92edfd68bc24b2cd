import { Injectable } from '@nestjs/common';
import { isMonthEnd, monthStart } from '../../../../../libs/shared-kernel/src';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DashboardQueries, OpenPositions, RealizationConversion, RealizationInvoiceRow, RealizationMonthFigures, RealizationPage } from '../../application/dashboard-ports';
import { LedgerFigures, LedgerReadSql, NIL_BOOK } from '../../../ledger';


/**
 * An AR invoice of the read model (`r`) issued before the range $3..$4 with a figure in it (D82b):
 * a recognition period meeting the range, or an open amount at the end of one of its months
 * (booked by $4 and open now, or settled on or after $3). With those issued in the range, the
 * invoices of realizationInvoices, without a UNION to keep each once (the two parts are disjoint).
 */
const EARLIER_WITH_FIGURE = `((r.period_end >= $3::date AND r.period_start <= $4::date)
  OR (r.settled_amount < r.receivable_amount AND r.booked_on <= $4::date)
  OR (r.last_settled_on >= $3::date AND r.booked_on <= $4::date))`;

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
    const values = page?.after ? [entityId, bookId ?? NIL_BOOK, from, to, page.after.date, page.after.id] : [entityId, bookId ?? NIL_BOOK, from, to];
    const invoices = page
      ? // A page: the invoices issued in the range (read in order along the issue-date index) and
        // those issued before it with a figure in it (EARLIER_WITH_FIGURE), each part cut at the page;
        // the earlier ones judged on the covering index by issue date (report_booked_invoices_issue_cover_idx), then read by key.
        await this.query<Record<string, string | null>>(
          `SELECT u.* FROM (
             (SELECT ${columns.replace(/\br\./g, 'b.')}
                FROM (SELECT r.invoice_id FROM report_booked_invoices r WHERE ${scope} AND r.issue_date < $3::date AND ${EARLIER_WITH_FIGURE}
                         ${page.after ? 'AND (r.issue_date, r.invoice_id) > ($5::date, $6::uuid)' : ''} ORDER BY r.issue_date, r.invoice_id LIMIT ${Math.trunc(page.limit)}) k
                JOIN report_booked_invoices b ON b.entity_id = $1 AND b.invoice_id = k.invoice_id)
             UNION ALL
             (SELECT ${columns} FROM report_booked_invoices r WHERE ${scope} AND r.issue_date BETWEEN $3::date AND $4::date
                ${page.after ? 'AND (r.issue_date, r.invoice_id) > ($5::date, $6::uuid)' : ''} ORDER BY r.issue_date, r.invoice_id LIMIT ${Math.trunc(page.limit)})) u
           ORDER BY u.issued, u.id LIMIT ${Math.trunc(page.limit)}`,
          values,
        )
      : await this.query<Record<string, string | null>>(
          `SELECT u.* FROM (
                  SELECT ${columns} FROM report_booked_invoices r WHERE ${scope} AND r.period_end >= $3::date AND r.period_start <= $4::date
            UNION SELECT ${columns} FROM report_booked_invoices r WHERE ${scope} AND r.issue_date BETWEEN $3::date AND $4::date
            UNION SELECT ${columns} FROM report_booked_invoices r WHERE ${scope} AND r.settled_amount < r.receivable_amount AND r.booked_on <= $4::date
            UNION SELECT ${columns} FROM report_booked_invoices r WHERE ${scope} AND r.last_settled_on >= $3::date AND r.booked_on <= $4::date) u
            ORDER BY u.issued, u.id`,
          values,
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
    if (wholeMonths(from, to)) return this.keptRealizationMonths(entityId, bookId, from, to, spans.length);
    const n = spans.length;
    // The span (1..n) of a date inside the range: calendar months counted from `from`'s.
    const bucket = (d: string) => `((date_part('year', ${d}) - date_part('year', $3::date)) * 12 + date_part('month', ${d}) - date_part('month', $3::date) + 1)::int`;
    const columns = `r.invoice_id, r.issue_date, coalesce(r.service_period_start, r.issue_date) AS ps, coalesce(r.service_period_end, r.issue_date) AS pe,
              r.booked_on, r.receivable_amount, r.settled_amount, r.currency, r.exchange_rate, r.net_amount, r.exempt_amount, r.receivable_side, r.document_kind`;
    const scope = `r.entity_id = $1 AND r.direction = 'ar' AND r.book_key IN ('${NIL_BOOK}', $2::uuid) AND r.issue_date <= $4::date`;
    const through = (d: string) => `CASE WHEN ${d} < i.ps THEN 0 WHEN ${d} >= i.pe THEN i.sign * i.amount ELSE i.sign * div(i.amount * ((${d} - i.ps) + 1), (i.pe - i.ps) + 1) END`;
    const rows = await this.query<{ kind: string; k: number; k2: number; v: string }>(
      `WITH i AS MATERIALIZED (
         SELECT s.invoice_id, s.issue_date, s.ps, s.pe, s.booked_on, s.receivable_amount, s.settled_amount,
                CASE WHEN s.receivable_side = 'credit' OR s.document_kind IN ('credit_note', 'export_credit_note') THEN -1 ELSE 1 END AS sign,
                CASE WHEN s.currency <> $5 AND s.exchange_rate IS NOT NULL
                     THEN round((s.net_amount + s.exempt_amount)::numeric * s.exchange_rate * power(10::numeric, $6::int - coalesce(($7::jsonb ->> s.currency)::int, 0)))
                     ELSE (s.net_amount + s.exempt_amount)::numeric END AS amount
           FROM (SELECT ${columns} FROM report_booked_invoices r WHERE ${scope} AND r.issue_date BETWEEN $3::date AND $4::date
                 UNION ALL
                 SELECT ${columns} FROM report_booked_invoices r WHERE ${scope} AND r.issue_date < $3::date AND ${EARLIER_WITH_FIGURE}) s
       )
       SELECT 'recognized' AS kind, k, 0 AS k2, sum(${through('($9::date[])[k]')} - ${through('(($8::date[])[k] - 1)')})::text AS v
         FROM i CROSS JOIN LATERAL generate_series(${bucket('greatest(i.ps, $3::date)')}, ${bucket('least(i.pe, $4::date)')}) AS k
        WHERE i.pe > i.ps AND i.pe >= $3::date AND i.ps <= $4::date
        GROUP BY k
       UNION ALL
       -- A recognition period of one day (an invoice without a service period): all on that day.
       SELECT 'recognized', ${bucket('i.ps')}, 0, sum(i.sign * i.amount)::text FROM i WHERE i.pe = i.ps AND i.ps BETWEEN $3::date AND $4::date GROUP BY 2
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

  /**
   * realizationMonths of a range of whole months from the months kept at write time
   * (report_revenue_months, revenue-months.sql.ts), in one statement: each month's recognized,
   * billed and collected, and the open changes of every month through the range's last (their
   * running sum is the outstanding at each month's end), of the invoices issued by the range's
   * end. Less the collections of the few invoices the range does not select although they
   * were issued before it and settled in it: booked after it (so settled before their booking)
   * with a recognition period outside it (EARLIER_WITH_FIGURE), found through the cells' partial
   * index of settlements dated before their booking month.
   */
  private async keptRealizationMonths(entityId: string, bookId: string | null, from: string, to: string, n: number): Promise<RealizationMonthFigures[]> {
    const rows = await this.query<{ kind: string; month: string; recognized: string; billed: string; collected: string; open_change: string }>(
      `WITH early AS MATERIALIZED (
         -- Collections dated before their invoice's booking month, through the cells' partial index (a handful).
         SELECT c.invoice_id, c.month, c.collected FROM report_revenue_cells c
          WHERE c.entity_id = $1 AND c.month < c.booked_month AND c.collected <> 0 AND c.month BETWEEN $3::date AND $4::date
            AND c.book_key IN ('${NIL_BOOK}', $2::uuid) AND c.issue_month < $3::date AND c.booked_month > $4::date)
       SELECT 'm' AS kind, to_char(m.month, 'YYYY-MM-DD') AS month, sum(m.recognized)::text AS recognized, sum(m.billed)::text AS billed,
              sum(m.collected)::text AS collected, sum(m.open_change)::text AS open_change
         FROM report_revenue_months m
        WHERE m.entity_id = $1 AND m.book_key IN ('${NIL_BOOK}', $2::uuid) AND m.month <= $4::date AND m.issue_month <= $4::date
        GROUP BY m.month
       UNION ALL
       SELECT 'x', to_char(c.month, 'YYYY-MM-DD'), '0', '0', sum(c.collected)::text, '0'
         FROM early c
         -- Each one's row by key (OFFSET 0: a probe per cell, never a scan of the invoices).
         CROSS JOIN LATERAL (SELECT r.period_start, r.period_end FROM report_booked_invoices r WHERE r.entity_id = $1 AND r.invoice_id = c.invoice_id OFFSET 0) r
        WHERE NOT (r.period_end >= $3::date AND r.period_start <= $5::date)
        GROUP BY c.month`,
      [entityId, bookId ?? NIL_BOOK, from, monthStart(to), to],
    );
    const months: RealizationMonthFigures[] = Array.from({ length: n }, () => ({ recognized: 0n, billed: 0n, collected: 0n, outstanding: 0n }));
    const openBefore = rows.filter((r) => r.kind === 'm' && r.month < from).reduce((sum, r) => sum + BigInt(r.open_change), 0n);
    const index = (month: string) => monthIndex(from, month);
    const openChange = months.map(() => 0n);
    for (const r of rows) {
      if (r.month < from) continue;
      const k = index(r.month);
      if (r.kind === 'x') {
        months[k].collected -= BigInt(r.collected);
        continue;
      }
      months[k].recognized += BigInt(r.recognized);
      months[k].billed += BigInt(r.billed);
      months[k].collected += BigInt(r.collected);
      openChange[k] += BigInt(r.open_change);
    }
    let open = openBefore;
    for (let k = 0; k < n; k++) {
      open += openChange[k];
      months[k].outstanding = open;
    }
    return months;
  }
}

/** Months from `from`'s to `month`'s (0 for the same month). */
function monthIndex(from: string, month: string): number {
  return (Number(month.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + Number(month.slice(5, 7)) - Number(from.slice(5, 7));
}

/** Whether `from`..`to` is a range of whole calendar months (from the 1st to a month's last day). */
function wholeMonths(from: string, to: string): boolean {
  return from.endsWith('-01') && isMonthEnd(to);
}
