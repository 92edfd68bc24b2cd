import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'pg';
import { BENCH_DIR, benchKey, http, readSeed, startBenchEnvironment } from './lib/bench-env';
import { processCpuSeconds, treeCpuSeconds } from './lib/cpu';
import { time as median } from './reports';

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

/** A statement of `rows` movements as a bank exports it: `;` separators, DD-MM-YYYY dates, `.` thousands. */
function statement(rows: number): string {
  const lines = ['date;description;amount;reference'];
  for (let i = 0; i < rows; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    const month = String(((i >> 5) % 12) + 1).padStart(2, '0');
    const amount = ((i * 7919) % 2_000_000) + 1000;
    const signed = i % 3 === 0 ? amount : -amount;
    lines.push(`${day}-${month}-2025;Transferencia ${i} a 76.086.428-5;${signed.toLocaleString('de-DE')};REF${i}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * `npm run bench -- banking [--rows 50000] [--accounts 20] [--movements 1000000]`:
 * 1. a statement of `--rows` rows imported through HTTP (text/csv), and the same file again (all skipped);
 * 2. the bank-account list of an Entity with `--accounts` accounts and `--movements` movements
 *    (written straight into bank_movements, most of them booked), median and p95 of 25 reads;
 * 3. with a seeded Entity (`npm run bench -- seed --lines N`): match candidates for a movement
 *    whose amount is one of its open receivables, median and p95 of 25 reads.
 */
export async function banking(args: string[]): Promise<void> {
  const rows = option(args, '--rows', 50_000);
  const accountCount = option(args, '--accounts', 20);
  const movements = option(args, '--movements', 1_000_000);
  const env = await startBenchEnvironment();
  const pool = new Pool({ connectionString: env.databaseUrl, max: 2 });
  pool.on('error', (error) => process.stderr.write(`idle database client: ${error.message}\n`));
  try {
    const base = env.service.baseUrl;
    // CPU of the service and of the database server (its postmaster's tree): figures a loaded machine does not inflate as it does latencies.
    const postmaster = Number(readFileSync(join(BENCH_DIR, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const cpu = () => ({ service: processCpuSeconds(env.service.pid), db: treeCpuSeconds(postmaster) });
    const cpuSince = (before: { service: number; db: number }, requests = 1) => {
      const now = cpu();
      const ms = (s: number) => ((s * 1000) / requests).toFixed(requests > 1 ? 2 : 0);
      return `service CPU ${ms(now.service - before.service)} ms, database CPU ${ms(now.db - before.db)} ms${requests > 1 ? ' a request' : ''}`;
    };
    const headers = await benchKey(base);
    const entityId = randomUUID();
    await http(base, 'POST', '/api/entities', { id: entityId, name: `Bench Banco ${entityId.slice(0, 8)}`, country: 'CL', taxId: '76.086.428-5', currency: 'CLP' }, headers);
    const cash = randomUUID();
    await http(base, 'POST', `/api/entities/${entityId}/ledger/accounts`, { id: cash, name: 'Bancos', code: '1101', type: 'asset', tracking: 'balance' }, headers);
    const accountIds: string[] = [];
    for (let i = 0; i < accountCount; i++) {
      const id = randomUUID();
      await http(base, 'POST', `/api/entities/${entityId}/bank-accounts`, { id, name: `Cuenta ${String(i).padStart(2, '0')}`, kind: 'bank', ledgerAccountId: cash, currency: 'CLP' }, headers);
      accountIds.push(id);
    }

    // 1. Statement import.
    const csv = statement(rows);
    const importOnce = async () => {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/entities/${entityId}/bank-accounts/${accountIds[0]}/movements/import`, { method: 'POST', headers: { ...headers, 'content-type': 'text/csv' }, body: csv });
      const body = (await res.json()) as { landedCount: number; skippedCount: number };
      if (res.status !== 201) throw new Error(`import: ${res.status} ${JSON.stringify(body)}`);
      return { ms: performance.now() - t0, ...body };
    };
    let before = cpu();
    const first = await importOnce();
    const firstCpu = cpuSince(before);
    before = cpu();
    const again = await importOnce();
    const againCpu = cpuSince(before);
    process.stdout.write(`import of ${rows.toLocaleString('en')} rows (${(csv.length / 1e6).toFixed(1)} MB): ${(first.ms / 1000).toFixed(2)} s (landed ${first.landedCount}; ${firstCpu}) [target < 10 s: ${first.ms < 10_000 ? 'met' : 'not met'}]\n`);
    process.stdout.write(`again: ${(again.ms / 1000).toFixed(2)} s (skipped ${again.skippedCount}; ${againCpu})\n`);

    // 2. The list at `movements` movements: the rest written in SQL, spread over the accounts, 95 % booked.
    const missing = Math.max(movements - first.landedCount, 0);
    const t0 = performance.now();
    for (let done = 0; done < missing; done += 200_000) {
      const batch = Math.min(200_000, missing - done);
      await pool.query(
        `INSERT INTO bank_movements (entity_id, id, bank_account_id, movement_date, description, amount, side, source, ledger_entry_id, created_at, updated_at)
         SELECT $1, gen_random_uuid(), ($2::uuid[])[1 + (g % array_length($2::uuid[], 1))], DATE '2024-01-01' + (g % 700), 'Movimiento ' || g,
                1000 + (g % 100000), CASE WHEN g % 2 = 0 THEN 'debit' ELSE 'credit' END, 'manual',
                CASE WHEN g % 20 = 0 THEN NULL ELSE gen_random_uuid() END, now(), now()
           FROM generate_series($3::int, $4::int) AS g`,
        [entityId, accountIds, done, done + batch - 1],
      );
    }
    await pool.query('ANALYZE bank_movements');
    process.stdout.write(`wrote ${missing.toLocaleString('en')} more movements in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    before = cpu();
    const list = await median(() => http(base, 'GET', `/api/entities/${entityId}/bank-accounts`, undefined, headers));
    const listCpu = cpuSince(before, 26);
    process.stdout.write(`bank accounts list (${accountCount} accounts, ${movements.toLocaleString('en')} movements): median ${list.median.toFixed(1)} ms, p95 ${list.p95.toFixed(1)} ms; ${listCpu} [target median < 30 ms: ${list.median < 30 ? 'met' : 'not met'}]\n`);

    // 3. Candidates on the seeded ledger.
    if (!existsSync(join(BENCH_DIR, 'seed.json'))) {
      process.stdout.write('match candidates: skipped (no seeded Entity: run `npm run bench -- seed --lines 1000000` first)\n');
      return;
    }
    const seed = readSeed();
    const bankAccountId = randomUUID();
    await http(base, 'POST', `/api/entities/${seed.entityId}/bank-accounts`, { id: bankAccountId, name: `Bench ${bankAccountId.slice(0, 8)}`, kind: 'bank', ledgerAccountId: seed.accounts.bank, currency: 'CLP' }, headers);
    const [open] = (
      await pool.query(
        `SELECT (l.amount - l.allocated_amount)::text AS open, to_char(l.entry_date, 'YYYY-MM-DD') AS date FROM ledger_lines l
          WHERE l.entity_id = $1 AND l.account_id = $2 AND l.is_open_item AND l.status IN ('active', 'reversed') AND l.allocated_amount < l.amount AND l.side = 'debit'
          ORDER BY l.entry_date DESC LIMIT 1`,
        [seed.entityId, seed.receivableAccountId],
      )
    ).rows as Array<{ open: string; date: string }>;
    if (!open) throw new Error('the seeded Entity has no open receivable');
    const movementId = randomUUID();
    await http(base, 'POST', `/api/entities/${seed.entityId}/bank-accounts/${bankAccountId}/movements`, { id: movementId, movementDate: open.date, description: 'Pago factura 1234 de 10.007.919-6', amount: Number(open.open), side: 'debit' }, headers);
    const books = (await http(base, 'GET', `/api/entities/${seed.entityId}/books`, undefined, headers)).body as Array<{ id: string }>;
    const query = books.length ? `?bookId=${books[0].id}` : '';
    before = cpu();
    const candidates = await median(() => http(base, 'GET', `/api/entities/${seed.entityId}/bank-movements/${movementId}/match-candidates${query}`, undefined, headers));
    const candidatesCpu = cpuSince(before, 26);
    process.stdout.write(`match candidates (${seed.lines.toLocaleString('en')} seeded lines): median ${candidates.median.toFixed(1)} ms, p95 ${candidates.p95.toFixed(1)} ms; ${candidatesCpu} [target median < 50 ms: ${candidates.median < 50 ? 'met' : 'not met'}]\n`);
  } finally {
    await pool.end();
    await env.stop();
  }
}
