import { Pool } from 'pg';
import { benchKey, http, readSeed, startBenchEnvironment } from './lib/bench-env';
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
