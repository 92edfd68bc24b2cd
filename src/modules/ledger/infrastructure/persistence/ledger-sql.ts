import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { AuditContext } from '../../../../platform/audit/audit-context';
import { uniqueViolationKey } from '../../../../platform/database/pg-errors';
import { AllocationRow, ListedLine } from '../../domain/entry-ports';
import { canonicalRate } from '../../../../../libs/shared-kernel/src';
import { EntryStatus, LedgerEntry, lineAlreadyExists, LIVE_STATUSES } from '../../domain/ledger-entry';

// The SQL the ledger's stores share: columns, the lines' and tags' inserts, the monthly totals'
// upsert and the row mappers (posting-writer.ts, entry.repository.ts, allocation.repository.ts,
// ledger-usage.queries.ts).

export type Row = Record<string, unknown>;

export const ENTRY_COLUMNS = `entity_id, id, book_id, entry_date, memo, notes, status, source, reversal_of_entry_id, reversed_by_entry_id, created_at, updated_at`;
export const LINE_COLUMNS = `l.entity_id, l.id, l.entry_id, l.line_no, l.side, l.account_id, l.amount, l.description, l.partner_id,
  l.transaction_currency, l.transaction_amount, l.exchange_rate::text AS exchange_rate, l.is_open_item, l.allocated_amount,
  l.book_id, l.entry_date, l.status`;

/**
 * Parameters $1-$20 of lineParameters(): lines of one entry, then their Dimension Value tags,
 * then the entry's memo (each line carries it, issue 32). `also` names more relations to select
 * from (the posting's inserted entry row, so lines are written only with it).
 */
export const LINES_INSERT = (also = '') => `INSERT INTO ledger_lines (entity_id, id, entry_id, line_no, side, account_id, amount, description, partner_id,
                             transaction_currency, transaction_amount, exchange_rate, is_open_item, allocated_amount,
                             book_id, entry_date, status, memo)
   SELECT $1, l.id, $2, l.line_no, l.side, l.account_id, l.amount, l.description, l.partner_id,
          l.transaction_currency, l.transaction_amount, l.exchange_rate, l.is_open_item, 0, $3, $4, $5, $20
     FROM unnest($6::uuid[], $7::smallint[], $8::text[], $9::uuid[], $10::bigint[], $11::text[], $12::uuid[],
                 $13::text[], $14::bigint[], $15::numeric[], $16::boolean[])
       AS l(id, line_no, side, account_id, amount, description, partner_id, transaction_currency, transaction_amount, exchange_rate, is_open_item)${also}`;
export const TAGS_INSERT = (also = '') => `INSERT INTO ledger_line_dimension_values (entity_id, line_id, dimension_id, dimension_value_id)
   SELECT $1, t.line_id, t.dimension_id, t.value_id FROM unnest($17::uuid[], $18::uuid[], $19::uuid[]) AS t(line_id, dimension_id, value_id)${also}`;

export const NIL_BOOK = '00000000-0000-0000-0000-000000000000';
/** Slots per account, Book and month (see AccountMonthlyTotalRecord). */
export const TOTAL_SLOTS = 32;
/**
 * Issue 36c: the slot of a folded month (MonthlyTotalsFolding), one row per account (and
 * partner), Book and month; postings write slots 0 to TOTAL_SLOTS - 1 only, never this one.
 */
export const FOLDED_SLOT = -1;

/** The slot of a total row a posting adds to: from its entry id (readers sum the slots). */
export const entrySlot = (entryId: string) => `get_byte(uuid_send(${entryId}), 15) % ${TOTAL_SLOTS}`;

/**
 * A batch of entries adds to one slot for the whole batch (from `firstEntryId`, an SQL
 * expression): the per-entry slots would turn each batch's few groups into one row per group
 * and slot, an upsert for almost every line. Readers sum the slots, so any slot is exact.
 */
export const batchSlot = (firstEntryId: string) => () => `(get_byte(uuid_send(${firstEntryId}), 15) % ${TOTAL_SLOTS})`;

/**
 * Adds `sign` times the given lines (a relation with account_id, side, amount, entry_id,
 * entry_date, book_id) to ledger_account_monthly_totals, when `condition` holds. The slot is
 * taken from the entry id, spreading concurrent postings over TOTAL_SLOTS rows per account and
 * month; readers sum the slots.
 */
export function TOTALS_UPSERT(relation: string, condition: string, sign: string, slotOf: (entryId: string) => string = entrySlot): string {
  const slot = slotOf('r.entry_id');
  return `INSERT INTO ledger_account_monthly_totals AS t (entity_id, account_id, book_key, month, slot, debit, credit, line_count)
    SELECT $1, r.account_id, coalesce(r.book_id, '${NIL_BOOK}'::uuid), date_trunc('month', r.entry_date)::date,
           ${slot},
           ${sign} * coalesce(sum(r.amount) FILTER (WHERE r.side = 'debit'), 0),
           ${sign} * coalesce(sum(r.amount) FILTER (WHERE r.side = 'credit'), 0),
           ${sign} * count(*)
      FROM ${relation} r WHERE ${condition}
     GROUP BY r.account_id, r.book_id, date_trunc('month', r.entry_date), ${slot}
     -- One order for every writer: two postings locking the same total rows cannot deadlock.
     ORDER BY 2, 3, 4, 5
    ON CONFLICT (entity_id, account_id, book_key, month, slot)
    DO UPDATE SET debit = t.debit + EXCLUDED.debit, credit = t.credit + EXCLUDED.credit, line_count = t.line_count + EXCLUDED.line_count`;
}

/** The columns of a line that its share of the line aggregates (LINE_AGGREGATES_UPSERT) depends on. */
export const AGGREGATED_LINE_COLUMNS = 'account_id, book_id, partner_id, entry_id, entry_date, status, is_open_item, side, amount, allocated_amount';

/**
 * Issue 25: two CTEs (`open_item_totals`, `partner_totals`) that add the lines of `changes` to
 * ledger_open_item_totals (per account, Book, partner and slot: the open-item lines' count, open
 * count and open total) and ledger_partner_monthly_totals (per account, partner, Book, month and
 * slot: debit, credit and line count), counting only lines of live entries. `changes` is a
 * relation with AGGREGATED_LINE_COLUMNS and `sign`: +1 for a line's image after the statement,
 * -1 for its image before. The writing statement itself carries them (as TOTALS_UPSERT the
 * account monthly totals, D55): the posting, the entry batch, the allocation's open amounts, the
 * header's date and status, the line's partner, account and open-item flag, a scheduled entry's
 * replaced lines. A group whose figures net to zero writes (and locks) nothing; the rows are
 * written in key order, one order for every writer. `$1` is the Entity.
 */
export function LINE_AGGREGATES_UPSERT(changes: string, slotOf: (entryId: string) => string = entrySlot): string {
  const slot = slotOf('r.entry_id');
  return `open_item_totals AS (
    INSERT INTO ledger_open_item_totals AS t (entity_id, account_id, book_key, partner_key, slot, line_count, open_count, open_total)
    SELECT $1, r.account_id, coalesce(r.book_id, '${NIL_BOOK}'::uuid), coalesce(r.partner_id, '${NIL_BOOK}'::uuid), ${slot},
           sum(r.sign), sum(CASE WHEN r.allocated_amount < r.amount THEN r.sign ELSE 0 END),
           sum(r.sign * (CASE WHEN r.side = 'debit' THEN r.amount - r.allocated_amount ELSE r.allocated_amount - r.amount END)::numeric)
      FROM ${changes} r WHERE r.is_open_item AND r.status IN ('active', 'reversed')
     GROUP BY 2, 3, 4, 5
    HAVING sum(r.sign) <> 0 OR sum(CASE WHEN r.allocated_amount < r.amount THEN r.sign ELSE 0 END) <> 0
        OR sum(r.sign * (CASE WHEN r.side = 'debit' THEN r.amount - r.allocated_amount ELSE r.allocated_amount - r.amount END)::numeric) <> 0
     ORDER BY 2, 3, 4, 5
    ON CONFLICT (entity_id, account_id, book_key, partner_key, slot) DO UPDATE
      SET line_count = t.line_count + EXCLUDED.line_count, open_count = t.open_count + EXCLUDED.open_count, open_total = t.open_total + EXCLUDED.open_total
  ), partner_totals AS (
    INSERT INTO ledger_partner_monthly_totals AS t (entity_id, account_id, partner_key, book_key, month, slot, debit, credit, line_count)
    SELECT $1, r.account_id, coalesce(r.partner_id, '${NIL_BOOK}'::uuid), coalesce(r.book_id, '${NIL_BOOK}'::uuid), date_trunc('month', r.entry_date)::date, ${slot},
           coalesce(sum(r.sign * r.amount) FILTER (WHERE r.side = 'debit'), 0), coalesce(sum(r.sign * r.amount) FILTER (WHERE r.side = 'credit'), 0), sum(r.sign)
      FROM ${changes} r WHERE r.status IN ('active', 'reversed')
     GROUP BY 2, 3, 4, 5, 6
    HAVING sum(r.sign) <> 0 OR coalesce(sum(r.sign * r.amount) FILTER (WHERE r.side = 'debit'), 0) <> 0 OR coalesce(sum(r.sign * r.amount) FILTER (WHERE r.side = 'credit'), 0) <> 0
     ORDER BY 2, 3, 4, 5, 6
    ON CONFLICT (entity_id, account_id, partner_key, book_key, month, slot) DO UPDATE
      SET debit = t.debit + EXCLUDED.debit, credit = t.credit + EXCLUDED.credit, line_count = t.line_count + EXCLUDED.line_count
  )`;
}

/** numeric(24,12) as text keeps 12 decimals; the API writes the one canonical form (as on POST). */
export function rateText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return canonicalRate(String(value));
}

/** ledger_lines' primary key (entity_id, id), named by the LedgerEntries migration. */
const LEDGER_LINES_PRIMARY_KEY = 'PK_a6c534bfea847212ac0dd0b99ea';

/**
 * Runs a write of new lines; a line id that an existing line has (in the Entity) is the line's
 * conflict, not the entry's: 409 LEDGER_LINE_ALREADY_EXISTS_ERROR. (The entry row is inserted
 * before its lines, so a reused entry id is still LEDGER_ENTRY_ALREADY_EXISTS_ERROR.)
 */
export async function lineKeysFree<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const key = uniqueViolationKey(error, 'ledger_lines', [LEDGER_LINES_PRIMARY_KEY]);
    if (key) throw lineAlreadyExists(key.id ?? null);
    throw error;
  }
}

export function toLine(row: Row, dimensionValues: Array<{ id: string; dimensionId: string }>): ListedLine {
  return {
    id: row.id as string,
    lineNo: Number(row.line_no),
    side: row.side as 'debit' | 'credit',
    ledgerAccountId: row.account_id as string,
    amount: Number(row.amount),
    description: row.description as string | null,
    partnerId: row.partner_id as string | null,
    transactionCurrency: row.transaction_currency as string | null,
    transactionAmount: row.transaction_amount === null ? null : Number(row.transaction_amount),
    exchangeRate: rateText(row.exchange_rate),
    isOpenItem: row.is_open_item as boolean,
    dimensionValues,
    entryId: row.entry_id as string,
    entryDate: row.entry_date as string,
    memo: (row.memo as string) ?? '',
    status: row.status as EntryStatus,
    bookId: row.book_id as string | null,
    allocatedAmount: Number(row.allocated_amount),
    reversalOfEntryId: (row.reversal_of_entry_id as string | null | undefined) ?? null,
  };
}

export function toAllocation(r: Row): AllocationRow {
  return {
    entityId: r.entity_id as string,
    id: r.id as string,
    debitLineId: r.debit_line_id as string,
    creditLineId: r.credit_line_id as string,
    accountId: r.account_id as string,
    amount: Number(r.amount),
    kind: r.kind as AllocationRow['kind'],
    createdAt: r.created_at as Date,
    updatedAt: r.updated_at as Date,
  };
}

export function statusCondition(status: string | undefined): string[] {
  if (!status || status === 'live') return [...LIVE_STATUSES];
  if (status === 'all') return ['active', 'reversed', 'deleted', 'cancelled', 'scheduled'];
  return [status];
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

/** What every ledger store has: the transaction's connection and the rule that writes run in one. */
// @Injectable for its constructor's parameter types: the stores that extend it inject them.
@Injectable()
export abstract class LedgerSqlStore {
  constructor(
    protected readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    protected readonly auditContext: AuditContext,
  ) {}

  /**
   * Writes and locks run in the use case's transaction (locks held to its end), never on their
   * own, and where an audit row is recorded with them: an HTTP mutation, or SystemWrites.run.
   */
  protected requireTransaction(): void {
    if (!this.txHost.isTransactionActive()) throw new Error('A ledger write or lock outside a transaction: run it in a use case (@Transactional) or a unit of work');
    if (!this.auditContext.isOpen()) throw new Error('A ledger write with no audit row: outside an HTTP request, run the use case in SystemWrites.run');
  }

  protected query<T = Row>(sql: string, values: unknown[] = []): Promise<T[]> {
    return this.txHost.tx.query(sql, values);
  }

  protected async tagsOf(entityId: string, lineIds: string[]): Promise<Map<string, Array<{ id: string; dimensionId: string }>>> {
    const tags = new Map<string, Array<{ id: string; dimensionId: string }>>();
    if (lineIds.length === 0) return tags;
    const rows = await this.query(
      `SELECT line_id, dimension_id, dimension_value_id FROM ledger_line_dimension_values
        WHERE entity_id = $1 AND line_id = ANY($2::uuid[]) ORDER BY line_id, dimension_id`,
      [entityId, lineIds],
    );
    for (const row of rows) {
      const list = tags.get(row.line_id as string) ?? [];
      list.push({ id: row.dimension_value_id as string, dimensionId: row.dimension_id as string });
      tags.set(row.line_id as string, list);
    }
    return tags;
  }

  protected lineParameters(entry: LedgerEntry): unknown[] {
    const s = entry.snapshot();
    const tags = s.lines.flatMap((l) => l.dimensionValues.map((v) => ({ lineId: l.id, ...v })));
    return [
      s.entityId,
      s.id,
      s.bookId,
      s.entryDate,
      s.status,
      s.lines.map((l) => l.id),
      s.lines.map((l) => l.lineNo),
      s.lines.map((l) => l.side),
      s.lines.map((l) => l.ledgerAccountId),
      s.lines.map((l) => l.amount),
      s.lines.map((l) => l.description),
      s.lines.map((l) => l.partnerId),
      s.lines.map((l) => l.transactionCurrency),
      s.lines.map((l) => l.transactionAmount),
      s.lines.map((l) => l.exchangeRate),
      s.lines.map((l) => l.isOpenItem),
      tags.map((t) => t.lineId),
      tags.map((t) => t.dimensionId),
      tags.map((t) => t.id),
      s.memo,
    ];
  }
}
