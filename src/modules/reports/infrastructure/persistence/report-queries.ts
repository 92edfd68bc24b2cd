import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { SqlConditions } from '../../../../platform/database/sql-conditions';
import { withReadCursor } from '../../../../platform/database/read-cursor';
import { foldedLike, unicodeCollateClause } from '../../../../platform/database/unicode-collation';
import { LedgerFigures, LedgerReadSql } from '../../../ledger';
import type { AccountPeriodFigures, AccountType, BookScope, LineKey } from '../../../ledger';
import { partnerFactsSql } from '../../../partners';
import type { GroupInfo } from '../../domain/statements';

export type { AccountPeriodFigures };

const { liveLines, entries, chartAccounts, partnerMonthlyTotals, dimensionValueTree, lineTags, dimensionValues, dimensions, lineById } = LedgerReadSql;

/** The ledger read in the reports' statements: an Entity ($1) and a Book ($2). */
const SCOPE: BookScope = { entity: '$1', book: '$2::uuid' };

/**
 * The reports' read model, composed of the ledger's read seam (LedgerFigures, LedgerReadSql) and
 * the partners' (partnerFactsSql): one statement per figure, as before, but only the owners name
 * their tables and know the live-line, Book and closing-entry rules (D50, D90 item 4). Sums are
 * read as numeric, never cast to bigint: a balance may outgrow bigint.
 */
@Injectable()
export class ReportQueries {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly figures: LedgerFigures,
  ) {}

  /** ` COLLATE ...` that makes ILIKE fold non-ASCII letters too. */
  private collate(): Promise<string> {
    return unicodeCollateClause((sql) => this.query<{ collname: string }>(sql, []));
  }

  private query<T>(sql: string, values: unknown[]): Promise<T[]> {
    return this.txHost.tx.query(sql, values);
  }

  async groups(entityId: string): Promise<GroupInfo[]> {
    return this.figures.accountGroups(entityId);
  }

  /**
   * Every account with its opening before `from` and its movements in [from, to]; the closing
   * entries dated in [from, to] left out (D90 item 4). `ledgerLockDate`, the Entity's as the
   * report read it, tells the ledger whether a closing entry can be there at all.
   */
  accountFigures(entityId: string, bookId: string | null, from: string, to: string, ledgerLockDate: string | null): Promise<AccountPeriodFigures[]> {
    return this.figures.accountFigures(entityId, bookId, from, to, { from, to, ledgerLockDate });
  }

  /** Σdebit − Σcredit and line count of one account over [from, to], every entry counted (a ledger book lists the closing entry, D90 item 4). */
  accountRange(entityId: string, bookId: string | null, accountId: string, from: string | null, to: string | null): Promise<{ raw: bigint; lines: number }> {
    return this.figures.accountRange(entityId, bookId, accountId, from, to, null);
  }

  balanceThrough(entityId: string, bookId: string | null, accountId: string, key: LineKey): Promise<bigint> {
    return this.figures.balanceThrough(entityId, bookId, accountId, key);
  }

  /**
   * Period movements of Result Accounts per value of one Dimension (a value's figures include its
   * descendants' lines), and of the lines without a value of the Dimension; the closing entries
   * dated in [from, to] left out (D90 item 4).
   */
  async dimensionFigures(
    entityId: string,
    bookId: string | null,
    dimensionId: string,
    from: string,
    to: string,
  ): Promise<Array<{ valueId: string | null; accountId: string; raw: bigint; lines: number }>> {
    const rows = await this.query<{ value_id: string | null; account_id: string; raw: string; lines: number }>(
      `WITH tree AS (SELECT * FROM ${dimensionValueTree('$1', '$3')} dt), period AS (
         SELECT l.id, l.account_id, CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END AS raw
           FROM ${liveLines(SCOPE, { closings: { from: '$4::date', to: '$5::date' } })} l JOIN ${chartAccounts('$1')} a ON a.id = l.account_id
          WHERE l.entry_date BETWEEN $4::date AND $5::date
            AND a.type IN ('income', 'other_income', 'cost_of_goods_sold', 'operating_expense', 'other_expense')
       )
       SELECT t.root AS value_id, p.account_id, sum(p.raw)::numeric AS raw, count(*)::int AS lines
         FROM period p JOIN ${lineTags('$1', '$3')} lv ON lv.line_id = p.id
         JOIN tree t ON t.id = lv.dimension_value_id
        GROUP BY t.root, p.account_id
       UNION ALL
       SELECT NULL, p.account_id, sum(p.raw)::numeric, count(*)::int
         FROM period p
        WHERE NOT EXISTS (SELECT 1 FROM ${lineTags('$1', '$3')} lv WHERE lv.line_id = p.id)
        GROUP BY p.account_id`,
      [entityId, bookId, dimensionId, from, to],
    );
    return rows.map((r) => ({ valueId: r.value_id, accountId: r.account_id, raw: BigInt(r.raw), lines: r.lines }));
  }

  async dimensionValues(entityId: string, dimensionId: string): Promise<Array<{ id: string; code: string; name: string }>> {
    return this.query(`SELECT v.id, v.code, v.name FROM ${dimensionValues('$1', '$2')} v ORDER BY v.code, v.id`, [entityId, dimensionId]);
  }

  /** D54: live lines in (entryDate, entryId, lineId) order after the cursor. */
  async journal(
    entityId: string,
    bookId: string | null,
    filter: { from?: string; to?: string; search?: string; after?: LineKey; limit: number },
  ): Promise<Array<Record<string, unknown>>> {
    const sql = new SqlConditions([`true`], [entityId, bookId]);
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
        `SELECT EXISTS (SELECT 1 FROM ${chartAccounts('$1')} a WHERE a.code ILIKE $2::text${collate} OR a.name ILIKE $2::text${collate})
             OR EXISTS (SELECT 1 FROM ${partnerFactsSql('$1')} p WHERE p.name ILIKE $2::text${collate}) AS named`,
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
    // Each line carries its entry's memo (issue 32): the entries are joined only for a search, whose
    // memo branch reads the entries' trigram index.
    const select = (condition: string) =>
      `SELECT l.entry_id, l.entry_date, l.memo, l.status, l.book_id, l.id AS line_id, l.side, l.amount, l.account_id,
              a.code AS account_code, a.name AS account_name, l.partner_id, p.name AS partner_name, l.description
         FROM ${liveLines(SCOPE)} l${filter.search ? `\n         JOIN ${entries('$1')} e ON e.id = l.entry_id` : ''}
         JOIN ${chartAccounts('$1')} a ON a.id = l.account_id
         LEFT JOIN ${partnerFactsSql('$1')} p ON p.id = l.partner_id
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
      `SELECT l.entry_date, l.entry_id, l.account_id, l.book_id FROM ${lineById('$1', '$2')} l`,
      [entityId, lineId],
    );
    return row ? { entryDate: row.entry_date, entryId: row.entry_id, accountId: row.account_id, bookId: row.book_id } : null;
  }

  /** D55: one account's lines in (entryDate, entryId, lineId) order after a key. */
  async accountLines(
    entityId: string,
    bookId: string | null,
    accountId: string,
    filter: { from?: string; to?: string; after?: LineKey; limit: number },
  ): Promise<Array<Record<string, unknown>>> {
    const sql = new SqlConditions([`l.account_id = $3`], [entityId, bookId, accountId]);
    if (filter.from) sql.add('l.entry_date >= ?::date', filter.from);
    if (filter.to) sql.add('l.entry_date <= ?::date', filter.to);
    if (filter.after) sql.add('(l.entry_date, l.entry_id, l.id) > (?::date, ?::uuid, ?::uuid)', filter.after.entryDate, filter.after.entryId, filter.after.lineId);
    const limit = sql.parameter(filter.limit);
    return this.query(
      `SELECT l.id AS line_id, l.entry_id, l.entry_date, e.memo, l.side, l.amount, l.partner_id, l.description, l.allocated_amount, l.is_open_item
         FROM ${liveLines(SCOPE)} l JOIN ${entries('$1')} e ON e.id = l.entry_id
        WHERE ${sql.where} ORDER BY l.entry_date, l.entry_id, l.id LIMIT ${limit}`,
      sql.values,
    );
  }

  /**
   * Per partner, Σdebit − Σcredit of the lines before $4 (every closing entry before the range
   * counts, D90 item 4): whole months from the per-partner monthly totals (O(partners x months),
   * issue 25), the days of $4's month before it from the lines.
   */
  private openingsSql(partnerIds: string[] | null, partnerCondition: (column: string, none: string) => string): string {
    const partners = partnerIds ? { ids: '$6::uuid[]', unassigned: '$7' } : undefined;
    return `SELECT partner_id, sum(raw)::numeric AS raw FROM (
       SELECT t.partner_id, sum(t.debit - t.credit) AS raw
         FROM ${partnerMonthlyTotals(SCOPE, '$3', partners)} t
        WHERE t.month < date_trunc('month', $4::date)::date AND $5::date IS NOT NULL
        GROUP BY t.partner_id
       UNION ALL
       SELECT l.partner_id, sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END)::numeric
         FROM ${liveLines(SCOPE)} l WHERE l.account_id = $3
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
    const openings = await this.query<{ partner_id: string | null; raw: string }>(this.openingsSql(partnerIds, partnerCondition), params);
    // Each line carries its entry's memo (issue 32): the lines and memos come from the partner index alone.
    const rows = await this.query<Record<string, unknown>>(
      `SELECT l.partner_id, l.id AS line_id, l.entry_id, l.entry_date, l.memo, l.side, l.amount, l.allocated_amount
         FROM ${liveLines(SCOPE)} l
        WHERE l.account_id = $3 AND l.entry_date BETWEEN $4::date AND $5::date AND ${partnerCondition('l.partner_id', 'l.partner_id IS NULL')}
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
    const names = await this.query<{ id: string; name: string }>(`SELECT p.id, p.name FROM ${partnerFactsSql('$1')} p WHERE p.id = ANY($2::uuid[])`, [entityId, ids]);
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
    const range = `l.account_id = $3 AND l.entry_date BETWEEN $4::date AND $5::date`;
    const openingsSql = this.openingsSql(partnerIds, partnerCondition);
    return withReadCursor(this.txHost.tx.connection, signal, async (cursor) => {
      const openings = await cursor.query<{ partner_id: string | null; raw: string }>(openingsSql, params);
      const ranges = await cursor.query<{ partner_id: string | null; lines: number; raw: string; moved: string }>(
        `SELECT l.partner_id, count(*)::int AS lines, sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END)::numeric AS raw, sum(l.amount)::numeric AS moved
           FROM ${liveLines(SCOPE)} l WHERE ${range} AND ${partnerCondition('l.partner_id', 'l.partner_id IS NULL')} GROUP BY l.partner_id`,
        params,
      );
      const ids = [...new Set([...openings.map((o) => o.partner_id), ...ranges.map((r) => r.partner_id), ...(partnerIds ?? [])].filter((p): p is string => p !== null))];
      const names = await cursor.query<{ id: string; name: string }>(`SELECT p.id, p.name FROM ${partnerFactsSql('$1')} p WHERE p.id = ANY($2::uuid[])`, [entityId, ids]);
      const columns = `l.partner_id, l.id AS line_id, l.entry_id, l.entry_date, l.memo, l.side, l.amount, l.allocated_amount`;
      const base = [entityId, bookId, accountId, from, to];
      const lines = async function* (order: string[], unassigned: boolean, batchSize: number) {
        // The partners' lines in the order given (the partner index, partner by partner), then the unassigned ones.
        yield* cursor.batches<Record<string, unknown>>(
          `SELECT ${columns} FROM unnest($6::uuid[]) WITH ORDINALITY AS o(partner_id, n) JOIN ${liveLines(SCOPE)} l ON l.partner_id = o.partner_id
            WHERE ${range} ORDER BY o.n, l.entry_date, l.entry_id, l.id`,
          [...base, order],
          batchSize,
        );
        if (unassigned) {
          yield* cursor.batches<Record<string, unknown>>(`SELECT ${columns} FROM ${liveLines(SCOPE)} l WHERE ${range} AND l.partner_id IS NULL ORDER BY l.entry_date, l.entry_id, l.id`, base, batchSize);
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
    const [row] = await this.query<{ id: string; type: AccountType; tracking: string }>(`SELECT a.id, a.type, a.tracking FROM ${chartAccounts('$1')} a WHERE a.id = $2`, [
      entityId,
      accountId,
    ]);
    return row ?? null;
  }

  async dimensionExists(entityId: string, dimensionId: string): Promise<boolean> {
    return (await this.query(`SELECT 1 FROM ${dimensions('$1')} d WHERE d.id = $2`, [entityId, dimensionId])).length > 0;
  }
}

/** The partner ledger's parameters ($1-$5, then $6-$7 when partners are named) and its partner condition on a column. */
function partnerLedgerFilter(entityId: string, bookId: string | null, accountId: string, from: string, to: string, partnerIds: string[] | null, includeUnassigned: boolean) {
  const partnerCondition = (column: string, none: string) => (partnerIds ? `(${column} = ANY($6::uuid[]) OR ($7 AND ${none}))` : 'true');
  const params: unknown[] = [entityId, bookId, accountId, from, to, ...(partnerIds ? [partnerIds, includeUnassigned] : [])];
  return { partnerCondition, params };
}
