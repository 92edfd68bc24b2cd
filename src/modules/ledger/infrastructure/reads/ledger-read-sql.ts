import { NIL_BOOK } from '../persistence/ledger-sql';

/**
 * The ledger's read seam in SQL (issue 32): the statement parts another module composes into its
 * own statement, so that a report stays one round trip and one plan while only the ledger names
 * its tables, knows the live-line rule (D50), the Books rule and the layout of its totals
 * (`book_key`, `partner_key`, slots).
 *
 * Each part is written over SQL expressions the caller gives (its parameters, `$1`, `$2::uuid`,
 * or a column of its statement): the caller keeps its own numbering, the part never renumbers.
 * Relations are plain subqueries the planner flattens (same indexes, same plans as the SQL
 * written inline); their columns are listed on each part.
 */

/** An SQL expression of the composing statement: a parameter (`$1`, `$2::uuid`) or a column. */
export type SqlExpression = string;

/** Whose books are read: an Entity and a Book (an expression of a uuid, or of null for the common lines only). */
export interface LedgerScope {
  entity: SqlExpression;
  /**
   * Lines read: the common ones (no Book) plus this Book's; a null value reads the common lines
   * only. Left out (`liveLines`, `openItemLines` only): the lines of every Book (an entry's own lines).
   */
  book?: SqlExpression;
}

/** A scope that names its Book (the totals are kept per Book). */
export interface BookScope extends LedgerScope {
  book: SqlExpression;
}

/**
 * D90 item 4, the closing-entry rule: the closing entries (`source` `closing`) dated inside the
 * report's range (`from`..`to`, both dates) are left out; those dated before it count. Pass the
 * report's own range, also when the figure read is an opening before it (then nothing of the
 * opening is left out: every closing entry before `from` counts).
 */
export interface ClosingRule {
  from: SqlExpression;
  to: SqlExpression;
}

/** The entry source of a year-end closing (D90); its entries are the ones the closing rule leaves out. */
export const CLOSING_SOURCE = 'closing';

const LIVE = `('active', 'reversed')`;

/** D50: a line counts when its entry is live (`active` or `reversed`). `alias` is the lines' alias. */
export function liveLine(alias: string): string {
  return `${alias}.status IN ${LIVE}`;
}

/** A line of the Book read: common lines plus that Book's (`book` null: common lines only). */
export function lineInBook(alias: string, book: SqlExpression | undefined): string {
  return book === undefined ? 'true' : `(${alias}.book_id IS NULL OR ${alias}.book_id = ${book})`;
}

/** The ids of the live closing entries of the Entity dated in `rule`'s range (index `ledger_entries_closing_idx`). */
export function closingEntryIds(entity: SqlExpression, rule: ClosingRule): string {
  return `SELECT ce.id FROM ledger_entries ce
           WHERE ce.entity_id = ${entity} AND ce.source = '${CLOSING_SOURCE}' AND ce.status IN ${LIVE}
             AND ce.entry_date BETWEEN ${rule.from} AND ${rule.to}`;
}

/**
 * Relation: the live lines of an Entity in one Book (D50), with every column of a line
 * (`id, entry_id, line_no, side, account_id, amount, description, partner_id, transaction_currency,
 * transaction_amount, exchange_rate, is_open_item, allocated_amount, book_id, entry_date, status,
 * memo, entity_id`; `memo` is the entry's, which each line carries). With `closings`, the lines of
 * the closing entries dated in its range are left out.
 */
export function liveLines(scope: LedgerScope, options: { closings?: ClosingRule | null } = {}): string {
  const closings = options.closings ? ` AND ll.entry_id NOT IN (${closingEntryIds(scope.entity, options.closings)})` : '';
  return `(SELECT ll.* FROM ledger_lines ll WHERE ll.entity_id = ${scope.entity} AND ${liveLine('ll')} AND ${lineInBook('ll', scope.book)}${closings})`;
}

/**
 * Relation: the lines of the live closing entries of the Entity in one Book dated in `rule`'s
 * range (`account_id, partner_id, entry_date, side, amount, id`): what the closing rule takes out
 * of figures read from the monthly totals. Found through the closing entries' partial index,
 * then their lines by entry: a handful of rows.
 */
export function closingLines(scope: BookScope, rule: ClosingRule): string {
  return `(SELECT cl.id, cl.account_id, cl.partner_id, cl.entry_date, cl.side, cl.amount
             FROM ledger_lines cl
            WHERE cl.entity_id = ${scope.entity} AND cl.entry_id IN (${closingEntryIds(scope.entity, rule)})
              AND ${liveLine('cl')} AND ${lineInBook('cl', scope.book)})`;
}

/**
 * Relation: the per-account monthly totals of an Entity in one Book, every live line counted
 * (closing entries too: subtract `closingLines` where the rule applies): `account_id, month
 * (first day), debit, credit, line_count`, one row per slot (sum them).
 */
export function accountMonthlyTotals(scope: BookScope): string {
  return `(SELECT mt.account_id, mt.month, mt.debit, mt.credit, mt.line_count FROM ledger_account_monthly_totals mt
            WHERE mt.entity_id = ${scope.entity} AND mt.book_key IN ('${NIL_BOOK}'::uuid, coalesce(${scope.book}, '${NIL_BOOK}'::uuid)))`;
}

/**
 * Relation: one account's per-partner monthly totals in one Book (`partner_id` null for the
 * lines without a partner, `month`, `debit`, `credit`, `line_count`), one row per slot. `partners`
 * narrows to the partners of an uuid[] expression, and the unassigned lines when `unassigned`
 * (a boolean expression) holds.
 */
export function partnerMonthlyTotals(scope: BookScope, account: SqlExpression, partners?: { ids: SqlExpression; unassigned: SqlExpression }): string {
  const which = partners ? ` AND (pt.partner_key = ANY(${partners.ids}) OR (${partners.unassigned} AND pt.partner_key = '${NIL_BOOK}'::uuid))` : '';
  return `(SELECT nullif(pt.partner_key, '${NIL_BOOK}'::uuid) AS partner_id, pt.month, pt.debit, pt.credit, pt.line_count
             FROM ledger_partner_monthly_totals pt
            WHERE pt.entity_id = ${scope.entity} AND pt.account_id = ${account}
              AND pt.book_key IN ('${NIL_BOOK}'::uuid, coalesce(${scope.book}, '${NIL_BOOK}'::uuid))${which})`;
}

/** Relation: the entries of an Entity (`id, book_id, entry_date, memo, notes, status, source, reversal_of_entry_id`). */
export function entries(entity: SqlExpression): string {
  return `(SELECT le.id, le.book_id, le.entry_date, le.memo, le.notes, le.status, le.source, le.reversal_of_entry_id FROM ledger_entries le WHERE le.entity_id = ${entity})`;
}

/** Relation: every line of an Entity, whatever its entry's status (the line columns of `liveLines`); filter by id or entry. */
export function entityLines(entity: SqlExpression): string {
  return `(SELECT el.* FROM ledger_lines el WHERE el.entity_id = ${entity})`;
}

/**
 * Relation: the open items of an Entity in one Book: unsettled live open-item lines (the predicate
 * of `ledger_lines_open_items_idx`), with every line column plus `open_amount` (amount −
 * allocated_amount, the expression of `ledger_lines_open_amount_idx`).
 */
export function openItemLines(scope: LedgerScope): string {
  return `(SELECT oi.*, (oi.amount - oi.allocated_amount) AS open_amount FROM ledger_lines oi
            WHERE oi.entity_id = ${scope.entity} AND oi.is_open_item AND ${liveLine('oi')} AND oi.allocated_amount < oi.amount
              AND ${lineInBook('oi', scope.book)})`;
}

/** Relation: one line by id, whatever its entry's status (the line columns of `liveLines`). */
export function lineById(entity: SqlExpression, lineId: SqlExpression): string {
  return `(SELECT lb.* FROM ledger_lines lb WHERE lb.entity_id = ${entity} AND lb.id = ${lineId})`;
}

/** Relation: the chart of accounts of an Entity (`id, group_id, code, name, type, subtype, tracking`). */
export function chartAccounts(entity: SqlExpression): string {
  return `(SELECT ca.id, ca.group_id, ca.code, ca.name, ca.type, ca.subtype, ca.tracking FROM ledger_accounts ca WHERE ca.entity_id = ${entity})`;
}

/** Relation: the account groups of an Entity (`id, parent_group_id, code_prefix, name, type`). */
export function accountGroups(entity: SqlExpression): string {
  return `(SELECT ag.id, ag.parent_group_id, ag.code_prefix, ag.name, ag.type FROM ledger_account_groups ag WHERE ag.entity_id = ${entity})`;
}

/** Relation: the values of one Dimension (`id, code, name, parent_id`). */
export function dimensionValues(entity: SqlExpression, dimension: SqlExpression): string {
  return `(SELECT dv.id, dv.code, dv.name, dv.parent_id FROM dimension_values dv WHERE dv.entity_id = ${entity} AND dv.dimension_id = ${dimension})`;
}

/** Relation: the Dimensions of an Entity (`id`). */
export function dimensions(entity: SqlExpression): string {
  return `(SELECT dd.id FROM dimensions dd WHERE dd.entity_id = ${entity})`;
}

/**
 * Relation: each value of one Dimension (`root`) with itself and its descendants (`id`), at most
 * 100 levels: a value's figures include its descendants' lines.
 */
export function dimensionValueTree(entity: SqlExpression, dimension: SqlExpression): string {
  return `(WITH RECURSIVE tree(root, id, depth) AS (
             SELECT v.id, v.id, 0 FROM dimension_values v WHERE v.entity_id = ${entity} AND v.dimension_id = ${dimension}
             UNION ALL
             SELECT t.root, v.id, t.depth + 1 FROM dimension_values v JOIN tree t ON v.entity_id = ${entity} AND v.parent_id = t.id WHERE t.depth < 100
           ) SELECT root, id FROM tree)`;
}

/** Relation: every Dimension Value tag of an Entity's lines (`line_id, dimension_id, dimension_value_id`). */
export function lineDimensionValues(entity: SqlExpression): string {
  return `(SELECT lt.line_id, lt.dimension_id, lt.dimension_value_id FROM ledger_line_dimension_values lt WHERE lt.entity_id = ${entity})`;
}

/** Relation: the Dimension Value tags of an Entity's lines for one Dimension (`line_id, dimension_value_id`). */
export function lineTags(entity: SqlExpression, dimension: SqlExpression): string {
  return `(SELECT lt.line_id, lt.dimension_value_id FROM ledger_line_dimension_values lt WHERE lt.entity_id = ${entity} AND lt.dimension_id = ${dimension})`;
}

/**
 * Several Entities read in one statement, each in its own Book (a consolidated report, D91):
 * `entities` a uuid[] expression (each part filters `entity_id = ANY(entities)`), `books` a uuid[]
 * expression of the Books read (nulls allowed: an Entity read without a Book reads its common
 * lines only). A Book belongs to one Entity, so "the common lines plus any of these Books" selects
 * each Entity's common lines and its own Book's lines, and no other Book's. Such a statement reads several
 * shards on Citus: it runs on one server only, Citus being read Entity by Entity (D94,
 * `LedgerFigures.groupBalances`); mark it `citus:multi-shard`.
 */
export interface GroupScope {
  entities: SqlExpression;
  books: SqlExpression;
}

/** Relation: `accountMonthlyTotals` of every Entity of a group, with `entity_id` (one row per slot). */
export function groupAccountMonthlyTotals(group: GroupScope): string {
  return `(SELECT mt.entity_id, mt.account_id, mt.month, mt.debit, mt.credit, mt.line_count
             FROM ledger_account_monthly_totals mt
            WHERE mt.entity_id = ANY(${group.entities}) AND (mt.book_key = '${NIL_BOOK}'::uuid OR mt.book_key = ANY(${group.books})))`;
}

/** Relation: `liveLines` of every Entity of a group, each in its own Book (every line column). */
export function groupLiveLines(group: GroupScope): string {
  return `(SELECT gl.* FROM ledger_lines gl
            WHERE gl.entity_id = ANY(${group.entities}) AND ${liveLine('gl')} AND (gl.book_id IS NULL OR gl.book_id = ANY(${group.books})))`;
}

/** Relation: `closingLines` of every Entity of a group, with `entity_id`. */
export function groupClosingLines(group: GroupScope, rule: ClosingRule): string {
  return `(SELECT cl.entity_id, cl.id, cl.account_id, cl.partner_id, cl.entry_date, cl.side, cl.amount
             FROM ledger_lines cl
            WHERE cl.entity_id = ANY(${group.entities})
              AND (cl.entity_id, cl.entry_id) IN (SELECT ce.entity_id, ce.id FROM ledger_entries ce
                    WHERE ce.entity_id = ANY(${group.entities}) AND ce.source = '${CLOSING_SOURCE}' AND ce.status IN ${LIVE}
                      AND ce.entry_date BETWEEN ${rule.from} AND ${rule.to})
              AND ${liveLine('cl')} AND (cl.book_id IS NULL OR cl.book_id = ANY(${group.books})))`;
}

/** Relation: the charts of several Entities (`entity_id` and the columns of `chartAccounts`); `entities` a uuid[] expression. */
export function groupChartAccounts(entities: SqlExpression): string {
  return `(SELECT ca.entity_id, ca.id, ca.group_id, ca.code, ca.name, ca.type, ca.subtype, ca.tracking FROM ledger_accounts ca WHERE ca.entity_id = ANY(${entities}))`;
}

/** The SQL parts of the ledger's read seam, as one namespace for `import { LedgerReadSql } from '../ledger'`. */
export const LedgerReadSql = {
  liveLine,
  lineInBook,
  liveLines,
  entityLines,
  openItemLines,
  lineById,
  closingEntryIds,
  closingLines,
  accountMonthlyTotals,
  partnerMonthlyTotals,
  entries,
  chartAccounts,
  accountGroups,
  dimensions,
  dimensionValues,
  dimensionValueTree,
  lineTags,
  lineDimensionValues,
  groupAccountMonthlyTotals,
  groupLiveLines,
  groupClosingLines,
  groupChartAccounts,
} as const;
