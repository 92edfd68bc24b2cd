import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { benchKey, http, startBenchEnvironment, writeSeed } from './lib/bench-env';
import { random, rutOf } from './lib/generate';
import { LINE_AGGREGATES_REBUILD } from '../migrations/1795724724976-LineAggregatesInStatements';

interface Line {
  side: 'debit' | 'credit';
  account: string;
  amount: number;
  partnerId: string | null;
  valueId: string | null;
}

const DAY = 86_400_000;
const START = Date.UTC(2024, 0, 1);
const DAYS = 731;

function progress(done: number, total: number, started: number): void {
  const width = 40;
  const filled = Math.round((done / total) * width);
  const rate = done / ((Date.now() - started) / 1000);
  process.stdout.write(`\r  [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done.toLocaleString('en')} / ${total.toLocaleString('en')} lines, ${Math.round(rate).toLocaleString('en')}/s   `);
}

/**
 * `npm run bench -- seed --lines N`: one Entity with the cl-pyme chart, partners and a
 * Dimension (made through the API), and two years of entries written straight into the tables
 * with multi-row inserts: sales with VAT, purchases, payments in and out, payroll, reversals and
 * a few unbooked entries; then the monthly totals built with the service's own formula.
 */
export async function seed(args: string[]): Promise<void> {
  const i = args.indexOf('--lines');
  const target = i >= 0 ? Number(args[i + 1]) : 1_000_000;
  const env = await startBenchEnvironment();
  const pool = new Pool({ connectionString: env.databaseUrl, max: 2 });
  // An idle client told by the stopping server that its connection ends must not crash the seed.
  pool.on('error', (error) => process.stderr.write(`idle database client: ${error.message}\n`));
  try {
    const base = env.service.baseUrl;
    const headers = await benchKey(base);
    const entityId = randomUUID();
    await http(base, 'POST', '/api/entities', { id: entityId, name: `Bench SpA ${entityId.slice(0, 8)}`, country: 'CL', taxId: '76.086.428-5', currency: 'CLP' }, headers);
    const chart = (await http(base, 'POST', `/api/entities/${entityId}/ledger/chart-initializations`, { id: randomUUID(), templateKey: 'cl-pyme', templateVersion: '2025.1' }, headers)).body;
    const byCode = new Map<string, string>(chart.accounts.map((a: { code: string; id: string }) => [a.code, a.id]));
    const account = (code: string) => {
      const id = byCode.get(code);
      if (!id) throw new Error(`cl-pyme has no account ${code}`);
      return id;
    };
    const accounts = {
      bank: account('110103'),
      receivable: account('110201'),
      vatCredit: account('110301'),
      payable: account('210201'),
      vatDebit: account('210301'),
      withholding: account('210303'),
      payroll: account('210401'),
      sales: account('410101'),
      services: account('410102'),
      cogs: account('510101'),
      salaries: account('610101'),
      rent: account('620103'),
      utilities: account('620105'),
      office: account('620107'),
    };
    process.stdout.write(`Entity ${entityId}: chart of ${chart.accounts.length} accounts\n`);
    const partnerIds: string[] = [];
    for (let p = 0; p < 2000; p++) {
      const id = randomUUID();
      await http(base, 'POST', `/api/entities/${entityId}/partners`, { id, name: `Partner ${String(p).padStart(3, '0')} SpA`, type: 'company', country: 'CL', taxId: rutOf(10_000_000 + p * 7919) }, headers);
      partnerIds.push(id);
    }
    const dimensionId = randomUUID();
    await http(base, 'POST', `/api/entities/${entityId}/dimensions`, { id: dimensionId, name: 'Centro de costo' }, headers);
    const values: Array<{ id: string }> = [];
    for (const [code, name] of [['SCL', 'Santiago'], ['VAP', 'Valparaíso'], ['CCP', 'Concepción'], ['ANF', 'Antofagasta']]) {
      const id = randomUUID();
      await http(base, 'POST', `/api/entities/${entityId}/dimensions/${dimensionId}/values`, { id, code, name }, headers);
      values.push({ id });
    }
    await env.service.stop();

    const rnd = random(42);
    const pick = <T>(list: T[]) => list[Math.floor(rnd() * list.length)];
    const amount = (max: number) => 1000 + Math.floor(rnd() * max);
    const entry = (): Line[] => {
      const kind = rnd();
      const partner = pick(partnerIds);
      if (kind < 0.35) {
        const net = amount(2_000_000);
        const tax = Math.round(net * 0.19);
        return [
          { side: 'debit', account: accounts.receivable, amount: net + tax, partnerId: partner, valueId: null },
          { side: 'credit', account: rnd() < 0.7 ? accounts.sales : accounts.services, amount: net, partnerId: null, valueId: pick(values).id },
          { side: 'credit', account: accounts.vatDebit, amount: tax, partnerId: null, valueId: null },
        ];
      }
      if (kind < 0.6) {
        const net = amount(1_000_000);
        const tax = Math.round(net * 0.19);
        return [
          { side: 'debit', account: pick([accounts.cogs, accounts.rent, accounts.utilities, accounts.office]), amount: net, partnerId: null, valueId: rnd() < 0.5 ? pick(values).id : null },
          { side: 'debit', account: accounts.vatCredit, amount: tax, partnerId: null, valueId: null },
          { side: 'credit', account: accounts.payable, amount: net + tax, partnerId: partner, valueId: null },
        ];
      }
      if (kind < 0.8) {
        const paid = amount(2_000_000);
        return [
          { side: 'debit', account: accounts.bank, amount: paid, partnerId: null, valueId: null },
          { side: 'credit', account: accounts.receivable, amount: paid, partnerId: partner, valueId: null },
        ];
      }
      if (kind < 0.95) {
        const paid = amount(1_000_000);
        return [
          { side: 'debit', account: accounts.payable, amount: paid, partnerId: partner, valueId: null },
          { side: 'credit', account: accounts.bank, amount: paid, partnerId: null, valueId: null },
        ];
      }
      const gross = amount(3_000_000);
      const tax = Math.round(gross * 0.08);
      return [
        { side: 'debit', account: accounts.salaries, amount: gross, partnerId: null, valueId: pick(values).id },
        { side: 'credit', account: accounts.withholding, amount: tax, partnerId: null, valueId: null },
        { side: 'credit', account: accounts.payroll, amount: gross - tax, partnerId: null, valueId: null },
      ];
    };

    const started = Date.now();
    let written = 0;
    let entries = 0;
    const batch: Array<{ id: string; date: string; status: string; source: string; reversalOf: string | null; reversedBy: string | null; lines: Line[] }> = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const e = batch.splice(0);
      const flat = e.flatMap((x) => x.lines.map((l, n) => ({ entry: x, line: l, n: n + 1, id: randomUUID() })));
      await pool.query(
        `INSERT INTO ledger_entries (entity_id, id, book_id, entry_date, memo, notes, status, source, reversal_of_entry_id, reversed_by_entry_id, created_at, updated_at)
         SELECT $1, x.id, NULL, x.d, x.memo, NULL, x.status, x.source, x.rev_of, x.rev_by, now(), now()
           FROM unnest($2::uuid[], $3::date[], $4::text[], $5::text[], $6::text[], $7::uuid[], $8::uuid[]) AS x(id, d, memo, status, source, rev_of, rev_by)`,
        [entityId, e.map((x) => x.id), e.map((x) => x.date), e.map((x) => `Seed ${x.source}`), e.map((x) => x.status), e.map((x) => x.source), e.map((x) => x.reversalOf), e.map((x) => x.reversedBy)],
      );
      await pool.query(
        `INSERT INTO ledger_lines (entity_id, id, entry_id, line_no, side, account_id, amount, description, partner_id, transaction_currency, transaction_amount,
                                   exchange_rate, is_open_item, allocated_amount, book_id, entry_date, status, memo)
         SELECT $1, l.id, l.entry_id, l.n, l.side, l.account_id, l.amount, NULL, l.partner_id, NULL, NULL, NULL, l.open_item, 0, NULL, l.d, l.status, l.memo
           FROM unnest($2::uuid[], $3::uuid[], $4::smallint[], $5::text[], $6::uuid[], $7::bigint[], $8::uuid[], $9::boolean[], $10::date[], $11::text[], $12::text[])
             AS l(id, entry_id, n, side, account_id, amount, partner_id, open_item, d, status, memo)`,
        [
          entityId,
          flat.map((f) => f.id),
          flat.map((f) => f.entry.id),
          flat.map((f) => f.n),
          flat.map((f) => f.line.side),
          flat.map((f) => f.line.account),
          flat.map((f) => f.line.amount),
          flat.map((f) => f.line.partnerId),
          flat.map((f) => f.line.account === accounts.receivable || f.line.account === accounts.payable),
          flat.map((f) => f.entry.date),
          flat.map((f) => f.entry.status),
          flat.map((f) => `Seed ${f.entry.source}`),
        ],
      );
      const tagged = flat.filter((f) => f.line.valueId);
      if (tagged.length > 0) {
        await pool.query(
          `INSERT INTO ledger_line_dimension_values (entity_id, line_id, dimension_id, dimension_value_id)
           SELECT $1, t.line_id, $2, t.value_id FROM unnest($3::uuid[], $4::uuid[]) AS t(line_id, value_id)`,
          [entityId, dimensionId, tagged.map((f) => f.id), tagged.map((f) => f.line.valueId)],
        );
      }
      written += flat.length;
      entries += e.length;
      progress(Math.min(written, target), target, started);
    };

    while (written + batch.reduce((s, b) => s + b.lines.length, 0) < target) {
      // Written in date order: the two years fill up as the lines do.
      const date = new Date(START + Math.floor((written / target) * DAYS) * DAY).toISOString().slice(0, 10);
      const lines = entry();
      const id = randomUUID();
      const roll = rnd();
      if (roll < 0.01 && date < '2025-12-30') {
        // Reversed: the mirror the next day (live, so the pair nets to zero in the books).
        const mirror = randomUUID();
        const next = new Date(Date.parse(date) + DAY).toISOString().slice(0, 10);
        batch.push({ id, date, status: 'reversed', source: 'manual', reversalOf: null, reversedBy: mirror, lines });
        batch.push({ id: mirror, date: next, status: 'active', source: 'reversal', reversalOf: id, reversedBy: null, lines: lines.map((l) => ({ ...l, side: l.side === 'debit' ? 'credit' : 'debit' })) });
      } else {
        batch.push({ id, date, status: roll < 0.012 ? 'deleted' : 'active', source: 'manual', reversalOf: null, reversedBy: null, lines });
      }
      if (batch.length >= 2000) await flush();
    }
    await flush();
    process.stdout.write('\n  building the monthly totals...\n');
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
      [entityId],
    );
    // The open-item and per-partner monthly totals (issue 25), which the API's writing statements keep.
    for (const statement of LINE_AGGREGATES_REBUILD) await pool.query(statement, [entityId]);
    // What autovacuum does about a minute after a bulk load: statistics, and the visibility map that lets index-only scans skip the heap.
    await pool.query('VACUUM (ANALYZE)');
    const [busiest] = (
      await pool.query(`SELECT account_id, count(*)::int AS n FROM ledger_lines WHERE entity_id = $1 GROUP BY account_id ORDER BY n DESC LIMIT 1`, [entityId])
    ).rows;
    writeSeed({ entityId, lines: written, entries, accounts, busiestAccountId: busiest.account_id, receivableAccountId: accounts.receivable, partnerIds: partnerIds.slice(0, 100), dimensionId });
    process.stdout.write(`Seeded ${written.toLocaleString('en')} lines in ${entries.toLocaleString('en')} entries in ${((Date.now() - started) / 1000).toFixed(0)} s (busiest account: ${busiest.n.toLocaleString('en')} lines).\n`);
  } finally {
    await pool.end();
    await env.postgres.stop();
  }
}
