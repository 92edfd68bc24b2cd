import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FixedClock } from '../src/platform/clock/clock';
import { importLedger } from '../src/ledger-import';
import { checkAccessMatrix } from './harness/access-matrix';
import { countRows, expectMonthlyTotalsMatchLines, expectRefused } from './harness/db-checks';
import type { TestApp } from './harness/test-app';
import { Agent, createWorldApp, freshEntity, World } from './harness/world';

/** 15:00 UTC on 15 June 2026 is 15 June in Santiago: "today" is 2026-06-15. */
const clock = new FixedClock(new Date('2026-06-15T15:00:00Z'));
const WRITTEN = ['ledger_entries', 'ledger_lines', 'ledger_line_dimension_values', 'ledger_account_monthly_totals', 'audit_trail'];

interface Books {
  entityId: string;
  bank: string;
  receivable: string;
  sales: string;
  rent: string;
}

describe('loading a ledger\'s past: entry batches and ledger:import (#25 item 4)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  const dir = mkdtempSync(join(tmpdir(), 'ledger-import-'));

  const batches = (entityId: string) => `/api/entities/${entityId}/ledger/entry-batches`;

  async function setUpBooks(entityId?: string): Promise<Books> {
    const id = entityId ?? (await freshEntity(world));
    const account = async (code: string, type: string, tracking = 'balance', subtype: string | null = null) => {
      const accountId = randomUUID();
      await staff.post(`/api/entities/${id}/ledger/accounts`).send({ id: accountId, name: `Cuenta ${code}`, code, type, tracking, subtype }).expect(201);
      return accountId;
    };
    return {
      entityId: id,
      bank: await account('1102', 'asset'),
      receivable: await account('1105', 'asset', 'open_item', 'receivable'),
      sales: await account('4101', 'income'),
      rent: await account('5101', 'operating_expense'),
    };
  }

  const sale = (b: Books, amount: number, extra: Record<string, unknown> = {}) => ({
    id: randomUUID(),
    entryDate: '2026-03-10',
    memo: `Venta ${amount}`,
    newLedgerEntryLines: [
      { side: 'debit', ledgerAccountId: b.receivable, amount },
      { side: 'credit', ledgerAccountId: b.sales, amount },
    ],
    ...extra,
  });

  async function balances(entityId: string): Promise<Record<string, number>> {
    const rows = await t.sql<{ account_id: string; balance: string }>(
      `SELECT account_id, sum(CASE WHEN side = 'debit' THEN amount ELSE -amount END)::text AS balance FROM ledger_lines WHERE entity_id = $1 GROUP BY account_id`,
      [entityId],
    );
    return Object.fromEntries(rows.map((r) => [r.account_id, Number(r.balance)]));
  }

  const jsonLines = (name: string, entries: unknown[]) => {
    const path = join(dir, name);
    writeFileSync(path, `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
    return path;
  };

  /** The command in this process, on the test app: its summary, or its refusal's report. */
  async function runImport(path: string, entityId: string, flags: Record<string, string> = {}): Promise<{ ok: boolean; report: string }> {
    const errors: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => (errors.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      return { ok: true, report: await importLedger({ entity: entityId, ...flags }, t.app, [path]) };
    } catch (error) {
      return { ok: false, report: `${errors.join('')}${(error as Error).message}` };
    } finally {
      process.stderr.write = write;
    }
  }

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock }));
  });
  afterAll(() => t.close());

  describe('POST .../ledger/entry-batches', () => {
    it('posts every entry of the batch with one audit row per entry and the totals of its lines, answering 201 with a summary', async () => {
      const b = await setUpBooks();
      const entries = [sale(b, 1000), sale(b, 2500, { bookId: null, notes: 'n' }), sale(b, 700)];
      const requestId = `req-${randomUUID()}`;
      const res = await staff.post(batches(b.entityId)).set('x-request-id', requestId).send({ entries }).expect(201);
      expect(res.body).toEqual({ postedEntries: 3, postedLines: 6, skippedEntries: 0, skippedEntryIds: [] });
      const audit = await t.sql(`SELECT action, resource_type, resource_id, method, path, request_id, credential FROM audit_trail WHERE entity_id = $1 AND resource_type = 'ledger_entry' ORDER BY resource_id`, [b.entityId]);
      expect(audit).toEqual(
        entries
          .map((e) => e.id)
          .sort()
          .map((id) => ({ action: 'ledger_entry.create', resource_type: 'ledger_entry', resource_id: id, method: 'POST', path: batches(b.entityId), request_id: requestId, credential: 'session' })),
      );
      expect(await balances(b.entityId)).toEqual({ [b.receivable]: 4200, [b.sales]: -4200 });
      await expectMonthlyTotalsMatchLines(t, b.entityId);
      // The entries read back as posted through POST .../ledger/entries.
      const entry = (await staff.get(`/api/entities/${b.entityId}/ledger/entries/${entries[1].id}`).expect(200)).body;
      expect(entry).toMatchObject({ id: entries[1].id, entryDate: '2026-03-10', memo: 'Venta 2500', notes: 'n', status: 'active', source: 'manual', bookId: null });
      expect(entry.lines.map((l: { amount: number; openAmount: number | null }) => [l.amount, l.openAmount])).toEqual([
        [2500, 2500],
        [2500, null],
      ]);
    });

    it('skips entries already in the books by id (a replayed batch writes nothing and records no row)', async () => {
      const b = await setUpBooks();
      const first = [sale(b, 100), sale(b, 200)];
      await staff.post(batches(b.entityId)).send({ entries: first }).expect(201);
      const audits = await countRows(t, 'audit_trail');
      const again = await staff.post(batches(b.entityId)).send({ entries: [...first, sale(b, 300)] }).expect(201);
      expect(again.body).toEqual({ postedEntries: 1, postedLines: 2, skippedEntries: 2, skippedEntryIds: first.map((e) => e.id) });
      expect(await countRows(t, 'audit_trail')).toBe(audits + 1);
      const before = await countRows(t, 'ledger_lines');
      const replay = await staff.post(batches(b.entityId)).send({ entries: first }).expect(201);
      expect(replay.body).toMatchObject({ postedEntries: 0, postedLines: 0, skippedEntries: 2 });
      expect(await countRows(t, 'ledger_lines')).toBe(before);
      expect(await countRows(t, 'audit_trail')).toBe(audits + 1);
      expect(await balances(b.entityId)).toEqual({ [b.receivable]: 600, [b.sales]: -600 });
    });

    it('refuses the whole batch with 400 VALIDATION_ERROR naming each bad entry by entries[i] path and code, writing nothing', async () => {
      const b = await setUpBooks();
      await staff.patch(`/api/entities/${b.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-01-31' }).expect(200);
      const stored = sale(b, 50);
      await staff.post(`/api/entities/${b.entityId}/ledger/entries`).send(stored).expect(201);
      const lineId = randomUUID();
      const good = sale(b, 10);
      const entries = [
        good,
        sale(b, 10, { newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: b.bank, amount: 'x' }, { side: 'credit', ledgerAccountId: b.sales, amount: 10 }] }),
        sale(b, 10, { newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: b.bank, amount: 10 }, { side: 'credit', ledgerAccountId: b.sales, amount: 9 }] }),
        sale(b, 10, { newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: randomUUID(), amount: 10 }, { side: 'credit', ledgerAccountId: b.sales, amount: 10 }] }),
        sale(b, 10, { entryDate: '2026-01-15' }),
        sale(b, 10, { entryDate: '2026-07-01' }),
        sale(b, 10, { bookId: randomUUID() }),
        sale(b, 10, { newLedgerEntryLines: [{ id: stored.newLedgerEntryLines[0] ? lineId : lineId, side: 'debit', ledgerAccountId: b.bank, amount: 10 }, { side: 'credit', ledgerAccountId: b.sales, amount: 10 }] }),
        sale(b, 10, { newLedgerEntryLines: [{ id: lineId, side: 'debit', ledgerAccountId: b.bank, amount: 10 }, { side: 'credit', ledgerAccountId: b.sales, amount: 10 }] }),
        { ...good },
      ];
      const res = await expectRefused(t, WRITTEN, staff.post(batches(b.entityId)).send({ entries }), 400, 'VALIDATION_ERROR');
      // The body's shape is judged first (as the route's pipe would): only entries[1] then.
      expect(res.body.params.errors).toEqual([{ index: 1, path: 'entries[1].newLedgerEntryLines[0].amount', code: 'VALIDATION_ERROR', message: expect.any(String) }]);
      entries.splice(1, 1);
      const second = await expectRefused(t, WRITTEN, staff.post(batches(b.entityId)).send({ entries }), 400, 'VALIDATION_ERROR');
      expect(second.body.params.errors.map((e: { path: string; code: string }) => [e.path, e.code])).toEqual([
        ['entries[1].newLedgerEntryLines', 'LEDGER_ENTRY_UNBALANCED_ERROR'],
        ['entries[2].newLedgerEntryLines[0]', 'LEDGER_ACCOUNT_NOT_FOUND_ERROR'],
        ['entries[3].entryDate', 'LEDGER_PERIOD_LOCKED_ERROR'],
        ['entries[4].entryDate', 'LEDGER_ENTRY_DATE_IN_FUTURE_ERROR'],
        ['entries[5].bookId', 'BOOK_NOT_FOUND_ERROR'],
        ['entries[7].newLedgerEntryLines[0].id', 'VALIDATION_ERROR'],
        ['entries[8].id', 'VALIDATION_ERROR'],
      ]);
      // A line id already in the books: 409's code, at the line.
      const reused = sale(b, 10);
      (reused.newLedgerEntryLines[0] as Record<string, unknown>).id = (await t.sql<{ id: string }>('SELECT id FROM ledger_lines WHERE entry_id = $1 ORDER BY line_no LIMIT 1', [stored.id]))[0].id;
      const third = await expectRefused(t, WRITTEN, staff.post(batches(b.entityId)).send({ entries: [sale(b, 1), reused] }), 400, 'VALIDATION_ERROR');
      expect(third.body.params.errors).toEqual([expect.objectContaining({ index: 1, path: 'entries[1].newLedgerEntryLines[0].id', code: 'LEDGER_LINE_ALREADY_EXISTS_ERROR' })]);
    });

    it('refuses with 409 AMOUNT_OUT_OF_RANGE_ERROR (D6a), writing nothing, a batch whose account totals would pass what the books hold', async () => {
      const b = await setUpBooks();
      await t.sql(
        `INSERT INTO ledger_account_monthly_totals (entity_id, account_id, book_key, month, slot, debit, credit, line_count)
         SELECT $1, $2, '00000000-0000-0000-0000-000000000000', '2026-03-01', s, 9223372036854775000, 0, 1 FROM generate_series(0, 31) AS s`,
        [b.entityId, b.receivable],
      );
      const entries = Array.from({ length: 5 }, () => sale(b, 1000));
      const res = await expectRefused(t, WRITTEN, staff.post(batches(b.entityId)).send({ entries }), 409, 'AMOUNT_OUT_OF_RANGE_ERROR');
      expect(res.body.params).toEqual({ field: 'accountTotal' });
    });

    it('refuses a body over the 1 MB limit with 413 PAYLOAD_TOO_LARGE_ERROR, writing nothing', async () => {
      const b = await setUpBooks();
      const entries = Array.from({ length: 1000 }, () => sale(b, 10, { memo: 'x'.repeat(1000) }));
      expect(Buffer.byteLength(JSON.stringify({ entries }))).toBeGreaterThan(1024 * 1024);
      await expectRefused(t, WRITTEN, staff.post(batches(b.entityId)).send({ entries }), 413, 'PAYLOAD_TOO_LARGE_ERROR');
    });

    it('names at most the first 100 refused entries', async () => {
      const b = await setUpBooks();
      const entries = Array.from({ length: 150 }, () => sale(b, 10, { entryDate: '2026-12-01' }));
      const res = await expectRefused(t, WRITTEN, staff.post(batches(b.entityId)).send({ entries }), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors).toHaveLength(100);
      expect(res.body.params.errors[99]).toMatchObject({ index: 99, path: 'entries[99].entryDate', code: 'LEDGER_ENTRY_DATE_IN_FUTURE_ERROR' });
    });

    it.each([
      ['no entries', { entries: [] }],
      ['more than 1,000 entries', { entries: Array.from({ length: 1001 }, () => ({})) }],
      ['entries not an array', { entries: {} }],
      ['an entry that is not an object', { entries: [1] }],
      ['an unknown property of an entry', { entries: [{ foo: 1 }] }],
      ['an unknown property of the body', { entries: [], more: 1 }],
    ])('refuses %s with 400 VALIDATION_ERROR, writing nothing', async (_label, body) => {
      await expectRefused(t, WRITTEN, staff.post(batches(world.entityId)).send(body), 400, 'VALIDATION_ERROR');
    });

    it('access matrix: same rights as posting an entry', () =>
      checkAccessMatrix(t, world, {
        method: 'post',
        path: (entityId) => batches(entityId),
        body: () => ({ entries: [{ id: randomUUID(), entryDate: '2026-03-01', memo: 'x', newLedgerEntryLines: [] }] }),
      }));
  });

  describe('npm run cli -- ledger:import', () => {
    it('imports JSON Lines in batches, audited per entry as system:ledger-import, and resumes after a refused batch skipping what was imported', async () => {
      const b = await setUpBooks();
      const entries = Array.from({ length: 25 }, (_, i) => sale(b, 100 + i));
      // Line 18 names no account of the Entity: batches of 5 before it are committed (15 entries).
      const bad = { ...entries[17], newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: randomUUID(), amount: 117 }, entries[17].newLedgerEntryLines[1]] };
      const path = jsonLines('resume.jsonl', [...entries.slice(0, 17), bad, ...entries.slice(18)]);
      const first = await runImport(path, b.entityId, { batch: '5', parallel: '1' });
      expect(first.ok).toBe(false);
      expect(first.report).toContain('line 18: newLedgerEntryLines[0]: LEDGER_ACCOUNT_NOT_FOUND_ERROR');
      expect(first.report).toContain('entries imported: 15 (30 lines)');
      expect(await countRows(t, 'ledger_entries', 'entity_id = $1', [b.entityId])).toBe(15);
      // Fixed, run again: the 15 are skipped, the other 10 imported.
      const fixed = jsonLines('resume.jsonl', entries);
      const second = await runImport(fixed, b.entityId, { batch: '5' });
      expect(second).toMatchObject({ ok: true });
      expect(second.report).toContain('entries imported: 10 (20 lines)');
      expect(second.report).toContain('entries skipped (already in the books): 15');
      expect(second.report).toMatch(/seconds: [\d.]+, lines\/s: [\d,]+/);
      const total = entries.reduce((sum, e) => sum + (e.newLedgerEntryLines[0].amount as number), 0);
      expect(await balances(b.entityId)).toEqual({ [b.receivable]: total, [b.sales]: -total });
      await expectMonthlyTotalsMatchLines(t, b.entityId);
      const audit = await t.sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM audit_trail WHERE entity_id = $1 AND declared_actor = 'system:ledger-import' AND action = 'ledger_entry.create' AND method IS NULL AND resource_id = ANY($2::text[])`,
        [b.entityId, entries.map((e) => e.id)],
      );
      expect(audit[0].n).toBe(25);
    });

    it('imports CSV lines grouped by entry id and names a bad row by its file line', async () => {
      const b = await setUpBooks();
      const [e1, e2] = [randomUUID(), randomUUID()];
      const header = 'entryId,entryDate,memo,notes,bookId,lineId,side,ledgerAccountId,amount,description,partnerId,dimensionValueIds,transactionCurrency,transactionAmount,exchangeRate';
      const rows = [
        `${e1},2026-02-01,"Venta, con coma",,,,debit,${b.receivable},1190,,,,,,`,
        `${e1},,,,,,credit,${b.sales},1000,neto,,,,,`,
        `${e1},,,,,,credit,${b.sales},190,IVA,,,,,`,
        `${e2},2026-02-02,Arriendo,,,,debit,${b.rent},500,,,,,,`,
        `${e2},,,,,,credit,${b.bank},abc,,,,,,`,
      ];
      const bad = join(dir, 'bad.csv');
      writeFileSync(bad, [header, ...rows].join('\n'));
      const refused = await runImport(bad, b.entityId);
      expect(refused.ok).toBe(false);
      expect(refused.report).toContain('line 6: newLedgerEntryLines[1].amount: VALIDATION_ERROR');
      expect(await countRows(t, 'ledger_entries', 'entity_id = $1', [b.entityId])).toBe(0);
      const good = join(dir, 'good.csv');
      writeFileSync(good, [header, ...rows.slice(0, 4), rows[4].replace(',abc,', ',500,')].join('\r\n'));
      expect(await runImport(good, b.entityId)).toMatchObject({ ok: true });
      expect(await balances(b.entityId)).toEqual({ [b.receivable]: 1190, [b.sales]: -1190, [b.rent]: 500, [b.bank]: -500 });
      const entry = (await staff.get(`/api/entities/${b.entityId}/ledger/entries/${e1}`).expect(200)).body;
      expect(entry).toMatchObject({ memo: 'Venta, con coma', entryDate: '2026-02-01' });
      expect(entry.lines.map((l: { description: string | null }) => l.description)).toEqual([null, 'neto', 'IVA']);
      // Rows of one entry apart from each other are refused, by line.
      const split = join(dir, 'split.csv');
      writeFileSync(split, [header, rows[0], rows[3], rows[1]].join('\n'));
      expect((await runImport(split, b.entityId)).report).toContain('line 4: entryId');
    });

    it('keeps totals and balances exact while postings arrive through the API during an import', async () => {
      const b = await setUpBooks();
      const entries = Array.from({ length: 400 }, (_, i) => sale(b, 1 + i, { entryDate: `2026-0${1 + (i % 5)}-1${i % 10}` }));
      const path = jsonLines('concurrent.jsonl', entries);
      const postings = Array.from({ length: 30 }, (_, i) => sale(b, 10_000 + i, { entryDate: `2026-0${1 + (i % 5)}-15` }));
      const [imported, ...answers] = await Promise.all([
        runImport(path, b.entityId, { batch: '20' }),
        ...postings.map((p) => staff.post(`/api/entities/${b.entityId}/ledger/entries`).send(p)),
        ...postings.slice(0, 10).map((p) => staff.post(batches(b.entityId)).send({ entries: [{ ...p, id: randomUUID() }] })),
      ]);
      expect(imported).toMatchObject({ ok: true });
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 201));
      const total = [...entries, ...postings, ...postings.slice(0, 10)].reduce((sum, e) => sum + (e.newLedgerEntryLines[0].amount as number), 0);
      expect(await balances(b.entityId)).toEqual({ [b.receivable]: total, [b.sales]: -total });
      await expectMonthlyTotalsMatchLines(t, b.entityId);
      expect(await countRows(t, 'ledger_entries', 'entity_id = $1', [b.entityId])).toBe(440);
    });

    it('runs as a command: exit code 0 and the summary; 1 with the refusal', async () => {
      const b = await setUpBooks();
      const path = jsonLines('command.jsonl', [sale(b, 5), sale(b, 6)]);
      const run = (args: string[]) =>
        promisify(execFile)('node', ['-r', '@swc-node/register', 'src/cli.ts', 'ledger:import', ...args], {
          env: { ...process.env, DATABASE_URL: t.databaseUrl, NODE_ENV: 'test' },
        }).then(
          (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
          (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout, err: e.stderr }),
        );
      const done = await run([path, '--entity', b.entityId]);
      expect(done).toMatchObject({ code: 0 });
      expect(done.out).toContain('entries imported: 2 (4 lines)');
      const refused = await run([path, '--entity', b.entityId, '--batch', '0']);
      expect(refused.code).toBe(1);
      expect(refused.err).toContain('--batch must be an integer');
    }, 120_000);
  });
});
