import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { processCpuSeconds, treeCpuSeconds } from './lib/cpu';
import { BENCH_DIR, benchKey, readSeed, startBenchEnvironment } from './lib/bench-env';

interface Download {
  label: string;
  rows: number;
  bytes: number;
  firstByteMs: number;
  totalMs: number;
  rssBeforeMiB: number;
  rssPeakMiB: number;
  serviceCpu: number;
  postgresCpu: number;
  load: number;
}

/**
 * `npm run bench -- exports [--year 2025] [--runs 1]` (issue 38, D93): on the seeded Entity (`seed
 * --lines N`), the year's journal (the Libro Diario) and the year's Libro Mayor downloaded as CSV
 * and as XLSX (and the Libro Mayor as JSON) through HTTP, each timed to its first byte and to its
 * last, its rows counted (from the lines it holds), and the service's RSS sampled every 20 ms
 * while it streams. Targets: CSV >= 150,000 rows/s, XLSX >= 40,000 rows/s, first byte < 300 ms,
 * RSS growth < 100 MB.
 */
export async function exportsBench(args: string[]): Promise<void> {
  const seed = readSeed();
  const option = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const runs = Number(option('runs') ?? 1);
  const env = await startBenchEnvironment();
  const pool = new Pool({ connectionString: env.databaseUrl, max: 1 });
  try {
    const year =
      option('year') ??
      (await pool.query<{ year: string }>(`SELECT to_char(max(entry_date), 'YYYY') AS year FROM ledger_lines WHERE entity_id = $1 AND status IN ('active', 'reversed')`, [seed.entityId])).rows[0].year;
    const from = `${year}-01-01`;
    const to = `${year}-12-31`;
    const [{ lines, accounts }] = (
      await pool.query<{ lines: number; accounts: number }>(
        `SELECT count(*)::int AS lines, count(DISTINCT account_id)::int AS accounts FROM ledger_lines
          WHERE entity_id = $1 AND status IN ('active', 'reversed') AND book_id IS NULL AND entry_date BETWEEN $2 AND $3`,
        [seed.entityId, from, to],
      )
    ).rows;
    const headers = await benchKey(env.service.baseUrl);
    // CPU of the service and of PostgreSQL (its postmaster's tree) during each download: what a
    // request costs, which a loaded machine inflates less than it does the elapsed time.
    const postmaster = Number(readFileSync(join(BENCH_DIR, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const download = async (label: string, path: string, rows: number): Promise<Download> => {
      const rssBeforeMiB = env.service.rssMiB();
      let rssPeakMiB = rssBeforeMiB;
      const sampler = setInterval(() => (rssPeakMiB = Math.max(rssPeakMiB, env.service.rssMiB())), 20);
      const cpu0 = { service: processCpuSeconds(env.service.pid), postgres: treeCpuSeconds(postmaster) };
      const start = performance.now();
      try {
        const res = await fetch(`${env.service.baseUrl}/api/entities/${seed.entityId}${path}`, { headers });
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
        const reader = res.body!.getReader();
        let firstByteMs = 0;
        let bytes = 0;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (bytes === 0) firstByteMs = performance.now() - start;
          bytes += value.length;
        }
        const totalMs = performance.now() - start;
        return {
          label,
          rows,
          bytes,
          firstByteMs,
          totalMs,
          rssBeforeMiB,
          rssPeakMiB: Math.max(rssPeakMiB, env.service.rssMiB()),
          serviceCpu: processCpuSeconds(env.service.pid) - cpu0.service,
          postgresCpu: treeCpuSeconds(postmaster) - cpu0.postgres,
          load: loadavg()[0],
        };
      } finally {
        clearInterval(sampler);
      }
    };
    process.stdout.write(`Seeded Entity: ${seed.lines} lines; the year ${year}: ${lines} live lines on ${accounts} accounts\n`);
    const range = `from=${from}&to=${to}`;
    const only = option('only');
    const all: Array<[string, string, number, number | null]> = [
      ['journal (Libro Diario) CSV', `/reports/journal?${range}&format=csv`, lines, 150_000],
      ['journal (Libro Diario) XLSX', `/reports/journal?${range}&format=xlsx`, lines, 40_000],
      ['Libro Mayor CSV', `/reports/general-ledger-book?${range}&format=csv`, lines + 2 * accounts, 150_000],
      ['Libro Mayor XLSX', `/reports/general-ledger-book?${range}&format=xlsx`, lines + 2 * accounts, 40_000],
      ['Libro Mayor JSON', `/reports/general-ledger-book?${range}`, lines, null],
    ];
    const cases = only ? all.filter(([label]) => label.toLowerCase().includes(only.toLowerCase())) : all;
    const table: string[] = [
      '| export | rows | MB | first byte | total | rows/s | CPU s per 100k rows: service + PostgreSQL | load avg (1 min) | RSS before -> peak (growth) | targets |',
      '|---|---|---|---|---|---|---|---|---|---|',
    ];
    for (let run = 0; run < runs; run++) {
      for (const [label, path, rows, target] of cases) {
        const d = await download(label, path, rows);
        const rate = d.rows / (d.totalMs / 1000);
        const growth = d.rssPeakMiB - d.rssBeforeMiB;
        const verdicts = [
          target === null ? null : `rate ${rate >= target ? 'met' : 'NOT met'} (>= ${target.toLocaleString('en-US')})`,
          `first byte ${d.firstByteMs < 300 ? 'met' : 'NOT met'}`,
          `RSS ${growth * 1.048576 < 100 ? 'met' : 'NOT met'}`,
        ].filter(Boolean);
        const line = `| ${label} | ${d.rows.toLocaleString('en-US')} | ${(d.bytes / 1e6).toFixed(1)} | ${d.firstByteMs.toFixed(0)} ms | ${(d.totalMs / 1000).toFixed(2)} s | ${Math.round(rate).toLocaleString('en-US')} | ${((d.serviceCpu * 1e5) / d.rows).toFixed(2)} + ${((d.postgresCpu * 1e5) / d.rows).toFixed(2)} | ${d.load.toFixed(1)} | ${d.rssBeforeMiB.toFixed(0)} -> ${d.rssPeakMiB.toFixed(0)} MiB (${growth.toFixed(0)}) | ${verdicts.join('; ')} |`;
        table.push(line);
        process.stdout.write(`${line}\n`);
      }
    }
    process.stdout.write(`\n${table.join('\n')}\n`);
  } finally {
    await pool.end();
    await env.stop();
  }
}
