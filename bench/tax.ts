import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'pg';
import { rutCheckDigit } from '../libs/shared-kernel/src';
import { SALES_HEADER, salesRow } from '../test/harness/rcv-files';
import { BENCH_DIR, benchKey, http, startBenchEnvironment } from './lib/bench-env';
import { processCpuSeconds, treeCpuSeconds } from './lib/cpu';
import { time } from './reports';

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

/**
 * `npm run bench -- tax [--invoices 20000] [--months 6] [--runs 25]` (issue 37, D92): a fresh
 * Entity with `--months` months (ending with June 2026) of `--invoices` sales invoices and as many
 * purchases each (written straight into `invoices`: 33 mostly, 34, 39, 56, 61, and 110 in USD),
 * 500 partners; then, through HTTP with an API key:
 * 1. the June sales register (`--invoices` rows), median and p95 [target < 300 ms];
 * 2. the June F29 over the month's invoices of both directions, median and p95 [target median < 50 ms];
 * 3. an RCV file (sales layout) of `--invoices` rows built from June's sales (1 % amounts changed,
 *    1 % left out, 1 % extra), imported (text/csv) and reconciled [target import + reconciliation < 3 s];
 * with the CPU each cost the service and PostgreSQL, and the plan of the register's query.
 */
export async function tax(args: string[]): Promise<void> {
  const perMonth = option(args, '--invoices', 20_000);
  const months = option(args, '--months', 6);
  const runs = option(args, '--runs', 25);
  const env = await startBenchEnvironment();
  const pool = new Pool({ connectionString: env.databaseUrl, max: 2 });
  pool.on('error', (error) => process.stderr.write(`idle database client: ${error.message}\n`));
  const postmaster = Number(readFileSync(join(BENCH_DIR, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const cpu = () => ({ service: processCpuSeconds(env.service.pid), db: treeCpuSeconds(postmaster) });
  const cpuSince = (before: { service: number; db: number }, requests: number) => {
    const now = cpu();
    const ms = (s: number) => ((s * 1000) / requests).toFixed(1);
    return `service CPU ${ms(now.service - before.service)} ms, database CPU ${ms(now.db - before.db)} ms a request`;
  };
  try {
    const base = env.service.baseUrl;
    const headers = await benchKey(base);
    const entityId = randomUUID();
    await http(base, 'POST', '/api/entities', { id: entityId, name: `Bench Tax ${entityId.slice(0, 8)}`, country: 'CL', taxId: '76.086.428-5', currency: 'CLP' }, headers);

    // 500 partners with valid RUTs.
    const bodies = Array.from({ length: 500 }, (_, i) => String(76_100_000 + i * 7));
    const partnerIds = bodies.map(() => randomUUID());
    const ruts = bodies.map((b) => `${b}-${rutCheckDigit(b)}`);
    await pool.query(
      `INSERT INTO partners (entity_id, id, name, type, country, tax_id, created_at, updated_at)
       SELECT $1, p.id, 'Cliente ' || p.n, 'company', 'CL', p.rut, now(), now() FROM unnest($2::uuid[], $3::text[]) WITH ORDINALITY AS p(id, rut, n)`,
      [entityId, partnerIds, ruts],
    );
    // Each month: perMonth sales and perMonth purchases; kinds by g % 100.
    const t0 = performance.now();
    for (let m = 7 - months; m <= 6; m++) {
      for (const direction of ['ar', 'ap']) {
        await pool.query(
          `INSERT INTO invoices (entity_id, id, direction, document_kind, document_number, issue_date, partner_id, currency, exchange_rate,
                                 net_amount, exempt_amount, tax_amount, total_amount, book_status, created_at, updated_at)
           SELECT $1, gen_random_uuid(), $2, k.kind, (1000000 * $3::int + g)::text, make_date(2026, $3::int, 1 + g % 28), ($4::uuid[])[1 + g % 500],
                  CASE WHEN k.kind = 'export_invoice' THEN 'USD' ELSE 'CLP' END, CASE WHEN k.kind = 'export_invoice' THEN 950.5 END,
                  k.net, k.exempt, k.tax, k.net + k.exempt + k.tax, 'unbooked', now(), now()
             FROM generate_series(1, $5::int) AS g
             CROSS JOIN LATERAL (SELECT CASE WHEN g % 100 < 80 THEN 'invoice' WHEN g % 100 < 85 THEN 'exempt_invoice' WHEN g % 100 < 90 AND $2 = 'ar' THEN 'receipt'
                                             WHEN g % 100 < 94 THEN 'debit_note' WHEN g % 100 < 98 THEN 'credit_note' WHEN $2 = 'ar' THEN 'export_invoice' ELSE 'invoice' END AS kind) AS kk
             CROSS JOIN LATERAL (SELECT kk.kind,
                                        CASE WHEN kk.kind IN ('exempt_invoice', 'export_invoice') THEN 0 ELSE 10000 + (g * 7919) % 2000000 END AS net,
                                        CASE WHEN kk.kind IN ('exempt_invoice', 'export_invoice') THEN 10000 + (g * 7919) % 2000000 ELSE 0 END AS exempt,
                                        CASE WHEN kk.kind IN ('exempt_invoice', 'export_invoice') THEN 0 ELSE round((10000 + (g * 7919) % 2000000) * 0.19)::bigint END AS tax) AS k`,
          [entityId, direction, m, partnerIds, perMonth],
        );
      }
    }
    // The month totals the invoices' writing statements keep (rows written here bypass them).
    await pool.query(
      `INSERT INTO invoice_month_totals (entity_id, month, direction, document_kind, slot, invoice_count, exempt_amount, net_amount, tax_amount, total_amount)
       SELECT entity_id, date_trunc('month', issue_date)::date, direction, document_kind, hashtext(id::text) & 15, count(*), sum(exempt_amount), sum(net_amount), sum(tax_amount), sum(total_amount)
         FROM invoices WHERE entity_id = $1 AND exchange_rate IS NULL GROUP BY 1, 2, 3, 4, 5`,
      [entityId],
    );
    await pool.query('VACUUM (ANALYZE) invoices');
    await pool.query('ANALYZE invoice_month_totals');
    await pool.query('ANALYZE partners');
    const total = perMonth * 2 * months;
    process.stdout.write(`wrote ${total.toLocaleString('en')} invoices (${months} months of ${perMonth.toLocaleString('en')} sales and as many purchases) in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);

    const plan = (await pool.query(
      `EXPLAIN SELECT i.id FROM invoices i WHERE i.entity_id = $1 AND i.issue_date >= '2026-06-01'::date AND i.issue_date <= '2026-06-30'::date AND i.direction = 'ar' AND i.document_kind <> 'other'`,
      [entityId],
    )).rows.map((r: Record<string, string>) => Object.values(r)[0]);
    process.stdout.write(`the register's read: ${plan.map((line) => line.trim()).join(' | ')}\n`);

    const path = (suffix: string) => `/api/entities/${entityId}/tax/${suffix}`;
    const getText = async (suffix: string) => {
      const res = await fetch(`${base}${path(suffix)}`, { headers });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${suffix}: ${res.status} ${text.slice(0, 300)}`);
      return text;
    };
    const register = JSON.parse(await getText('purchase-sales-register?period=2026-06&direction=sales')) as {
      rows: Array<{ dteType: number; folio: number; partnerTaxId: string; exemptAmount: number; netAmount: number; taxAmount: number; totalAmount: number }>;
    };
    let before = cpu();
    const registerTiming = await time(() => getText('purchase-sales-register?period=2026-06&direction=sales'), Math.min(runs, 15));
    process.stdout.write(
      `register, June sales (${register.rows.length.toLocaleString('en')} rows): median ${registerTiming.median.toFixed(1)} ms, p95 ${registerTiming.p95.toFixed(1)} ms; ${cpuSince(before, Math.min(runs, 15) + 1)} [target < 300 ms: ${registerTiming.p95 < 300 ? 'met (p95)' : registerTiming.median < 300 ? 'met (median)' : 'not met'}]\n`,
    );
    before = cpu();
    const f29Timing = await time(() => getText('f29?period=2026-06&ppmRate=0.25&carriedCredit=1000'), runs);
    process.stdout.write(`F29, June (${(perMonth * 2).toLocaleString('en')} invoices): median ${f29Timing.median.toFixed(1)} ms, p95 ${f29Timing.p95.toFixed(1)} ms; ${cpuSince(before, runs + 1)} [target median < 50 ms: ${f29Timing.median < 50 ? 'met' : 'not met'}]\n`);

    // 3. The SII's file: June's sales, 1 % with another net, 1 % missing, 1 % extra.
    const lines = [SALES_HEADER];
    let n = 0;
    register.rows.forEach((row, i) => {
      if (i % 100 === 1) return;
      const net = i % 100 === 2 ? row.netAmount + 1 : row.netAmount;
      lines.push(salesRow(++n, { type: row.dteType, rut: row.partnerTaxId, name: 'Cliente', folio: row.folio, date: '15/06/2026', exempt: row.exemptAmount, net, tax: row.taxAmount, total: row.totalAmount }));
      if (i % 100 === 3) lines.push(salesRow(++n, { type: 33, rut: row.partnerTaxId, name: 'Cliente', folio: 900_000_000 + i, date: '15/06/2026', net: 1000, tax: 190, total: 1190 }));
    });
    const file = `${lines.join('\r\n')}\r\n`;
    const rounds: string[] = [];
    for (let round = 0; round < 3; round++) {
      before = cpu();
      const t1 = performance.now();
      const imported = await fetch(`${base}${path('rcv-imports?period=2026-06&direction=sales')}`, { method: 'POST', headers: { ...headers, 'content-type': 'text/csv' }, body: file });
      const importBody = (await imported.json()) as { rowCount: number };
      if (imported.status !== 201) throw new Error(`import: ${imported.status} ${JSON.stringify(importBody)}`);
      const t2 = performance.now();
      const reconciliation = JSON.parse(await getText('rcv-reconciliation?period=2026-06&direction=sales')) as { counts: Record<string, number> };
      const t3 = performance.now();
      rounds.push(
        `import of ${importBody.rowCount.toLocaleString('en')} rows (${(Buffer.byteLength(file) / 1e6).toFixed(1)} MB) ${(t2 - t1).toFixed(0)} ms + reconciliation ${(t3 - t2).toFixed(0)} ms = ${((t3 - t1) / 1000).toFixed(2)} s (${JSON.stringify(reconciliation.counts)}; ${cpuSince(before, 1)}) [target < 3 s: ${t3 - t1 < 3000 ? 'met' : 'not met'}]`,
      );
    }
    for (const line of rounds) process.stdout.write(`${line}\n`);
  } finally {
    await pool.end();
    await env.stop();
  }
}
