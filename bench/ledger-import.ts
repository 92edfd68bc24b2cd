import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { Pool } from 'pg';
import { BENCH_DIR, benchKey, http, startBenchEnvironment } from './lib/bench-env';
import { processCpuSeconds, treeCpuSeconds } from './lib/cpu';
import { random, rutOf } from './lib/generate';

const TARGET_LINES_PER_SECOND = 20_000;
const DAY = 86_400_000;

/**
 * `npm run bench -- ledger-import [--lines N] [--batch N] [--parallel N]`: a fresh Entity (cl-pyme chart,
 * partners, a Dimension, made through the API), a JSON Lines file of N ledger lines (default
 * 1,000,000: sales with VAT tagged by cost centre, purchases, payments in and out naming
 * partners, over the last two years) and `npm run cli -- ledger:import` of it, as an operator runs
 * it. Prints lines/s beside the 20,000 target, the CPU of the command and of PostgreSQL per
 * 1,000 lines, and checks the books afterwards (totals equal to the lines, an audit row per entry).
 */
export async function ledgerImport(args: string[]): Promise<void> {
  const flag = (name: string, fallback: number) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args[i + 1]) : fallback;
  };
  const target = flag('lines', 1_000_000);
  const batch = flag('batch', 1000);
  const parallel = flag('parallel', 2);
  const env = await startBenchEnvironment();
  const pool = new Pool({ connectionString: env.databaseUrl, max: 1 });
  pool.on('error', (error) => process.stderr.write(`idle database client: ${error.message}\n`));
  let serviceStopped = false;
  try {
    const base = env.service.baseUrl;
    const headers = await benchKey(base);
    const entityId = randomUUID();
    await http(base, 'POST', '/api/entities', { id: entityId, name: `Import SpA ${entityId.slice(0, 8)}`, country: 'CL', taxId: '76.086.428-5', currency: 'CLP' }, headers);
    const chart = (await http(base, 'POST', `/api/entities/${entityId}/ledger/chart-initializations`, { id: randomUUID(), templateKey: 'cl-pyme', templateVersion: '2025.1' }, headers)).body;
    const byCode = new Map<string, string>(chart.accounts.map((a: { code: string; id: string }) => [a.code, a.id]));
    const account = (code: string) => byCode.get(code)!;
    const a = {
      bank: account('110103'),
      receivable: account('110201'),
      vatCredit: account('110301'),
      payable: account('210201'),
      vatDebit: account('210301'),
      sales: account('410101'),
      services: account('410102'),
      cogs: account('510101'),
      rent: account('620103'),
      office: account('620107'),
    };
    const partners: string[] = [];
    for (let p = 0; p < 200; p++) {
      const id = randomUUID();
      await http(base, 'POST', `/api/entities/${entityId}/partners`, { id, name: `Partner ${p} SpA`, type: 'company', country: 'CL', taxId: rutOf(20_000_000 + p * 7919) }, headers);
      partners.push(id);
    }
    const dimensionId = randomUUID();
    await http(base, 'POST', `/api/entities/${entityId}/dimensions`, { id: dimensionId, name: 'Centro de costo' }, headers);
    const values: string[] = [];
    for (const code of ['SCL', 'VAP', 'CCP']) {
      const id = randomUUID();
      await http(base, 'POST', `/api/entities/${entityId}/dimensions/${dimensionId}/values`, { id, code, name: code }, headers);
      values.push(id);
    }
    // The service is not needed for the import (the command writes to the database itself).
    await env.service.stop();
    serviceStopped = true;

    // The file.
    mkdirSync(BENCH_DIR, { recursive: true });
    const file = join(BENCH_DIR, `ledger-import-${target}.jsonl`);
    const out = createWriteStream(file);
    const rnd = random(7);
    const pick = <T>(list: T[]) => list[Math.floor(rnd() * list.length)];
    const amount = (max: number) => 1000 + Math.floor(rnd() * max);
    const today = Date.now() - DAY;
    let lines = 0;
    let entries = 0;
    while (lines < target) {
      const kind = rnd();
      const partnerId = pick(partners);
      type L = { side: string; ledgerAccountId: string; amount: number; partnerId?: string; dimensionValueIds?: string[]; description?: string };
      let entryLines: L[];
      if (kind < 0.4) {
        const net = amount(2_000_000);
        const tax = Math.round(net * 0.19);
        entryLines = [
          { side: 'debit', ledgerAccountId: a.receivable, amount: net + tax, partnerId },
          { side: 'credit', ledgerAccountId: rnd() < 0.7 ? a.sales : a.services, amount: net, dimensionValueIds: [pick(values)], description: 'Neto' },
          { side: 'credit', ledgerAccountId: a.vatDebit, amount: tax, description: 'IVA' },
        ];
      } else if (kind < 0.65) {
        const net = amount(1_000_000);
        const tax = Math.round(net * 0.19);
        entryLines = [
          { side: 'debit', ledgerAccountId: pick([a.cogs, a.rent, a.office]), amount: net },
          { side: 'debit', ledgerAccountId: a.vatCredit, amount: tax },
          { side: 'credit', ledgerAccountId: a.payable, amount: net + tax, partnerId },
        ];
      } else {
        const paid = amount(2_000_000);
        entryLines =
          rnd() < 0.6
            ? [
                { side: 'debit', ledgerAccountId: a.bank, amount: paid },
                { side: 'credit', ledgerAccountId: a.receivable, amount: paid, partnerId },
              ]
            : [
                { side: 'debit', ledgerAccountId: a.payable, amount: paid, partnerId },
                { side: 'credit', ledgerAccountId: a.bank, amount: paid },
              ];
      }
      const entryDate = new Date(today - Math.floor(rnd() * 730) * DAY).toISOString().slice(0, 10);
      const entry = { id: randomUUID(), entryDate, memo: `Documento ${entries + 1}`, newLedgerEntryLines: entryLines };
      if (!out.write(`${JSON.stringify(entry)}\n`)) await once(out, 'drain');
      lines += entryLines.length;
      entries++;
    }
    out.end();
    await once(out, 'finish');
    process.stdout.write(`File: ${file}, ${entries.toLocaleString('en')} entries, ${lines.toLocaleString('en')} lines, ${(statSync(file).size / 1e6).toFixed(0)} MB\n`);

    // The import, as an operator runs it.
    const postgresPid = Number(readFileSync(join(BENCH_DIR, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const postgresCpu0 = treeCpuSeconds(postgresPid);
    const started = Date.now();
    // BENCH_CPU_PROFILE=dir: the command writes a V8 CPU profile there (node --cpu-prof).
    const profile = process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`] : [];
    const child = spawn(process.execPath, [...profile, '-r', '@swc-node/register', 'src/cli.ts', 'ledger:import', file, '--entity', entityId, '--batch', String(batch), '--parallel', String(parallel)], {
      cwd: join(__dirname, '..'),
      env: { ...process.env, DATABASE_URL: env.databaseUrl, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    let childCpu = 0;
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const sampler = setInterval(() => (childCpu = Math.max(childCpu, processCpuSeconds(child.pid!))), 200);
    const [code] = (await once(child, 'exit')) as [number];
    clearInterval(sampler);
    const wall = (Date.now() - started) / 1000;
    const postgresCpu = treeCpuSeconds(postgresPid) - postgresCpu0;
    process.stdout.write(output);
    if (code !== 0) throw new Error(`ledger:import exited with ${code}`);
    const reported = /seconds: ([\d.]+), lines\/s: ([\d,]+), CPU seconds of this command: ([\d.]+)/.exec(output);
    const rate = reported ? Number(reported[2].replace(/,/g, '')) : 0;
    const importCpu = reported ? Number(reported[3]) : childCpu;
    // What two idle cores would sustain: the command (one thread) and PostgreSQL (one backend per
    // batch in flight, `parallel` of them) overlap, so the bound is the command's thread, each
    // backend's share, or both together on the two cores.
    const perLine = { command: importCpu / lines, postgres: postgresCpu / lines };
    const capacity = 1 / Math.max(perLine.command, perLine.postgres / Math.min(parallel, 2), (perLine.command + perLine.postgres) / 2);

    const [check] = (
      await pool.query(
        `SELECT (SELECT count(*) FROM ledger_lines WHERE entity_id = $1)::int AS lines,
                (SELECT count(*) FROM entity_audit_trail WHERE entity_id = $1 AND declared_actor = 'system:ledger-import')::int AS audit,
                (SELECT count(*) FROM (
                   SELECT account_id, date_trunc('month', entry_date), sum(CASE WHEN side = 'debit' THEN amount END) AS d, sum(CASE WHEN side = 'credit' THEN amount END) AS c
                     FROM ledger_lines WHERE entity_id = $1 GROUP BY 1, 2
                   EXCEPT
                   SELECT account_id, month, nullif(sum(debit), 0), nullif(sum(credit), 0) FROM ledger_account_monthly_totals WHERE entity_id = $1 GROUP BY 1, 2) d)::int AS totals_off`,
        [entityId],
      )
    ).rows;
    process.stdout.write(
      [
        '',
        `ledger-import at ${lines.toLocaleString('en')} lines (batches of ${batch} entries, ${parallel} at once):`,
        `  import:        ${rate.toLocaleString('en')} lines/s   target >= ${TARGET_LINES_PER_SECOND.toLocaleString('en')}   ${rate >= TARGET_LINES_PER_SECOND ? 'MET' : 'NOT MET'}`,
        `  command wall:  ${wall.toFixed(1)} s including its start (Nest, embedded parts)`,
        `  CPU / 1,000 lines: command ${(perLine.command * 1000).toFixed(3)} s (import only; ${((childCpu / lines) * 1000).toFixed(3)} s with its start), PostgreSQL ${(perLine.postgres * 1000).toFixed(3)} s`,
        `  CPU-bound rate on 2 idle cores: ${Math.round(capacity).toLocaleString('en')} lines/s   target >= ${TARGET_LINES_PER_SECOND.toLocaleString('en')}   ${capacity >= TARGET_LINES_PER_SECOND ? 'MET' : 'NOT MET'} (load-independent: the CPU figures above)`,
        `  books after:   ${check.lines.toLocaleString('en')} lines, ${check.audit.toLocaleString('en')} audit rows (one per entry: ${entries.toLocaleString('en')}), monthly totals off by ${check.totals_off} account-months`,
        '',
      ].join('\n'),
    );
  } finally {
    await pool.end();
    // Stopping a stopped service would wait for an exit already past.
    await (serviceStopped ? env.postgres.stop() : env.stop());
  }
}
