import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR, benchKey, http, readSeed, startBenchEnvironment } from './lib/bench-env';
import { processCpuSeconds, treeCpuSeconds } from './lib/cpu';
import { percentile } from './lib/load';
import { REPORT_READ_MODEL_BACKFILL } from '../migrations/1795712882541-ReportReadModels';
import { REPORT_OPEN_POSITIONS_BACKFILL } from '../migrations/1795716589094-ReportOpenPositions';
import { LINE_AGGREGATES_REBUILD } from '../migrations/1795724724976-LineAggregatesInStatements';
import { CURRENCY_EXPONENTS, revenueMonthsBackfill } from '../migrations/1796614813194-RevenueMonths';

const RUNS = 25;

async function time(run: () => Promise<unknown>, runs = RUNS): Promise<{ median: number; p95: number }> {
  await run();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await run();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return { median: percentile(samples, 50), p95: percentile(samples, 95) };
}

/**
 * `npm run bench -- dashboards-seed`: extends the seeded Entity (`npm run bench -- seed`) with what
 * home, revenue realization and recommendations read, straight into the tables: a bank account on
 * the bank ledger account and one booked movement per bank line (counterparty RUT and a
 * description naming the partner and the purpose), plus 2 % unbooked ones; an AR invoice per
 * sale entry and an AP invoice per purchase entry, booked to that entry (30 % of AR with a
 * 90-day service period); invoices older than 60 days before the seed's end settled (their
 * open-item lines fully allocated, as the seed's payments would).
 */
/**
 * The settlements the seed's direct allocations stand for (it sets `allocated_amount` without
 * allocation rows): one per settled booked invoice of the Entity `$1`, dated 30 to 59 days after
 * its booking but no later than 61 days before `$2` (the seed settles what is older than 60
 * days), so that the read model's settled amounts are its settlements' sums, as the API keeps them.
 */
export const SEED_SETTLEMENTS = [
  `INSERT INTO report_invoice_settlements (entity_id, invoice_id, allocation_id, settling_entry_id, settled_on, amount)
   SELECT r.entity_id, r.invoice_id, gen_random_uuid(), gen_random_uuid(), greatest(r.booked_on, least(r.booked_on + 30 + get_byte(uuid_send(r.invoice_id), 7) % 30, $2::date - 61)), r.settled_amount
     FROM report_booked_invoices r
    WHERE r.entity_id = $1 AND r.settled_amount > 0 AND r.invoice_id NOT IN (SELECT s.invoice_id FROM report_invoice_settlements s WHERE s.entity_id = $1)`,
  `UPDATE report_booked_invoices r SET last_settled_on = s.last
     FROM (SELECT invoice_id, max(settled_on) AS last FROM report_invoice_settlements WHERE entity_id = $1 GROUP BY 1) s
    WHERE r.entity_id = $1 AND r.invoice_id = s.invoice_id`,
];

export async function dashboardsSeed(): Promise<void> {
  const seed = readSeed();
  const env = await startBenchEnvironment();
  await env.service.stop();
  const pool = new Pool({ connectionString: env.databaseUrl, max: 1 });
  const e = seed.entityId;
  try {
    const bankAccountId = randomUUID();
    await pool.query(`DELETE FROM report_revenue_cells WHERE entity_id = $1`, [e]);
    await pool.query(`DELETE FROM report_revenue_months WHERE entity_id = $1`, [e]);
    await pool.query(`DELETE FROM report_booked_invoices WHERE entity_id = $1`, [e]);
    await pool.query(`DELETE FROM report_open_positions WHERE entity_id = $1`, [e]);
    await pool.query(`DELETE FROM bank_movements WHERE entity_id = $1`, [e]);
    await pool.query(`DELETE FROM bank_accounts WHERE entity_id = $1`, [e]);
    await pool.query(`DELETE FROM invoices WHERE entity_id = $1`, [e]);
    await pool.query(`INSERT INTO bank_accounts (entity_id, id, name, kind, ledger_account_id, currency, created_at, updated_at) VALUES ($1, $2, 'Banco de Chile', 'bank', $3, 'CLP', now(), now())`, [e, bankAccountId, seed.accounts.bank]);
    const purposes = `ARRAY['pago factura', 'transferencia proveedor', 'abono cliente', 'servicio mensual', 'honorarios', 'arriendo oficina']`;
    const movements = await pool.query(
      `INSERT INTO bank_movements (entity_id, id, bank_account_id, movement_date, description, amount, side, reference, counterparty_name, counterparty_tax_id, source,
                                   provider_movement_id, content_hash, ledger_entry_id, created_at, updated_at)
       SELECT $1, gen_random_uuid(), $2, b.entry_date,
              upper(coalesce(p.name, 'varios')) || ' ' || (${purposes})[1 + (get_byte(uuid_send(b.entry_id), 3) % 6)] || ' ' || to_char(b.entry_date, 'DD/MM'),
              b.amount, b.side, NULL, p.name, p.tax_id, 'import', NULL, md5(b.id::text),
              CASE WHEN get_byte(uuid_send(b.id), 5) < 5 THEN NULL ELSE b.entry_id END, now(), now()
         FROM ledger_lines b
         LEFT JOIN LATERAL (SELECT l.partner_id FROM ledger_lines l WHERE l.entity_id = b.entity_id AND l.entry_id = b.entry_id AND l.partner_id IS NOT NULL LIMIT 1) o ON true
         LEFT JOIN partners p ON p.entity_id = b.entity_id AND p.id = o.partner_id
        WHERE b.entity_id = $1 AND b.account_id = $3 AND b.status = 'active'`,
      [e, bankAccountId, seed.accounts.bank],
    );
    const invoices = await pool.query(
      `INSERT INTO invoices (entity_id, id, direction, document_kind, document_number, issue_date, due_date, partner_id, currency, exchange_rate, net_amount, exempt_amount,
                             tax_amount, total_amount, service_period_start, service_period_end, description, book_status, ledger_entry_id, open_item_line_id, dte_id, created_at, updated_at)
       SELECT $1, gen_random_uuid(), d.direction, 'invoice', (row_number() OVER ())::text, o.entry_date, o.entry_date + 30, o.partner_id, 'CLP', NULL,
              d.total - d.tax, 0, d.tax, d.total,
              CASE WHEN d.direction = 'ar' AND get_byte(uuid_send(o.id), 4) < 77 THEN o.entry_date END,
              CASE WHEN d.direction = 'ar' AND get_byte(uuid_send(o.id), 4) < 77 THEN o.entry_date + 89 END,
              NULL, 'booked', o.entry_id, o.id, NULL, now(), now()
         FROM ledger_lines o
         CROSS JOIN LATERAL (SELECT CASE WHEN o.account_id = $2 THEN 'ar' ELSE 'ap' END AS direction, o.amount AS total,
                                    coalesce((SELECT sum(t.amount) FROM ledger_lines t WHERE t.entity_id = o.entity_id AND t.entry_id = o.entry_id AND t.account_id IN ($4, $5)), 0) AS tax) d
        WHERE o.entity_id = $1 AND o.status = 'active' AND o.partner_id IS NOT NULL
          AND ((o.account_id = $2 AND o.side = 'debit') OR (o.account_id = $3 AND o.side = 'credit'))`,
      [e, seed.accounts.receivable, seed.accounts.payable, seed.accounts.vatDebit, seed.accounts.vatCredit],
    );
    const { rows: [{ last }] } = await pool.query(`SELECT max(entry_date) AS last FROM ledger_lines WHERE entity_id = $1`, [e]);
    await pool.query(
      `UPDATE ledger_lines SET allocated_amount = amount
        WHERE entity_id = $1 AND is_open_item AND status IN ('active', 'reversed') AND entry_date < $2::date - 60 AND get_byte(uuid_send(id), 6) >= 13`,
      [e, last],
    );
    // The open-item totals follow the allocated amounts set above (the API's statements keep them).
    for (const statement of LINE_AGGREGATES_REBUILD) await pool.query(statement, [e]);
    // The reports' booked-invoices read model, as the migration backfills it (the rows above bypassed the booking hook).
    for (const statement of [...REPORT_READ_MODEL_BACKFILL, REPORT_OPEN_POSITIONS_BACKFILL]) await pool.query(statement);
    for (const statement of SEED_SETTLEMENTS) await pool.query(statement, statement.includes('$2') ? [e, last] : [e]);
    // Revenue realization's kept months (issue 35), as the migration backfills them.
    const [cells, months] = revenueMonthsBackfill(true);
    await pool.query(cells, [CURRENCY_EXPONENTS, e]);
    await pool.query(months, [e]);
    await pool.query('VACUUM (ANALYZE)');
    process.stdout.write(`Added ${movements.rowCount} bank movements and ${invoices.rowCount} invoices to ${e}.\n`);
  } finally {
    await pool.end();
    await env.postgres.stop();
  }
}

interface Timing {
  median: number;
  p95: number;
  /** CPU per request, ms: the service process and PostgreSQL's whole process tree. */
  serviceCpu?: number;
  postgresCpu?: number;
  bytes?: number;
}

/** Like `time`, with the CPU each request cost the service and PostgreSQL (load does not inflate CPU as it does latency). */
async function timeWithCpu(servicePid: number, postgresPid: number, run: () => Promise<{ text?: string } | unknown>, runs = RUNS): Promise<Timing> {
  const first = (await run()) as { text?: string };
  const service0 = processCpuSeconds(servicePid);
  const postgres0 = treeCpuSeconds(postgresPid);
  const timing = await time(run, runs);
  return {
    ...timing,
    serviceCpu: ((processCpuSeconds(servicePid) - service0) / (runs + 1)) * 1000,
    postgresCpu: ((treeCpuSeconds(postgresPid) - postgres0) / (runs + 1)) * 1000,
    bytes: typeof first?.text === 'string' ? Buffer.byteLength(first.text) : undefined,
  };
}

/**
 * `npm run bench -- dashboards [--runs N] [--raw-runs N]`: home and revenue realization through
 * HTTP beside the same figures computed in plain SQL from the raw lines (one pass over the bank
 * lines for the daily balances, the result lines for the months, every booked invoice with its
 * open-item line for the open positions; every booked AR invoice with its line and a day series
 * for the spread), and recommendations for booked and unbooked movements. Each figure is printed
 * beside its target, with the CPU a request cost the service and PostgreSQL. `--revenue` times
 * revenue realization alone (issue 35), and first checks each range's month figures (read from
 * the months kept at write time) against the per-invoice path's (a presentation currency of the
 * same exponent at rate 1 converts nothing and spreads every invoice, D57).
 */
export async function dashboards(args: string[] = []): Promise<void> {
  const option = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
  const runs = option('--runs', RUNS);
  const rawRuns = option('--raw-runs', 5);
  const seed = readSeed();
  const env = await startBenchEnvironment();
  const pool = new Pool({ connectionString: env.databaseUrl, max: 1 });
  const postgresPid = Number(readFileSync(join(BENCH_DIR, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const e = seed.entityId;
  try {
    const base = env.service.baseUrl;
    const headers = await benchKey(base);
    const get = (path: string) => http(base, 'GET', `/api/entities/${e}${path}`, undefined, headers);
    const getText = async (path: string) => {
      const res = await fetch(`${base}/api/entities/${e}${path}`, { headers });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`);
      return { text };
    };
    const { rows: [{ today }] } = await pool.query(`SELECT to_char(current_date, 'YYYY-MM-DD') AS today`);
    const rawHome = async () => {
      // Daily balances: one pass over the bank account's lines (everything before the window, then per day).
      await pool.query(
        `WITH days AS (SELECT d::date AS d FROM generate_series($3::date - 59, $3::date, '1 day') d),
              per_day AS MATERIALIZED (SELECT least(entry_date, $3::date - 60) AS d, sum(CASE side WHEN 'debit' THEN amount ELSE -amount END) AS net
                            FROM ledger_lines WHERE entity_id = $1 AND account_id = $2 AND status IN ('active', 'reversed') AND book_id IS NULL AND entry_date <= $3::date
                           GROUP BY 1)
         SELECT days.d, (SELECT coalesce(sum(net), 0) FROM per_day WHERE per_day.d <= days.d) FROM days`,
        [e, seed.accounts.bank, today],
      );
      await pool.query(
        `SELECT date_trunc('month', l.entry_date), sum(CASE l.side WHEN 'credit' THEN l.amount ELSE -l.amount END) FILTER (WHERE a.type IN ('income', 'other_income')),
                sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END) FILTER (WHERE a.type NOT IN ('income', 'other_income'))
           FROM ledger_lines l JOIN ledger_accounts a ON a.entity_id = l.entity_id AND a.id = l.account_id
          WHERE l.entity_id = $1 AND l.status IN ('active', 'reversed') AND l.entry_date > $2::date - 190
            AND a.type IN ('income', 'other_income', 'cost_of_goods_sold', 'operating_expense', 'other_expense')
          GROUP BY 1`,
        [e, today],
      );
      await pool.query(
        `SELECT i.direction, sum(l.amount - l.allocated_amount), sum(l.amount - l.allocated_amount) FILTER (WHERE i.due_date < $2::date)
           FROM invoices i JOIN ledger_lines l ON l.entity_id = i.entity_id AND l.id = i.open_item_line_id
          WHERE i.entity_id = $1 AND i.book_status = 'booked' AND l.status IN ('active', 'reversed') GROUP BY 1`,
        [e, today],
      );
    };
    const rawRevenue = (from: string, to: string) =>
      pool.query(
        `SELECT date_trunc('month', d), sum((i.net_amount + i.exempt_amount)::numeric
                  / (coalesce(i.service_period_end, i.issue_date) - coalesce(i.service_period_start, i.issue_date) + 1))
           FROM invoices i
           JOIN ledger_lines l ON l.entity_id = i.entity_id AND l.id = i.open_item_line_id
           CROSS JOIN LATERAL generate_series(greatest(coalesce(i.service_period_start, i.issue_date), $2::date), least(coalesce(i.service_period_end, i.issue_date), $3::date), '1 day') d
          WHERE i.entity_id = $1 AND i.direction = 'ar' AND i.book_status = 'booked' AND l.status IN ('active', 'reversed')
          GROUP BY 1`,
        [e, from, to],
      );
    const { rows: sample } = await pool.query(
      `SELECT id, ledger_entry_id IS NULL AS unbooked FROM bank_movements WHERE entity_id = $1 ORDER BY md5(id::text) LIMIT 40`,
      [e],
    );
    const ranges: Array<[string, string, string]> = [
      ['revenue realization, one month (2025-12)', '2025-12-01', '2025-12-31'],
      ['revenue realization, one quarter (2025-Q4)', '2025-10-01', '2025-12-31'],
      ['revenue realization, one year (2025)', '2025-01-01', '2025-12-31'],
    ];
    const rows: Array<{ name: string; api: Timing; raw: Timing | null; target: string; ratio: boolean }> = [];
    const cpu = (run: () => Promise<unknown>, n = runs) => timeWithCpu(env.service.pid, postgresPid, run, n);
    const revenueOnly = args.includes('--revenue');
    if (revenueOnly) {
      for (const [name, from, to] of ranges) {
        const kept = JSON.parse((await getText(`/reports/revenue-realization?from=${from}&to=${to}`)).text);
        const cells = JSON.parse((await getText(`/reports/revenue-realization?from=${from}&to=${to}&presentationCurrency=JPY&presentationRate=1&invoiceLimit=1000`)).text);
        const same = JSON.stringify({ m: kept.months, t: kept.totals }) === JSON.stringify({ m: cells.months, t: cells.totals });
        process.stdout.write(`${name}: month figures ${same ? 'equal' : 'DIFFER FROM'} the per-invoice path's (totals ${JSON.stringify(kept.totals)})\n`);
        if (!same) process.stdout.write(`  kept ${JSON.stringify(kept.months)}\n  per-invoice ${JSON.stringify(cells.months)}\n`);
      }
    }
    if (!revenueOnly) rows.push({ name: 'home', api: await cpu(() => getText('/reports/home')), raw: await time(rawHome, rawRuns), target: '< 50 ms, >= 4x raw', ratio: true });
    for (const [name, from, to] of ranges) {
      rows.push({ name, api: await cpu(() => getText(`/reports/revenue-realization?from=${from}&to=${to}`), from === '2025-01-01' ? Math.min(runs, 10) : runs), raw: await time(() => rawRevenue(from, to), rawRuns), target: '< 50 ms, >= 4x raw', ratio: true });
    }
    let k = 0;
    if (!revenueOnly) rows.push({ name: 'recommendations, a bank movement', api: await cpu(() => get(`/recommendations?bankMovementId=${sample[k++ % sample.length].id}`), 40), raw: null, target: '< 30 ms', ratio: false });

    const { rows: [{ lines }] } = await pool.query(`SELECT count(*)::int AS lines FROM ledger_lines WHERE entity_id = $1`, [e]);
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    process.stdout.write(`\nSeeded Entity: ${lines.toLocaleString('en')} lines; load average ${load}. Times in ms, median / p95 (HTTP for the API; one connection for plain SQL); CPU in ms per request.\n\n`);
    process.stdout.write('| Read | API | CPU service + PostgreSQL | answer | plain SQL from raw lines | API faster by | target | met |\n|---|---|---|---|---|---|---|---|\n');
    const ms = (t: Timing) => `${t.median.toFixed(1)} / ${t.p95.toFixed(1)}`;
    for (const { name, api, raw, target, ratio } of rows) {
      const faster = raw ? raw.median / api.median : null;
      const met = api.median < (ratio ? 50 : 30) && (!ratio || (faster ?? 0) >= 4);
      process.stdout.write(
        `| ${name} | ${ms(api)} | ${api.serviceCpu?.toFixed(1)} + ${api.postgresCpu?.toFixed(1)} | ${api.bytes ? `${(api.bytes / 1024).toFixed(0)} KiB` : ''} | ${raw ? ms(raw) : ''} | ${faster ? `${faster.toFixed(1)}x` : ''} | ${target} | ${met ? 'met' : 'not met'} |\n`,
      );
    }
  } finally {
    await pool.end();
    await env.stop();
  }
}
