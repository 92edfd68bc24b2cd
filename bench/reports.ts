import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'pg';
import { BENCH_DIR, benchKey, benchServiceEnv, foldMonthlyTotals, http, readSeed, startBenchEnvironment } from './lib/bench-env';
import { processCpuSeconds, treeCpuSeconds } from './lib/cpu';
import { percentile } from './lib/load';
import { RunningService, startService } from './lib/service';

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

/** One service the reports are read from: this build, or the build of another checkout (`--before ROOT`). */
interface Reader {
  name: string;
  /** The service process (its CPU is counted per run). */
  pid: number;
  get: (path: string) => ReturnType<typeof http>;
}

interface Report {
  name: string;
  /** Resolved once per reader before timing (e.g. a deep page's cursor, walked on that reader). */
  prepare?: (reader: Reader) => Promise<string>;
  path?: string;
  runs: number;
  target: string;
}

/** Walks up to 500 pages of `path` and returns the path of the last page reached (and its number). */
async function deepPage(reader: Reader, path: string): Promise<{ path: string; depth: number }> {
  let cursor: string | null = null;
  let depth = 0;
  for (; depth < 500; depth++) {
    const next: string | null = (await reader.get(`${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).body.nextCursor;
    if (!next) break;
    cursor = next;
  }
  return { path: `${path}&cursor=${encodeURIComponent(cursor ?? '')}`, depth: depth + 1 };
}

/**
 * `npm run bench -- reports [--partner-ledger] [--before ROOT] [--runs N] [--no-fold]`: against the seeded
 * Entity, through HTTP, the median and p95 of each report, and beside the balance reports the
 * plain SQL aggregate over the raw lines. `--partner-ledger`: that report alone. The past months'
 * monthly totals are folded first (`ledger:fold-totals`, issue 36c); `--no-fold` leaves them as written.
 *
 * `--before ROOT`: a before/after in one sitting (issue 32). The service of another checkout with
 * its `dist` built (before) runs beside this build's (after), both against the one seeded
 * PostgreSQL; each report's runs alternate between the two (before, after, then after, before,
 * ...), so both see the same machine, and the table gives after/before of the medians beside the
 * 5 % the issue allows.
 *
 * `--closings [--rounds N]` (issue 35): every report without closings and with two closed years
 * (2024 and 2025 closed through the API, lock date 2025-12-31), in one sitting on this build,
 * alternating the two states N times (default 4; the order swapped every round, so the state
 * changes once per round), each report timed a few times per state and round, with the CPU a
 * request cost the service and PostgreSQL; the medians side by side with the change and the 10 %
 * target. It leaves the Entity as it found it (closings reopened, lock date restored).
 */
export async function reports(args: string[] = process.argv.slice(3)): Promise<void> {
  const seed = readSeed();
  const beforeAt = args.indexOf('--before');
  const beforeRoot = beforeAt >= 0 ? resolve(args[beforeAt + 1] ?? '') : null;
  const runsAt = args.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : RUNS;
  if (beforeRoot !== null && !existsSync(join(beforeRoot, 'dist', 'src', 'main.js'))) throw new Error(`--before ${beforeRoot}: no dist/src/main.js there (run npm run build in it)`);
  if (!(runs > 0)) throw new Error('--runs N: a positive number');
  const env = await startBenchEnvironment();
  // Issue 36c: past months' monthly totals folded first, as the service's periodic job leaves them (`--no-fold`: as written).
  if (!args.includes('--no-fold')) process.stdout.write(`${foldMonthlyTotals(env.databaseUrl)}\n`);
  const pool = new Pool({ connectionString: env.databaseUrl, max: 1 });
  let beforeService: RunningService | null = null;
  try {
    const headersOf = new Map<string, Record<string, string>>();
    const reader = async (name: string, service: RunningService): Promise<Reader> => {
      const headers = await benchKey(service.baseUrl);
      headersOf.set(name, headers);
      return { name, pid: service.pid, get: (path: string) => http(service.baseUrl, 'GET', `/api/entities/${seed.entityId}${path}`, undefined, headers) };
    };
    const after = await reader('after', env.service);
    const readers: Reader[] = [after];
    if (beforeRoot) {
      // Its own data folder (object store, keys); the schema is this build's (a superset of the before's migrations).
      beforeService = await startService(benchServiceEnv(env.databaseUrl), join(BENCH_DIR, 'data-before'), beforeRoot);
      readers.unshift(await reader('before', beforeService));
    }

    const partners = seed.partnerIds.map((id) => `partnerIds=${id}`).join('&');
    const partnerLedger: Report = {
      name: 'partner ledger, 100 partners, 2025',
      path: `/ledger/partner-ledger?accountId=${seed.receivableAccountId}&from=2025-01-01&to=2025-12-31&${partners}`,
      runs: args.includes('--partner-ledger') ? runs : Math.min(runs, 10),
      target: '< 80 ms (issue 32; was < 100 ms)',
    };
    const year = 'exerciseStart=2025-01-01&cutoffDate=2025-12-31';
    const gl = `/ledger/general-ledger?accountId=${seed.busiestAccountId}&limit=50`;
    const list: Report[] = args.includes('--partner-ledger')
      ? [partnerLedger]
      : [
          { name: 'balance sheet, 2025', path: `/reports/balance-sheet?${year}`, runs, target: '< 50 ms, >= 4x plain SQL' },
          { name: 'income statement, 2025', path: '/reports/income-statement?from=2025-01-01&to=2025-12-31', runs, target: '< 50 ms, >= 4x plain SQL' },
          { name: 'eight-column balance, 2025', path: `/ledger/reports/eight-column-balance?${year}`, runs, target: '< 50 ms, >= 4x plain SQL' },
          { name: 'general ledger, first page (busiest account)', path: gl, runs, target: '< 30 ms' },
          { name: 'general ledger, page 501 (or the last)', prepare: async (r) => (await deepPage(r, gl)).path, runs, target: 'within 1.5x of the first page' },
          { name: 'journal, first page', path: '/reports/journal?limit=100', runs, target: '< 30 ms' },
          { name: 'journal, page 501 (or the last)', prepare: async (r) => (await deepPage(r, '/reports/journal?limit=100')).path, runs, target: '< 30 ms' },
          partnerLedger,
        ];

    if (args.includes('--closings')) {
      // Issue 35: every report without closings against two closed years, alternated on this build.
      const roundsAt = args.indexOf('--rounds');
      const call: Call = (method, path, body) => http(env.service.baseUrl, method, `/api/entities/${seed.entityId}${path}`, body, headersOf.get('after')!);
      await closingsComparison(pool, seed.entityId, call, after.get, () => after.get(partnerLedger.path!), seed.busiestAccountId, {
        service: env.service.pid,
        postgres: Number(readFileSync(join(BENCH_DIR, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]),
      }, roundsAt >= 0 ? Number(args[roundsAt + 1]) : 4);
      return;
    }
    if (readers.length === 1) {
      const naive = (cutoff: string) =>
        pool.query(
          `SELECT account_id, sum(CASE side WHEN 'debit' THEN amount ELSE -amount END) FROM ledger_lines
            WHERE entity_id = $1 AND status IN ('active', 'reversed') AND book_id IS NULL AND entry_date <= $2 GROUP BY account_id`,
          [seed.entityId, cutoff],
        );
      const naiveYear = list.length > 1 ? await time(() => naive('2025-12-31')) : null;
      process.stdout.write(`\nSeeded Entity: ${seed.lines.toLocaleString('en')} lines. Times in ms, median / p95 over ${runs} runs (partner ledger ${partnerLedger.runs}).\n\n`);
      process.stdout.write('| Report (HTTP) | API | plain SQL over raw lines | API faster by | target |\n|---|---|---|---|---|\n');
      for (const report of list) {
        const path = report.path ?? (await report.prepare!(after));
        const api = await time(() => after.get(path), report.runs);
        const plain = naiveYear && report.name.endsWith(', 2025') && !report.name.startsWith('partner') ? naiveYear : null;
        process.stdout.write(`| ${report.name} | ${ms(api)} | ${plain ? ms(plain) : ''} | ${plain ? `${(plain.median / api.median).toFixed(1)}x` : ''} | ${report.target} |\n`);
      }
      return;
    }

    process.stdout.write(
      `\nSeeded Entity: ${seed.lines.toLocaleString('en')} lines. before = ${beforeRoot}, after = ${join(__dirname, '..')}, one PostgreSQL; ` +
        `each report's runs alternate between the two builds. Times in ms, median / p95 over ${runs} runs each (partner ledger ${partnerLedger.runs}).\n\n`,
    );
    process.stdout.write(
      "CPU a request: the service's process, and PostgreSQL's whole process tree while that request ran (the other build idle meanwhile).\n\n" +
        '| Report (HTTP) | before: median / p95 ms | after: median / p95 ms | after / before (medians) | within 5 % | CPU a request, before: service + PostgreSQL ms | after | target (after) |\n|---|---|---|---|---|---|---|---|\n',
    );
    const postmaster = Number(readFileSync(join(BENCH_DIR, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const cpu = (t: Measured) => `${t.serviceCpuMs.toFixed(1)} + ${t.postgresCpuMs.toFixed(1)}`;
    for (const report of list) {
      const paths = await Promise.all(readers.map(async (r) => report.path ?? (await report.prepare!(r))));
      const [b, a] = await timeAlternating(
        readers.map((r, i) => ({ pid: r.pid, run: () => r.get(paths[i]) })),
        report.runs,
        postmaster,
      );
      const ratio = a.median / b.median;
      process.stdout.write(`| ${report.name} | ${ms(b)} | ${ms(a)} | ${(100 * ratio).toFixed(1)} % | ${ratio <= 1.05 ? 'yes' : 'no'} | ${cpu(b)} | ${cpu(a)} | ${report.target} |\n`);
    }
    process.stdout.write(`\nLoad average when done: ${loadavg().map((l) => l.toFixed(1)).join(', ')}\n`);
  } finally {
    await pool.end();
    await beforeService?.stop();
    await env.stop();
  }
}

interface Measured extends Timing {
  /** CPU a run cost the service, and PostgreSQL's process tree, in ms (summed over the runs, divided by them). */
  serviceCpuMs: number;
  postgresCpuMs: number;
}

/**
 * Each of `runs` runs once per reader, the readers' order swapped every round (after one warm run
 * each); the CPU of the reader's service and of PostgreSQL's tree (`postmaster`) counted around
 * each run, outside its timing.
 */
export async function timeAlternating(readers: Array<{ pid: number; run: () => Promise<unknown> }>, runs: number, postmaster: number): Promise<Measured[]> {
  for (const reader of readers) await reader.run(); // warm
  const samples: number[][] = readers.map(() => []);
  const cpu = readers.map(() => ({ service: 0, postgres: 0 }));
  for (let i = 0; i < runs; i++) {
    const order = readers.map((_, k) => k);
    if (i % 2 === 1) order.reverse();
    for (const k of order) {
      const service0 = processCpuSeconds(readers[k].pid);
      const postgres0 = treeCpuSeconds(postmaster);
      const t0 = performance.now();
      await readers[k].run();
      samples[k].push(performance.now() - t0);
      cpu[k].service += processCpuSeconds(readers[k].pid) - service0;
      cpu[k].postgres += treeCpuSeconds(postmaster) - postgres0;
    }
  }
  return samples.map((s, k) => {
    s.sort((x, y) => x - y);
    return { median: percentile(s, 50), p95: percentile(s, 95), serviceCpuMs: (cpu[k].service * 1000) / runs, postgresCpuMs: (cpu[k].postgres * 1000) / runs };
  });
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
