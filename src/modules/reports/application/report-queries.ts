import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { SqlConditions } from '../../../platform/database/sql-conditions';
import { withReadCursor } from '../../../platform/database/read-cursor';
import { foldedLike, unicodeCollateClause } from '../../../platform/database/unicode-collation';
import type { AccountType } from '../../ledger';
import type { GroupInfo } from '../domain/statements';
import { monthStart, splitBefore, splitRange } from './month-ranges';
import { NIL_BOOK } from '../../ledger';

/**
 * The reports' read model: SQL straight over the ledger's tables (ARCHITECTURE allows read
 * models to do so). Only live lines count (D50), read in one Book: common lines plus that Book's.
 * Sums of amounts are read as numeric, never cast to bigint: a balance may outgrow bigint (many
 * entries of the largest amount on one account), and the cast would fail the whole report (500).
 */
export interface AccountPeriodFigures {
  accountId: string;
  groupId: string | null;
  code: string;
  name: string;
  type: AccountType;
  /** Σdebit − Σcredit of lines dated before `from` (all before `to` when there is no `from`). */
  openingRaw: bigint;
  periodDebit: bigint;
  periodCredit: bigint;
  periodLines: number;
}

const LIVE = `l.status IN ('active', 'reversed')`;

/** Common lines plus those of the Book read; with no Book (null) only common lines match. */
function bookCondition(_bookId: string | null, parameter: string): string {
  return `(l.book_id IS NULL OR l.book_id = ${parameter})`;
}

@Injectable()
export class ReportQueries {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {}

  /** ` COLLATE ...` that makes ILIKE fold non-ASCII letters too. */
  private collate(): Promise<string> {
    return unicodeCollateClause((sql) => this.query<{ collname: string }>(sql, []));
  }

  private query<T>(sql: string, values: unknown[]): Promise<T[]> {
    return this.txHost.tx.query(sql, values);
  }

  async groups(entityId: string): Promise<GroupInfo[]> {
    const rows = await this.query<{ id: string; parent_group_id: string | null; code_prefix: string; name: string; type: AccountType }>(
      'SELECT id, parent_group_id, code_prefix, name, type FROM ledger_account_groups WHERE entity_id = $1',
      [entityId],
    );
    return rows.map((r) => ({ id: r.id, parentGroupId: r.parent_group_id, codePrefix: r.code_prefix, name: r.name, type: r.type }));
  }

  /**
   * Every account of the chart with its opening balance before `from` and its movements from
   * `from` to `to`: whole months from the monthly totals, the days at the edges from the lines.
   * The cost is O(accounts x months) plus the lines of at most three partial months.
   */
  async accountFigures(entityId: string, bookId: string | null, from: string, to: string): Promise<AccountPeriodFigures[]> {
    const before = splitBefore(from);
    const range = splitRange(from, to);
    const months = range.months ?? { first: '9999-12-01', last: '0001-01-01' };
    const rows = await this.query<Record<string, unknown>>(
      `WITH totals AS (
         SELECT account_id,
                sum(debit - credit) FILTER (WHERE month < $3::date) AS opening_raw,
                sum(debit) FILTER (WHERE month BETWEEN $4::date AND $5::date) AS period_debit,
                sum(credit) FILTER (WHERE month BETWEEN $4::date AND $5::date) AS period_credit,
                sum(line_count) FILTER (WHERE month BETWEEN $4::date AND $5::date) AS period_lines
           FROM ledger_account_monthly_totals
          WHERE entity_id = $1 AND (book_key = '${NIL_BOOK}' OR book_key = $2::uuid) AND month <= $12::date
          GROUP BY account_id
       ), edges AS (
         SELECT l.account_id,
                sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END) FILTER (WHERE l.entry_date BETWEEN $6::date AND $7::date) AS opening_raw,
                sum(l.amount) FILTER (WHERE l.side = 'debit' AND l.entry_date NOT BETWEEN $6::date AND $7::date) AS period_debit,
                sum(l.amount) FILTER (WHERE l.side = 'credit' AND l.entry_date NOT BETWEEN $6::date AND $7::date) AS period_credit,
                count(*) FILTER (WHERE l.entry_date NOT BETWEEN $6::date AND $7::date) AS period_lines
           FROM ledger_lines l
          WHERE l.entity_id = $1 AND ${LIVE} AND ${bookCondition(bookId, '$2::uuid')}
            AND (l.entry_date BETWEEN $6::date AND $7::date OR l.entry_date BETWEEN $8::date AND $9::date OR l.entry_date BETWEEN $10::date AND $11::date)
          GROUP BY l.account_id
       )
       SELECT a.id, a.group_id, a.code, a.name, a.type,
              (coalesce(t.opening_raw, 0) + coalesce(e.opening_raw, 0))::numeric AS opening_raw,
              (coalesce(t.period_debit, 0) + coalesce(e.period_debit, 0))::numeric AS period_debit,
              (coalesce(t.period_credit, 0) + coalesce(e.period_credit, 0))::numeric AS period_credit,
              (coalesce(t.period_lines, 0) + coalesce(e.period_lines, 0))::bigint AS period_lines
         FROM ledger_accounts a
         LEFT JOIN totals t ON t.account_id = a.id
         LEFT JOIN edges e ON e.account_id = a.id
        WHERE a.entity_id = $1`,
      [
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
      ],
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
   * Σdebit − Σcredit and the line count of one account over [from, to] (either end open):
   * whole months from the monthly totals, edge days from the lines.
   */
  async accountRange(entityId: string, bookId: string | null, accountId: string, from: string | null, to: string | null): Promise<{ raw: bigint; lines: number }> {
    const start = from ?? '0001-01-01';
    const end = to ?? '9999-12-31';
    const range = splitRange(start, end);
    const months = range.months ?? { first: '9999-12-01', last: '0001-01-01' };
    const [row] = await this.query<{ raw: string; lines: string }>(
      `SELECT (coalesce((SELECT sum(debit - credit) FROM ledger_account_monthly_totals
                          WHERE entity_id = $1 AND account_id = $3 AND (book_key = '${NIL_BOOK}' OR book_key = $2::uuid) AND month BETWEEN $4::date AND $5::date), 0)
             + coalesce((SELECT sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END) FROM ledger_lines l
                          WHERE l.entity_id = $1 AND l.account_id = $3 AND ${LIVE} AND ${bookCondition(bookId, '$2::uuid')}
                            AND (l.entry_date BETWEEN $6::date AND $7::date OR l.entry_date BETWEEN $8::date AND $9::date)), 0))::numeric AS raw,
              (coalesce((SELECT sum(line_count) FROM ledger_account_monthly_totals
                          WHERE entity_id = $1 AND account_id = $3 AND (book_key = '${NIL_BOOK}' OR book_key = $2::uuid) AND month BETWEEN $4::date AND $5::date), 0)
             + (SELECT count(*) FROM ledger_lines l
                 WHERE l.entity_id = $1 AND l.account_id = $3 AND ${LIVE} AND ${bookCondition(bookId, '$2::uuid')}
                   AND (l.entry_date BETWEEN $6::date AND $7::date OR l.entry_date BETWEEN $8::date AND $9::date)))::bigint AS lines`,
      [entityId, bookId, accountId, months.first, months.last, range.days[0].from, range.days[0].to, range.days[1].from, range.days[1].to],
    );
    return { raw: BigInt(row.raw), lines: Number(row.lines) };
  }

  /**
   * Σdebit − Σcredit of one account from inception through a line key (date, entry, line): the
   * monthly totals, then the lines of the key's month on the shorter side of the key, so a page
   * at any depth reads at most half a month of lines.
   */
  async balanceThrough(entityId: string, bookId: string | null, accountId: string, key: { entryDate: string; entryId: string; lineId: string }): Promise<bigint> {
    const start = monthStart(key.entryDate);
    const early = Number(key.entryDate.slice(8, 10)) <= 15;
    // Early in the month: months before it plus its lines up to the key; late: months through it minus its lines after the key.
    const [row] = await this.query<{ raw: string }>(
      `SELECT (coalesce((SELECT sum(debit - credit) FROM ledger_account_monthly_totals
                          WHERE entity_id = $1 AND account_id = $3 AND (book_key = '${NIL_BOOK}' OR book_key = $2::uuid)
                            AND month ${early ? '<' : '<='} $4::date), 0)
             ${early ? '+' : '-'} coalesce((SELECT sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END) FROM ledger_lines l
                          WHERE l.entity_id = $1 AND l.account_id = $3 AND ${LIVE} AND ${bookCondition(bookId, '$2::uuid')}
                            AND ${
                              early
                                ? `l.entry_date >= $4::date AND (l.entry_date, l.entry_id, l.id) <= ($5::date, $6::uuid, $7::uuid)`
                                : `l.entry_date < ($4::date + interval '1 month') AND (l.entry_date, l.entry_id, l.id) > ($5::date, $6::uuid, $7::uuid)`
                            }), 0))::numeric AS raw`,
      [entityId, bookId, accountId, start, key.entryDate, key.entryId, key.lineId],
    );
    return BigInt(row.raw);
  }

  /**
   * Period movements of Result Accounts per value of one Dimension (a value's figures include its
   * descendants' lines), and of the lines without a value of the Dimension.
   */
  async dimensionFigures(
    entityId: string,
    bookId: string | null,
    dimensionId: string,
    from: string,
    to: string,
  ): Promise<Array<{ valueId: string | null; accountId: string; raw: bigint; lines: number }>> {
    const rows = await this.query<{ value_id: string | null; account_id: string; raw: string; lines: number }>(
      `WITH RECURSIVE tree(root, id, depth) AS (
         SELECT v.id, v.id, 0 FROM dimension_values v WHERE v.entity_id = $1 AND v.dimension_id = $3
         UNION ALL
         SELECT t.root, v.id, t.depth + 1 FROM dimension_values v JOIN tree t ON v.entity_id = $1 AND v.parent_id = t.id WHERE t.depth < 100
       ), period AS (
         SELECT l.id, l.account_id, CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END AS raw
           FROM ledger_lines l JOIN ledger_accounts a ON a.entity_id = l.entity_id AND a.id = l.account_id
          WHERE l.entity_id = $1 AND ${LIVE} AND ${bookCondition(bookId, '$2::uuid')} AND l.entry_date BETWEEN $4::date AND $5::date
            AND a.type IN ('income', 'other_income', 'cost_of_goods_sold', 'operating_expense', 'other_expense')
       )
       SELECT t.root AS value_id, p.account_id, sum(p.raw)::numeric AS raw, count(*)::int AS lines
         FROM period p JOIN ledger_line_dimension_values lv ON lv.entity_id = $1 AND lv.line_id = p.id AND lv.dimension_id = $3
         JOIN tree t ON t.id = lv.dimension_value_id
        GROUP BY t.root, p.account_id
       UNION ALL
       SELECT NULL, p.account_id, sum(p.raw)::numeric, count(*)::int
         FROM period p
        WHERE NOT EXISTS (SELECT 1 FROM ledger_line_dimension_values lv WHERE lv.entity_id = $1 AND lv.line_id = p.id AND lv.dimension_id = $3)
        GROUP BY p.account_id`,
      [entityId, bookId, dimensionId, from, to],
    );
    return rows.map((r) => ({ valueId: r.value_id, accountId: r.account_id, raw: BigInt(r.raw), lines: r.lines }));
  }

  async dimensionValues(entityId: string, dimensionId: string): Promise<Array<{ id: string; code: string; name: string }>> {
    return this.query('SELECT id, code, name FROM dimension_values WHERE entity_id = $1 AND dimension_id = $2 ORDER BY code, id', [entityId, dimensionId]);
  }

  /** D54: live lines in (entryDate, entryId, lineId) order after the cursor. */
  async journal(
    entityId: string,
    bookId: string | null,
    filter: { from?: string; to?: string; search?: string; after?: { entryDate: string; entryId: string; lineId: string }; limit: number },
  ): Promise<Array<Record<string, unknown>>> {
    const sql = new SqlConditions([`l.entity_id = $1`, LIVE, bookCondition(bookId, '$2::uuid')], [entityId, bookId]);
    if (filter.from) sql.add('l.entry_date >= ?::date', filter.from);
    if (filter.to) sql.add('l.entry_date <= ?::date', filter.to);
    let branches: string[] | null = null;
    if (filter.search) {
      // D54: case-insensitive for every letter (`ÉLAN` finds `élan`), whatever the database's locale.
      const collate = await this.collate();
      const pattern = `%${filter.search.replace(/[\\%_]/g, '\\$&')}%`;
      // The chart and the partners are short lists: when no account and no partner is named by the
      // term, only a memo or a line's description can hold it, and each has its trigram index
      // (issue 25). Matching lines are then read through those indexes, branch by branch, rather
      // than every line of the ledger joined to its entry.
      const [{ named }] = await this.query<{ named: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.entity_id = $1 AND (a.code ILIKE $2::text${collate} OR a.name ILIKE $2::text${collate}))
             OR EXISTS (SELECT 1 FROM partners p WHERE p.entity_id = $1 AND p.name ILIKE $2::text${collate}) AS named`,
        [entityId, pattern],
      );
      if (named) {
        const like = `?::text${collate}`;
        sql.add(`(e.memo ILIKE ${like} OR l.description ILIKE ${like} OR a.code ILIKE ${like} OR a.name ILIKE ${like} OR p.name ILIKE ${like})`, pattern, pattern, pattern, pattern, pattern);
      } else {
        const term = `${sql.parameter(pattern)}::text`;
        branches = [foldedLike('e.memo', term, collate), foldedLike('l.description', term, collate)];
      }
    }
    if (filter.after) sql.add('(l.entry_date, l.entry_id, l.id) > (?::date, ?::uuid, ?::uuid)', filter.after.entryDate, filter.after.entryId, filter.after.lineId);
    const limit = sql.parameter(filter.limit);
    const select = (condition: string) =>
      `SELECT l.entry_id, l.entry_date, e.memo, l.status, l.book_id, l.id AS line_id, l.side, l.amount, l.account_id,
              a.code AS account_code, a.name AS account_name, l.partner_id, p.name AS partner_name, l.description
         FROM ledger_lines l
         JOIN ledger_entries e ON e.entity_id = l.entity_id AND e.id = l.entry_id
         JOIN ledger_accounts a ON a.entity_id = l.entity_id AND a.id = l.account_id
         LEFT JOIN partners p ON p.entity_id = l.entity_id AND p.id = l.partner_id
        WHERE ${condition}
        ORDER BY l.entry_date, l.entry_id, l.id LIMIT ${limit}`;
    if (!branches) return this.query(select(sql.where), sql.values);
    // Each branch is the first page of its own matches; the page is the first of their union.
    return this.query(
      `SELECT * FROM (${branches.map((branch) => `(${select(`${sql.where} AND ${branch}`)})`).join(' UNION ')}) j
        ORDER BY j.entry_date, j.entry_id, j.line_id LIMIT ${limit}`,
      sql.values,
    );
  }

  async lineKey(entityId: string, lineId: string): Promise<{ entryDate: string; entryId: string; accountId: string; bookId: string | null } | null> {
    const [row] = await this.query<{ entry_date: string; entry_id: string; account_id: string; book_id: string | null }>(
      'SELECT entry_date, entry_id, account_id, book_id FROM ledger_lines WHERE entity_id = $1 AND id = $2',
      [entityId, lineId],
    );
    return row ? { entryDate: row.entry_date, entryId: row.entry_id, accountId: row.account_id, bookId: row.book_id } : null;
  }

  /** D55: one account's lines in (entryDate, entryId, lineId) order after a key. */
  async accountLines(
    entityId: string,
    bookId: string | null,
    accountId: string,
    filter: { from?: string; to?: string; after?: { entryDate: string; entryId: string; lineId: string }; limit: number },
  ): Promise<Array<Record<string, unknown>>> {
    const sql = new SqlConditions([`l.entity_id = $1`, `l.account_id = $3`, LIVE, bookCondition(bookId, '$2::uuid')], [entityId, bookId, accountId]);
    if (filter.from) sql.add('l.entry_date >= ?::date', filter.from);
    if (filter.to) sql.add('l.entry_date <= ?::date', filter.to);
    if (filter.after) sql.add('(l.entry_date, l.entry_id, l.id) > (?::date, ?::uuid, ?::uuid)', filter.after.entryDate, filter.after.entryId, filter.after.lineId);
    const limit = sql.parameter(filter.limit);
    return this.query(
      `SELECT l.id AS line_id, l.entry_id, l.entry_date, e.memo, l.side, l.amount, l.partner_id, l.description, l.allocated_amount, l.is_open_item
         FROM ledger_lines l JOIN ledger_entries e ON e.entity_id = l.entity_id AND e.id = l.entry_id
        WHERE ${sql.where} ORDER BY l.entry_date, l.entry_id, l.id LIMIT ${limit}`,
      sql.values,
    );
  }

  /**
   * Per partner, Σdebit − Σcredit of the lines before $4: whole months from the per-partner
   * monthly totals (O(partners x months), issue 25), the days of $4's month before it from the lines.
   */
  private openingsSql(bookId: string | null, partnerCondition: (column: string, none: string) => string): string {
    return `SELECT partner_id, sum(raw)::numeric AS raw FROM (
       SELECT nullif(t.partner_key, '${NIL_BOOK}'::uuid) AS partner_id, sum(t.debit - t.credit) AS raw
         FROM ledger_partner_monthly_totals t
        WHERE t.entity_id = $1 AND t.account_id = $3 AND t.book_key IN ('${NIL_BOOK}'::uuid, coalesce($2::uuid, '${NIL_BOOK}'::uuid))
          AND t.month < date_trunc('month', $4::date)::date AND $5::date IS NOT NULL AND ${partnerCondition('t.partner_key', `t.partner_key = '${NIL_BOOK}'::uuid`)}
        GROUP BY t.partner_key
       UNION ALL
       SELECT l.partner_id, sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END)::numeric
         FROM ledger_lines l WHERE l.entity_id = $1 AND l.account_id = $3 AND ${LIVE} AND ${bookCondition(bookId, '$2::uuid')}
          AND l.entry_date >= date_trunc('month', $4::date)::date AND l.entry_date < $4::date AND ${partnerCondition('l.partner_id', 'l.partner_id IS NULL')}
        GROUP BY l.partner_id
     ) o GROUP BY partner_id`;
  }

  /** D56: per partner on one account, the balance before `from` and the lines of the range (in ledger order). */
  async partnerFigures(
    entityId: string,
    bookId: string | null,
    accountId: string,
    from: string,
    to: string,
    partnerIds: string[] | null,
    includeUnassigned: boolean,
    lineLimit: number,
  ): Promise<{ openings: Map<string | null, bigint>; lines: Map<string | null, Array<Record<string, unknown>>>; lineCount: number; names: Map<string, string> }> {
    const { partnerCondition, params } = partnerLedgerFilter(entityId, bookId, accountId, from, to, partnerIds, includeUnassigned);
    // Openings: whole months from the per-partner monthly totals (O(partners x months), issue 25),
    // the days of `from`'s month before it from the lines.
    const openings = await this.query<{ partner_id: string | null; raw: string }>(this.openingsSql(bookId, partnerCondition), params);
    // The memo through each line's entry key: a join lets the planner hash every entry of the Entity.
    const rows = await this.query<Record<string, unknown>>(
      `SELECT l.partner_id, l.id AS line_id, l.entry_id, l.entry_date,
              (SELECT e.memo FROM ledger_entries e WHERE e.entity_id = l.entity_id AND e.id = l.entry_id) AS memo,
              l.side, l.amount, l.allocated_amount
         FROM ledger_lines l
        WHERE l.entity_id = $1 AND l.account_id = $3 AND ${LIVE} AND ${bookCondition(bookId, '$2::uuid')}
          AND l.entry_date BETWEEN $4::date AND $5::date AND ${partnerCondition('l.partner_id', 'l.partner_id IS NULL')}
        ORDER BY l.partner_id, l.entry_date, l.entry_id, l.id LIMIT $${params.length + 1}`,
      [...params, lineLimit],
    );
    const lines = new Map<string | null, Array<Record<string, unknown>>>();
    for (const row of rows) {
      const partnerId = row.partner_id as string | null;
      const mine = lines.get(partnerId);
      if (mine) mine.push(row);
      else lines.set(partnerId, [row]);
    }
    const ids = [...new Set([...openings.map((o) => o.partner_id), ...lines.keys(), ...(partnerIds ?? [])].filter((p): p is string => p !== null))];
    const names = await this.query<{ id: string; name: string }>('SELECT id, name FROM partners WHERE entity_id = $1 AND id = ANY($2::uuid[])', [entityId, ids]);
    return {
      openings: new Map(openings.map((o) => [o.partner_id, BigInt(o.raw as string)])),
      lines,
      lineCount: rows.length,
      names: new Map(names.map((n) => [n.id, n.name])),
    };
  }

  /**
   * D56 streamed (D2a): in one REPEATABLE READ snapshot on its own connection, per partner the
   * opening before `from`, the range's line count, raw sum and sum of amounts, and the partners'
   * names; then `use` may read the range's lines from a database cursor, in the order of the
   * partners it names (the unassigned lines last when asked). Cancelled in the database when
   * `signal` aborts.
   */
  async readPartnerLedger<R>(
    entityId: string,
    bookId: string | null,
    accountId: string,
    from: string,
    to: string,
    partnerIds: string[] | null,
    includeUnassigned: boolean,
    signal: AbortSignal,
    use: (
      head: { openings: Map<string | null, bigint>; ranges: Map<string | null, { lines: number; raw: bigint; moved: bigint }>; names: Map<string, string> },
      lines: (order: string[], unassigned: boolean, batchSize: number) => AsyncIterable<Array<Record<string, unknown>>>,
    ) => Promise<R>,
  ): Promise<R> {
    const { partnerCondition, params } = partnerLedgerFilter(entityId, bookId, accountId, from, to, partnerIds, includeUnassigned);
    const range = `l.entity_id = $1 AND l.account_id = $3 AND ${LIVE} AND ${bookCondition(bookId, '$2::uuid')} AND l.entry_date BETWEEN $4::date AND $5::date`;
    return withReadCursor(this.txHost.tx.connection, signal, async (cursor) => {
      const openings = await cursor.query<{ partner_id: string | null; raw: string }>(this.openingsSql(bookId, partnerCondition), params);
      const ranges = await cursor.query<{ partner_id: string | null; lines: number; raw: string; moved: string }>(
        `SELECT l.partner_id, count(*)::int AS lines, sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END)::numeric AS raw, sum(l.amount)::numeric AS moved
           FROM ledger_lines l WHERE ${range} AND ${partnerCondition('l.partner_id', 'l.partner_id IS NULL')} GROUP BY l.partner_id`,
        params,
      );
      const ids = [...new Set([...openings.map((o) => o.partner_id), ...ranges.map((r) => r.partner_id), ...(partnerIds ?? [])].filter((p): p is string => p !== null))];
      const names = await cursor.query<{ id: string; name: string }>('SELECT id, name FROM partners WHERE entity_id = $1 AND id = ANY($2::uuid[])', [entityId, ids]);
      const columns = `l.partner_id, l.id AS line_id, l.entry_id, l.entry_date,
              (SELECT e.memo FROM ledger_entries e WHERE e.entity_id = l.entity_id AND e.id = l.entry_id) AS memo, l.side, l.amount, l.allocated_amount`;
      const base = [entityId, bookId, accountId, from, to];
      const lines = async function* (order: string[], unassigned: boolean, batchSize: number) {
        // The partners' lines in the order given (the partner index, partner by partner), then the unassigned ones.
        yield* cursor.batches<Record<string, unknown>>(
          `SELECT ${columns} FROM unnest($6::uuid[]) WITH ORDINALITY AS o(partner_id, n) JOIN ledger_lines l ON l.entity_id = $1 AND l.partner_id = o.partner_id
            WHERE ${range} ORDER BY o.n, l.entry_date, l.entry_id, l.id`,
          [...base, order],
          batchSize,
        );
        if (unassigned) {
          yield* cursor.batches<Record<string, unknown>>(`SELECT ${columns} FROM ledger_lines l WHERE ${range} AND l.partner_id IS NULL ORDER BY l.entry_date, l.entry_id, l.id`, base, batchSize);
        }
      };
      return use(
        {
          openings: new Map(openings.map((o) => [o.partner_id, BigInt(o.raw)])),
          ranges: new Map(ranges.map((r) => [r.partner_id, { lines: r.lines, raw: BigInt(r.raw), moved: BigInt(r.moved) }])),
          names: new Map(names.map((n) => [n.id, n.name])),
        },
        lines,
      );
    });
  }

  async account(entityId: string, accountId: string): Promise<{ id: string; type: AccountType; tracking: string } | null> {
    const [row] = await this.query<{ id: string; type: AccountType; tracking: string }>(
      'SELECT id, type, tracking FROM ledger_accounts WHERE entity_id = $1 AND id = $2',
      [entityId, accountId],
    );
    return row ?? null;
  }

  async dimensionExists(entityId: string, dimensionId: string): Promise<boolean> {
    return (await this.query('SELECT 1 FROM dimensions WHERE entity_id = $1 AND id = $2', [entityId, dimensionId])).length > 0;
  }
}

/** The partner ledger's parameters ($1-$5, then $6-$7 when partners are named) and its partner condition on a column. */
function partnerLedgerFilter(entityId: string, bookId: string | null, accountId: string, from: string, to: string, partnerIds: string[] | null, includeUnassigned: boolean) {
  const partnerCondition = (column: string, none: string) => (partnerIds ? `(${column} = ANY($6::uuid[]) OR ($7 AND ${none}))` : 'true');
  const params: unknown[] = [entityId, bookId, accountId, from, to, ...(partnerIds ? [partnerIds, includeUnassigned] : [])];
  return { partnerCondition, params };
}
