import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { ensureDatabase, startEmbeddedPostgres } from '../src/platform/embedded/embedded-postgres';
import { ownCpuSeconds, processCpuSeconds, treeCpuSeconds } from './lib/cpu';
import { withoutHistoryUpkeep } from './history-reads';
import { formatLoad, LoadResult, percentile, runLoad } from './lib/load';
import { startService } from './lib/service';
import { CapturedPosting, capturePostings, describePosting, idRenewer, sameWorkCeiling } from './lib/same-work';

export const STAFF = { email: 'bench@example.test', password: 'bench-password-123' };
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);

function arg(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

function textArg(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

/**
 * `--explain`: the posting statement of a captured posting (its second statement, after the
 * key's authentication), prepared on a raw connection and run under EXPLAIN (ANALYZE, BUFFERS)
 * with fresh ids, `runs` times with the plan cache left to choose and then forced generic and
 * forced custom: the execution and planning time of each, and the last plan of each mode.
 */
async function explainPosting(databaseUrl: string, posting: CapturedPosting, runs: number): Promise<void> {
  const statement = posting.find((s) => s.text.includes('INSERT INTO ledger_entries'));
  if (!statement) throw new Error('no posting statement captured');
  const renew = (await idRenewer(databaseUrl))(statement.values);
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    for (const mode of ['auto', 'force_generic_plan', 'force_custom_plan']) {
      const client = await pool.connect();
      try {
        await client.query(`SET plan_cache_mode = ${mode}`);
        const types = statement.values.map(() => 'unknown');
        await client.query(`PREPARE explained(${types.join(', ')}) AS ${statement.text}`);
        const timings: string[] = [];
        let plan = '';
        for (let i = 0; i < runs; i++) {
          const values = renew(new Map());
          const literal = values.map((v) => (v === null ? 'NULL' : `'${v.replace(/'/g, "''")}'`)).join(', ');
          const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) EXECUTE explained(${literal})`);
          plan = rows.map((r) => r['QUERY PLAN']).join('\n');
          const planning = /Planning Time: ([\d.]+) ms/.exec(plan)?.[1] ?? '?';
          const execution = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? '?';
          timings.push(`${planning}+${execution}`);
        }
        process.stdout.write(`EXPLAIN EXECUTE of the posting statement, plan_cache_mode=${mode}, planning+execution ms per run: ${timings.join(' ')}\n`);
        process.stdout.write(`${plan.split('\n').map((l) => `    ${l}`).join('\n')}\n`);
        await client.query('DEALLOCATE explained');
      } finally {
        client.release();
      }
    }
  } finally {
    await pool.end();
  }
}

/** A balanced entry of 2 to 6 lines on the given accounts. */
export function entryBody(accounts: string[], sequence: number): Record<string, unknown> {
  const lineCount = 2 + (sequence % 5);
  const amounts = Array.from({ length: lineCount - 1 }, (_, i) => 1000 + ((sequence * 7 + i * 13) % 90000));
  const total = amounts.reduce((a, b) => a + b, 0);
  return {
    id: randomUUID(),
    entryDate: '2026-01-15',
    memo: `Bench entry ${sequence}`,
    newLedgerEntryLines: [
      { side: 'debit', ledgerAccountId: accounts[0], amount: total },
      ...amounts.map((amount, i) => ({ side: 'credit', ledgerAccountId: accounts[1 + (i % (accounts.length - 1))], amount })),
    ],
  };
}

/**
 * What the posting benchmarks post with: the staff's API key (as headers), a fresh Entity and five
 * of its accounts (the first debited, the others credited by entryBody).
 */
export async function benchEntity(baseUrl: string): Promise<{ headers: Record<string, string>; entityId: string; accounts: string[] }> {
  const signIn = await json(`${baseUrl}/api/auth/sign-in/email`, 'POST', STAFF, {});
  const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
  const key = (await json(`${baseUrl}/api/auth/api-keys`, 'POST', { name: 'bench' }, { cookie })).body.key as string;
  const headers = { 'x-api-key': key, 'x-audit-actor': 'bench' };
  const entityId = randomUUID();
  await json(`${baseUrl}/api/entities`, 'POST', { id: entityId, name: 'Bench SpA', country: 'CL', taxId: '76.086.428-5', currency: 'CLP' }, headers);
  const accounts: string[] = [];
  for (const [code, type] of [['1101', 'asset'], ['4101', 'income'], ['4102', 'income'], ['2105', 'liability'], ['5101', 'operating_expense']]) {
    const id = randomUUID();
    await json(`${baseUrl}/api/entities/${entityId}/ledger/accounts`, 'POST', { id, name: `Account ${code}`, code, type, tracking: 'balance' }, headers);
    accounts.push(id);
  }
  return { headers, entityId, accounts };
}

/** CPU milliseconds per request, by process, of what `run` did: a CPU-bound machine's real cost of a request. */
interface CpuPerRequest {
  service: number;
  postgres: number;
  loadGenerator: number;
  total: number;
}

async function withCpu<T extends { requests: number }>(servicePid: number | null, postgresPid: number, run: () => Promise<T>): Promise<[T, CpuPerRequest]> {
  const read = () => ({ service: servicePid ? processCpuSeconds(servicePid) : 0, postgres: treeCpuSeconds(postgresPid), loadGenerator: ownCpuSeconds() });
  const before = read();
  const result = await run();
  const after = read();
  const per = (k: keyof typeof before) => ((after[k] - before[k]) * 1000) / result.requests;
  const cpu = { service: per('service'), postgres: per('postgres'), loadGenerator: per('loadGenerator'), total: 0 };
  cpu.total = cpu.service + cpu.postgres + cpu.loadGenerator;
  return [result, cpu];
}

function formatCpu(cpu: CpuPerRequest): string {
  const parts = [cpu.service ? `service ${cpu.service.toFixed(2)}` : '', `PostgreSQL ${cpu.postgres.toFixed(2)}`, `load generator ${cpu.loadGenerator.toFixed(2)}`].filter(Boolean);
  return `CPU per request: ${parts.join(' + ')} = ${cpu.total.toFixed(2)} ms`;
}

async function json(url: string, method: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return { body: (await res.json().catch(() => ({}))) as Record<string, unknown>, headers: res.headers };
}

/**
 * The ceiling of this machine: a three-line entry plus its audit row as one SQL statement, from
 * CONNECTIONS clients of one process, against the same server and schema. The statement is a
 * named prepared statement, as the service's own hot statements are: parsed and planned once per
 * connection (an unnamed one is planned on every call and costs 60 % more database CPU).
 */
async function sqlCeiling(databaseUrl: string, entityId: string, accounts: string[], seconds: number): Promise<LoadResult> {
  const pool = new Pool({ connectionString: databaseUrl, max: CONNECTIONS });
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  let sequence = 0;
  // The lines carry their entry's memo since issue 32 (M32d); a service built before it (BENCH_SERVICE_ROOT) migrated no such column.
  const [{ lineMemo }] = (await pool.query(`SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'ledger_lines' AND column_name = 'memo') AS "lineMemo"`)).rows;
  const statement = `
    WITH e AS (
      INSERT INTO ledger_entries (entity_id, id, book_id, entry_date, memo, notes, status, source, reversal_of_entry_id, reversed_by_entry_id, created_at, updated_at)
      VALUES ($1, $2, NULL, '2026-01-15', $3, NULL, 'active', 'manual', NULL, NULL, now(), now()) RETURNING id),
    l AS (
      INSERT INTO ledger_lines (entity_id, id, entry_id, line_no, side, account_id, amount, description, partner_id, transaction_currency,
                                transaction_amount, exchange_rate, is_open_item, allocated_amount, book_id, entry_date, status${lineMemo ? ', memo' : ''})
      SELECT $1, gen_random_uuid(), e.id, x.n, x.side, x.account, x.amount, NULL, NULL, NULL, NULL, NULL, false, 0, NULL, '2026-01-15', 'active'${lineMemo ? ', $3' : ''}
        FROM e, unnest(ARRAY[1, 2, 3]::smallint[], ARRAY['debit', 'credit', 'credit'], ARRAY[$4, $5, $6]::uuid[], ARRAY[$7 * 2, $7, $7]::bigint[]) AS x(n, side, account, amount))
    INSERT INTO entity_audit_trail (id, occurred_at, entity_id, organization_id, actor_user_id, declared_actor, credential, api_key_id, method, path, action, resource_type, resource_id, request_id, reason)
    SELECT gen_random_uuid(), now(), $1, NULL, NULL, 'bench', 'api_key', NULL, 'POST', '/bench', 'ledger_entry.create', 'ledger_entry', e.id::text, $2::text, NULL FROM e`;
  const worker = async () => {
    const client = await pool.connect();
    try {
      while (performance.now() < deadline) {
        const n = sequence++;
        const t0 = performance.now();
        await client.query({ name: 'ceiling-posting', text: statement, values: [entityId, randomUUID(), `Ceiling ${n}`, accounts[0], accounts[1], accounts[2], 1000 + (n % 90000)] });
        latencies.push(performance.now() - t0);
      }
    } finally {
      client.release();
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  await pool.end();
  const secondsTaken = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    failures: 0,
    seconds: secondsTaken,
    requestsPerSecond: latencies.length / secondsTaken,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  };
}

async function printStatementStatistics(databaseUrl: string, requests: number): Promise<void> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const { rows } = await pool.query(
      `SELECT calls, round(total_plan_time::numeric, 1) AS plan_ms, round(total_exec_time::numeric, 1) AS exec_ms,
              left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query
         FROM pg_stat_statements ORDER BY total_plan_time + total_exec_time DESC LIMIT 12`,
    );
    process.stdout.write(`Statements (${requests} measured requests plus the warm-up):\n`);
    for (const r of rows) process.stdout.write(`  ${String(r.calls).padStart(7)} calls  plan ${String(r.plan_ms).padStart(8)} ms  exec ${String(r.exec_ms).padStart(8)} ms  ${r.query}\n`);
  } finally {
    await pool.end();
  }
}

/** `npm run bench -- ledger-write [--seconds N]`: entries through the HTTP API against the SQL ceiling. */
export async function ledgerWrite(args: string[]): Promise<void> {
  const seconds = arg(args, 'seconds', 20);
  if (!process.env.BENCH_SERVICE_ROOT) {
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: join(__dirname, '..'), stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }

  const root = mkdtempSync(join(tmpdir(), 'accounting-bench-'));
  chmodSync(root, 0o755);
  // --statements: where the database's time goes, per statement (pg_stat_statements).
  const statements = args.includes('--statements');
  // The server's log, kept while the same-work ceiling captures a posting's statements.
  let serverLog = '';
  let keepLog = false;
  const postgres = await startEmbeddedPostgres({
    onLog: (message) => {
      if (keepLog) serverLog += message.endsWith('\n') ? message : `${message}\n`;
    },
    directory: join(root, 'postgres'),
    password: 'bench',
    persistent: false,
    settings: statements ? ['shared_preload_libraries=pg_stat_statements', 'pg_stat_statements.track_planning=on'] : [],
  });
  await ensureDatabase(postgres.urlFor('postgres'), 'bench');
  const databaseUrl = postgres.urlFor('bench');
  // --plan-cache-mode MODE: every session of the run (the service's pool, the raw clients) plans
  // its prepared statements so (auto, force_generic_plan, force_custom_plan).
  const planCacheMode = textArg(args, 'plan-cache-mode');
  if (planCacheMode) {
    if (!['auto', 'force_generic_plan', 'force_custom_plan'].includes(planCacheMode)) throw new Error(`--plan-cache-mode ${planCacheMode}?`);
    const admin = new Pool({ connectionString: databaseUrl, max: 1 });
    await admin.query(`ALTER DATABASE bench SET plan_cache_mode = ${planCacheMode}`);
    await admin.end();
    process.stdout.write(`plan_cache_mode = ${planCacheMode} for every session.\n`);
  }
  const postgresPid = Number(readFileSync(join(root, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const service = await startService(
    {
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '10',
      BOOTSTRAP_STAFF_EMAIL: STAFF.email,
      BOOTSTRAP_STAFF_PASSWORD: STAFF.password,
      API_KEY_RATE_LIMIT_PER_HOUR: '10000000',
    },
    join(root, 'data'),
  );
  try {
    if (args.includes('--without-history-upkeep')) await withoutHistoryUpkeep(databaseUrl);
    const { headers, entityId, accounts } = await benchEntity(service.baseUrl);

    // Warm up, then measure.
    await runLoad({ baseUrl: service.baseUrl, connections: CONNECTIONS, seconds: 2, next: (n) => ({ method: 'POST', path: `/api/entities/${entityId}/ledger/entries`, headers, body: entryBody(accounts, n) }), expectStatus: 201 });
    if (args.includes('--floor') || args.includes('--floor-only')) {
      // The request pipeline's own cost: an authenticated read of a few rows (key, rate limit,
      // tenant scope, one query), with no body to validate and nothing to write.
      const [floor, floorCpu] = await withCpu(service.pid, postgresPid, () =>
        runLoad({ baseUrl: service.baseUrl, connections: CONNECTIONS, seconds, next: () => ({ method: 'GET', path: `/api/entities/${entityId}/books`, headers }), expectStatus: 200 }),
      );
      process.stdout.write(`${formatLoad(`Pipeline floor: GET books (API key, ${CONNECTIONS} connections)`, floor)}\n  ${formatCpu(floorCpu)}\n`);
      if (args.includes('--floor-only')) return;
    }
    const [api, apiCpu] = await withCpu(service.pid, postgresPid, () =>
      runLoad({
        baseUrl: service.baseUrl,
        connections: CONNECTIONS,
        seconds,
        next: (n) => ({ method: 'POST', path: `/api/entities/${entityId}/ledger/entries`, headers, body: entryBody(accounts, n) }),
        expectStatus: 201,
      }),
    );
    const rss = service.rssMiB();
    if (statements) await printStatementStatistics(databaseUrl, api.requests);

    // The same work without the service: the statements of one posting of each size (2 to 6
    // lines, as the load sends), captured from the server's log, replayed from raw clients.
    keepLog = true;
    const captured = await capturePostings(databaseUrl, () => serverLog, async (between) => {
      for (let n = 0; n < 5; n++) {
        await between();
        await json(`${service.baseUrl}/api/entities/${entityId}/ledger/entries`, 'POST', entryBody(accounts, n), headers);
      }
    });
    keepLog = false;
    serverLog = '';
    if (captured.length !== 5) throw new Error(`captured ${captured.length} postings of 5`);
    process.stdout.write(`Statements of one posting (3 lines; captured with log_statement):\n${describePosting(captured[1])}\n`);
    if (args.includes('--explain')) await explainPosting(databaseUrl, captured[1], arg(args, 'explain-runs', 8));
    const [sameWork, sameWorkCpu] = await withCpu(null, postgresPid, () => sameWorkCeiling(databaseUrl, captured, CONNECTIONS, seconds));
    const [ceiling, ceilingCpu] = await withCpu(null, postgresPid, () => sqlCeiling(databaseUrl, entityId, accounts, seconds));

    const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;
    process.stdout.write(`${formatLoad(`API POST entries (2-6 lines, API key, ${CONNECTIONS} connections)`, api)}; service RSS ${rss} MiB\n  ${formatCpu(apiCpu)}\n`);
    process.stdout.write(`${formatLoad(`Same-work ceiling (the captured statements of 2- to 6-line postings, ${CONNECTIONS} raw pg clients)`, sameWork)}\n  ${formatCpu(sameWorkCpu)}\n`);
    process.stdout.write(`${formatLoad(`One-statement ceiling (3-line entry + audit row, one statement, ${CONNECTIONS} clients)`, ceiling)}\n  ${formatCpu(ceilingCpu)}\n`);
    process.stdout.write(`API / one-statement ceiling: ${pct(api.requestsPerSecond, ceiling.requestsPerSecond)} (by CPU cost ${pct(ceilingCpu.total, apiCpu.total)})\n`);
    process.stdout.write(`Same-work / one-statement ceiling: ${pct(sameWork.requestsPerSecond, ceiling.requestsPerSecond)} (by CPU cost ${pct(ceilingCpu.total, sameWorkCpu.total)})\n`);
    // On a machine whose cores are all busy, throughput follows the CPU a request costs in all.
    const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
    const sameWorkRatio = api.requestsPerSecond / sameWork.requestsPerSecond;
    process.stdout.write('Targets (issue 25):\n');
    process.stdout.write(`  API postings/s: ${api.requestsPerSecond.toFixed(0)} (target >= 1,000/s, load generator on the same machine): ${verdict(api.requestsPerSecond >= 1000)}\n`);
    process.stdout.write(`  API / same-work ceiling: ${pct(api.requestsPerSecond, sameWork.requestsPerSecond)} (by CPU cost ${pct(sameWorkCpu.total, apiCpu.total)}; target >= 60 %): ${verdict(sameWorkRatio >= 0.6)}\n`);
    process.stdout.write(`  service CPU per posting: ${apiCpu.service.toFixed(2)} ms (target <= 0.7 ms): ${verdict(apiCpu.service <= 0.7)}\n`);
    process.stdout.write(`  API p99: ${api.p99Ms.toFixed(1)} ms (target < 30 ms): ${verdict(api.p99Ms < 30)}\n`);
    if (api.failures > 0 || sameWork.failures > 0) process.stdout.write(`  failures: API ${api.failures}, same-work ${sameWork.failures} (target 0)\n`);
  } finally {
    await service.stop();
    await postgres.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
