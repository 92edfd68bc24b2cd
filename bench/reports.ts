import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR, benchKey, http, readSeed, startBenchEnvironment } from './lib/bench-env';
import { processCpuSeconds, treeCpuSeconds } from './lib/cpu';
import { percentile } from './lib/load';

const RUNS = 25;

interface Timing {
  median: number;
  p95: number;
}

export async function time(run: () => Promise<unknown>, runs = RUNS): Promise<Timing> {
  await run(); // warm
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await run();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return { median: percentile(samples, 50), p95: percentile(samples, 95) };
}

const ms = (t: Timing) => `${t.median.toFixed(1)} / ${t.p95.toFixed(1)}`;

/**
 * `npm run bench -- reports`: against the seeded Entity, through HTTP, the median and p95 of each
 * report, and beside the balance reports the plain SQL aggregate over the raw lines.
 * `reports --closings [--rounds N]` (issue 35): every report without closings and with two closed
 * years (2024 and 2025 closed through the API, lock date 2025-12-31), in one sitting on one
 * service, alternating the two states N times (default 4; the order swapped every round, so the state changes once per round), each
 * report timed a few times per state and round; the medians side by side with the change and the
 * 10 % target. It leaves the Entity as it found it (closings reopened, lock date restored).
 */
export async function reports(): Promise<void> {
  const seed = readSeed();
  const env = await startBenchEnvironment();
  const pool = new Pool({ connectionString: env.databaseUrl, max: 1 });
  try {
    const base = env.service.baseUrl;
    const headers = await benchKey(base);
    const get = (path: string) => http(base, 'GET', `/api/entities/${seed.entityId}${path}`, undefined, headers);
    const naive = (cutoff: string) =>
      pool.query(
        `SELECT account_id, sum(CASE side WHEN 'debit' THEN amount ELSE -amount END) FROM ledger_lines
          WHERE entity_id = $1 AND status IN ('active', 'reversed') AND book_id IS NULL AND entry_date <= $2 GROUP BY account_id`,
        [seed.entityId, cutoff],
      );
    const partners = seed.partnerIds.map((id) => `partnerIds=${id}`).join('&');
    const partnerLedger = () => get(`/ledger/partner-ledger?accountId=${seed.receivableAccountId}&from=2025-01-01&to=2025-12-31&${partners}`);
    if (process.argv.includes('--partner-ledger')) {
      // `reports --partner-ledger`: that report alone, 25 runs (for a before/after in alternated runs).
      process.stdout.write(`\npartner ledger, 100 partners, 2025: ${ms(await time(partnerLedger))} ms (median / p95 over ${RUNS} runs)\n`);
      return;
    }
    if (process.argv.includes('--closings')) {
      const roundsArg = process.argv.indexOf('--rounds');
      await closingsComparison(pool, seed.entityId, (method, path, body) => http(base, method, `/api/entities/${seed.entityId}${path}`, body, headers), get, partnerLedger, seed.busiestAccountId, {
        service: env.service.pid,
        postgres: Number(readFileSync(join(BENCH_DIR, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]),
      }, roundsArg >= 0 ? Number(process.argv[roundsArg + 1]) : 4);
      return;
    }
    const year = 'exerciseStart=2025-01-01&cutoffDate=2025-12-31';
    const rows: Array<[string, Timing, Timing | null]> = [];
    const naiveYear = await time(() => naive('2025-12-31'));
    rows.push(['balance sheet, 2025', await time(() => get(`/reports/balance-sheet?${year}`)), naiveYear]);
    rows.push(['income statement, 2025', await time(() => get('/reports/income-statement?from=2025-01-01&to=2025-12-31')), naiveYear]);
    rows.push(['eight-column balance, 2025', await time(() => get(`/ledger/reports/eight-column-balance?${year}`)), naiveYear]);

    const gl = `/ledger/general-ledger?accountId=${seed.busiestAccountId}&limit=50`;
    rows.push(['general ledger, first page (busiest account)', await time(() => get(gl)), null]);
    const deep = async (path: string, separator: string) => {
      let cursor: string | null = null;
      let depth = 0;
      for (; depth < 500; depth++) {
        const next: string | null = (await get(`${path}${cursor ? `${separator}cursor=${encodeURIComponent(cursor)}` : ''}`)).body.nextCursor;
        if (!next) break;
        cursor = next;
      }
      return { cursor, depth: depth + 1 };
    };
    const deepGl = await deep(gl, '&');
    rows.push([`general ledger, page ${deepGl.depth}`, await time(() => get(`${gl}&cursor=${deepGl.cursor}`)), null]);

    rows.push(['journal, first page', await time(() => get('/reports/journal?limit=100')), null]);
    const deepJournal = await deep('/reports/journal?limit=100', '&');
    rows.push([`journal, page ${deepJournal.depth}`, await time(() => get(`/reports/journal?limit=100&cursor=${encodeURIComponent(deepJournal.cursor ?? '')}`)), null]);

    rows.push(['partner ledger, 100 partners, 2025', await time(partnerLedger, 10), null]);

    process.stdout.write(`\nSeeded Entity: ${seed.lines.toLocaleString('en')} lines. Times in ms, median / p95 over ${RUNS} runs (partner ledger 10).\n\n`);
    process.stdout.write('| Report (HTTP) | API | plain SQL over raw lines | API faster by |\n|---|---|---|---|\n');
    for (const [name, api, plain] of rows) {
      process.stdout.write(`| ${name} | ${ms(api)} | ${plain ? ms(plain) : ''} | ${plain ? `${(plain.median / api.median).toFixed(1)}x` : ''} |\n`);
    }
  } finally {
    await pool.end();
    await env.stop();
  }
}

/** The bench's `http` on the Entity's routes (it throws on any status but 2xx). */
type Call = (method: string, path: string, body?: unknown) => Promise<{ body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Issue 35: `reports --closings`, the reports without closings against with two closed years (see `reports`). */
async function closingsComparison(pool: Pool, entityId: string, call: Call, get: (path: string) => Promise<unknown>, partnerLedger: () => Promise<unknown>, busiestAccountId: string, pids: { service: number; postgres: number }, rounds: number): Promise<void> {
  const [{ id: retained }] = (
    await pool.query<{ id: string }>(`SELECT id FROM ledger_accounts WHERE entity_id = $1 AND type = 'equity' ORDER BY (name ILIKE '%acumulad%') DESC, code LIMIT 1`, [entityId])
  ).rows;
  const [{ d: lockBefore }] = (await pool.query<{ d: string | null }>(`SELECT ledger_lock_date::text AS d FROM entities WHERE id = $1`, [entityId])).rows;
  const reopenAll = async () => {
    for (const c of (await call('GET', '/ledger/closings')).body.closings as Array<{ id: string; status: string }>) {
      if (c.status === 'active') {
        await call('DELETE', `/ledger/closings/${c.id}`);
      }
    }
  };
  const closeTwoYears = async () => {
    for (const [start, end] of [['2024-01-01', '2024-12-31'], ['2025-01-01', '2025-12-31']]) {
      await call('POST', '/ledger/closings', { id: randomUUID(), exerciseStart: start, exerciseEnd: end, retainedEarningsAccountId: retained });
    }
  };
  await reopenAll();
  await call('PATCH', '/ledger-lock-date', { ledgerLockDate: '2025-12-31' });
  try {
    const year = 'exerciseStart=2025-01-01&cutoffDate=2025-12-31';
    const probes: Array<[string, () => Promise<unknown>, number]> = [
      ['balance sheet, 2025', () => get(`/reports/balance-sheet?${year}`), 7],
      ['balance sheet, 2026 (both closings before the range)', () => get('/reports/balance-sheet?exerciseStart=2026-01-01&cutoffDate=2026-06-30'), 7],
      ['income statement, 2025', () => get('/reports/income-statement?from=2025-01-01&to=2025-12-31'), 7],
      ['eight-column balance, 2025', () => get(`/ledger/reports/eight-column-balance?${year}`), 7],
      ['general ledger, first page (busiest account)', () => get(`/ledger/general-ledger?accountId=${busiestAccountId}&limit=50`), 7],
      ['journal, first page', () => get('/reports/journal?limit=100'), 7],
      ['home', () => get('/reports/home'), 7],
      ['partner ledger, 100 partners, 2025', partnerLedger, 3],
    ];
    const samples = new Map<string, { open: number[]; closed: number[] }>(probes.map(([name]) => [name, { open: [], closed: [] }]));
    // CPU seconds (service + PostgreSQL's process tree) and requests, per report and state: steadier than latency on a loaded machine.
    const cpu = new Map<string, Record<'open' | 'closed', { seconds: number; requests: number }>>(
      probes.map(([name]) => [name, { open: { seconds: 0, requests: 0 }, closed: { seconds: 0, requests: 0 } }]),
    );
    const cpuNow = () => processCpuSeconds(pids.service) + treeCpuSeconds(pids.postgres);
    let current: 'open' | 'closed' = 'open';
    const measure = async (state: 'open' | 'closed') => {
      if (state !== current) await (state === 'closed' ? closeTwoYears() : reopenAll());
      current = state;
      for (const [name, run, n] of probes) {
        if (n === 0) continue;
        await run(); // warm after the change of state
        const c0 = cpuNow();
        for (let i = 0; i < n; i++) {
          const t0 = performance.now();
          await run();
          samples.get(name)![state].push(performance.now() - t0);
        }
        const used = cpu.get(name)![state];
        used.seconds += cpuNow() - c0;
        used.requests += n;
      }
    };
    for (let r = 0; r < rounds; r++) {
      for (const state of r % 2 === 0 ? (['open', 'closed'] as const) : (['closed', 'open'] as const)) await measure(state);
    }
    const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
    const p95 = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 95);
    const load = (await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    process.stdout.write(`\nReports without closings and with 2024 and 2025 closed, ${rounds} alternated rounds (load average ${load}). Median / p95 ms over every run of a state.\n\n`);
    process.stdout.write(
      '| Report (HTTP) | without closings | with two closed years | change | CPU ms per request (service + PostgreSQL): without / with | CPU change | target: within 10 % |\n|---|---|---|---|---|---|---|\n',
    );
    for (const [name, , n] of probes) {
      if (n === 0) continue;
      const { open, closed } = samples.get(name)!;
      const change = (median(closed) / median(open) - 1) * 100;
      const used = cpu.get(name)!;
      const perRequest = (state: 'open' | 'closed') => (used[state].seconds * 1000) / used[state].requests;
      const cpuChange = (perRequest('closed') / perRequest('open') - 1) * 100;
      const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)} %`;
      process.stdout.write(
        `| ${name} | ${median(open).toFixed(1)} / ${p95(open).toFixed(1)} | ${median(closed).toFixed(1)} / ${p95(closed).toFixed(1)} | ${signed(change)} | ${perRequest('open').toFixed(1)} / ${perRequest('closed').toFixed(1)} | ${signed(cpuChange)} | ${change <= 10 ? 'met' : 'not met'} |\n`,
      );
    }
  } finally {
    await reopenAll();
    await call('PATCH', '/ledger-lock-date', { ledgerLockDate: lockBefore });
  }
}
