/**
 * Issue 35 (D82c target): revenue realization's month figures kept at write time.
 *
 * `report_revenue_cells` holds, per booked AR invoice of `report_booked_invoices` and calendar
 * month, what the invoice adds to that month: `recognized` (its day spread over the whole month,
 * the rounding rule of domain/revenue-realization.ts), `billed` (net + exempt in its issue month),
 * `collected` (its settlements dated in the month) and `open_change` (what its open amount at the
 * month's end differs from the previous month's: the receivable in the booking month less the
 * settlements dated by then, then each later month's settlements). `report_revenue_months` is
 * their sum per Book, month and issue month (spread over slots), moved by the same statements:
 * every change of an invoice's row or settlements removes its cells (subtracting them) and writes
 * them afresh (adding them). Amounts are functional minor units, signed (credit notes and credit
 * receivables negative), converted as realizationMonths converts them (D7).
 *
 * The month figures of a range of whole months read only the months rows (a few per month):
 * recognized, billed and collected of a month are its rows' sums, the outstanding at a month's
 * end is the sum of `open_change` through that month; the range's invoices are those issued by
 * its end (`issue_month`), as realizationInvoices selects them.
 */

/** Rows one (Book, month, issue month) figure is spread over (ReportRevenueMonthRecord.slot). */
export const REVENUE_MONTH_SLOTS = 16;

const CELL_COLUMNS = 'entity_id, invoice_id, month, book_key, issue_month, booked_month, recognized, billed, collected, open_change';

/**
 * The columns `invoices` must give: entity_id, invoice_id, book_key, issue_date, period_start,
 * period_end, currency, exchange_rate, net_amount, exempt_amount, receivable_side,
 * document_kind, receivable_amount, booked_on (the names of report_booked_invoices).
 * `functionalCurrency` and `exponents` are SQL expressions (the Entity's currency; a jsonb of
 * each currency's minor-unit exponent); `v` names the invoice row inside them.
 */
function signedInvoices(invoices: string, functionalCurrency: string, exponents: string): string {
  return `(SELECT v.entity_id, v.invoice_id, v.book_key, v.issue_date, v.period_start, v.period_end, v.receivable_amount, v.booked_on,
                  date_trunc('month', v.issue_date)::date AS issue_month, date_trunc('month', v.booked_on)::date AS booked_month,
                  CASE WHEN v.receivable_side = 'credit' OR v.document_kind IN ('credit_note', 'export_credit_note') THEN -1 ELSE 1 END AS sign,
                  CASE WHEN v.currency <> ${functionalCurrency} AND v.exchange_rate IS NOT NULL
                       THEN round((v.net_amount + v.exempt_amount)::numeric * v.exchange_rate
                                  * power(10::numeric, coalesce((${exponents} ->> ${functionalCurrency})::int, 0) - coalesce((${exponents} ->> v.currency)::int, 0)))
                       ELSE (v.net_amount + v.exempt_amount)::numeric END AS amount
             FROM ${invoices} v)`;
}

/** What the invoice has recognized through the end of day `d` (a date expression). */
function through(d: string): string {
  return `CASE WHEN ${d} < i.period_start THEN 0 WHEN ${d} >= i.period_end THEN i.sign * i.amount
               ELSE i.sign * div(i.amount * ((${d} - i.period_start) + 1), (i.period_end - i.period_start) + 1) END`;
}

/**
 * The cells (CELL_COLUMNS) of the invoices of `invoices` with the settlements of `settlements`
 * (columns invoice_id, settled_on, amount; already cut to the same invoices), one row per invoice
 * and month with a figure that is not zero.
 */
export function revenueCellsSql(invoices: string, settlements: string, functionalCurrency: string, exponents: string): string {
  const signed = signedInvoices(invoices, functionalCurrency, exponents);
  const monthEnd = `(m.month + interval '1 month' - interval '1 day')::date`;
  return `SELECT f.entity_id, f.invoice_id, f.month, f.book_key, f.issue_month, f.booked_month,
                 sum(f.recognized)::bigint AS recognized, sum(f.billed)::bigint AS billed, sum(f.collected)::bigint AS collected, sum(f.open_change)::bigint AS open_change
            FROM (SELECT i.entity_id, i.invoice_id, i.book_key, i.issue_month, i.booked_month, x.month, x.recognized, x.billed, x.collected, x.open_change
                    FROM ${signed} i
                    CROSS JOIN LATERAL (
                      SELECT m.month::date AS month, (${through(`least(${monthEnd}, i.period_end)`)}) - (${through(`(m.month::date - 1)`)}) AS recognized,
                             0::numeric AS billed, 0::numeric AS collected, 0::numeric AS open_change
                        FROM generate_series(date_trunc('month', i.period_start), date_trunc('month', i.period_end), interval '1 month') AS m(month)
                      UNION ALL SELECT i.issue_month, 0, i.sign * i.amount, 0, 0
                      UNION ALL SELECT i.booked_month, 0, 0, 0, i.sign * i.receivable_amount) x
                  UNION ALL
                  SELECT i.entity_id, i.invoice_id, i.book_key, i.issue_month, i.booked_month, y.month, 0, 0, y.collected, y.open_change
                    FROM ${signed} i
                    JOIN ${settlements} s ON s.invoice_id = i.invoice_id
                    CROSS JOIN LATERAL (
                      SELECT date_trunc('month', s.settled_on)::date AS month, (i.sign * s.amount)::numeric AS collected, 0::numeric AS open_change
                      UNION ALL SELECT greatest(date_trunc('month', s.settled_on)::date, i.booked_month), 0, -i.sign * s.amount) y) f
           GROUP BY f.entity_id, f.invoice_id, f.month, f.book_key, f.issue_month, f.booked_month
          HAVING sum(f.recognized) <> 0 OR sum(f.billed) <> 0 OR sum(f.collected) <> 0 OR sum(f.open_change) <> 0`;
}

/**
 * INSERT of the cells of `cells` (revenueCellsSql), each only when `when` holds; `returning`
 * lists the cells' columns to answer. With `entity` (an expression, the Entity whose cells these
 * are) its value is written instead of the cells' `entity_id` column: on Citus (D94) an INSERT ...
 * SELECT whose distribution column comes from the SELECT is pushed down to every shard (a
 * statement on all of them; with RETURNING, Citus 13.2 names the unaliased shard wrongly:
 * "missing FROM-clause entry"), while with the parameter the SELECT routes to the Entity's shard
 * and its rows go to that shard alone. Without it (the migration's backfill of every Entity) the
 * cells' own column.
 */
export function insertCellsSql(cells: string, when = 'true', options: { entity?: string; returning?: readonly string[] } = {}): string {
  const values = options.entity ? CELL_COLUMNS.replace('entity_id', `${options.entity}::uuid`) : CELL_COLUMNS;
  const returning = options.returning?.length ? ` RETURNING ${options.returning.map((column) => `rc.${column}`).join(', ')}` : '';
  return `INSERT INTO report_revenue_cells AS rc (${CELL_COLUMNS}) SELECT ${values} FROM (${cells}) c WHERE ${when}${returning}`;
}

/**
 * The upsert adding `sign` × the cells of `source` (a relation with book_key, month, issue_month
 * and the four figures) to report_revenue_months on slot `slot` (an SQL expression), rows in key
 * order (two changes lock shared rows in the same order).
 */
export function moveMonthsSql(entity: string, source: string, sign: 1 | -1, slot: string, when = 'true'): string {
  const s = sign === 1 ? '' : '-';
  return `INSERT INTO report_revenue_months (entity_id, book_key, month, issue_month, slot, recognized, billed, collected, open_change)
     SELECT ${entity}::uuid, c.book_key, c.month, c.issue_month, ${slot}, ${s}sum(c.recognized), ${s}sum(c.billed), ${s}sum(c.collected), ${s}sum(c.open_change)
       FROM ${source} c
      WHERE ${when}
      GROUP BY c.book_key, c.month, c.issue_month
      ORDER BY 2, 3, 4
     ON CONFLICT (entity_id, book_key, month, issue_month, slot) DO UPDATE
        SET recognized = report_revenue_months.recognized + EXCLUDED.recognized, billed = report_revenue_months.billed + EXCLUDED.billed,
            collected = report_revenue_months.collected + EXCLUDED.collected, open_change = report_revenue_months.open_change + EXCLUDED.open_change`;
}

/** The booked rows (and their settlements) of these invoices ($2, a uuid[]) of the Entity $1, as revenueCellsSql reads them. */
export const BOOKED_AR_INVOICES = `(SELECT r.entity_id, r.invoice_id, r.book_key, r.issue_date, r.period_start, r.period_end, r.currency, r.exchange_rate, r.net_amount, r.exempt_amount,
                r.receivable_side, r.document_kind, r.receivable_amount, r.booked_on
           FROM report_booked_invoices r WHERE r.entity_id = $1 AND r.direction = 'ar' AND r.invoice_id = ANY($2::uuid[]))`;
export const SETTLEMENTS_OF_INVOICES = `(SELECT st.invoice_id, st.settled_on, st.amount FROM report_invoice_settlements st WHERE st.entity_id = $1 AND st.invoice_id = ANY($2::uuid[]))`;
