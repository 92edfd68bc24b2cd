import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { withReadCursor, type ReadCursor } from '../../../../platform/database/read-cursor';
import { SqlConditions } from '../../../../platform/database/sql-conditions';
import { unicodeCollateClause } from '../../../../platform/database/unicode-collation';
import { PartnerDirectory } from '../../application/partner-directory';
import { NIL_BOOK } from './ledger-sql';
import { lineInBook, liveLine } from '../reads/ledger-read-sql';

const LIVE = liveLine('l');
/** Common lines plus those of the Book read ($2; null: common lines only). */
const IN_BOOK = lineInBook('l', '$2::uuid');

/** A span of days read from the lines; `from` after `to` matches none. */
export interface DaySpan {
  from: string;
  to: string;
}

/** The spans a book's figures are read over: whole months from the monthly totals, the edge days from the lines. */
export interface BookSpans {
  /** Months before this month start count into the opening balance, and the days `openingDays` of its month. */
  monthsBefore: string;
  openingDays: DaySpan;
  /** Whole months of the range, as first days (first > last: none), and the range's edge days. */
  months: { first: string; last: string };
  rangeDays: [DaySpan, DaySpan];
}

/** An account of the Libro Mayor, before its lines: Σdebit − Σcredit before the range, and the range's figures. */
export interface BookAccountHead {
  accountId: string;
  code: string;
  name: string;
  openingRaw: bigint;
  debit: bigint;
  credit: bigint;
  lines: number;
}

/** A journal or ledger line as read (D54, D55 fields), every value text (amounts: a bigint's digits) or null. */
export type BookLineRow = Record<string, unknown>;

const JOURNAL_FIELDS = ['entry_id', 'entry_date', 'memo', 'status', 'book_id', 'line_id', 'side', 'amount', 'account_id', 'account_code', 'account_name', 'partner_id', 'partner_name', 'description'] as const;
const ACCOUNT_LINE_FIELDS = ['line_id', 'entry_id', 'entry_date', 'memo', 'side', 'amount', 'partner_id', 'description'] as const;

export interface JournalFilter {
  from?: string;
  to?: string;
  search?: string;
}

/**
 * The ledger's books read whole for D2a's streamed answers and D93's exports: in one REPEATABLE
 * READ snapshot on its own connection, rows from server-side cursors, cancelled in the database
 * when the client goes. The reports module reads the Libro Diario (journal), an account's
 * general ledger and the Libro Mayor through it, not through the ledger's tables.
 */
@Injectable()
export class LedgerBookReads {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly partners: PartnerDirectory,
  ) {}

  read<R>(signal: AbortSignal, use: (reader: LedgerBookReader) => Promise<R>): Promise<R> {
    return withReadCursor(this.txHost.tx.connection, signal, (cursor) => use(new LedgerBookReader(cursor, this.partners)));
  }
}

export class LedgerBookReader {
  constructor(
    private readonly cursor: ReadCursor,
    private readonly partners: PartnerDirectory,
  ) {}

  /** D54's rows of a filter (the fields JOURNAL_FIELDS names), in (entryDate, entryId, lineId) order. */
  private async journalSelect(entityId: string, bookId: string | null, filter: JournalFilter): Promise<{ sql: string; values: unknown[] }> {
    const sql = new SqlConditions([`l.entity_id = $1`, LIVE, IN_BOOK], [entityId, bookId]);
    if (filter.from) sql.add('l.entry_date >= ?::date', filter.from);
    if (filter.to) sql.add('l.entry_date <= ?::date', filter.to);
    if (filter.search) {
      const collate = await unicodeCollateClause((text) => this.cursor.query<{ collname: string }>(text, []));
      const pattern = `%${filter.search.replace(/[\\%_]/g, '\\$&')}%`;
      const like = `?::text${collate}`;
      sql.add(`(l.memo ILIKE ${like} OR l.description ILIKE ${like} OR a.code ILIKE ${like} OR a.name ILIKE ${like} OR p.name ILIKE ${like})`, pattern, pattern, pattern, pattern, pattern);
    }
    return {
      sql: `SELECT l.entry_id, l.entry_date, l.memo, l.status, l.book_id, l.id AS line_id, l.side, l.amount, l.account_id,
                   a.code AS account_code, a.name AS account_name, l.partner_id, p.name AS partner_name, l.description
              FROM ledger_lines l
              JOIN ledger_accounts a ON a.entity_id = l.entity_id AND a.id = l.account_id
              LEFT JOIN ${this.partners.namesSql('$1')} p ON p.id = l.partner_id
             WHERE ${sql.where}
             ORDER BY l.entry_date, l.entry_id, l.id`,
      values: sql.values,
    };
  }

  /**
   * D54's rows of a filter in (entryDate, entryId, lineId) order, every one (no page), in batches.
   * `search` matches memo, line description, account code or name and partner name, ignoring case
   * for every letter, as the journal's pages do.
   */
  async *journal(entityId: string, bookId: string | null, filter: JournalFilter): AsyncGenerator<BookLineRow[]> {
    const { sql, values } = await this.journalSelect(entityId, bookId, filter);
    yield* this.rows(
      JOURNAL_FIELDS,
      `SELECT j.entry_id, to_char(j.entry_date, 'YYYY-MM-DD'), j.memo, j.status, j.book_id, j.line_id, j.side, j.amount, j.account_id,
              j.account_code, j.account_name, j.partner_id, j.partner_name, j.description
         FROM (${sql}) j`,
      values,
    );
  }

  /** Rows read through COPY (the database's text, no result objects per row) as objects with `fields` for keys. */
  private async *rows(fields: readonly string[], sql: string, values: unknown[]): AsyncGenerator<BookLineRow[]> {
    for await (const batch of this.cursor.copyRows(sql, values)) {
      yield batch.map((row) => {
        const record: BookLineRow = {};
        for (let i = 0; i < fields.length; i++) record[fields[i]] = row[i];
        return record;
      });
    }
  }

  /**
   * The journal's rows as CSV written by the database (D93, the Libro Diario): `selectList` (see
   * csv-copy) over the fields `j.entry_id, entry_date, memo, status, book_id, line_id, side,
   * amount, account_id, account_code, account_name, partner_id, partner_name, description`, in
   * the journal's order, as PostgreSQL's CSV chunks.
   */
  async *journalCsv(entityId: string, bookId: string | null, filter: JournalFilter, selectList: string): AsyncGenerator<Buffer> {
    const { sql, values } = await this.journalSelect(entityId, bookId, filter);
    yield* this.cursor.copyCsv(`SELECT ${selectList} FROM (${sql}) j`, values);
  }

  /** One account's lines over [from, to] (either end open), in (entryDate, entryId, lineId) order, with their running balance from `opening`. */
  private accountLinesSelect(entityId: string, bookId: string | null, accountId: string, from: string | null, to: string | null, opening: bigint | null): { sql: string; values: unknown[] } {
    const running = opening === null ? '' : `, $6::numeric + sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END) OVER (ORDER BY l.entry_date, l.entry_id, l.id ROWS UNBOUNDED PRECEDING) AS running_balance`;
    return {
      sql: `SELECT l.id AS line_id, l.entry_id, l.entry_date, l.memo, l.side, l.amount, l.partner_id, l.description${running}
              FROM ledger_lines l
             WHERE l.entity_id = $1 AND l.account_id = $3 AND ${LIVE} AND ${IN_BOOK}
               AND ($4::date IS NULL OR l.entry_date >= $4::date) AND ($5::date IS NULL OR l.entry_date <= $5::date)
             ORDER BY l.entry_date, l.entry_id, l.id`,
      values: [entityId, bookId, accountId, from, to, ...(opening === null ? [] : [opening.toString()])],
    };
  }

  /** One account's lines in (entryDate, entryId, lineId) order over [from, to] (either end open), every one, in batches (D55's fields). */
  async *accountLines(entityId: string, bookId: string | null, accountId: string, from: string | null, to: string | null): AsyncGenerator<BookLineRow[]> {
    const { sql, values } = this.accountLinesSelect(entityId, bookId, accountId, from, to, null);
    yield* this.rows(ACCOUNT_LINE_FIELDS, `SELECT j.line_id, j.entry_id, to_char(j.entry_date, 'YYYY-MM-DD'), j.memo, j.side, j.amount, j.partner_id, j.description FROM (${sql}) j`, values);
  }

  /**
   * One account's lines as CSV written by the database (D93, the Libro Mayor): `selectList` (see
   * csv-copy) over the fields `j.line_id, entry_id, entry_date, memo, side, amount, partner_id,
   * description, running_balance` (D55's: `opening` plus the lines so far, debit-positive), in
   * the lines' order, as PostgreSQL's CSV chunks. `selectList` may name `$7` onwards:
   * `selectValues` in turn.
   */
  async *accountLinesCsv(entityId: string, bookId: string | null, accountId: string, from: string | null, to: string | null, opening: bigint, selectList: string, selectValues: unknown[] = []): AsyncGenerator<Buffer> {
    const { sql, values } = this.accountLinesSelect(entityId, bookId, accountId, from, to, opening);
    yield* this.cursor.copyCsv(`SELECT ${selectList} FROM (${sql}) j`, [...values, ...selectValues]);
  }

  /**
   * The Libro Mayor's accounts: every account with a live line in the range, by code, with its
   * balance before the range and the range's debits, credits and line count. Whole months come
   * from the monthly totals and the edge days from the lines, so the cost is O(accounts x months)
   * plus the lines of at most three partial months, whatever the range's size (`accountId`: that
   * account's alone). Closing entries
   * (D90) are lines like any other here: one dated before the range counts into the opening
   * balance, one inside it is a line of the range.
   */
  accountHeads(entityId: string, bookId: string | null, spans: BookSpans, accountId: string | null = null): Promise<BookAccountHead[]> {
    return this.cursor
      .query<{ id: string; code: string; name: string; opening_raw: string; debit: string; credit: string; lines: string }>(
        `WITH totals AS (
           SELECT account_id,
                  sum(debit - credit) FILTER (WHERE month < $3::date) AS opening_raw,
                  sum(debit) FILTER (WHERE month BETWEEN $4::date AND $5::date) AS debit,
                  sum(credit) FILTER (WHERE month BETWEEN $4::date AND $5::date) AS credit,
                  sum(line_count) FILTER (WHERE month BETWEEN $4::date AND $5::date) AS lines
             FROM ledger_account_monthly_totals
            WHERE entity_id = $1 AND (book_key = '${NIL_BOOK}' OR book_key = $2::uuid) AND month <= greatest($3::date, $5::date)
              AND ($12::uuid IS NULL OR account_id = $12::uuid)
            GROUP BY account_id
         ), edges AS (
           SELECT l.account_id,
                  sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END) FILTER (WHERE l.entry_date BETWEEN $6::date AND $7::date) AS opening_raw,
                  sum(l.amount) FILTER (WHERE l.side = 'debit' AND l.entry_date NOT BETWEEN $6::date AND $7::date) AS debit,
                  sum(l.amount) FILTER (WHERE l.side = 'credit' AND l.entry_date NOT BETWEEN $6::date AND $7::date) AS credit,
                  count(*) FILTER (WHERE l.entry_date NOT BETWEEN $6::date AND $7::date) AS lines
             FROM ledger_lines l
            WHERE l.entity_id = $1 AND ${LIVE} AND ${IN_BOOK} AND ($12::uuid IS NULL OR l.account_id = $12::uuid)
              AND (l.entry_date BETWEEN $6::date AND $7::date OR l.entry_date BETWEEN $8::date AND $9::date OR l.entry_date BETWEEN $10::date AND $11::date)
            GROUP BY l.account_id
         )
         SELECT a.id, a.code, a.name,
                (coalesce(t.opening_raw, 0) + coalesce(e.opening_raw, 0))::numeric::text AS opening_raw,
                (coalesce(t.debit, 0) + coalesce(e.debit, 0))::numeric::text AS debit,
                (coalesce(t.credit, 0) + coalesce(e.credit, 0))::numeric::text AS credit,
                (coalesce(t.lines, 0) + coalesce(e.lines, 0))::bigint::text AS lines
           FROM ledger_accounts a
           LEFT JOIN totals t ON t.account_id = a.id
           LEFT JOIN edges e ON e.account_id = a.id
          WHERE a.entity_id = $1 AND ($12::uuid IS NULL OR a.id = $12::uuid) AND coalesce(t.lines, 0) + coalesce(e.lines, 0) > 0
          ORDER BY a.code, a.id`,
        [
          entityId,
          bookId,
          spans.monthsBefore,
          spans.months.first,
          spans.months.last,
          spans.openingDays.from,
          spans.openingDays.to,
          spans.rangeDays[0].from,
          spans.rangeDays[0].to,
          spans.rangeDays[1].from,
          spans.rangeDays[1].to,
          accountId,
        ],
      )
      .then((rows) =>
        rows.map((r) => ({
          accountId: r.id,
          code: r.code,
          name: r.name,
          openingRaw: BigInt(r.opening_raw),
          debit: BigInt(r.debit),
          credit: BigInt(r.credit),
          lines: Number(r.lines),
        })),
      );
  }
}
