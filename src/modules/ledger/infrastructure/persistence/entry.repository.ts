import { Injectable } from '@nestjs/common';
import { EntryListFilter, EntryRepository, LineListFilter, ListedLine } from '../../domain/entry-ports';
import { EntryLine, EntrySource, EntryStatus, LedgerEntry } from '../../domain/ledger-entry';
import { withReadCursor } from '../../../../platform/database/read-cursor';
import { SqlConditions } from '../../../../platform/database/sql-conditions';
import { foldedLike, unicodeCollateClause } from '../../../../platform/database/unicode-collation';
import {
  AGGREGATED_LINE_COLUMNS,
  ENTRY_COLUMNS,
  LINE_AGGREGATES_UPSERT,
  LINES_INSERT,
  LINE_COLUMNS,
  LedgerSqlStore,
  Row,
  TAGS_INSERT,
  TOTALS_UPSERT,
  escapeLike,
  lineKeysFree,
  statusCondition,
  toLine,
} from './ledger-sql';

/** Lines per batch of a streamed answer (D2a): memory holds about this many at a time. */
const LINE_BATCH = 250;
/** Entries per batch of a streamed export (D93), each with its lines. */
const ENTRY_BATCH = 250;

/**
 * An UPDATE of the lines `which` selects (`$1` the Entity) that carries the line aggregates
 * (LINE_AGGREGATES_UPSERT): the lines are first locked as an UPDATE locks them, which hands this
 * statement their latest committed version (READ COMMITTED), so the image taken away is exactly
 * the one the UPDATE replaces, whatever committed meanwhile; the image added is the UPDATE's own.
 */
function updateLinesStatement(which: string, set: string): string {
  const columns = AGGREGATED_LINE_COLUMNS.split(', ');
  return `WITH old AS (SELECT id, ${AGGREGATED_LINE_COLUMNS} FROM ledger_lines WHERE ${which} ORDER BY id FOR NO KEY UPDATE),
     moved AS (UPDATE ledger_lines l SET ${set} FROM old WHERE l.entity_id = $1 AND l.id = old.id RETURNING l.id, ${columns.map((c) => `l.${c}`).join(', ')}),
     ${LINE_AGGREGATES_UPSERT(`(SELECT 1 AS sign, ${AGGREGATED_LINE_COLUMNS} FROM moved UNION ALL SELECT -1, ${AGGREGATED_LINE_COLUMNS} FROM old WHERE id IN (SELECT id FROM moved))`)}
     SELECT count(*)::int AS updated FROM moved`;
}

/** Entries and their lines: reads, locks, header and line changes, the monthly totals they move. */
@Injectable()
export class SqlEntryRepository extends LedgerSqlStore implements EntryRepository {
  async shiftTotals(entityId: string, entryId: string, sign: 1 | -1): Promise<void> {
    this.requireTransaction();
    await this.query(
      `WITH r AS (SELECT account_id, side, amount, entry_id, entry_date, book_id FROM ledger_lines WHERE entity_id = $1 AND entry_id = $2)
       ${TOTALS_UPSERT('r', 'true', String(sign))}`,
      [entityId, entryId],
    );
  }

  async shiftLineTotals(entityId: string, lineId: string, sign: 1 | -1): Promise<void> {
    this.requireTransaction();
    await this.query(
      `WITH r AS (SELECT account_id, side, amount, entry_id, entry_date, book_id FROM ledger_lines WHERE entity_id = $1 AND id = $2)
       ${TOTALS_UPSERT('r', 'true', String(sign))}`,
      [entityId, lineId],
    );
  }

  /** Lines and tags of an entry whose header row exists (scheduled entries' replaced line sets). */
  private async insertLines(entry: LedgerEntry): Promise<void> {
    this.requireTransaction();
    await this.query(
      `WITH lines AS (${LINES_INSERT()} RETURNING ${AGGREGATED_LINE_COLUMNS}), tags AS (${TAGS_INSERT()}),
       ${LINE_AGGREGATES_UPSERT(`(SELECT 1 AS sign, ${AGGREGATED_LINE_COLUMNS} FROM lines)`)} SELECT 1`,
      this.lineParameters(entry),
    );
  }

  async find(entityId: string, entryId: string): Promise<LedgerEntry | null> {
    const [row] = await this.query(`SELECT ${ENTRY_COLUMNS} FROM ledger_entries WHERE entity_id = $1 AND id = $2`, [entityId, entryId]);
    return row ? (await this.hydrate(entityId, [row]))[0] : null;
  }

  async findMany(entityId: string, entryIds: string[]): Promise<LedgerEntry[]> {
    if (entryIds.length === 0) return [];
    const rows = await this.query(`SELECT ${ENTRY_COLUMNS} FROM ledger_entries WHERE entity_id = $1 AND id = ANY($2::uuid[])`, [entityId, entryIds]);
    const byId = new Map((await this.hydrate(entityId, rows)).map((entry) => [entry.id, entry]));
    return entryIds.flatMap((id) => byId.get(id) ?? []);
  }

  async exists(entityId: string, entryId: string): Promise<boolean> {
    return (await this.query(`SELECT 1 FROM ledger_entries WHERE entity_id = $1 AND id = $2`, [entityId, entryId])).length > 0;
  }

  async reversalOfEntryId(entityId: string, entryId: string): Promise<string | null> {
    const [row] = await this.query<{ reversal_of_entry_id: string | null }>(`SELECT reversal_of_entry_id FROM ledger_entries WHERE entity_id = $1 AND id = $2`, [entityId, entryId]);
    return row?.reversal_of_entry_id ?? null;
  }

  async lock(entityId: string, entryId: string): Promise<LedgerEntry | null> {
    this.requireTransaction();
    const [row] = await this.query(`SELECT ${ENTRY_COLUMNS} FROM ledger_entries WHERE entity_id = $1 AND id = $2 FOR UPDATE`, [entityId, entryId]);
    return row ? (await this.hydrate(entityId, [row]))[0] : null;
  }

  /** Entries with their lines and tags in three queries, whatever their number. */
  private async hydrate(entityId: string, rows: Row[]): Promise<LedgerEntry[]> {
    if (rows.length === 0) return [];
    const entryIds = rows.map((r) => r.id as string);
    const lineRows = await this.query(`SELECT ${LINE_COLUMNS} FROM ledger_lines l WHERE l.entity_id = $1 AND l.entry_id = ANY($2::uuid[]) ORDER BY l.entry_id, l.line_no`, [
      entityId,
      entryIds,
    ]);
    const tags = await this.tagsOf(entityId, lineRows.map((r) => r.id as string));
    const linesByEntry = new Map<string, EntryLine[]>();
    for (const row of lineRows) {
      const list = linesByEntry.get(row.entry_id as string) ?? [];
      const { entryId: _e, entryDate: _d, memo: _m, status: _s, bookId: _b, ...line } = toLine(row, tags.get(row.id as string) ?? []);
      list.push(line);
      linesByEntry.set(row.entry_id as string, list);
    }
    return rows.map((r) =>
      LedgerEntry.restore({
        entityId: r.entity_id as string,
        id: r.id as string,
        bookId: r.book_id as string | null,
        entryDate: r.entry_date as string,
        memo: r.memo as string,
        notes: r.notes as string | null,
        status: r.status as EntryStatus,
        source: r.source as EntrySource,
        reversalOfEntryId: r.reversal_of_entry_id as string | null,
        reversedByEntryId: r.reversed_by_entry_id as string | null,
        createdAt: r.created_at as Date,
        updatedAt: r.updated_at as Date,
        lines: linesByEntry.get(r.id as string) ?? [],
      }),
    );
  }

  async saveHeader(entry: LedgerEntry): Promise<void> {
    this.requireTransaction();
    const s = entry.snapshot();
    await this.query(
      `UPDATE ledger_entries SET entry_date = $3, memo = $4, notes = $5, status = $6, reversed_by_entry_id = $7, updated_at = $8
        WHERE entity_id = $1 AND id = $2`,
      [s.entityId, s.id, s.entryDate, s.memo, s.notes, s.status, s.reversedByEntryId, s.updatedAt],
    );
    // The lines carry their entry's date, status and memo (the memo since issue 32): they move with it.
    await this.query(
      updateLinesStatement('entity_id = $1 AND entry_id = $2 AND (entry_date <> $3 OR status <> $4 OR memo <> $5)', 'entry_date = $3, status = $4, memo = $5'),
      [s.entityId, s.id, s.entryDate, s.status, s.memo],
    );
  }

  async replaceLines(entry: LedgerEntry): Promise<void> {
    this.requireTransaction();
    const s = entry.snapshot();
    await this.query(
      `DELETE FROM ledger_line_dimension_values WHERE entity_id = $1 AND line_id IN (SELECT id FROM ledger_lines WHERE entity_id = $1 AND entry_id = $2)`,
      [s.entityId, s.id],
    );
    await this.query(
      `WITH gone AS (DELETE FROM ledger_lines WHERE entity_id = $1 AND entry_id = $2 RETURNING ${AGGREGATED_LINE_COLUMNS}),
       ${LINE_AGGREGATES_UPSERT(`(SELECT -1 AS sign, ${AGGREGATED_LINE_COLUMNS} FROM gone)`)} SELECT 1`,
      [s.entityId, s.id],
    );
    await this.saveHeader(entry);
    await lineKeysFree(() => this.insertLines(entry));
  }

  /** The entries list's conditions (without its cursor and limit) and its ordered SELECT. */
  private async listSelect(entityId: string, filter: Omit<EntryListFilter, 'after' | 'limit'>, query: (text: string) => Promise<Array<{ collname: string }>>): Promise<SqlConditions> {
    const sql = new SqlConditions(['e.entity_id = $1', 'e.status = ANY($2::text[])'], [entityId, statusCondition(filter.status)]);
    if (filter.from) sql.add('e.entry_date >= ?::date', filter.from);
    if (filter.to) sql.add('e.entry_date <= ?::date', filter.to);
    if (filter.bookId === null) sql.add('e.book_id IS NULL');
    else if (filter.bookId) sql.add('(e.book_id IS NULL OR e.book_id = ?::uuid)', filter.bookId);
    if (filter.search) {
      // Case-insensitive for every letter (`ÉLAN` finds `élan`), whatever the database's locale.
      // Served by the trigram indexes over the folded memo and notes (issue 25).
      const collate = await unicodeCollateClause(query);
      sql.add(`(${foldedLike('e.memo', '?::text', collate)} OR ${foldedLike('e.notes', '?::text', collate)})`, `%${escapeLike(filter.search)}%`, `%${escapeLike(filter.search)}%`);
    }
    if (filter.accountId) sql.add('EXISTS (SELECT 1 FROM ledger_lines l WHERE l.entity_id = $1 AND l.entry_id = e.id AND l.account_id = ?::uuid)', filter.accountId);
    if (filter.partnerId) sql.add('EXISTS (SELECT 1 FROM ledger_lines l WHERE l.entity_id = $1 AND l.entry_id = e.id AND l.partner_id = ?::uuid)', filter.partnerId);
    return sql;
  }

  private static readonly LIST_COLUMNS = ENTRY_COLUMNS.split(', ').map((c) => `e.${c}`).join(', ');

  async list(entityId: string, filter: EntryListFilter): Promise<LedgerEntry[]> {
    const sql = await this.listSelect(entityId, filter, (text) => this.query(text, []) as Promise<Array<{ collname: string }>>);
    if (filter.after) sql.add('(e.entry_date, e.id) < (?::date, ?::uuid)', filter.after.entryDate, filter.after.id);
    const limit = sql.parameter(filter.limit);
    const rows = await this.query(
      `SELECT ${SqlEntryRepository.LIST_COLUMNS} FROM ledger_entries e
        WHERE ${sql.where} ORDER BY e.entry_date DESC, e.id DESC LIMIT ${limit}`,
      sql.values,
    );
    return this.hydrate(entityId, rows);
  }

  /**
   * D93: every entry of the list's filter (no cursor, no limit), in its order, read from a
   * database cursor in batches with their lines. Cancelled in the database when `signal` aborts.
   */
  async readEntries<R>(entityId: string, filter: Omit<EntryListFilter, 'after' | 'limit'>, signal: AbortSignal, use: (batches: AsyncIterable<LedgerEntry[]>) => Promise<R>): Promise<R> {
    return withReadCursor(this.txHost.tx.connection, signal, async (cursor) => {
      const sql = await this.listSelect(entityId, filter, (text) => cursor.query<{ collname: string }>(text, []));
      const select = `SELECT ${SqlEntryRepository.LIST_COLUMNS} FROM ledger_entries e WHERE ${sql.where} ORDER BY e.entry_date DESC, e.id DESC`;
      const hydrate = (rows: Row[]) => this.hydrate(entityId, rows);
      return use(
        (async function* () {
          for await (const rows of cursor.batches<Row>(select, sql.values, ENTRY_BATCH)) yield await hydrate(rows);
        })(),
      );
    });
  }

  /**
   * D2a: the lines of a filter, read from a database cursor in batches; `use` gets how many match
   * (counted up to `filter.limit`) before the first batch. Cancelled in the database when
   * `signal` aborts.
   */
  async readLines<R>(entityId: string, filter: LineListFilter, signal: AbortSignal, use: (count: number, batches: AsyncIterable<ListedLine[]>) => Promise<R>): Promise<R> {
    const sql = new SqlConditions(['l.entity_id = $1', 'l.status = ANY($2::text[])'], [entityId, statusCondition(filter.status)]);
    if (filter.accountId) sql.add('l.account_id = ?::uuid', filter.accountId);
    if (filter.partnerId) sql.add('l.partner_id = ?::uuid', filter.partnerId);
    if (filter.from) sql.add('l.entry_date >= ?::date', filter.from);
    if (filter.to) sql.add('l.entry_date <= ?::date', filter.to);
    if (filter.bookId === null) sql.add('l.book_id IS NULL');
    else if (filter.bookId) sql.add('(l.book_id IS NULL OR l.book_id = ?::uuid)', filter.bookId);
    const limit = sql.parameter(filter.limit);
    const select = `SELECT ${LINE_COLUMNS}, e.memo FROM ledger_lines l JOIN ledger_entries e ON e.entity_id = l.entity_id AND e.id = l.entry_id
        WHERE ${sql.where} ORDER BY l.entry_date, l.entry_id, l.line_no LIMIT ${limit}`;
    return withReadCursor(this.txHost.tx.connection, signal, async (cursor) => {
      const [{ n }] = await cursor.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${select}) counted`, sql.values);
      const tagsOf = (ids: string[]) => this.tagsOf(entityId, ids);
      const batches = async function* () {
        for await (const rows of cursor.batches<Row>(select, sql.values, LINE_BATCH)) {
          const tags = await tagsOf(rows.map((r) => r.id as string));
          yield rows.map((row) => toLine(row, tags.get(row.id as string) ?? []));
        }
      };
      return use(n, batches());
    });
  }


  async findLine(entityId: string, lineId: string): Promise<ListedLine | null> {
    return (await this.linesById(entityId, [lineId], false))[0] ?? null;
  }

  async lockLines(entityId: string, lineIds: string[]): Promise<ListedLine[]> {
    this.requireTransaction();
    return this.linesById(entityId, lineIds, true);
  }

  async holdEntriesOfLines(entityId: string, lineIds: string[]): Promise<void> {
    this.requireTransaction();
    if (lineIds.length === 0) return;
    await this.query(
      `SELECT e.id FROM ledger_entries e
        WHERE e.entity_id = $1 AND e.id IN (SELECT l.entry_id FROM ledger_lines l WHERE l.entity_id = $1 AND l.id = ANY($2::uuid[]))
        ORDER BY e.reversal_of_entry_id IS NOT NULL, e.id FOR SHARE`,
      [entityId, [...new Set(lineIds)]],
    );
  }

  private async linesById(entityId: string, lineIds: string[], lock: boolean): Promise<ListedLine[]> {
    if (lineIds.length === 0) return [];
    const rows = await this.query(
      `SELECT ${LINE_COLUMNS}, e.memo, e.reversal_of_entry_id FROM ledger_lines l JOIN ledger_entries e ON e.entity_id = l.entity_id AND e.id = l.entry_id
        WHERE l.entity_id = $1 AND l.id = ANY($2::uuid[]) ORDER BY l.id ${lock ? 'FOR UPDATE OF l' : ''}`,
      [entityId, [...new Set(lineIds)]],
    );
    const tags = await this.tagsOf(entityId, rows.map((r) => r.id as string));
    return rows.map((row) => toLine(row, tags.get(row.id as string) ?? []));
  }

  async updateLine(entityId: string, lineId: string, change: { partnerId?: string | null; accountId?: string; isOpenItem?: boolean }): Promise<void> {
    this.requireTransaction();
    const sets: string[] = [];
    const values: unknown[] = [entityId, lineId];
    if (change.partnerId !== undefined) {
      values.push(change.partnerId);
      sets.push(`partner_id = $${values.length}`);
    }
    if (change.accountId !== undefined) {
      values.push(change.accountId);
      sets.push(`account_id = $${values.length}`);
    }
    if (change.isOpenItem !== undefined) {
      values.push(change.isOpenItem);
      sets.push(`is_open_item = $${values.length}`);
    }
    if (sets.length > 0) await this.query(updateLinesStatement('entity_id = $1 AND id = $2', sets.join(', ')), values);
  }

  async replaceLineDimensionValues(entityId: string, lineId: string, values: Array<{ id: string; dimensionId: string }>): Promise<void> {
    this.requireTransaction();
    await this.query(`DELETE FROM ledger_line_dimension_values WHERE entity_id = $1 AND line_id = $2`, [entityId, lineId]);
    if (values.length === 0) return;
    await this.query(
      `INSERT INTO ledger_line_dimension_values (entity_id, line_id, dimension_id, dimension_value_id)
       SELECT $1, $2, t.dimension_id, t.value_id FROM unnest($3::uuid[], $4::uuid[]) AS t(dimension_id, value_id)`,
      [entityId, lineId, values.map((v) => v.dimensionId), values.map((v) => v.id)],
    );
  }
}
