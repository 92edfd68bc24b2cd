import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { Response, Test } from 'supertest';
import type { TestApp } from './test-app';

/** `SELECT count(*)` of `table`, optionally narrowed by a WHERE clause with its `$n` values. */
export async function countRows(t: TestApp, table: string, where = 'true', values: unknown[] = []): Promise<number> {
  const [row] = await t.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, values);
  return row.n;
}

/** How many rows the whole audit trail holds. */
export function auditRowCount(t: TestApp): Promise<number> {
  return countRows(t, 'audit_trail');
}

/** A fingerprint (row count and a digest of every row) of each of `tables`. */
export async function tableFingerprint(t: TestApp, tables: readonly string[]): Promise<Record<string, string>> {
  const state: Record<string, string> = {};
  for (const table of tables) {
    const [row] = await t.sql<{ n: number; digest: string }>(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS digest FROM ${table} x`,
    );
    state[table] = `${row.n} rows, ${row.digest}`;
  }
  return state;
}

/**
 * Sends `request` (a supertest request, sent only here), which must be refused with `status` and
 * `code`, and checks that not one row of `tables` changed.
 */
export async function expectRefused(t: TestApp, tables: readonly string[], request: Test, status: number, code: string): Promise<Response> {
  const before = await tableFingerprint(t, tables);
  const res = await request;
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
  expect(await tableFingerprint(t, tables)).toEqual(before);
  return res;
}

/**
 * Sends the mutation `request` (a supertest request, sent only here) with a fresh x-request-id;
 * it must answer `status` and leave exactly one new audit row, which must match
 * `expectedRowFields` (column names of audit_trail).
 */
export async function expectAudited(t: TestApp, request: Test, status: number, expectedRowFields: Record<string, unknown>): Promise<Response> {
  const requestId = `req-${randomUUID()}`;
  const before = await auditRowCount(t);
  const res = await request.set('x-request-id', requestId);
  expect({ status: res.status, body: res.status === status ? 'ok' : res.body }).toEqual({ status, body: 'ok' });
  expect(await auditRowCount(t)).toBe(before + 1);
  const rows = await t.sql('SELECT * FROM audit_trail WHERE request_id = $1', [requestId]);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject(expectedRowFields);
  return res;
}

/**
 * A lock that waits on the table $1 or, when $1 is a view (audit_trail: entity_audit_trail and
 * global_audit_trail), on a table it reads: LOCK TABLE on a view locks those tables.
 */
const WAITING_ON = `relation IN (SELECT $1::text::regclass UNION ALL SELECT format('%I.%I', table_schema, table_name)::regclass FROM information_schema.view_table_usage WHERE view_name::text = $1::text)`;

/**
 * Holds an EXCLUSIVE lock on `table` (reads pass, writes wait) while `start` sends requests,
 * until `waiters` of them wait on it; runs `meanwhile` (a change that lands between the waiting
 * requests' reads and writes); then lets them all go at once. Deterministic races.
 */
export async function whileTableLocked<T>(t: TestApp, table: string, waiters: number, start: () => Promise<T>, meanwhile?: () => Promise<unknown>): Promise<T> {
  const blocker = new Client({ connectionString: t.databaseUrl });
  await blocker.connect();
  try {
    await blocker.query('BEGIN');
    await blocker.query(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
    // Promise.resolve sends a supertest request, which is lazy until then() is called.
    const pending = Promise.resolve(start());
    for (;;) {
      // On Citus (TEST_DATABASE_URL) the writes wait on the workers' shards: the cluster's waits.
      const [row] = (await onCitus(t))
        ? await t.sql<{ n: number }>(`SELECT count(DISTINCT waiting_gpid)::int AS n FROM citus_lock_waits`)
        : await t.sql<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND ${WAITING_ON}`, [table]);
      if (row.n >= waiters) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await meanwhile?.();
    await blocker.query('COMMIT');
    return await pending;
  } finally {
    await blocker.end();
  }
}

const citusByDatabase = new Map<string, Promise<boolean>>();

/** The test's database is a Citus coordinator's (TEST_DATABASE_URL on a cluster, docs/CITUS.md). */
export function onCitus(t: TestApp): Promise<boolean> {
  let known = citusByDatabase.get(t.databaseUrl);
  if (!known) {
    known = t.sql(`SELECT 1 FROM pg_extension WHERE extname = 'citus'`).then((rows) => rows.length > 0);
    citusByDatabase.set(t.databaseUrl, known);
  }
  return known;
}

/** How many of this database's connections wait on a lock (a table, a row, another transaction). */
export async function lockWaiters(t: TestApp): Promise<number> {
  if (await onCitus(t)) {
    // The cluster's waits (a statement waits on a worker's shard, not on the coordinator).
    const [waits] = await t.sql<{ n: number }>(`SELECT count(DISTINCT waiting_gpid)::int AS n FROM citus_lock_waits`);
    const [local] = await t.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND backend_type = 'client backend'`,
    );
    return Math.max(waits.n, local.n);
  }
  const [row] = await t.sql<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
  return row.n;
}

/**
 * Ungranted locks on `table` (or on the tables of the view `table`) held up in this database: on
 * Citus, on every node (`citus_locks`; a shard's lock names the shard, `<table>_<shard id>`).
 */
export async function tableLockWaiters(t: TestApp, table: string): Promise<number> {
  if (await onCitus(t)) {
    const [row] = await t.sql<{ n: number }>(
      `WITH names AS (SELECT $1::text AS name UNION ALL SELECT table_name::text FROM information_schema.view_table_usage WHERE view_name::text = $1::text)
       SELECT count(*)::int AS n FROM citus_locks l JOIN citus_stat_activity a ON a.nodeid = l.nodeid AND a.pid = l.pid
        WHERE NOT l.granted AND a.datname = current_database() AND EXISTS (SELECT 1 FROM names WHERE l.relation_name ~ ('^' || names.name || '(_[0-9]+)?$'))`,
      [table],
    );
    return row.n;
  }
  const [row] = await t.sql<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND ${WAITING_ON}`, [table]);
  return row.n;
}

/**
 * This database's connections waiting on another transaction's row (`transactionid`, `tuple`): on
 * Citus, on every node (`citus_stat_activity`), one per distributed transaction, and also those
 * waiting on Citus's shard locks (`advisory`: a write to a shard another transaction writes).
 */
export async function rowLockWaiters(t: TestApp): Promise<number> {
  const citus = await onCitus(t);
  const [row] = await t.sql<{ n: number }>(
    citus
      ? `SELECT count(DISTINCT CASE WHEN global_pid <> 0 THEN global_pid ELSE -nodeid * 10000000 - pid END)::int AS n FROM citus_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event IN ('transactionid', 'tuple', 'advisory')`
      : `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event IN ('transactionid', 'tuple')`,
  );
  return row.n;
}

/**
 * The statements this database's waiting connections were sent: on Citus, the statement as the
 * client sent it to the coordinator (`citus_lock_waits`), whichever part of it waits on a worker
 * (Citus runs a statement's CTEs on a worker as statements of their own).
 */
export async function waitingStatements(t: TestApp): Promise<string[]> {
  const rows = (await onCitus(t))
    ? await t.sql<{ query: string }>(
        `SELECT DISTINCT ON (w.waiting_gpid) w.blocked_statement AS query FROM citus_lock_waits w
           JOIN citus_stat_activity a ON a.global_pid = w.waiting_gpid AND NOT a.is_worker_query
          WHERE a.datname = current_database()`,
      )
    : await t.sql<{ query: string }>(`SELECT query FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`);
  return rows.map((r) => r.query);
}

/** Two transactions of this database each wait on the other: a deadlock not yet broken (on Citus, the cluster's wait graph). */
export async function deadlocked(t: TestApp): Promise<boolean> {
  const [row] = (await onCitus(t))
    ? await t.sql<{ cycle: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM citus_lock_waits a JOIN citus_lock_waits b ON a.waiting_gpid = b.blocking_gpid AND a.blocking_gpid = b.waiting_gpid) AS cycle`,
      )
    : await t.sql<{ cycle: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM pg_stat_activity a, unnest(pg_blocking_pids(a.pid)) AS b(pid)
                         WHERE a.datname = current_database() AND a.pid = ANY(pg_blocking_pids(b.pid))) AS cycle`,
      );
  return row.cycle;
}

/** Returns once `condition` holds, asking again at once (never on a timer). */
export async function waitUntil(condition: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setImmediate(resolve));
}

/** Sends a supertest request now (it is lazy until then() is called) and tells whether it has been answered. */
export function sendNow(request: Test): { response: Promise<Response>; answered: () => boolean } {
  let done = false;
  const response = Promise.resolve(request).finally(() => {
    done = true;
  });
  return { response, answered: () => done };
}

/**
 * Runs `lockSql` (a `SELECT ... FOR UPDATE` or the like, with `values`) in a transaction of the
 * test's own connection, sends `start`'s requests and waits until `waiters` (1) wait on a lock;
 * runs `meanwhile` (given that connection, to change the locked row); then ends with `end`
 * (COMMIT), letting them go. whileTableLocked for one row: the request can be stopped halfway
 * through a statement, its snapshot taken (a posting at the Entity row or at a monthly total).
 */
export async function whileRowLocked<T>(
  t: TestApp,
  lockSql: string,
  values: unknown[],
  start: () => Promise<T>,
  meanwhile?: (blocker: Client) => Promise<unknown>,
  options: { waiters?: number; end?: 'COMMIT' | 'ROLLBACK' } = {},
): Promise<T> {
  const blocker = new Client({ connectionString: t.databaseUrl });
  await blocker.connect();
  try {
    await blocker.query('BEGIN');
    const locked = await blocker.query(lockSql, values);
    if (locked.rowCount !== 1) throw new Error(`whileRowLocked: ${lockSql} locked ${locked.rowCount} rows, not one`);
    const pending = Promise.resolve(start());
    await waitUntil(async () => (await lockWaiters(t)) >= (options.waiters ?? 1));
    await meanwhile?.(blocker);
    await blocker.query(options.end ?? 'COMMIT');
    return await pending;
  } finally {
    await blocker.end();
  }
}

/**
 * The monthly totals (kept in the posting transactions) equal the sums of live lines recomputed
 * from scratch, for every account, Book and month of the Entity.
 */
export async function expectMonthlyTotalsMatchLines(t: TestApp, entityId: string): Promise<void> {
  const diff = await t.sql(
    `WITH kept AS (
       SELECT account_id, book_key, month, sum(debit)::bigint AS debit, sum(credit)::bigint AS credit, sum(line_count)::bigint AS lines
         FROM ledger_account_monthly_totals WHERE entity_id = $1 GROUP BY account_id, book_key, month
     ), fresh AS (
       SELECT account_id, coalesce(book_id, '00000000-0000-0000-0000-000000000000'::uuid) AS book_key, date_trunc('month', entry_date)::date AS month,
              coalesce(sum(amount) FILTER (WHERE side = 'debit'), 0)::bigint AS debit,
              coalesce(sum(amount) FILTER (WHERE side = 'credit'), 0)::bigint AS credit, count(*)::bigint AS lines
         FROM ledger_lines WHERE entity_id = $1 AND status IN ('active', 'reversed') GROUP BY 1, 2, 3
     )
     SELECT * FROM kept FULL JOIN fresh USING (account_id, book_key, month)
      WHERE coalesce(kept.debit, 0) <> coalesce(fresh.debit, 0) OR coalesce(kept.credit, 0) <> coalesce(fresh.credit, 0)
         OR coalesce(kept.lines, 0) <> coalesce(fresh.lines, 0)`,
    [entityId],
  );
  expect(diff).toEqual([]);
  await expectLineTotalsMatchLines(t, entityId);
}

/**
 * Issue 25: the open-item totals (per account, Book and partner) and the per-partner monthly
 * totals, kept by the lines' triggers, equal the same figures computed from the lines.
 */
export async function expectLineTotalsMatchLines(t: TestApp, entityId: string): Promise<void> {
  const nil = `'00000000-0000-0000-0000-000000000000'::uuid`;
  const open = await t.sql(
    `WITH kept AS (
       SELECT account_id, book_key, partner_key, sum(line_count)::bigint AS lines, sum(open_count)::bigint AS open, sum(open_total) AS total
         FROM ledger_open_item_totals WHERE entity_id = $1 GROUP BY 1, 2, 3
     ), fresh AS (
       SELECT account_id, coalesce(book_id, ${nil}) AS book_key, coalesce(partner_id, ${nil}) AS partner_key, count(*)::bigint AS lines,
              count(*) FILTER (WHERE allocated_amount < amount)::bigint AS open,
              sum(CASE side WHEN 'debit' THEN amount - allocated_amount ELSE allocated_amount - amount END) AS total
         FROM ledger_lines WHERE entity_id = $1 AND is_open_item AND status IN ('active', 'reversed') GROUP BY 1, 2, 3
     )
     SELECT * FROM kept FULL JOIN fresh USING (account_id, book_key, partner_key)
      WHERE coalesce(kept.lines, 0) <> coalesce(fresh.lines, 0) OR coalesce(kept.open, 0) <> coalesce(fresh.open, 0) OR coalesce(kept.total, 0) <> coalesce(fresh.total, 0)`,
    [entityId],
  );
  expect(open).toEqual([]);
  const months = await t.sql(
    `WITH kept AS (
       SELECT account_id, partner_key, book_key, month, sum(debit) AS debit, sum(credit) AS credit, sum(line_count)::bigint AS lines
         FROM ledger_partner_monthly_totals WHERE entity_id = $1 GROUP BY 1, 2, 3, 4
     ), fresh AS (
       SELECT account_id, coalesce(partner_id, ${nil}) AS partner_key, coalesce(book_id, ${nil}) AS book_key, date_trunc('month', entry_date)::date AS month,
              coalesce(sum(amount) FILTER (WHERE side = 'debit'), 0) AS debit, coalesce(sum(amount) FILTER (WHERE side = 'credit'), 0) AS credit, count(*)::bigint AS lines
         FROM ledger_lines WHERE entity_id = $1 AND status IN ('active', 'reversed') GROUP BY 1, 2, 3, 4
     )
     SELECT * FROM kept FULL JOIN fresh USING (account_id, partner_key, book_key, month)
      WHERE coalesce(kept.debit, 0) <> coalesce(fresh.debit, 0) OR coalesce(kept.credit, 0) <> coalesce(fresh.credit, 0) OR coalesce(kept.lines, 0) <> coalesce(fresh.lines, 0)`,
    [entityId],
  );
  expect(months).toEqual([]);
}
