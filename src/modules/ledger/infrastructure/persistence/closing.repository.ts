import { Injectable } from '@nestjs/common';
import { ACCOUNT_TYPES, isResultType } from '../../domain/account-types';
import { Closing, ClosingRepository, ClosingStatus, ResultBalance } from '../../domain/closing';
import { splitRange } from '../../domain/month-ranges';
import { accountMonthlyTotals, chartAccounts, liveLines } from '../reads/ledger-read-sql';
import { LedgerSqlStore, Row } from './ledger-sql';

const COLUMNS = `entity_id, id, book_id, exercise_start::text AS exercise_start, exercise_end::text AS exercise_end,
  retained_earnings_account_id, entry_id, result::text AS result, status, created_at, updated_at`;
const RESULT_TYPES = ACCOUNT_TYPES.filter(isResultType);
/** An empty span: BETWEEN never matches. */

function toClosing(r: Row): Closing {
  return Closing.restore({
    entityId: r.entity_id as string,
    id: r.id as string,
    bookId: r.book_id as string | null,
    exerciseStart: r.exercise_start as string,
    exerciseEnd: r.exercise_end as string,
    retainedEarningsAccountId: r.retained_earnings_account_id as string,
    entryId: r.entry_id as string | null,
    result: Number(r.result),
    status: r.status as ClosingStatus,
    createdAt: r.created_at as Date,
    updatedAt: r.updated_at as Date,
  });
}

@Injectable()
export class SqlClosingRepository extends LedgerSqlStore implements ClosingRepository {
  async lockSequence(entityId: string): Promise<void> {
    this.requireTransaction();
    await this.query(`SELECT pg_advisory_xact_lock(hashtextextended('ledger_closings:' || $1::text, 0))`, [entityId]);
  }

  async find(entityId: string, closingId: string): Promise<Closing | null> {
    const [row] = await this.query(`SELECT ${COLUMNS} FROM ledger_closings WHERE entity_id = $1 AND id = $2`, [entityId, closingId]);
    return row ? toClosing(row) : null;
  }

  async list(entityId: string, bookId: string | null | undefined): Promise<Closing[]> {
    const rows = await this.query(
      `SELECT ${COLUMNS} FROM ledger_closings WHERE entity_id = $1 ${bookId ? 'AND book_id = $2' : ''}
        ORDER BY exercise_end DESC, status = 'active' DESC, created_at DESC, id DESC`,
      bookId ? [entityId, bookId] : [entityId],
    );
    return rows.map(toClosing);
  }

  async latestActive(entityId: string, bookId: string | null): Promise<Closing | null> {
    const [row] = await this.query(
      `SELECT ${COLUMNS} FROM ledger_closings WHERE entity_id = $1 AND book_id IS NOT DISTINCT FROM $2::uuid AND status = 'active'
        ORDER BY exercise_end DESC LIMIT 1`,
      [entityId, bookId],
    );
    return row ? toClosing(row) : null;
  }

  async latestActiveOfEntity(entityId: string): Promise<{ id: string; exerciseEnd: string } | null> {
    const [row] = await this.query<{ id: string; exercise_end: string }>(
      `SELECT id, exercise_end::text AS exercise_end FROM ledger_closings WHERE entity_id = $1 AND status = 'active' ORDER BY exercise_end DESC LIMIT 1`,
      [entityId],
    );
    return row ? { id: row.id, exerciseEnd: row.exercise_end } : null;
  }

  async closingIdOfEntry(entityId: string, entryId: string): Promise<string | null> {
    const [row] = await this.query<{ id: string }>(`SELECT id FROM ledger_closings WHERE entity_id = $1 AND entry_id = $2 LIMIT 1`, [entityId, entryId]);
    return row?.id ?? null;
  }

  async insert(closing: Closing): Promise<void> {
    this.requireTransaction();
    const s = closing.snapshot();
    await this.query(
      `INSERT INTO ledger_closings (entity_id, id, book_id, exercise_start, exercise_end, retained_earnings_account_id, entry_id, result, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [s.entityId, s.id, s.bookId, s.exerciseStart, s.exerciseEnd, s.retainedEarningsAccountId, s.entryId, s.result, s.status, s.createdAt, s.updatedAt],
    );
  }

  async saveStatus(closing: Closing): Promise<void> {
    this.requireTransaction();
    const s = closing.snapshot();
    await this.query(`UPDATE ledger_closings SET status = $3, updated_at = $4 WHERE entity_id = $1 AND id = $2`, [s.entityId, s.id, s.status, s.updatedAt]);
  }

  async resultBalances(entityId: string, bookId: string | null, from: string, to: string): Promise<ResultBalance[]> {
    const { months, days: [first, second] } = splitRange(from, to);
    // The read seam's parts (issue 32): the chart, the per-Book monthly totals (whole months) and the live lines of the Book (edge days).
    const scope = { entity: '$1', book: '$2::uuid' };
    const rows = await this.query<{ id: string; raw: string }>(
      `WITH result_accounts AS (
         SELECT ra.id, ra.code FROM ${chartAccounts('$1')} ra WHERE ra.type = ANY($3::text[])
       ), movements AS (
         SELECT t.account_id, sum(t.debit - t.credit)::numeric AS raw
           FROM ${accountMonthlyTotals(scope)} t
          WHERE t.month BETWEEN $4::date AND $5::date AND t.account_id IN (SELECT id FROM result_accounts)
          GROUP BY t.account_id
         UNION ALL
         SELECT l.account_id, sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END)::numeric
           FROM ${liveLines(scope)} l
          WHERE (l.entry_date BETWEEN $6::date AND $7::date OR l.entry_date BETWEEN $8::date AND $9::date)
            AND l.account_id IN (SELECT id FROM result_accounts)
          GROUP BY l.account_id
       )
       SELECT a.id, sum(m.raw)::text AS raw
         FROM movements m JOIN result_accounts a ON a.id = m.account_id
        GROUP BY a.id, a.code HAVING sum(m.raw) <> 0
        ORDER BY a.code, a.id`,
      [entityId, bookId, RESULT_TYPES, months?.first ?? '9999-12-01', months?.last ?? '0001-01-01', first.from, first.to, second.from, second.to],
    );
    return rows.map((r) => ({ accountId: r.id, raw: BigInt(r.raw) }));
  }
}
