import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { LINE_AGGREGATES_REBUILD } from '../migrations/1795724724976-LineAggregatesInStatements';
import { BENCH_DIR, benchKey, foldMonthlyTotals, http, startBenchEnvironment } from './lib/bench-env';
import { ownCpuSeconds, processCpuSeconds, treeCpuSeconds } from './lib/cpu';
import { random, rutOf } from './lib/generate';
import { formatLoad, runLoad } from './lib/load';
import { time } from './reports';

/** What `consolidation` made once in .data/bench, reused by later runs. */
interface ConsolidationSeed {
  /** Root of the tree of 5 (root CLP, one USD member) holding `lines` lines between them. */
  bigRoot: string;
  lines: number;
  /** Root of the tree of 50 small Entities. */
  smallRoot: string;
  smallMembers: number;
}

const SEED_FILE = join(BENCH_DIR, 'consolidation.json');
const DAY = 86_400_000;
const START = Date.UTC(2024, 0, 1);
const DAYS = 731;

function loadAverage(): string {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
}

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

interface Member {
  id: string;
  taxId: string;
  currency: string;
  accounts: Record<string, string>;
  /** Partners of this member that are other members of its tree. */
  intercompany: string[];
  outside: string[];
}

const CODES = { bank: '110103', receivable: '110201', payable: '210201', capital: '310101', sales: '410101', cogs: '510101', rent: '620103' };

/**
 * `npm run bench -- consolidation [--lines 1000000] [--small 50] [--seconds 10] [--case n] [--no-fold]`: D91's targets.
 * Once: a tree of 5 Entities (root CLP, one USD member, cl-pyme charts, partners naming each
 * other) with `--lines` lines between them written straight into the tables over two years (5 %
 * intercompany), and a tree of `--small` Entities with a few entries each; the monthly totals
 * built with the service's own formula. Then, each consolidated report from 8 connections for
 * `--seconds`: median and p99, and the CPU a request cost the service, PostgreSQL (its whole process
 * tree) and the load generator, beside the targets (100 ms and 200 ms). `--case n` runs only the
 * n-th report (1-5). Before measuring, the monthly totals of past months are folded with
 * `npm run cli -- ledger:fold-totals` (issue 36c), as the service's periodic job leaves them;
 * `--no-fold` leaves them as written.
 */
export async function consolidation(args: string[]): Promise<void> {
  const target = option(args, '--lines', 1_000_000);
  const small = option(args, '--small', 50);
  const seconds = option(args, '--seconds', 10);
  // Eight connections of one key must not meet D2a's per-User bound of heavy reads (2 by default).
  const env = await startBenchEnvironment({ HEAVY_READS_PER_USER: '16', HEAVY_READS_TOTAL: '16' });
  const pool = new Pool({ connectionString: env.databaseUrl, max: 2 });
  pool.on('error', (error) => process.stderr.write(`idle database client: ${error.message}\n`));
  try {
    const base = env.service.baseUrl;
    const headers = await benchKey(base);
    let seed: ConsolidationSeed | null = existsSync(SEED_FILE) ? (JSON.parse(readFileSync(SEED_FILE, 'utf8')) as ConsolidationSeed) : null;
    if (!seed || seed.lines !== target || seed.smallMembers !== small) {
      seed = await build(base, headers, pool, target, small);
      writeFileSync(SEED_FILE, JSON.stringify(seed, null, 2));
    }
    // Issue 36c: the past months' monthly totals folded (`ledger:fold-totals`), as the service's
    // periodic job leaves them; `--no-fold` measures the totals as written (32 slots a month).
    if (args.includes('--no-fold')) process.stdout.write('\nMonthly totals as written (--no-fold).\n');
    else {
      process.stdout.write(`\n${foldMonthlyTotals(env.databaseUrl)}\n`);
      // What autovacuum does soon after a fold that removed most rows: fresh statistics and visibility.
      await pool.query('VACUUM (ANALYZE) ledger_account_monthly_totals, ledger_partner_monthly_totals');
    }
    const rates = 'closingRate=USD:950.5&averageRate=USD:940.25';
    const cases: Array<[string, string, number]> = [
      [`tree of 5, ${seed.lines.toLocaleString('en')} lines: balance sheet 2025`, `/api/entities/${seed.bigRoot}/reports/consolidated-balance-sheet?exerciseStart=2025-01-01&cutoffDate=2025-12-31&${rates}`, 100],
      [`tree of 5, ${seed.lines.toLocaleString('en')} lines: income statement 2025`, `/api/entities/${seed.bigRoot}/reports/consolidated-income-statement?from=2025-01-01&to=2025-12-31&${rates}`, 100],
      [`tree of 5: balance sheet to mid-month (edge days from the lines)`, `/api/entities/${seed.bigRoot}/reports/consolidated-balance-sheet?exerciseStart=2025-01-10&cutoffDate=2025-11-20&${rates}`, 100],
      [`tree of ${seed.smallMembers} small Entities: balance sheet 2025`, `/api/entities/${seed.smallRoot}/reports/consolidated-balance-sheet?exerciseStart=2025-01-01&cutoffDate=2025-12-31`, 200],
      [`tree of ${seed.smallMembers} small Entities: income statement 2025`, `/api/entities/${seed.smallRoot}/reports/consolidated-income-statement?from=2025-01-01&to=2025-12-31`, 200],
    ];
    const postmaster = Number(readFileSync(join(BENCH_DIR, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const cpu = () => ({ service: processCpuSeconds(env.service.pid), postgres: treeCpuSeconds(postmaster), load: ownCpuSeconds() });
    const only = args.includes('--case') ? Number(args[args.indexOf('--case') + 1]) : null;
    process.stdout.write(`\nEach report from 8 keep-alive connections for ${seconds} s after a warm-up (load average ${loadAverage()} at the start).\n\n`);
    process.stdout.write(
      '| Report | one at a time: median / p95 ms | 8 connections: requests/s | p50 ms | p99 ms | failures | CPU ms a request: service + PostgreSQL + load generator | target (median at 8) |\n|---|---|---|---|---|---|---|---|\n',
    );
    for (const [index, [name, path, limit]] of cases.entries()) {
      if (only !== null && only !== index + 1) continue;
      const alone = await time(() => http(base, 'GET', path, undefined, headers), 15);
      await runLoad({ baseUrl: base, connections: 8, seconds: 2, next: () => ({ method: 'GET', path, headers }), expectStatus: 200 });
      const before = cpu();
      const result = await runLoad({ baseUrl: base, connections: 8, seconds, next: () => ({ method: 'GET', path, headers }), expectStatus: 200 });
      const after = cpu();
      const per = (key: keyof typeof before) => (((after[key] - before[key]) * 1000) / Math.max(1, result.requests)).toFixed(1);
      process.stderr.write(`${formatLoad(name, result)}\n`);
      process.stdout.write(
        `| ${name} | ${alone.median.toFixed(1)} / ${alone.p95.toFixed(1)} | ${result.requestsPerSecond.toFixed(0)} | ${result.p50Ms.toFixed(1)} | ${result.p99Ms.toFixed(1)} | ${result.failures} | ${per('service')} + ${per('postgres')} + ${per('load')} | ${limit} ms: ${result.p50Ms < limit ? 'met' : 'not met'} |\n`,
      );
    }
    process.stdout.write(`\nLoad average at the end: ${loadAverage()} (2 cores; anything above ~1 means the machine was shared).\n`);
  } finally {
    await pool.end();
    await env.stop();
  }
}

async function build(base: string, headers: Record<string, string>, pool: Pool, target: number, small: number): Promise<ConsolidationSeed> {
  const post = (path: string, body: unknown) => http(base, 'POST', path, body, headers);
  let rut = 30_000_000 + Math.floor(Math.random() * 10_000_000);
  const entity = async (name: string, currency: string, parent: string | null): Promise<Member> => {
    const id = randomUUID();
    const taxId = rutOf(rut++);
    await post('/api/entities', { id, name: `${name} ${id.slice(0, 6)}`, country: 'CL', taxId, currency });
    if (parent) await http(base, 'PATCH', `/api/entities/${id}/parent`, { parentEntityId: parent }, headers);
    const chart = (await post(`/api/entities/${id}/ledger/chart-initializations`, { id: randomUUID(), templateKey: 'cl-pyme', templateVersion: '2025.1' })).body;
    const byCode = new Map<string, string>(chart.accounts.map((a: { code: string; id: string }) => [a.code, a.id]));
    const accounts = Object.fromEntries(Object.entries(CODES).map(([key, code]) => [key, byCode.get(code)!]));
    return { id, taxId, currency, accounts, intercompany: [], outside: [] };
  };
  const partners = async (members: Member[], outside: number) => {
    for (const m of members) {
      for (const other of members.filter((o) => o !== m)) {
        const id = randomUUID();
        await post(`/api/entities/${m.id}/partners`, { id, name: `Relacionada ${other.id.slice(0, 6)}`, type: 'company', country: 'CL', taxId: other.taxId });
        m.intercompany.push(id);
      }
      for (let p = 0; p < outside; p++) {
        const id = randomUUID();
        await post(`/api/entities/${m.id}/partners`, { id, name: `Cliente ${p}`, type: 'company', country: 'CL', taxId: rutOf(rut++) });
        m.outside.push(id);
      }
    }
  };
  process.stdout.write('Making the trees through the API...\n');
  const root = await entity('Holding', 'CLP', null);
  const usd = await entity('US Subsidiary', 'USD', root.id);
  const b = await entity('Filial B', 'CLP', root.id);
  const big = [root, usd, b, await entity('Filial C', 'CLP', b.id), await entity('Filial D', 'CLP', b.id)];
  await partners(big, 50);
  const smallRoot = await entity('Grupo', 'CLP', null);
  const smallMembers = [smallRoot];
  const children: Member[] = [];
  while (smallMembers.length < small) {
    const parent = children.length < 7 ? smallRoot : children[smallMembers.length % 7];
    const m = await entity('Pequeña', 'CLP', parent.id);
    if (parent === smallRoot) children.push(m);
    smallMembers.push(m);
  }
  await partners(smallMembers.slice(0, 5), 3);

  process.stdout.write(`Writing ${target.toLocaleString('en')} lines...\n`);
  const rnd = random(36);
  const pick = <T>(list: T[]) => list[Math.floor(rnd() * list.length)];
  const write = async (m: Member, count: number) => {
    let written = 0;
    while (written < count) {
      const entries: Array<{ id: string; date: string }> = [];
      const lines: Array<{ entry: string; date: string; side: string; account: string; amount: number; partner: string | null; n: number }> = [];
      for (let e = 0; e < 1000 && written < count; e++) {
        const id = randomUUID();
        const date = new Date(START + Math.floor((written / count) * DAYS) * DAY).toISOString().slice(0, 10);
        const amount = 1000 + Math.floor(rnd() * 1_000_000);
        const partner = rnd() < 0.05 && m.intercompany.length > 0 ? pick(m.intercompany) : pick(m.outside.length > 0 ? m.outside : [null]);
        const kind = rnd();
        const pair: Array<[string, string, string | null]> =
          kind < 0.4
            ? [['debit', m.accounts.receivable, partner], ['credit', m.accounts.sales, null]]
            : kind < 0.7
              ? [['debit', pick([m.accounts.cogs, m.accounts.rent]), null], ['credit', m.accounts.payable, partner]]
              : kind < 0.85
                ? [['debit', m.accounts.bank, null], ['credit', m.accounts.receivable, partner]]
                : [['debit', m.accounts.payable, partner], ['credit', m.accounts.bank, null]];
        entries.push({ id, date });
        pair.forEach(([side, account, p], n) => lines.push({ entry: id, date, side, account, amount, partner: p, n: n + 1 }));
        written += 2;
      }
      await pool.query(
        `INSERT INTO ledger_entries (entity_id, id, book_id, entry_date, memo, notes, status, source, reversal_of_entry_id, reversed_by_entry_id, created_at, updated_at)
         SELECT $1, x.id, NULL, x.d, 'Bench consolidation', NULL, 'active', 'manual', NULL, NULL, now(), now() FROM unnest($2::uuid[], $3::date[]) AS x(id, d)`,
        [m.id, entries.map((x) => x.id), entries.map((x) => x.date)],
      );
      await pool.query(
        `INSERT INTO ledger_lines (entity_id, id, entry_id, line_no, side, account_id, amount, description, partner_id, transaction_currency, transaction_amount,
                                   exchange_rate, is_open_item, allocated_amount, book_id, entry_date, status, memo)
         SELECT $1, gen_random_uuid(), l.entry_id, l.n, l.side, l.account_id, l.amount, NULL, l.partner_id, NULL, NULL, NULL, l.account_id = ANY($9::uuid[]), 0, NULL, l.d, 'active', 'Bench consolidation'
           FROM unnest($2::uuid[], $3::smallint[], $4::text[], $5::uuid[], $6::bigint[], $7::uuid[], $8::date[]) AS l(entry_id, n, side, account_id, amount, partner_id, d)`,
        [
          m.id,
          lines.map((l) => l.entry),
          lines.map((l) => l.n),
          lines.map((l) => l.side),
          lines.map((l) => l.account),
          lines.map((l) => l.amount),
          lines.map((l) => l.partner),
          lines.map((l) => l.date),
          [m.accounts.receivable, m.accounts.payable],
        ],
      );
    }
  };
  for (const m of big) await write(m, Math.floor(target / big.length));
  for (const m of smallMembers) await write(m, 200);
  process.stdout.write('Building the monthly totals...\n');
  for (const m of [...big, ...smallMembers]) {
    await pool.query(
      `INSERT INTO ledger_account_monthly_totals (entity_id, account_id, book_key, month, slot, debit, credit, line_count)
       SELECT entity_id, account_id, coalesce(book_id, '00000000-0000-0000-0000-000000000000'::uuid), date_trunc('month', entry_date)::date,
              get_byte(uuid_send(entry_id), 15) % 32,
              coalesce(sum(amount) FILTER (WHERE side = 'debit'), 0), coalesce(sum(amount) FILTER (WHERE side = 'credit'), 0), count(*)
         FROM ledger_lines WHERE entity_id = $1 AND status IN ('active', 'reversed')
        GROUP BY entity_id, account_id, book_id, date_trunc('month', entry_date), get_byte(uuid_send(entry_id), 15) % 32
       ON CONFLICT (entity_id, account_id, book_key, month, slot)
       DO UPDATE SET debit = ledger_account_monthly_totals.debit + EXCLUDED.debit, credit = ledger_account_monthly_totals.credit + EXCLUDED.credit,
                     line_count = ledger_account_monthly_totals.line_count + EXCLUDED.line_count`,
      [m.id],
    );
    for (const statement of LINE_AGGREGATES_REBUILD) await pool.query(statement, [m.id]);
  }
  await pool.query('VACUUM (ANALYZE)');
  const [{ n }] = (await pool.query(`SELECT count(*)::int AS n FROM ledger_lines WHERE entity_id = ANY($1::uuid[])`, [big.map((m) => m.id)])).rows;
  process.stdout.write(`Tree of 5: ${n.toLocaleString('en')} lines; tree of ${smallMembers.length}.\n`);
  return { bigRoot: root.id, lines: target, smallRoot: smallRoot.id, smallMembers: small };
}
