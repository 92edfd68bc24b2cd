import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { FoldRound, MonthlyTotalsFolds } from '../../domain/monthly-totals';
import { FOLDED_SLOT, NIL_BOOK } from './ledger-sql';

/** Any constant (with the Entity's hash as the second key): one round on an Entity at a time. */
const FOLD_LOCK_KEY = 7_036_003;

/** A totals table: its name and the columns of its key between `account_id` and `month`. */
interface TotalsTable {
  name: string;
  keys: string[];
}

const ACCOUNT_TOTALS: TotalsTable = { name: 'ledger_account_monthly_totals', keys: ['account_id', 'book_key'] };
const PARTNER_TOTALS: TotalsTable = { name: 'ledger_partner_monthly_totals', keys: ['account_id', 'partner_key', 'book_key'] };

/**
 * One statement per table: lock at most `$4` slot rows of months before `$2` on the accounts `$3`
 * (`FOR UPDATE SKIP LOCKED`: a row a posting holds is skipped, never waited for), delete exactly
 * those, and add their sums to their month's folded row (upserted in key order). Postings never
 * write the folded slot, so the upsert waits on nobody but another fold (which the Entity's lock
 * keeps out). Answers how many slot rows were folded.
 */
function foldSql(table: TotalsTable): string {
  const key = [...table.keys, 'month'];
  const list = (alias: string) => key.map((c) => `${alias}.${c}`).join(', ');
  return `WITH taken AS MATERIALIZED (
      SELECT ${list('k')}, k.slot FROM ${table.name} k
       WHERE k.entity_id = $1 AND k.account_id = ANY($3::uuid[]) AND k.month < $2::date AND k.slot >= 0
       ORDER BY ${list('k')}, k.slot LIMIT $4
       FOR UPDATE OF k SKIP LOCKED
    ), folded AS (
      DELETE FROM ${table.name} d USING taken
       WHERE d.entity_id = $1 AND ${key.map((c) => `d.${c} = taken.${c}`).join(' AND ')} AND d.slot = taken.slot
      RETURNING ${list('d')}, d.debit, d.credit, d.line_count
    ), kept AS (
      INSERT INTO ${table.name} AS t (entity_id, ${key.join(', ')}, slot, debit, credit, line_count)
      SELECT $1, ${list('f')}, ${FOLDED_SLOT}, sum(f.debit), sum(f.credit), sum(f.line_count)
        FROM folded f GROUP BY ${list('f')} ORDER BY ${key.map((_, i) => i + 2).join(', ')}
      ON CONFLICT (entity_id, ${key.join(', ')}, slot) DO UPDATE
        SET debit = t.debit + EXCLUDED.debit, credit = t.credit + EXCLUDED.credit, line_count = t.line_count + EXCLUDED.line_count
      RETURNING t.month
    )
    SELECT (SELECT count(*) FROM folded)::int AS rows, (SELECT count(*) FROM kept)::int AS months`;
}

const FOLD_ACCOUNT_TOTALS = foldSql(ACCOUNT_TOTALS);
const FOLD_PARTNER_TOTALS = foldSql(PARTNER_TOTALS);

/**
 * The accounts with rows to fold, held `FOR KEY SHARE` before any totals row is locked (in id
 * order, `SKIP LOCKED`): the folded rows' foreign key to their account then never waits, and an
 * account a chart change holds (`FOR UPDATE`: an update or a deletion, whose foreign-key check
 * would wait on the totals rows a fold holds) is left for a later round instead of closing a
 * wait cycle.
 */
const HOLD_ACCOUNTS = `SELECT a.id FROM ledger_accounts a
   WHERE a.entity_id = $1
     AND a.id IN (SELECT t.account_id FROM ledger_account_monthly_totals t WHERE t.entity_id = $1 AND t.month < $2::date AND t.slot >= 0
                  UNION
                  SELECT p.account_id FROM ledger_partner_monthly_totals p WHERE p.entity_id = $1 AND p.month < $2::date AND p.slot >= 0)
   ORDER BY a.id FOR KEY SHARE OF a SKIP LOCKED`;

@Injectable()
export class SqlMonthlyTotalsFolds extends MonthlyTotalsFolds {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  async entitiesWithUnfoldedMonths(before: string, after: string | null, limit: number): Promise<string[]> {
    const rows = (await this.txHost.tx.query(
      `/* citus:multi-shard the monthly totals' fold discovery: which Entities have past months on posting slots (no lock) */
       SELECT entity_id FROM ledger_account_monthly_totals WHERE month < $1::date AND slot >= 0 AND entity_id > $2::uuid
       UNION
       SELECT entity_id FROM ledger_partner_monthly_totals WHERE month < $1::date AND slot >= 0 AND entity_id > $2::uuid
       ORDER BY 1 LIMIT $3`,
      [before, after ?? NIL_BOOK, limit],
    )) as Array<{ entity_id: string }>;
    return rows.map((row) => row.entity_id);
  }

  async foldRound(entityId: string, before: string, limit: number): Promise<FoldRound> {
    if (!this.txHost.isTransactionActive()) throw new Error('A fold of the monthly totals outside a transaction');
    const tx = this.txHost.tx;
    const [{ locked }] = (await tx.query(`SELECT pg_try_advisory_xact_lock(${FOLD_LOCK_KEY}, hashtext($1::text)) AS locked`, [entityId])) as Array<{ locked: boolean }>;
    if (!locked) return { status: 'busy' };
    const accounts = ((await tx.query(HOLD_ACCOUNTS, [entityId, before])) as Array<{ id: string }>).map((row) => row.id);
    if (accounts.length === 0) return { status: 'folded', accountRows: 0, partnerRows: 0 };
    const [account] = (await tx.query(FOLD_ACCOUNT_TOTALS, [entityId, before, accounts, limit])) as Array<{ rows: number }>;
    const [partner] = (await tx.query(FOLD_PARTNER_TOTALS, [entityId, before, accounts, limit])) as Array<{ rows: number }>;
    return { status: 'folded', accountRows: account.rows, partnerRows: partner.rows };
  }
}
