import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DashboardQueries, OpenPositions, RealizationInvoiceRow } from '../../application/dashboard-ports';

const LIVE = `IN ('active', 'reversed')`;
const NIL_BOOK = '00000000-0000-0000-0000-000000000000';
const INCOME_TYPES = `('income', 'other_income')`;
const EXPENSE_TYPES = `('cost_of_goods_sold', 'operating_expense', 'other_expense')`;
const RESULT_TYPES = `('income', 'other_income', 'cost_of_goods_sold', 'operating_expense', 'other_expense')`;

/**
 * The reports' read model for home and revenue realization: SQL over the ledger's lines, monthly
 * totals and allocations, joined to the invoices' booking columns (`ledger_entry_id`,
 * `open_item_line_id`). Sums are read as text and parsed as bigint: never a float.
 */
@Injectable()
export class SqlDashboardQueries extends DashboardQueries {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private query<T>(sql: string, values: unknown[]): Promise<T[]> {
    return this.txHost.tx.query(sql, values);
  }

  async dailyMovements(entityId: string, ledgerAccountIds: string[], from: string): Promise<Array<{ day: string; ledgerAccountId: string; net: bigint }>> {
    if (ledgerAccountIds.length === 0) return [];
    const rows = await this.query<{ day: string; account_id: string; net: string }>(
      `SELECT to_char(l.entry_date, 'YYYY-MM-DD') AS day, l.account_id, sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END)::text AS net
         FROM ledger_lines l
        WHERE l.entity_id = $1 AND l.account_id = ANY($2::uuid[]) AND l.entry_date >= $3::date AND l.status ${LIVE} AND l.book_id IS NULL
        GROUP BY l.entry_date, l.account_id`,
      [entityId, ledgerAccountIds, from],
    );
    return rows.map((r) => ({ day: r.day, ledgerAccountId: r.account_id, net: BigInt(r.net) }));
  }

  async monthlyResults(entityId: string, bookId: string | null, firstMonth: string, lastMonth: string): Promise<Map<string, { income: bigint; expenses: bigint }>> {
    const rows = await this.query<{ month: string; income: string; expenses: string }>(
      `SELECT to_char(t.month, 'YYYY-MM-DD') AS month,
              coalesce(sum(t.credit - t.debit) FILTER (WHERE a.type IN ${INCOME_TYPES}), 0)::text AS income,
              coalesce(sum(t.debit - t.credit) FILTER (WHERE a.type IN ${EXPENSE_TYPES}), 0)::text AS expenses
         FROM ledger_account_monthly_totals t
         JOIN ledger_accounts a ON a.entity_id = t.entity_id AND a.id = t.account_id
        WHERE t.entity_id = $1 AND (t.book_key = '${NIL_BOOK}' OR t.book_key = $2::uuid) AND t.month BETWEEN $3::date AND $4::date
          AND a.type IN ${RESULT_TYPES}
        GROUP BY t.month`,
      [entityId, bookId ?? NIL_BOOK, firstMonth, lastMonth],
    );
    return new Map(rows.map((r) => [r.month, { income: BigInt(r.income), expenses: BigInt(r.expenses) }]));
  }

  /** Only open lines are read (the ledger's partial index of open items), then their invoices. */
  async openPositions(entityId: string, bookId: string | null, today: string): Promise<OpenPositions> {
    const rows = await this.query<{ direction: 'ar' | 'ap'; open: string; overdue: string }>(
      `SELECT i.direction,
              sum(o.signed)::text AS open,
              coalesce(sum(o.signed) FILTER (WHERE i.due_date < $3::date), 0)::text AS overdue
         FROM (SELECT l.id, CASE l.side WHEN 'debit' THEN l.amount - l.allocated_amount ELSE l.allocated_amount - l.amount END AS signed
                 FROM ledger_lines l
                WHERE l.entity_id = $1 AND l.is_open_item AND l.status ${LIVE} AND l.allocated_amount < l.amount
                  AND (l.book_id IS NULL OR l.book_id = $2::uuid)) o
         JOIN invoices i ON i.entity_id = $1 AND i.open_item_line_id = o.id AND i.book_status = 'booked'
        GROUP BY i.direction`,
      [entityId, bookId, today],
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

  async realizationInvoices(entityId: string, bookId: string | null, from: string, to: string): Promise<RealizationInvoiceRow[]> {
    const invoices = await this.query<Record<string, string | null>>(
      `SELECT i.id, i.document_kind, i.document_number, i.partner_id, to_char(i.issue_date, 'YYYY-MM-DD') AS issue_date,
              to_char(i.service_period_start, 'YYYY-MM-DD') AS service_period_start, to_char(i.service_period_end, 'YYYY-MM-DD') AS service_period_end,
              i.currency, i.exchange_rate::text AS exchange_rate, i.net_amount::text AS net_amount, i.exempt_amount::text AS exempt_amount,
              l.id AS line_id, l.side, l.amount::text AS amount, to_char(l.entry_date, 'YYYY-MM-DD') AS booked_on
         FROM invoices i
         -- One primary-key probe per invoice issued by \`to\`: never a scan of the Entity's lines.
         CROSS JOIN LATERAL (SELECT l.id, l.side, l.amount, l.allocated_amount, l.entry_date FROM ledger_lines l
                              WHERE l.entity_id = i.entity_id AND l.id = i.open_item_line_id
                                AND l.status ${LIVE} AND (l.book_id IS NULL OR l.book_id = $2::uuid) OFFSET 0) l
        WHERE i.entity_id = $1 AND i.issue_date <= $4::date AND i.direction = 'ar' AND i.book_status = 'booked'
          AND (
               (coalesce(i.service_period_end, i.issue_date) >= $3::date AND coalesce(i.service_period_start, i.issue_date) <= $4::date)
            OR i.issue_date BETWEEN $3::date AND $4::date
            OR (l.entry_date <= $4::date AND (l.allocated_amount < l.amount OR EXISTS (
                  SELECT 1 FROM reconciliation_allocations a
                    JOIN ledger_lines s ON s.entity_id = a.entity_id AND s.id = CASE WHEN a.debit_line_id = l.id THEN a.credit_line_id ELSE a.debit_line_id END
                   WHERE a.entity_id = $1 AND (a.debit_line_id = l.id OR a.credit_line_id = l.id) AND a.kind <> 'reversal' AND s.entry_date >= $3::date)))
          )
        ORDER BY i.issue_date, i.document_number, i.id`,
      [entityId, bookId, from, to],
    );
    if (invoices.length === 0) return [];
    const lineIds = invoices.map((r) => r.line_id as string);
    const settlements = await this.query<{ line_id: string; day: string; amount: string }>(
      `SELECT CASE WHEN a.debit_line_id = ANY($2::uuid[]) THEN a.debit_line_id ELSE a.credit_line_id END AS line_id,
              to_char(s.entry_date, 'YYYY-MM-DD') AS day, a.amount::text AS amount
         FROM reconciliation_allocations a
         JOIN ledger_lines s ON s.entity_id = a.entity_id
                            AND s.id = CASE WHEN a.debit_line_id = ANY($2::uuid[]) THEN a.credit_line_id ELSE a.debit_line_id END
        WHERE a.entity_id = $1 AND (a.debit_line_id = ANY($2::uuid[]) OR a.credit_line_id = ANY($2::uuid[]))
          AND a.kind <> 'reversal' AND s.status ${LIVE}`,
      [entityId, lineIds],
    );
    const byLine = new Map<string, Array<{ date: string; amount: bigint }>>();
    for (const s of settlements) byLine.set(s.line_id, [...(byLine.get(s.line_id) ?? []), { date: s.day, amount: BigInt(s.amount) }]);
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
      settlements: byLine.get(r.line_id as string) ?? [],
    }));
  }
}
