import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import type { AccountType } from '../../domain/account-types';
import { monthStart } from '../../../../../libs/shared-kernel/src';
import { servesDistributedSchema } from '../../../../platform/database/citus';
import { preparedQuery } from '../../../../platform/database/prepared-query';
import { NO_DAYS, splitBefore, splitRange } from '../../domain/month-ranges';
import {
  accountGroups,
  accountMonthlyTotals,
  chartAccounts,
  closingEntryIds,
  closingLines,
  groupAccountMonthlyTotals,
  groupChartAccounts,
  groupClosingLines,
  groupLiveLines,
  liveLines,
  partnerMonthlyTotals,
  type BookScope,
  type GroupScope,
  type SqlExpression,
} from './ledger-read-sql';

/** The intercompany partners of a whole group (`entity_id, partner_id`), written with `parameter(value)` (a placeholder per value). */
export type GroupPartnerShare = (parameter: (value: unknown) => string) => SqlExpression;
/** The same of one member (`partner_id`), over the member's Entity expression (null: none of its partners counts). */
export type MemberPartnerShare = (member: { entityId: string; entity: SqlExpression }, parameter: (value: unknown) => string) => SqlExpression | null;
/** `groupBalances`' intercompany share, written both ways (over the group, over one member). */
type GroupPartnerShares = { ofGroup: GroupPartnerShare; ofMember: MemberPartnerShare };

/** A report's range for the closing-entry rule (D90 item 4): closing entries dated in it are left out. */
export interface ClosingRange {
  from: string;
  to: string;
  /**
   * The Entity's ledger lock date as the caller read it, when it did (`accountFigures`). A live
   * closing entry is dated on or before the lock date (D90 items 2 and 3), so with none, or one
   * before `from`, no closing entry is expected in the range and the statement leaves the closing
   * part out, only checking in its own snapshot that none is there (one committed since the lock
   * date was read: the statement runs again with the closing part).
   */
  ledgerLockDate?: string | null;
}

/** The closing rule's range may hold a closing entry, as far as the lock date the caller read tells. */
function closingsExpected(closings: ClosingRange): boolean {
  return closings.ledgerLockDate === undefined || (closings.ledgerLockDate !== null && closings.ledgerLockDate >= closings.from);
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

/** One account of a member of a group read at once (`groupBalances`); raw = Σdebit − Σcredit. */
export interface GroupAccountBalance {
  entityId: string;
  accountId: string;
  code: string;
  name: string;
  type: AccountType;
  /** The lines dated before `from` (every closing entry before it counts); 0 when the opening is not read. */
  openingRaw: bigint;
  /** The lines dated from `from` to `to`, less the closing entries the rule leaves out. */
  periodRaw: bigint;
  /** The part of `openingRaw` made by lines naming the partners of `partnerShare` (0 without it). */
  partnerOpeningRaw: bigint;
  /** The part of `periodRaw` made by those lines. */
  partnerPeriodRaw: bigint;
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
const GROUP: GroupScope = { entities: '$1::uuid[]', books: '$2::uuid[]' };
const CLOSING_RULE = { from: '$13::date', to: '$14::date' };
const SIGNED = `CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END`;

/**
 * The parameters $3 to $16 of a statement of figures around [from, to]: the months before `from`,
 * the range's whole months, the days at the edges, the last month read and the closing rule's
 * range with the span it applies to.
 */
function spanValues(from: string, to: string, closings: ClosingRange | null): unknown[] {
  const before = splitBefore(from);
  const range = splitRange(from, to);
  const months = range.months ?? { first: '9999-12-01', last: '0001-01-01' };
  return [
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
    ...(closings ? [closings.from, closings.to, from, to] : []),
  ];
}

/** Per account from the monthly totals (`t`): the opening before $3 and the movement over the whole months $4..$5. */
const TOTALS_FIGURES = `sum(t.debit - t.credit) FILTER (WHERE t.month < $3::date) AS opening_raw,
                sum(t.debit) FILTER (WHERE t.month BETWEEN $4::date AND $5::date) AS period_debit,
                sum(t.credit) FILTER (WHERE t.month BETWEEN $4::date AND $5::date) AS period_credit,
                sum(t.line_count) FILTER (WHERE t.month BETWEEN $4::date AND $5::date) AS period_lines`;

/** The lines (`l`) on the edge days: the opening's days $6..$7, the range's $8..$9 and $10..$11. */
const EDGE_DAYS = `(l.entry_date BETWEEN $6::date AND $7::date OR l.entry_date BETWEEN $8::date AND $9::date OR l.entry_date BETWEEN $10::date AND $11::date)`;

/** Per account from the edge lines (`l`): the opening's days and the range's. */
const EDGE_FIGURES = `sum(${SIGNED}) FILTER (WHERE l.entry_date BETWEEN $6::date AND $7::date) AS opening_raw,
                sum(l.amount) FILTER (WHERE l.side = 'debit' AND l.entry_date NOT BETWEEN $6::date AND $7::date) AS period_debit,
                sum(l.amount) FILTER (WHERE l.side = 'credit' AND l.entry_date NOT BETWEEN $6::date AND $7::date) AS period_credit,
                count(*) FILTER (WHERE l.entry_date NOT BETWEEN $6::date AND $7::date) AS period_lines`;

/** Only the closing lines (`c` of `lines`) inside both the report's range and the range read are in the movements. */
function closingFigures(lines: string, groupBy: string): string {
  return `SELECT ${groupBy}, sum(c.amount) FILTER (WHERE c.side = 'debit') AS debit, sum(c.amount) FILTER (WHERE c.side = 'credit') AS credit, count(*) AS lines
           FROM ${lines} c
          WHERE c.entry_date BETWEEN $15::date AND $16::date
          GROUP BY ${groupBy}`;
}

/** An account's figures from the totals (`t`), the edges (`e`) and, with the closing rule, less the closings (`c`). */
function accountFiguresColumns(closings: boolean): string {
  const minus = (column: string) => (closings ? ` - coalesce(c.${column}, 0)` : '');
  return `(coalesce(t.opening_raw, 0) + coalesce(e.opening_raw, 0))::numeric AS opening_raw,
              (coalesce(t.period_debit, 0) + coalesce(e.period_debit, 0)${minus('debit')})::numeric AS period_debit,
              (coalesce(t.period_credit, 0) + coalesce(e.period_credit, 0)${minus('credit')})::numeric AS period_credit,
              (coalesce(t.period_lines, 0) + coalesce(e.period_lines, 0)${minus('lines')})::bigint AS period_lines`;
}

function toFigures(r: Record<string, unknown>): AccountPeriodFigures {
  return {
    accountId: r.id as string,
    groupId: r.group_id as string | null,
    code: r.code as string,
    name: r.name as string,
    type: r.type as AccountType,
    openingRaw: BigInt(r.opening_raw as string),
    periodDebit: BigInt(r.period_debit as string),
    periodCredit: BigInt(r.period_credit as string),
    periodLines: Number(r.period_lines),
  };
}

/** The CTEs `totals` (per account, `sums` of the monthly totals `t` where `months` holds) and `edges` (per account, `edgeSums` of the edge days' lines `l`). */
function totalsAndEdges(sums: string, months: string, edgeSums: string): string {
  return `totals AS (
         SELECT t.account_id, ${sums}
           FROM ${accountMonthlyTotals(SCOPE)} t
          WHERE ${months}
          GROUP BY t.account_id
       ), edges AS (
         SELECT l.account_id, ${edgeSums}
           FROM ${liveLines(SCOPE)} l
          WHERE ${EDGE_DAYS}
          GROUP BY l.account_id
       )`;
}

/**
 * One member's statement of `LedgerFigures.groupBalances` (scope $1, $2; span $3..$16): its
 * accounts' figures from the monthly totals (months `firstMonth`..$12), the edge days' lines and,
 * with `closings`, less the closing lines; with `partners` (a relation of the member's partners)
 * the part of both figures lines naming them make. `seenCodes`/`seenTypes` (text[]) are the codes
 * of the charts read before with their first type: an account without lines comes back only for
 * a code not among them or of another type.
 */
function memberBalancesSql(part: { firstMonth: string; seenCodes: string; seenTypes: string; partners: SqlExpression | null; closings: boolean }): string {
  const rawSums = (alias: string) => `sum(${alias}.debit - ${alias}.credit) FILTER (WHERE ${alias}.month < $3::date) AS opening_raw,
                sum(${alias}.debit - ${alias}.credit) FILTER (WHERE ${alias}.month BETWEEN $4::date AND $5::date) AS period_raw`;
  const edgeSums = `sum(${SIGNED}) FILTER (WHERE l.entry_date BETWEEN $6::date AND $7::date) AS opening_raw,
                sum(${SIGNED}) FILTER (WHERE l.entry_date NOT BETWEEN $6::date AND $7::date) AS period_raw`;
  const months = `BETWEEN ${part.firstMonth}::date AND $12::date`;
  const closings = part.closings
    ? `, closings AS (
         SELECT c.account_id, sum(CASE c.side WHEN 'debit' THEN c.amount ELSE -c.amount END) AS raw
           FROM ${closingLines(SCOPE, CLOSING_RULE)} c
          WHERE c.entry_date BETWEEN $15::date AND $16::date
          GROUP BY c.account_id
       )`
    : '';
  // OFFSET 0 keeps the planner from flattening the share's totals into a scan of every partner total of the member.
  const shares = part.partners
    ? `, share_partners AS (${part.partners}), share_set AS (
         SELECT array_agg(sp.partner_id) AS ids FROM share_partners sp
       ), share_totals AS (
         SELECT t.account_id, ${rawSums('p')}
           FROM totals t
           JOIN share_set x ON x.ids IS NOT NULL
           CROSS JOIN LATERAL (SELECT * FROM ${partnerMonthlyTotals(SCOPE, 't.account_id', { ids: 'x.ids', unassigned: 'false' })} pmt WHERE pmt.month ${months} OFFSET 0) p
          GROUP BY t.account_id
       ), share_edges AS (
         SELECT l.account_id, ${edgeSums}
           FROM ${liveLines(SCOPE)} l JOIN share_partners x ON x.partner_id = l.partner_id
          WHERE ${EDGE_DAYS}
          GROUP BY l.account_id
       )`
    : '';
  return `WITH ${totalsAndEdges(rawSums('t'), `t.month ${months}`, edgeSums)}${closings}${shares}
       SELECT a.id, a.code, a.name, a.type,
              (coalesce(t.opening_raw, 0) + coalesce(e.opening_raw, 0))::numeric::text AS opening_raw,
              (coalesce(t.period_raw, 0) + coalesce(e.period_raw, 0)${part.closings ? ' - coalesce(c.raw, 0)' : ''})::numeric::text AS period_raw${
                part.partners
                  ? `,
              (coalesce(st.opening_raw, 0) + coalesce(se.opening_raw, 0))::numeric::text AS partner_opening_raw,
              (coalesce(st.period_raw, 0) + coalesce(se.period_raw, 0))::numeric::text AS partner_period_raw`
                  : ''
              }
         FROM ${chartAccounts('$1')} a
         LEFT JOIN unnest(${part.seenCodes}::text[], ${part.seenTypes}::text[]) AS seen(code, type) ON seen.code = a.code
         LEFT JOIN totals t ON t.account_id = a.id
         LEFT JOIN edges e ON e.account_id = a.id${part.closings ? '\n         LEFT JOIN closings c ON c.account_id = a.id' : ''}${
           part.partners ? `\n         LEFT JOIN share_totals st ON st.account_id = a.id\n         LEFT JOIN share_edges se ON se.account_id = a.id` : ''
         }
        WHERE t.account_id IS NOT NULL OR e.account_id IS NOT NULL OR seen.code IS NULL OR a.type <> seen.type`;
}

/** A row of `groupBalances`' statements (sums as text) as a member's account balance. */
function toGroupBalance(entityId: string, r: Record<string, string>, withPartners: boolean): GroupAccountBalance {
  return {
    entityId,
    accountId: r.id,
    code: r.code,
    name: r.name,
    type: r.type as AccountType,
    openingRaw: BigInt(r.opening_raw),
    periodRaw: BigInt(r.period_raw),
    partnerOpeningRaw: withPartners ? BigInt(r.partner_opening_raw) : 0n,
    partnerPeriodRaw: withPartners ? BigInt(r.partner_period_raw) : 0n,
  };
}

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
   * With the caller's lock date (`closings.ledgerLockDate`) saying no closing entry can be in the
   * range, the closing part is neither planned nor run unless the statement finds one there.
   */
  async accountFigures(entityId: string, bookId: string | null, from: string, to: string, closings: ClosingRange | null): Promise<AccountPeriodFigures[]> {
    if (closings && !closingsExpected(closings)) {
      // Issue 32: no closing entry expected, so no closing part to plan and run; the statement
      // answers whether one is there all the same (its parameters $13-$14), and only then is the
      // closing part read.
      const rows = await this.accountFiguresRows(entityId, bookId, from, to, null, closings);
      if (rows.length === 0 || rows[0].closings_in_range !== true) return rows.map(toFigures);
    }
    return (await this.accountFiguresRows(entityId, bookId, from, to, closings, null)).map(toFigures);
  }

  /** `accountFigures`' statement: with the closing part for `closings`, or without it but saying whether `guard`'s range holds a live closing entry (`closings_in_range`). */
  private accountFiguresRows(entityId: string, bookId: string | null, from: string, to: string, closings: ClosingRange | null, guard: ClosingRange | null): Promise<Array<Record<string, unknown>>> {
    const span = spanValues(from, to, closings);
    if (guard) span.push(guard.from, guard.to);
    const closingsInRange = guard ? `,\n              EXISTS (${closingEntryIds('$1', CLOSING_RULE)}) AS closings_in_range` : '';
    // A named prepared statement (three texts): parsed once per connection. PostgreSQL still plans
    // it per call for as long as a custom plan is judged cheaper than its generic one (at
    // 1,000,001 lines: every call, the same plans as an unnamed statement's).
    return preparedQuery<Record<string, unknown>>(
      this.txHost.tx,
      `WITH ${totalsAndEdges(TOTALS_FIGURES, 't.month <= $12::date', EDGE_FIGURES)}${closings ? `, closings AS (${closingFigures(closingLines(SCOPE, CLOSING_RULE), 'c.account_id')})` : ''}
       SELECT a.id, a.group_id, a.code, a.name, a.type, ${accountFiguresColumns(closings !== null)}${closingsInRange}
         FROM ${chartAccounts('$1')} a
         LEFT JOIN totals t ON t.account_id = a.id
         LEFT JOIN edges e ON e.account_id = a.id${closings ? '\n         LEFT JOIN closings c ON c.account_id = a.id' : ''}`,
      [entityId, bookId, ...span],
    );
  }

  /**
   * The balances of several Entities' accounts (a consolidated report, D91): each member with its
   * Book, `entityId` saying whose each account is; per account Σdebit − Σcredit before `from` and
   * over `from`..`to`, as `accountFigures` reads them (whole months from the monthly totals, edge
   * days from the lines, the closing rule with `closings`). The accounts are those a report
   * combining the charts by code needs: every account with lines up to `to`, and, whatever its
   * figures, per code the account of the first member (in the order given) whose chart has it and
   * every account of another type than that one (names and type conflicts); an account left out
   * has no line, so its figures are zero.
   *
   * On one server, one statement for the group (`entity_id = ANY($1)`: one plan, the members'
   * rows on their index ranges). On a Citus cluster (a distributed schema), one statement per
   * member, in the order given, each naming only that member's `entity_id`, so each routes to the
   * member's shard group (D94; Citus refuses the group statement's correlated `LATERAL`); the
   * codes (and first types) the earlier members' answers gave are a parameter of the next
   * member's statement, so a member answers the same accounts. Per member, one server would pay a
   * round trip and a plan per member (measured: 2 to 3.5 times the CPU of the group statement).
   * Run it in one REPEATABLE READ transaction (the caller's) for one snapshot of the group (on
   * Citus, one snapshot per worker node: Citus has none across nodes).
   *
   * With `opening: false` nothing before `from` is read (a report of a range alone, such as an
   * income statement): `openingRaw` is then 0 and only the accounts with lines in the range are
   * "with lines".
   *
   * With `partnerShare`, each account also answers the part of both figures that lines naming
   * some partners of its member make, given both ways: `ofGroup` a relation (`entity_id,
   * partner_id`) over the group, `ofMember` a relation (`partner_id`) of one member's partners over
   * its Entity expression (null: none counts), each written with `parameter(value)`, which adds a
   * value to the statement and answers its placeholder. The share's monthly totals are read
   * account by account on their primary key. Closing entries name no partner (D90 item 1), so the
   * share needs no closing rule.
   */
  async groupBalances(
    members: ReadonlyArray<{ entityId: string; bookId: string | null }>,
    from: string,
    to: string,
    closings: ClosingRange | null,
    options: { partnerShare?: GroupPartnerShares; opening?: boolean } = {},
  ): Promise<GroupAccountBalance[]> {
    if (members.length === 0) return [];
    const opening = options.opening ?? true;
    const span = spanValues(from, to, closings);
    // Without the opening, nothing before `from` is read: no month before it ($3), no edge day ($6..$7).
    if (!opening) span.splice(0, 5, '0001-01-01', span[1], span[2], NO_DAYS.from, NO_DAYS.to);
    if (!(await servesDistributedSchema(this.txHost.tx))) return this.groupBalancesInOneStatement(members, span, opening, closings !== null, options.partnerShare);
    return this.groupBalancesMemberByMember(members, span, opening, closings !== null, options.partnerShare);
  }

  /**
   * `groupBalances` on a Citus cluster: one statement per member (`span` the parameters $3..$16;
   * the consolidation tests also run it on one server and compare it with the group statement).
   */
  private async groupBalancesMemberByMember(
    members: ReadonlyArray<{ entityId: string; bookId: string | null }>,
    span: unknown[],
    opening: boolean,
    closings: boolean,
    partnerShare: GroupPartnerShares | undefined,
  ): Promise<GroupAccountBalance[]> {
    // The first type of each code of the charts read so far (accounts a later member need not repeat).
    const seen = new Map<string, string>();
    const balances: GroupAccountBalance[] = [];
    for (const member of members) {
      const values: unknown[] = [member.entityId, member.bookId, ...span];
      const parameter = (value: unknown) => `$${values.push(value)}`;
      const firstMonth = parameter(opening ? '0001-01-01' : span[1]);
      const seenCodes = parameter([...seen.keys()]);
      const seenTypes = parameter([...seen.values()]);
      const partners = partnerShare?.ofMember({ entityId: member.entityId, entity: SCOPE.entity }, parameter) ?? null;
      // Named (platform/database/prepared-query): parsed once per connection; after a few members
      // PostgreSQL keeps one generic plan instead of planning each member's (most of a small
      // member's cost). On Citus the plan stays a custom one, routed by `$1`.
      const sql = memberBalancesSql({ firstMonth, seenCodes, seenTypes, partners, closings });
      const rows = await preparedQuery<Record<string, string>>(this.txHost.tx, sql, values);
      for (const r of rows) {
        if (!seen.has(r.code)) seen.set(r.code, r.type);
        balances.push(toGroupBalance(member.entityId, r, partners !== null));
      }
    }
    return balances;
  }

  /** `groupBalances` on one server: the whole group in one statement (`span` the parameters $3..$16). */
  private async groupBalancesInOneStatement(
    members: ReadonlyArray<{ entityId: string; bookId: string | null }>,
    span: unknown[],
    opening: boolean,
    closings: boolean,
    partnerShare: GroupPartnerShares | undefined,
  ): Promise<GroupAccountBalance[]> {
    const values: unknown[] = [members.map((m) => m.entityId), members.map((m) => m.bookId), ...span];
    const parameter = (value: unknown) => `$${values.push(value)}`;
    const firstMonth = parameter(opening ? '0001-01-01' : span[1]);
    const partners = partnerShare?.ofGroup(parameter);
    const rawSums = (alias: string) => `sum(${alias}.debit - ${alias}.credit) FILTER (WHERE ${alias}.month < $3::date) AS opening_raw,
                sum(${alias}.debit - ${alias}.credit) FILTER (WHERE ${alias}.month BETWEEN $4::date AND $5::date) AS period_raw`;
    const edgeSums = `sum(${SIGNED}) FILTER (WHERE l.entry_date BETWEEN $6::date AND $7::date) AS opening_raw,
                sum(${SIGNED}) FILTER (WHERE l.entry_date NOT BETWEEN $6::date AND $7::date) AS period_raw`;
    // OFFSET 0 keeps the planner from flattening the share's totals into a scan of every partner total of the group.
    const shares = partners
      ? `, share_partners AS (${partners}), share_sets AS (
         SELECT m.entity_id, m.book_id, array_agg(sp.partner_id) AS ids
           FROM members m JOIN share_partners sp ON sp.entity_id = m.entity_id
          GROUP BY m.entity_id, m.book_id
       ), share_totals AS (
         SELECT t.entity_id, t.account_id, ${rawSums('p')}
           FROM totals t
           JOIN share_sets x ON x.entity_id = t.entity_id
           CROSS JOIN LATERAL (SELECT * FROM ${partnerMonthlyTotals({ entity: 'x.entity_id', book: 'x.book_id' }, 't.account_id', { ids: 'x.ids', unassigned: 'false' })} pmt WHERE pmt.month BETWEEN ${firstMonth}::date AND $12::date OFFSET 0) p
          GROUP BY t.entity_id, t.account_id
       ), share_edges AS (
         SELECT l.entity_id, l.account_id, ${edgeSums}
           FROM ${groupLiveLines(GROUP)} l JOIN share_partners x ON x.entity_id = l.entity_id AND x.partner_id = l.partner_id
          WHERE ${EDGE_DAYS}
          GROUP BY l.entity_id, l.account_id
       )`
      : '';
    const on = (alias: string) => `${alias}.entity_id = a.entity_id AND ${alias}.account_id = a.id`;
    const rows = await this.query<Record<string, string>>(
      `/* citus:multi-shard a consolidated report (D91) on one server only: every member's balances in one statement */
       WITH members AS (
         SELECT gm.entity_id, gm.book_id, gm.position FROM unnest($1::uuid[], $2::uuid[]) WITH ORDINALITY AS gm(entity_id, book_id, position)
       ), totals AS (
         SELECT t.entity_id, t.account_id, ${rawSums('t')}
           FROM ${groupAccountMonthlyTotals(GROUP)} t
          WHERE t.month BETWEEN ${firstMonth}::date AND $12::date
          GROUP BY t.entity_id, t.account_id
       ), edges AS (
         SELECT l.entity_id, l.account_id, ${edgeSums}
           FROM ${groupLiveLines(GROUP)} l
          WHERE ${EDGE_DAYS}
          GROUP BY l.entity_id, l.account_id
       )${
         closings
           ? `, closings AS (
         SELECT c.entity_id, c.account_id, sum(CASE c.side WHEN 'debit' THEN c.amount ELSE -c.amount END) AS raw
           FROM ${groupClosingLines(GROUP, CLOSING_RULE)} c
          WHERE c.entry_date BETWEEN $15::date AND $16::date
          GROUP BY c.entity_id, c.account_id
       )`
           : ''
       }${shares}
       SELECT a.entity_id, a.id, a.code, a.name, a.type,
              (coalesce(t.opening_raw, 0) + coalesce(e.opening_raw, 0))::numeric::text AS opening_raw,
              (coalesce(t.period_raw, 0) + coalesce(e.period_raw, 0)${closings ? ' - coalesce(c.raw, 0)' : ''})::numeric::text AS period_raw${
                partners
                  ? `,
              (coalesce(st.opening_raw, 0) + coalesce(se.opening_raw, 0))::numeric::text AS partner_opening_raw,
              (coalesce(st.period_raw, 0) + coalesce(se.period_raw, 0))::numeric::text AS partner_period_raw`
                  : ''
              }
         FROM (SELECT ca.*, row_number() OVER code_order AS nth, first_value(ca.type) OVER code_order AS first_type
                 FROM ${groupChartAccounts('$1::uuid[]')} ca JOIN members m ON m.entity_id = ca.entity_id
               WINDOW code_order AS (PARTITION BY ca.code COLLATE "C" ORDER BY m.position)) a
         LEFT JOIN totals t ON ${on('t')}
         LEFT JOIN edges e ON ${on('e')}${closings ? `\n         LEFT JOIN closings c ON ${on('c')}` : ''}${
           partners ? `\n         LEFT JOIN share_totals st ON ${on('st')}\n         LEFT JOIN share_edges se ON ${on('se')}` : ''
         }
        WHERE t.account_id IS NOT NULL OR e.account_id IS NOT NULL OR a.nth = 1 OR a.type <> a.first_type`,
      values,
    );
    return rows.map((r) => toGroupBalance(r.entity_id, r, partners !== undefined));
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
