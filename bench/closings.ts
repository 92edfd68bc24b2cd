import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR, benchKey, http, readSeed, startBenchEnvironment } from './lib/bench-env';
import { processCpuSeconds, treeCpuSeconds } from './lib/cpu';
import { percentile } from './lib/load';

/**
 * `npm run bench -- closings [--runs N] [--leave-closed]` (after `npm run bench -- seed`): D90 on the
 * seeded Entity (1,000,001 lines, the `cl-pyme` chart). The lock date is set to 2025-12-31; then,
 * N times, the 2024 exercise is closed (POST .../ledger/closings, timed from request to answer)
 * and reopened (DELETE, timed too). Beside it the plain SQL sum of the Result Accounts' lines of
 * 2024 (what the closing would cost read from the lines instead of the monthly totals). With
 * `--leave-closed`, 2024 and 2025 end closed (for the reports benchmark with two closed years);
 * without it every closing made here ends reopened and the lock date goes back to where it was.
 */
export async function closings(args: string[]): Promise<void> {
  const runsArg = args.indexOf('--runs');
  const runs = runsArg >= 0 ? Number(args[runsArg + 1]) : 15;
  const leaveClosed = args.includes('--leave-closed');
  const seed = readSeed();
  const env = await startBenchEnvironment();
  const pool = new Pool({ connectionString: env.databaseUrl, max: 1 });
  const postgresPid = Number(readFileSync(join(BENCH_DIR, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  try {
    const base = env.service.baseUrl;
    const headers = await benchKey(base);
    const e = seed.entityId;
    const call = (method: string, path: string, body?: unknown) => http(base, method, `/api/entities/${e}${path}`, body, headers);
    const [{ id: retained }] = (
      await pool.query<{ id: string }>(
        `SELECT id FROM ledger_accounts WHERE entity_id = $1 AND type = 'equity' ORDER BY (name ILIKE '%acumulad%') DESC, code LIMIT 1`,
        [e],
      )
    ).rows;
    const [{ d: lockBefore }] = (await pool.query<{ d: string | null }>(`SELECT ledger_lock_date::text AS d FROM entities WHERE id = $1`, [e])).rows;
    // Closings left by an earlier run with --leave-closed: reopened, newest first.
    for (const c of (await call('GET', '/ledger/closings')).body.closings as Array<{ id: string; status: string }>) {
      if (c.status === 'active') await call('DELETE', `/ledger/closings/${c.id}`);
    }
    await call('PATCH', '/ledger-lock-date', { ledgerLockDate: '2025-12-31' });
    const close = (start: string, end: string) => call('POST', '/ledger/closings', { id: randomUUID(), exerciseStart: start, exerciseEnd: end, retainedEarningsAccountId: retained });

    const closeTimes: number[] = [];
    const reopenTimes: number[] = [];
    let result = 0;
    let lines = 0;
    const warm = (await close('2024-01-01', '2024-12-31')).body;
    await call('DELETE', `/ledger/closings/${warm.id}`);
    const cpu0 = { service: processCpuSeconds(env.service.pid), postgres: treeCpuSeconds(postgresPid) };
    for (let i = 0; i < runs; i++) {
      let t0 = performance.now();
      const closing = (await close('2024-01-01', '2024-12-31')).body;
      closeTimes.push(performance.now() - t0);
      result = closing.result;
      t0 = performance.now();
      await call('DELETE', `/ledger/closings/${closing.id}`);
      reopenTimes.push(performance.now() - t0);
      if (i === 0) lines = (await call('GET', `/ledger/entries/${closing.entryId}`)).body.lines.length;
    }
    const cpu1 = { service: processCpuSeconds(env.service.pid), postgres: treeCpuSeconds(postgresPid) };
    const raw: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      await pool.query(
        `SELECT l.account_id, sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END) FROM ledger_lines l JOIN ledger_accounts a ON a.entity_id = l.entity_id AND a.id = l.account_id
          WHERE l.entity_id = $1 AND l.status IN ('active', 'reversed') AND l.book_id IS NULL AND l.entry_date BETWEEN '2024-01-01' AND '2024-12-31'
            AND a.type IN ('income', 'other_income', 'cost_of_goods_sold', 'operating_expense', 'other_expense') GROUP BY l.account_id`,
        [e],
      );
      raw.push(performance.now() - t0);
    }
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const fmt = (xs: number[]) => `${percentile(sorted(xs), 50).toFixed(1)} / ${percentile(sorted(xs), 95).toFixed(1)}`;
    const perCycle = (x: number) => ((x * 1000) / runs).toFixed(1);
    process.stdout.write(`\nSeeded Entity: ${seed.lines.toLocaleString('en')} lines. 2024 closed and reopened ${runs} times (result ${result.toLocaleString('en')}, ${lines} lines in the closing entry).\n\n`);
    process.stdout.write('| Step (HTTP) | median / p95 ms | target |\n|---|---|---|\n');
    process.stdout.write(`| close 2024 (POST .../ledger/closings) | ${fmt(closeTimes)} | < 200 ms |\n`);
    process.stdout.write(`| reopen (DELETE .../ledger/closings/:id) | ${fmt(reopenTimes)} | |\n`);
    process.stdout.write(`| plain SQL: 2024 Result Account balances from the lines | ${fmt(raw)} | |\n`);
    process.stdout.write(
      `\nCPU per close + reopen cycle: service ${perCycle(cpu1.service - cpu0.service)} ms, PostgreSQL ${perCycle(cpu1.postgres - cpu0.postgres)} ms.\n`,
    );
    if (leaveClosed) {
      const first = (await close('2024-01-01', '2024-12-31')).body;
      const second = (await close('2025-01-01', '2025-12-31')).body;
      process.stdout.write(`Left closed: 2024 (result ${first.result}) and 2025 (result ${second.result}); lock date 2025-12-31.\n`);
    } else {
      await call('PATCH', '/ledger-lock-date', { ledgerLockDate: lockBefore });
    }
  } finally {
    await pool.end();
    await env.stop();
  }
}
