import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { AuditRecorder } from '../../../../platform/audit/audit-recorder';
import { isForeignKeyViolation, uniqueViolationKey } from '../../../../platform/database/pg-errors';
import { preparedQuery } from '../../../../platform/database/prepared-query';
import { withReadCursor } from '../../../../platform/database/read-cursor';
import { SqlConditions } from '../../../../platform/database/sql-conditions';
import { unicodeCollateClause } from '../../../../platform/database/unicode-collation';
import { AllocationRow, EntryListFilter, EntryRepository, LineListFilter, ListedLine, OpenItemFilter, OpenItemSummary, PostingWrite } from '../../domain/entry-ports';
import { canonicalRate, exactAmount } from '../../../../../libs/shared-kernel/src';
import { postingFactsJson, SHARE_LOCKED_ENTITY } from './posting-reader';
import { EntryLine, EntrySource, EntryStatus, LedgerEntry, lineAlreadyExists, LIVE_STATUSES } from '../../domain/ledger-entry';

type Row = Record<string, unknown>;

const ENTRY_COLUMNS = `entity_id, id, book_id, entry_date, memo, notes, status, source, reversal_of_entry_id, reversed_by_entry_id, created_at, updated_at`;
const LINE_COLUMNS = `l.entity_id, l.id, l.entry_id, l.line_no, l.side, l.account_id, l.amount, l.description, l.partner_id,
  l.transaction_currency, l.transaction_amount, l.exchange_rate::text AS exchange_rate, l.is_open_item, l.allocated_amount,
  l.book_id, l.entry_date, l.status`;

/**
 * Parameters $1-$19 of lineParameters(): lines of one entry, then their Dimension Value tags.
 * `also` names more relations to select from (the posting's inserted entry row, so lines are
 * written only with it).
 */
const LINES_INSERT = (also = '') => `INSERT INTO ledger_lines (entity_id, id, entry_id, line_no, side, account_id, amount, description, partner_id,
                             transaction_currency, transaction_amount, exchange_rate, is_open_item, allocated_amount,
                             book_id, entry_date, status)
   SELECT $1, l.id, $2, l.line_no, l.side, l.account_id, l.amount, l.description, l.partner_id,
          l.transaction_currency, l.transaction_amount, l.exchange_rate, l.is_open_item, 0, $3, $4, $5
     FROM unnest($6::uuid[], $7::smallint[], $8::text[], $9::uuid[], $10::bigint[], $11::text[], $12::uuid[],
                 $13::text[], $14::bigint[], $15::numeric[], $16::boolean[])
       AS l(id, line_no, side, account_id, amount, description, partner_id, transaction_currency, transaction_amount, exchange_rate, is_open_item)${also}`;
const TAGS_INSERT = (also = '') => `INSERT INTO ledger_line_dimension_values (entity_id, line_id, dimension_id, dimension_value_id)
   SELECT $1, t.line_id, t.dimension_id, t.value_id FROM unnest($17::uuid[], $18::uuid[], $19::uuid[]) AS t(line_id, dimension_id, value_id)${also}`;

/** Parameters of the posting statement before lineParameters() and after them. */
const ENTRY_PARAMETERS = 12;
const LINE_PARAMETERS = 19;
const shift = (sql: string, by: number) => sql.replace(/\$(\d+)/g, (_, n) => `$${Number(n) + by}`);

const POSTING_GUARD_PARAMETER = ENTRY_PARAMETERS + LINE_PARAMETERS + 1;
const postingAuditParameter = (guarded: boolean) => POSTING_GUARD_PARAMETER + (guarded ? 4 : 0);
const POSTING_AUDIT_CONDITION = 'EXISTS (SELECT 1 FROM entry)';
/** The texts of postingStatement(), built once per variant: guarded or not, audited or not. */
const postingStatements = new Map<string, string>();

/**
 * One statement per posting (one round trip, and no transaction of its own): an optional guard
 * that share-locks the Entity row, then key-share-locks the accounts, partners and Dimension
 * Values the lines name, and checks the posting facts are still those the entry was judged
 * against (postingFactsJson); the entry row (only when the guard passed); its lines, their tags
 * and the monthly totals of a live entry (only with the entry row); the optional audit row; and
 * the count of entries written.
 */
function postingStatement(guarded: boolean, auditInsertion: string | null): string {
  const g = POSTING_GUARD_PARAMETER;
  const guard = guarded
    ? `guard AS (SELECT 1 FROM ${SHARE_LOCKED_ENTITY} WHERE ${postingFactsJson(g, g + 1, g + 2, true)} = $${g + 3}),`
    : '';
  const auditInsert = auditInsertion ? `, audit AS (${auditInsertion})` : '';
  return `WITH ${guard}
     entry AS (
       INSERT INTO ledger_entries (${ENTRY_COLUMNS})
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 ${guarded ? 'FROM guard' : ''} RETURNING id
     ), lines AS (${shift(LINES_INSERT(', entry'), ENTRY_PARAMETERS)} RETURNING account_id, side, amount, entry_id, entry_date, book_id),
     tags AS (${shift(TAGS_INSERT(', entry'), ENTRY_PARAMETERS)}),
     totals AS (${TOTALS_UPSERT('lines', `$7 IN ('active', 'reversed')`, '1')})${auditInsert}
     SELECT count(*)::int AS written FROM entry`;
}

const NIL_BOOK = '00000000-0000-0000-0000-000000000000';
/** Slots per account, Book and month (see AccountMonthlyTotalRecord). */
export const TOTAL_SLOTS = 32;

/**
 * Adds `sign` times the given lines (a relation with account_id, side, amount, entry_id,
 * entry_date, book_id) to ledger_account_monthly_totals, when `condition` holds. The slot is
 * taken from the entry id, spreading concurrent postings over TOTAL_SLOTS rows per account and
 * month; readers sum the slots.
 */
function TOTALS_UPSERT(relation: string, condition: string, sign: string): string {
  return `INSERT INTO ledger_account_monthly_totals AS t (entity_id, account_id, book_key, month, slot, debit, credit, line_count)
    SELECT $1, r.account_id, coalesce(r.book_id, '${NIL_BOOK}'::uuid), date_trunc('month', r.entry_date)::date,
           get_byte(uuid_send(r.entry_id), 15) % ${TOTAL_SLOTS},
           ${sign} * coalesce(sum(r.amount) FILTER (WHERE r.side = 'debit'), 0),
           ${sign} * coalesce(sum(r.amount) FILTER (WHERE r.side = 'credit'), 0),
           ${sign} * count(*)
      FROM ${relation} r WHERE ${condition}
     GROUP BY r.account_id, r.book_id, date_trunc('month', r.entry_date), get_byte(uuid_send(r.entry_id), 15) % ${TOTAL_SLOTS}
     -- One order for every writer: two postings locking the same total rows cannot deadlock.
     ORDER BY 2, 3, 4, 5
    ON CONFLICT (entity_id, account_id, book_key, month, slot)
    DO UPDATE SET debit = t.debit + EXCLUDED.debit, credit = t.credit + EXCLUDED.credit, line_count = t.line_count + EXCLUDED.line_count`;
}

/** numeric(24,12) as text keeps 12 decimals; the API writes the one canonical form (as on POST). */
function rateText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return canonicalRate(String(value));
}

/**
 * Runs a write of new lines; a line id that an existing line has (in the Entity) is the line's
 * conflict, not the entry's: 409 LEDGER_LINE_ALREADY_EXISTS_ERROR. (The entry row is inserted
 * before its lines, so a reused entry id is still LEDGER_ENTRY_ALREADY_EXISTS_ERROR.)
 */
async function lineKeysFree<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const key = uniqueViolationKey(error, 'ledger_lines');
    if (key) throw lineAlreadyExists(key.id ?? null);
    throw error;
  }
}

function toLine(row: Row, dimensionValues: Array<{ id: string; dimensionId: string }>): ListedLine {
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

function toAllocation(r: Row): AllocationRow {
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

function statusCondition(status: string | undefined): string[] {
  if (!status || status === 'live') return [...LIVE_STATUSES];
  if (status === 'all') return ['active', 'reversed', 'deleted', 'cancelled', 'scheduled'];
  return [status];
}

/** Lines per batch of a streamed answer (D2a): memory holds about this many at a time. */
const LINE_BATCH = 250;

@Injectable()
export class SqlEntryRepository extends EntryRepository {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly audit: AuditRecorder,
  ) {
    super();
  }

  private query<T = Row>(sql: string, values: unknown[] = []): Promise<T[]> {
    return this.txHost.tx.query(sql, values);
  }

  /** The posting statement (postingStatement()), prepared: it runs on every posting. */
  async insert(entry: LedgerEntry, write: PostingWrite = {}): Promise<boolean> {
    const s = entry.snapshot();
    const values: unknown[] = [
      ...[s.entityId, s.id, s.bookId, s.entryDate, s.memo, s.notes, s.status, s.source, s.reversalOfEntryId, s.reversedByEntryId, s.createdAt, s.updatedAt],
      ...this.lineParameters(entry),
    ];
    if (write.unchanged) {
      const { references, fingerprint } = write.unchanged;
      values.push(references.accountIds, references.partnerIds, references.valueIds, fingerprint);
    }
    const guarded = write.unchanged !== undefined;
    const audit = write.audit ? this.audit.insertion(write.audit, postingAuditParameter(guarded), POSTING_AUDIT_CONDITION) : null;
    if (audit) values.push(...audit.values);
    const variant = `${guarded}|${audit?.sql ?? ''}`;
    let text = postingStatements.get(variant);
    if (text === undefined) {
      text = postingStatement(guarded, audit?.sql ?? null);
      postingStatements.set(variant, text);
    }
    try {
      const [row] = await lineKeysFree(() => preparedQuery<{ written: number }>(this.txHost.tx, text, values));
      return row.written === 1;
    } catch (error) {
      // The guard holds every row the lines and tags refer to, so their foreign keys should not
      // refuse them; should one still, nothing was written (one statement) and the posting is
      // judged again on facts read afresh, as on any change of its facts.
      if (guarded && isForeignKeyViolation(error)) return false;
      throw error;
    }
  }

  private lineParameters(entry: LedgerEntry): unknown[] {
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
    ];
  }

  async shiftTotals(entityId: string, entryId: string, sign: 1 | -1): Promise<void> {
    await this.query(
      `WITH r AS (SELECT account_id, side, amount, entry_id, entry_date, book_id FROM ledger_lines WHERE entity_id = $1 AND entry_id = $2)
       ${TOTALS_UPSERT('r', 'true', String(sign))}`,
      [entityId, entryId],
    );
  }

  async shiftLineTotals(entityId: string, lineId: string, sign: 1 | -1): Promise<void> {
    await this.query(
      `WITH r AS (SELECT account_id, side, amount, entry_id, entry_date, book_id FROM ledger_lines WHERE entity_id = $1 AND id = $2)
       ${TOTALS_UPSERT('r', 'true', String(sign))}`,
      [entityId, lineId],
    );
  }

  /** Lines and tags of an entry whose header row exists (scheduled entries' replaced line sets). */
  private async insertLines(entry: LedgerEntry): Promise<void> {
    await this.query(`WITH lines AS (${LINES_INSERT()}) ${TAGS_INSERT()}`, this.lineParameters(entry));
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

  private async tagsOf(
    entityId: string,
    lineIds: string[],
    query: (sql: string, values: unknown[]) => Promise<Row[]> = (sql, values) => this.query(sql, values),
  ): Promise<Map<string, Array<{ id: string; dimensionId: string }>>> {
    const tags = new Map<string, Array<{ id: string; dimensionId: string }>>();
    if (lineIds.length === 0) return tags;
    const rows = await query(
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

  async saveHeader(entry: LedgerEntry): Promise<void> {
    const s = entry.snapshot();
    await this.query(
      `UPDATE ledger_entries SET entry_date = $3, memo = $4, notes = $5, status = $6, reversed_by_entry_id = $7, updated_at = $8
        WHERE entity_id = $1 AND id = $2`,
      [s.entityId, s.id, s.entryDate, s.memo, s.notes, s.status, s.reversedByEntryId, s.updatedAt],
    );
    await this.query(`UPDATE ledger_lines SET entry_date = $3, status = $4 WHERE entity_id = $1 AND entry_id = $2 AND (entry_date <> $3 OR status <> $4)`, [
      s.entityId,
      s.id,
      s.entryDate,
      s.status,
    ]);
  }

  async replaceLines(entry: LedgerEntry): Promise<void> {
    const s = entry.snapshot();
    await this.query(
      `DELETE FROM ledger_line_dimension_values WHERE entity_id = $1 AND line_id IN (SELECT id FROM ledger_lines WHERE entity_id = $1 AND entry_id = $2)`,
      [s.entityId, s.id],
    );
    await this.query(`DELETE FROM ledger_lines WHERE entity_id = $1 AND entry_id = $2`, [s.entityId, s.id]);
    await this.saveHeader(entry);
    await lineKeysFree(() => this.insertLines(entry));
  }

  async list(entityId: string, filter: EntryListFilter): Promise<LedgerEntry[]> {
    const sql = new SqlConditions(['e.entity_id = $1', 'e.status = ANY($2::text[])'], [entityId, statusCondition(filter.status)]);
    if (filter.from) sql.add('e.entry_date >= ?::date', filter.from);
    if (filter.to) sql.add('e.entry_date <= ?::date', filter.to);
    if (filter.bookId === null) sql.add('e.book_id IS NULL');
    else if (filter.bookId) sql.add('(e.book_id IS NULL OR e.book_id = ?::uuid)', filter.bookId);
    if (filter.search) {
      // Case-insensitive for every letter (`ÉLAN` finds `élan`), whatever the database's locale.
      const like = `?::text${await unicodeCollateClause((text) => this.query(text, []))}`;
      sql.add(`(e.memo ILIKE ${like} OR e.notes ILIKE ${like})`, `%${escapeLike(filter.search)}%`, `%${escapeLike(filter.search)}%`);
    }
    if (filter.accountId) sql.add('EXISTS (SELECT 1 FROM ledger_lines l WHERE l.entity_id = e.entity_id AND l.entry_id = e.id AND l.account_id = ?::uuid)', filter.accountId);
    if (filter.partnerId) sql.add('EXISTS (SELECT 1 FROM ledger_lines l WHERE l.entity_id = e.entity_id AND l.entry_id = e.id AND l.partner_id = ?::uuid)', filter.partnerId);
    if (filter.after) sql.add('(e.entry_date, e.id) < (?::date, ?::uuid)', filter.after.entryDate, filter.after.id);
    const limit = sql.parameter(filter.limit);
    const rows = await this.query(
      `SELECT ${ENTRY_COLUMNS.split(', ').map((c) => `e.${c}`).join(', ')} FROM ledger_entries e
        WHERE ${sql.where} ORDER BY e.entry_date DESC, e.id DESC LIMIT ${limit}`,
      sql.values,
    );
    return this.hydrate(entityId, rows);
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
      const tagsOf = (ids: string[]) => this.tagsOf(entityId, ids, (text, values) => cursor.query(text, values));
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
    return this.linesById(entityId, lineIds, true);
  }

  async holdEntriesOfLines(entityId: string, lineIds: string[]): Promise<void> {
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
    if (sets.length > 0) await this.query(`UPDATE ledger_lines SET ${sets.join(', ')} WHERE entity_id = $1 AND id = $2`, values);
  }

  async replaceLineDimensionValues(entityId: string, lineId: string, values: Array<{ id: string; dimensionId: string }>): Promise<void> {
    await this.query(`DELETE FROM ledger_line_dimension_values WHERE entity_id = $1 AND line_id = $2`, [entityId, lineId]);
    if (values.length === 0) return;
    await this.query(
      `INSERT INTO ledger_line_dimension_values (entity_id, line_id, dimension_id, dimension_value_id)
       SELECT $1, $2, t.dimension_id, t.value_id FROM unnest($3::uuid[], $4::uuid[]) AS t(dimension_id, value_id)`,
      [entityId, lineId, values.map((v) => v.dimensionId), values.map((v) => v.id)],
    );
  }

  async allocationsOfLines(entityId: string, lineIds: string[]): Promise<AllocationRow[]> {
    if (lineIds.length === 0) return [];
    const rows = await this.query(
      `SELECT entity_id, id, debit_line_id, credit_line_id, account_id, amount, kind, created_at, updated_at
         FROM reconciliation_allocations
        WHERE entity_id = $1 AND (debit_line_id = ANY($2::uuid[]) OR credit_line_id = ANY($2::uuid[]))
        ORDER BY created_at, id`,
      [entityId, lineIds],
    );
    return rows.map(toAllocation);
  }

  async findAllocation(entityId: string, allocationId: string): Promise<AllocationRow | null> {
    const [row] = await this.query(
      `SELECT entity_id, id, debit_line_id, credit_line_id, account_id, amount, kind, created_at, updated_at
         FROM reconciliation_allocations WHERE entity_id = $1 AND id = $2`,
      [entityId, allocationId],
    );
    return row ? toAllocation(row) : null;
  }

  private openItemWhere(entityId: string, filter: Omit<OpenItemFilter, 'after' | 'limit'>, withPartner: boolean): { where: string[]; values: unknown[] } {
    const where = [`l.entity_id = $1`, `l.account_id = $2`, `l.is_open_item`, `l.status IN ('active', 'reversed')`];
    const values: unknown[] = [entityId, filter.accountId];
    if (!filter.includeSettled) where.push('l.allocated_amount < l.amount');
    if (filter.bookId === null) where.push('l.book_id IS NULL');
    else {
      values.push(filter.bookId);
      where.push(`(l.book_id IS NULL OR l.book_id = $${values.length})`);
    }
    if (withPartner && filter.partnerId) {
      values.push(filter.partnerId);
      where.push(`l.partner_id = $${values.length}`);
    }
    return { where, values };
  }

  /** Keyset page over (entry date, line id), oldest first: what is due first comes first. */
  async openItemLines(entityId: string, filter: OpenItemFilter): Promise<ListedLine[]> {
    const { where, values } = this.openItemWhere(entityId, filter, true);
    if (filter.after) {
      values.push(filter.after.entryDate, filter.after.id);
      where.push(`(l.entry_date, l.id) > ($${values.length - 1}::date, $${values.length}::uuid)`);
    }
    values.push(filter.limit);
    const rows = await this.query(
      `SELECT ${LINE_COLUMNS}, e.memo FROM ledger_lines l JOIN ledger_entries e ON e.entity_id = l.entity_id AND e.id = l.entry_id
        WHERE ${where.join(' AND ')} ORDER BY l.entry_date, l.id LIMIT $${values.length}`,
      values,
    );
    const tags = await this.tagsOf(entityId, rows.map((r) => r.id as string));
    return rows.map((row) => toLine(row, tags.get(row.id as string) ?? []));
  }

  /** Totals of the whole filtered set (not the page), and the partners present without the partner filter. */
  async openItemSummary(entityId: string, filter: Omit<OpenItemFilter, 'after' | 'limit'>): Promise<OpenItemSummary> {
    const { where, values } = this.openItemWhere(entityId, filter, false);
    const rows = await this.query<{ partner_id: string | null; partner_name: string | null; line_count: number; open_total: string }>(
      `SELECT l.partner_id, p.name AS partner_name, count(*)::int AS line_count,
              sum(CASE l.side WHEN 'debit' THEN l.amount - l.allocated_amount ELSE l.allocated_amount - l.amount END)::text AS open_total
         FROM ledger_lines l LEFT JOIN partners p ON p.entity_id = l.entity_id AND p.id = l.partner_id
        WHERE ${where.join(' AND ')} GROUP BY l.partner_id, p.name ORDER BY p.name NULLS LAST, l.partner_id`,
      values,
    );
    const selected = filter.partnerId ? rows.filter((r) => r.partner_id === filter.partnerId) : rows;
    return {
      // D6a: summed exactly; a total JSON cannot hold exactly is a 409 naming it.
      openTotal: exactAmount(selected.reduce((sum, r) => sum + BigInt(r.open_total), 0n), 'openTotal'),
      lineCount: selected.reduce((sum, r) => sum + r.line_count, 0),
      partnerOptions: rows.map((r, i) => ({ partnerId: r.partner_id, partnerName: r.partner_name, lineCount: r.line_count, openTotal: exactAmount(r.open_total, `partnerOptions[${i}].openTotal`) })),
    };
  }

  async insertAllocations(allocations: AllocationRow[]): Promise<void> {
    if (allocations.length === 0) return;
    const entityId = allocations[0].entityId;
    await this.query(
      `INSERT INTO reconciliation_allocations (entity_id, id, debit_line_id, credit_line_id, account_id, amount, kind, created_at, updated_at)
       SELECT $1, a.id, a.debit_line_id, a.credit_line_id, a.account_id, a.amount, a.kind, a.created_at, a.created_at
         FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::bigint[], $7::text[], $8::timestamptz[])
           AS a(id, debit_line_id, credit_line_id, account_id, amount, kind, created_at)`,
      [
        entityId,
        allocations.map((a) => a.id),
        allocations.map((a) => a.debitLineId),
        allocations.map((a) => a.creditLineId),
        allocations.map((a) => a.accountId),
        allocations.map((a) => a.amount),
        allocations.map((a) => a.kind),
        allocations.map((a) => a.createdAt),
      ],
    );
    await this.shiftAllocated(entityId, allocations, 1);
  }

  async removeAllocations(entityId: string, allocations: AllocationRow[]): Promise<void> {
    if (allocations.length === 0) return;
    // Only what this statement deleted is given back: an allocation another transaction removed
    // after the caller read it (unbooking the other side, a DELETE) was given back there. Read
    // through a SELECT: TypeORM answers a bare DELETE ... RETURNING as [rows, rowCount].
    const deleted = await this.query(
      `WITH gone AS (
         DELETE FROM reconciliation_allocations WHERE entity_id = $1 AND id = ANY($2::uuid[])
         RETURNING entity_id, id, debit_line_id, credit_line_id, account_id, amount, kind, created_at, updated_at
       ) SELECT * FROM gone`,
      [entityId, allocations.map((a) => a.id)],
    );
    if (deleted.length > 0) await this.shiftAllocated(entityId, deleted.map(toAllocation), -1);
  }

  /** Keeps each line's allocated amount equal to the sum of its allocations (the check keeps it within the amount). */
  private async shiftAllocated(entityId: string, allocations: AllocationRow[], sign: 1 | -1): Promise<void> {
    const perLine = new Map<string, number>();
    for (const a of allocations) {
      perLine.set(a.debitLineId, (perLine.get(a.debitLineId) ?? 0) + a.amount);
      perLine.set(a.creditLineId, (perLine.get(a.creditLineId) ?? 0) + a.amount);
    }
    await this.query(
      `UPDATE ledger_lines l SET allocated_amount = l.allocated_amount + $2 * d.amount
         FROM unnest($3::uuid[], $4::bigint[]) AS d(line_id, amount)
        WHERE l.entity_id = $1 AND l.id = d.line_id`,
      [entityId, sign, [...perLine.keys()], [...perLine.values()]],
    );
  }

  async earliestScheduledEntryDate(entityId: string): Promise<string | null> {
    const [row] = await this.query<{ d: string | null }>(`SELECT min(entry_date)::text AS d FROM ledger_entries WHERE entity_id = $1 AND status = 'scheduled'`, [entityId]);
    return row?.d ?? null;
  }

  async hasAnyEntry(entityId: string): Promise<boolean> {
    const rows = await this.query(`SELECT 1 FROM ledger_entries WHERE entity_id = $1 LIMIT 1`, [entityId]);
    return rows.length > 0;
  }

  /** One index probe per account (ledger_lines_account_idx), not a scan of the Entity's lines. */
  async accountIdsWithLines(entityId: string, accountIds?: string[]): Promise<{ named: Set<string>; live: Set<string> }> {
    const rows = await this.query<{ id: string; live: boolean }>(
      `SELECT a.id,
              EXISTS (SELECT 1 FROM ledger_lines l
                       WHERE l.entity_id = a.entity_id AND l.account_id = a.id AND l.status IN ('active', 'reversed', 'scheduled')) AS live
         FROM ledger_accounts a
        WHERE a.entity_id = $1 AND ($2::uuid[] IS NULL OR a.id = ANY($2::uuid[]))
          AND EXISTS (SELECT 1 FROM ledger_lines l WHERE l.entity_id = a.entity_id AND l.account_id = a.id)`,
      [entityId, accountIds ?? null],
    );
    return { named: new Set(rows.map((r) => r.id)), live: new Set(rows.filter((r) => r.live).map((r) => r.id)) };
  }

  async partnerIsNamed(entityId: string, partnerId: string): Promise<boolean> {
    return (await this.query(`SELECT 1 FROM ledger_lines WHERE entity_id = $1 AND partner_id = $2 LIMIT 1`, [entityId, partnerId])).length > 0;
  }

  async partnerOpenBalances(entityId: string, bookId: string | null, partnerIds: string[]): Promise<Map<string, { receivable: number; payable: number }>> {
    if (partnerIds.length === 0) return new Map();
    const rows = await this.query<{ partner_id: string; receivable: string; payable: string }>(
      `SELECT l.partner_id,
              coalesce(sum(CASE l.side WHEN 'debit' THEN l.amount - l.allocated_amount ELSE l.allocated_amount - l.amount END)
                         FILTER (WHERE a.subtype IN ('receivable', 'unbilled_receivable')), 0)::numeric AS receivable,
              coalesce(sum(CASE l.side WHEN 'credit' THEN l.amount - l.allocated_amount ELSE l.allocated_amount - l.amount END)
                         FILTER (WHERE a.subtype = 'payable'), 0)::numeric AS payable
         FROM ledger_lines l JOIN ledger_accounts a ON a.entity_id = l.entity_id AND a.id = l.account_id
        WHERE l.entity_id = $1 AND l.partner_id = ANY($2::uuid[]) AND l.is_open_item AND l.status IN ('active', 'reversed')
          AND (l.book_id IS NULL OR l.book_id = $3::uuid)
        GROUP BY l.partner_id`,
      [entityId, partnerIds, bookId],
    );
    return new Map(rows.map((r) => [r.partner_id, { receivable: exactAmount(r.receivable, 'receivable'), payable: exactAmount(r.payable, 'payable') }]));
  }

  async dimensionValueIsTagged(entityId: string, valueId: string): Promise<boolean> {
    return (await this.query(`SELECT 1 FROM ledger_line_dimension_values WHERE entity_id = $1 AND dimension_value_id = $2 LIMIT 1`, [entityId, valueId])).length > 0;
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}
