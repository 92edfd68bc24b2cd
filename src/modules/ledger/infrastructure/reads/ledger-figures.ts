import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import type { AccountType } from '../../domain/account-types';
import { monthStart, splitBefore, splitRange } from '../../domain/month-ranges';
import { accountGroups, accountMonthlyTotals, chartAccounts, closingLines, liveLines, type BookScope } from './ledger-read-sql';

/** A report's range for the closing-entry rule (D90 item 4): closing entries dated in it are left out. */
export interface ClosingRange {
  from: string;
  to: string;
}

/** One account of the chart with its figures around a range (raw = Σdebit − Σcredit, D50 sign left to the reader). */
export interface AccountPeriodFigures {
  accountId: string;
  groupId: string | null;
  code: string;
  name: string;
  type: AccountType;
  /** Σdebit − Σcredit of the live lines dated before `from` (every closing entry before it counts). */
  openingRaw: bigint;
  periodDebit: bigint;
  periodCredit: bigint;
  periodLines: number;
}

export interface AccountGroupRow {
  id: string;
  parentGroupId: string | null;
  codePrefix: string;
  name: string;
  type: AccountType;
}

/** A line's key in ledger order. */
export interface LineKey {
  entryDate: string;
  entryId: string;
  lineId: string;
}

const SCOPE: BookScope = { entity: '$1', book: '$2::uuid' };

/**
 * The ledger's read seam as methods (issue 32): balances of an Entity's accounts in one Book over
 * a range, read from the monthly totals (whole months) and the lines (the days at the edges), live
 * lines only (D50), with the closing-entry rule of D90 item 4 as a parameter. Sums are read as
 * numeric and parsed as bigint: a balance may outgrow bigint, never a float. Runs in the caller's
 * transaction (a report's snapshot) when there is one.
 */
@Injectable()
export class LedgerFigures {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {}

  private query<T>(sql: string, values: unknown[]): Promise<T[]> {
    return this.txHost.tx.query(sql, values);
  }

  async accountGroups(entityId: string): Promise<AccountGroupRow[]> {
    const rows = await this.query<{ id: string; parent_group_id: string | null; code_prefix: string; name: string; type: AccountType }>(
      `SELECT g.id, g.parent_group_id, g.code_prefix, g.name, g.type FROM ${accountGroups('$1')} g`,
      [entityId],
    );
    return rows.map((r) => ({ id: r.id, parentGroupId: r.parent_group_id, codePrefix: r.code_prefix, name: r.name, type: r.type }));
  }

  /**
   * Every account of the chart with its opening balance before `from` and its movements from
   * `from` to `to`: whole months from the monthly totals, the days at the edges from the lines.
   * With `closings` (the report's range), the closing entries dated in it are left out of the
   * movements (their few lines subtracted, found through the closing entries' index); those before
   * `from` stay in the opening. O(accounts x months) plus the lines of at most three partial months.
   */
  async accountFigures(entityId: string, bookId: string | null, from: string, to: string, closings: ClosingRange | null): Promise<AccountPeriodFigures[]> {
    const before = splitBefore(from);
    const range = splitRange(from, to);
    const months = range.months ?? { first: '9999-12-01', last: '0001-01-01' };
    const values: unknown[] = [
      entityId,
      bookId,
      before.monthsBefore,
      months.first,
      months.last,
      before.days.from,
      before.days.to,
      range.days[0].from,
      range.days[0].to,
      range.days[1].from,
      range.days[1].to,
      monthStart(to),
    ];
    let closingCte = '';
    let minus = { debit: '', credit: '', lines: '' };
    if (closings) {
      values.push(closings.from, closings.to, from, to);
      // Only the closing lines inside both the report's range and the range read are in the movements.
      closingCte = `, closings AS (
         SELECT c.account_id, sum(c.amount) FILTER (WHERE c.side = 'debit') AS debit, sum(c.amount) FILTER (WHERE c.side = 'credit') AS credit, count(*) AS lines
           FROM ${closingLines(SCOPE, { from: '$13::date', to: '$14::date' })} c
          WHERE c.entry_date BETWEEN $15::date AND $16::date
          GROUP BY c.account_id
       )`;
      minus = { debit: ' - coalesce(c.debit, 0)', credit: ' - coalesce(c.credit, 0)', lines: ' - coalesce(c.lines, 0)' };
    }
    const rows = await this.query<Record<string, unknown>>(
      `WITH totals AS (
         SELECT t.account_id,
                sum(t.debit - t.credit) FILTER (WHERE t.month < $3::date) AS opening_raw,
                sum(t.debit) FILTER (WHERE t.month BETWEEN $4::date AND $5::date) AS period_debit,
                sum(t.credit) FILTER (WHERE t.month BETWEEN $4::date AND $5::date) AS period_credit,
                sum(t.line_count) FILTER (WHERE t.month BETWEEN $4::date AND $5::date) AS period_lines
           FROM ${accountMonthlyTotals(SCOPE)} t
          WHERE t.month <= $12::date
          GROUP BY t.account_id
       ), edges AS (
         SELECT l.account_id,
                sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END) FILTER (WHERE l.entry_date BETWEEN $6::date AND $7::date) AS opening_raw,
                sum(l.amount) FILTER (WHERE l.side = 'debit' AND l.entry_date NOT BETWEEN $6::date AND $7::date) AS period_debit,
                sum(l.amount) FILTER (WHERE l.side = 'credit' AND l.entry_date NOT BETWEEN $6::date AND $7::date) AS period_credit,
                count(*) FILTER (WHERE l.entry_date NOT BETWEEN $6::date AND $7::date) AS period_lines
           FROM ${liveLines(SCOPE)} l
          WHERE l.entry_date BETWEEN $6::date AND $7::date OR l.entry_date BETWEEN $8::date AND $9::date OR l.entry_date BETWEEN $10::date AND $11::date
          GROUP BY l.account_id
       )${closingCte}
       SELECT a.id, a.group_id, a.code, a.name, a.type,
              (coalesce(t.opening_raw, 0) + coalesce(e.opening_raw, 0))::numeric AS opening_raw,
              (coalesce(t.period_debit, 0) + coalesce(e.period_debit, 0)${minus.debit})::numeric AS period_debit,
              (coalesce(t.period_credit, 0) + coalesce(e.period_credit, 0)${minus.credit})::numeric AS period_credit,
              (coalesce(t.period_lines, 0) + coalesce(e.period_lines, 0)${minus.lines})::bigint AS period_lines
         FROM ${chartAccounts('$1')} a
         LEFT JOIN totals t ON t.account_id = a.id
         LEFT JOIN edges e ON e.account_id = a.id${closings ? '\n         LEFT JOIN closings c ON c.account_id = a.id' : ''}`,
      values,
    );
    return rows.map((r) => ({
      accountId: r.id as string,
      groupId: r.group_id as string | null,
      code: r.code as string,
      name: r.name as string,
      type: r.type as AccountType,
      openingRaw: BigInt(r.opening_raw as string),
      periodDebit: BigInt(r.period_debit as string),
      periodCredit: BigInt(r.period_credit as string),
      periodLines: Number(r.period_lines),
    }));
  }

  /**
   * Σdebit − Σcredit and the line count of one account over [from, to] (either end open): whole
   * months from the monthly totals, edge days from the lines; with `closings`, the closing entries
   * dated in that report range and in [from, to] left out.
   */
  async accountRange(
    entityId: string,
    bookId: string | null,
    accountId: string,
    from: string | null,
    to: string | null,
    closings: ClosingRange | null,
  ): Promise<{ raw: bigint; lines: number }> {
    const start = from ?? '0001-01-01';
    const end = to ?? '9999-12-31';
    const range = splitRange(start, end);
    const months = range.months ?? { first: '9999-12-01', last: '0001-01-01' };
    const values: unknown[] = [entityId, bookId, accountId, months.first, months.last, range.days[0].from, range.days[0].to, range.days[1].from, range.days[1].to];
    let closingRaw = '0';
    let closingCount = '0';
    if (closings) {
      values.push(closings.from, closings.to, start, end);
      const lines = `FROM ${closingLines(SCOPE, { from: '$10::date', to: '$11::date' })} c WHERE c.account_id = $3 AND c.entry_date BETWEEN $12::date AND $13::date`;
      closingRaw = `coalesce((SELECT sum(CASE c.side WHEN 'debit' THEN c.amount ELSE -c.amount END) ${lines}), 0)`;
      closingCount = `(SELECT count(*) ${lines})`;
    }
    const edgeDays = `(l.entry_date BETWEEN $6::date AND $7::date OR l.entry_date BETWEEN $8::date AND $9::date)`;
    const [row] = await this.query<{ raw: string; lines: string }>(
      `SELECT (coalesce((SELECT sum(t.debit - t.credit) FROM ${accountMonthlyTotals(SCOPE)} t WHERE t.account_id = $3 AND t.month BETWEEN $4::date AND $5::date), 0)
             + coalesce((SELECT sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END) FROM ${liveLines(SCOPE)} l WHERE l.account_id = $3 AND ${edgeDays}), 0)
             - ${closingRaw})::numeric AS raw,
              (coalesce((SELECT sum(t.line_count) FROM ${accountMonthlyTotals(SCOPE)} t WHERE t.account_id = $3 AND t.month BETWEEN $4::date AND $5::date), 0)
             + (SELECT count(*) FROM ${liveLines(SCOPE)} l WHERE l.account_id = $3 AND ${edgeDays})
             - ${closingCount})::bigint AS lines`,
      values,
    );
    return { raw: BigInt(row.raw), lines: Number(row.lines) };
  }

  /**
   * Σdebit − Σcredit of one account from inception through a line key (date, entry, line), every
   * entry counted (a ledger book's running balance, D55): the monthly totals, then the lines of the
   * key's month on the shorter side of the key, so a page at any depth reads at most half a month
   * of lines.
   */
  async balanceThrough(entityId: string, bookId: string | null, accountId: string, key: LineKey): Promise<bigint> {
    const start = monthStart(key.entryDate);
    const early = Number(key.entryDate.slice(8, 10)) <= 15;
    // Early in the month: months before it plus its lines up to the key; late: months through it minus its lines after the key.
    const [row] = await this.query<{ raw: string }>(
      `SELECT (coalesce((SELECT sum(t.debit - t.credit) FROM ${accountMonthlyTotals(SCOPE)} t WHERE t.account_id = $3 AND t.month ${early ? '<' : '<='} $4::date), 0)
             ${early ? '+' : '-'} coalesce((SELECT sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END) FROM ${liveLines(SCOPE)} l
                          WHERE l.account_id = $3 AND ${
                            early
                              ? `l.entry_date >= $4::date AND (l.entry_date, l.entry_id, l.id) <= ($5::date, $6::uuid, $7::uuid)`
                              : `l.entry_date < ($4::date + interval '1 month') AND (l.entry_date, l.entry_id, l.id) > ($5::date, $6::uuid, $7::uuid)`
                          }), 0))::numeric AS raw`,
      [entityId, bookId, accountId, start, key.entryDate, key.entryId, key.lineId],
    );
    return BigInt(row.raw);
  }

  /**
   * Per month (first day) of [firstMonth, lastMonth], Σcredit − Σdebit of the income accounts and
   * Σdebit − Σcredit of the expense accounts (D81a), from the monthly totals; with the closing rule,
   * each month leaves out the closing entries dated in it.
   */
  async monthlyResults(
    entityId: string,
    bookId: string | null,
    firstMonth: string,
    lastMonth: string,
    options: { leaveOutClosings: boolean },
  ): Promise<Map<string, { income: bigint; expenses: bigint }>> {
    const income = `('income', 'other_income')`;
    const expenses = `('cost_of_goods_sold', 'operating_expense', 'other_expense')`;
    const closings = options.leaveOutClosings
      ? `UNION ALL
         SELECT date_trunc('month', c.entry_date)::date, c.account_id,
                -CASE c.side WHEN 'debit' THEN c.amount ELSE 0 END, -CASE c.side WHEN 'credit' THEN c.amount ELSE 0 END
           FROM ${closingLines(SCOPE, { from: '$3::date', to: `($4::date + interval '1 month' - interval '1 day')::date` })} c`
      : '';
    const rows = await this.query<{ month: string; income: string; expenses: string }>(
      `SELECT to_char(m.month, 'YYYY-MM-DD') AS month,
              coalesce(sum(m.credit - m.debit) FILTER (WHERE a.type IN ${income}), 0)::text AS income,
              coalesce(sum(m.debit - m.credit) FILTER (WHERE a.type IN ${expenses}), 0)::text AS expenses
         FROM (SELECT t.month, t.account_id, t.debit, t.credit FROM ${accountMonthlyTotals(SCOPE)} t WHERE t.month BETWEEN $3::date AND $4::date
               ${closings}) m
         JOIN ${chartAccounts('$1')} a ON a.id = m.account_id
        WHERE a.type IN ${income.slice(0, -1)}, ${expenses.slice(1)}
        GROUP BY m.month`,
      [entityId, bookId, firstMonth, lastMonth],
    );
    return new Map(rows.map((r) => [r.month, { income: BigInt(r.income), expenses: BigInt(r.expenses) }]));
  }
}
