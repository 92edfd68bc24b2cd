import { AsyncLocalStorage } from 'node:async_hooks';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { Client } from 'pg';
import { TransactionHost } from '@nestjs-cls/transactional';
import { addMonths } from '../libs/shared-kernel/src';
import { MonthlyTotalsFolding } from '../src/modules/ledger';
import { MonthlyTotalsFolds } from '../src/modules/ledger/domain/monthly-totals';
import { FixedClock } from '../src/platform/clock/clock';
import { freshRut } from './blackbox/bb-helpers';
import { deadlocked, expectMonthlyTotalsMatchLines, lockWaiters, sendNow, waitUntil } from './harness/db-checks';
import { captureServiceSql, entityTablesOf, routingViolations } from './harness/sql-routing';
import { createTestApp, TestApp } from './harness/test-app';
import { Agent, buildWorld, createEntity, World } from './harness/world';

/**
 * Issue 36c: the monthly totals (per account, and per account and partner) of months before the
 * current business month are folded into one row per account, Book and month (slot -1). The
 * figures of every report stay the same, and a fold racing postings, unbookings, reversals and
 * closings (which write into past months) leaves totals equal to the lines.
 */
const NOON = (day: string) => new Date(`${day}T15:00:00Z`);
const clock = new FixedClock(NOON('2026-06-15'));
const NIL = '00000000-0000-0000-0000-000000000000';

describe('folding the monthly totals of past months (issue 36c)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let folding: MonthlyTotalsFolding;

  interface Books {
    id: string;
    taxId: string;
    a: Record<string, string>;
    partners: string[];
    bookId?: string;
  }
  let root: Books;
  let child: Books;
  let closingId: string;

  const url = (b: Books, path: string) => `/api/entities/${b.id}${path}`;
  const CHART: Array<[string, string, string]> = [
    ['caja', '1101', 'asset'],
    ['clientes', '1201', 'asset'],
    ['proveedores', '2101', 'liability'],
    ['capital', '3101', 'equity'],
    ['resultados', '3201', 'equity'],
    ['ventas', '4101', 'income'],
    ['arriendo', '6101', 'operating_expense'],
  ];

  async function books(name: string, currency: string, parent?: string): Promise<Books> {
    const taxId = freshRut();
    const { id } = await createEntity(staff, world.organizationId, { name, taxId, currency });
    if (parent) await staff.patch(`/api/entities/${id}/parent`).send({ parentEntityId: parent }).expect(200);
    const b: Books = { id, taxId, a: {}, partners: [] };
    for (const [key, code, type] of CHART) {
      b.a[key] = randomUUID();
      await staff.post(url(b, '/ledger/accounts')).send({ id: b.a[key], code, name: key, type, tracking: key === 'clientes' || key === 'proveedores' ? 'open_item' : 'balance' }).expect(201);
    }
    return b;
  }

  async function partner(b: Books, taxId: string): Promise<string> {
    const id = randomUUID();
    await staff.post(url(b, '/partners')).send({ id, name: `P ${taxId}`, type: 'company', country: 'CL', taxId }).expect(201);
    b.partners.push(id);
    return id;
  }

  /** An entry D `debit` / C `credit`; the receivable line names `partnerId`. */
  function entry(b: Books, entryDate: string, debit: string, credit: string, amount: number, options: { partnerId?: string; bookId?: string; id?: string } = {}) {
    const line = (side: 'debit' | 'credit', account: string) => ({
      side,
      ledgerAccountId: b.a[account],
      amount,
      ...(options.partnerId && (account === 'clientes' || account === 'proveedores') ? { partnerId: options.partnerId } : {}),
    });
    return staff
      .post(url(b, '/ledger/entries'))
      .send({ id: options.id ?? randomUUID(), entryDate, memo: `${debit}/${credit}`, ...(options.bookId ? { bookId: options.bookId } : {}), newLedgerEntryLines: [line('debit', debit), line('credit', credit)] });
  }

  async function post(b: Books, entryDate: string, debit: string, credit: string, amount: number, options: { partnerId?: string; bookId?: string; id?: string } = {}): Promise<string> {
    const res = await entry(b, entryDate, debit, credit, amount, options);
    expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ status: 201, body: null });
    return res.body.id as string;
  }

  /** Slot rows of the Entity's totals: `unfolded` of months before `before` on posting slots, `folded` on slot -1. */
  async function slotRows(entityId: string, before: string) {
    const count = async (table: string) => {
      const [row] = await t.sql<{ unfolded: string; folded: string; current: string; duplicates: string }>(
        `SELECT count(*) FILTER (WHERE month < $2 AND slot >= 0) AS unfolded, count(*) FILTER (WHERE slot = -1) AS folded,
                count(*) FILTER (WHERE month >= $2 AND slot >= 0) AS current,
                count(*) FILTER (WHERE slot = -1 AND month >= $2) AS duplicates
           FROM ${table} WHERE entity_id = $1`,
        [entityId, before],
      );
      return { unfolded: Number(row.unfolded), folded: Number(row.folded), current: Number(row.current), foldedCurrent: Number(row.duplicates) };
    };
    return { accounts: await count('ledger_account_monthly_totals'), partners: await count('ledger_partner_monthly_totals') };
  }

  const get = async (path: string, query: Record<string, string>) => {
    const res = await staff.get(path).query(query);
    expect({ path, query, status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ path, query, status: 200, body: 'ok' });
    return res.body as unknown;
  };

  /** Every report that reads the monthly totals, whole bodies, for the tree. */
  async function figures() {
    const rootBook = { bookId: root.bookId! };
    const out: Record<string, unknown> = {};
    for (const [b, book] of [
      [root, rootBook],
      [child, {}],
    ] as Array<[Books, Record<string, string>]>) {
      const key = b === root ? 'root' : 'child';
      out[`${key} balance sheet 2025`] = await get(url(b, '/reports/balance-sheet'), { exerciseStart: '2025-01-01', cutoffDate: '2025-12-31', ...book });
      out[`${key} balance sheet to mid-May 2026`] = await get(url(b, '/reports/balance-sheet'), { exerciseStart: '2026-01-01', cutoffDate: '2026-05-20', ...book });
      out[`${key} balance sheet 2026 (current month)`] = await get(url(b, '/reports/balance-sheet'), { exerciseStart: '2026-01-01', cutoffDate: '2026-06-30', ...book });
      out[`${key} income statement 2025`] = await get(url(b, '/reports/income-statement'), { from: '2025-01-01', to: '2025-12-31', ...book });
      out[`${key} income statement across`] = await get(url(b, '/reports/income-statement'), { from: '2025-03-10', to: '2026-06-30', ...book });
      out[`${key} eight-column 2025`] = await get(url(b, '/ledger/reports/eight-column-balance'), { exerciseStart: '2025-01-01', cutoffDate: '2025-12-31', ...book });
      out[`${key} eight-column 2026`] = await get(url(b, '/ledger/reports/eight-column-balance'), { exerciseStart: '2026-01-01', cutoffDate: '2026-06-30', ...book });
      for (const account of ['caja', 'clientes', 'ventas', 'resultados']) {
        out[`${key} general ledger ${account}`] = await get(url(b, '/ledger/general-ledger'), { accountId: b.a[account], from: '2025-04-01', to: '2026-06-30', limit: '100', ...book });
        out[`${key} general ledger ${account} mid-month`] = await get(url(b, '/ledger/general-ledger'), { accountId: b.a[account], from: '2025-11-17', to: '2026-02-03', limit: '100', ...book });
      }
      out[`${key} partner ledger`] = await get(url(b, '/ledger/partner-ledger'), { accountId: b.a.clientes, from: '2025-06-01', to: '2026-06-30', ...book });
      out[`${key} partner ledger mid-month`] = await get(url(b, '/ledger/partner-ledger'), { accountId: b.a.clientes, from: '2025-09-13', to: '2026-03-02', ...book });
    }
    const rates = { closingRate: 'USD:950.5', averageRate: 'USD:940.25', bookName: 'Tributario' };
    out['consolidated balance sheet 2025'] = await get(url(root, '/reports/consolidated-balance-sheet'), { exerciseStart: '2025-01-01', cutoffDate: '2025-12-31', ...rates });
    out['consolidated balance sheet mid-month'] = await get(url(root, '/reports/consolidated-balance-sheet'), { exerciseStart: '2026-01-10', cutoffDate: '2026-05-20', ...rates });
    out['consolidated income statement'] = await get(url(root, '/reports/consolidated-income-statement'), { from: '2025-01-01', to: '2026-06-30', ...rates });
    return out;
  }

  beforeAll(async () => {
    t = await createTestApp({ clock });
    world = await buildWorld(t);
    staff = world.staff;
    folding = t.app.get(MonthlyTotalsFolding);
    root = await books('Holding', 'CLP');
    child = await books('Filial USD', 'USD', root.id);
    root.bookId = randomUUID();
    await staff.post(url(root, '/books')).send({ id: root.bookId, name: 'Tributario' }).expect(201);
    const rootSeesChild = await partner(root, child.taxId);
    const outsider = await partner(root, freshRut());
    const childSeesRoot = await partner(child, root.taxId);
    // Two years of entries, several a month on the same accounts (each entry on a slot of its
    // own id), some in the Book, the receivables naming partners.
    await post(root, '2025-01-02', 'caja', 'capital', 5_000_000);
    await post(child, '2025-01-02', 'caja', 'capital', 100_000);
    for (let i = 0; i < 17; i++) {
      const month = `${2025 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
      await post(root, `${month}-0${1 + (i % 9)}`, 'clientes', 'ventas', 10_000 + i * 37, { partnerId: i % 3 === 0 ? rootSeesChild : outsider });
      await post(root, `${month}-1${i % 9}`, 'caja', 'clientes', 7_000 + i * 11, { partnerId: outsider });
      await post(root, `${month}-2${i % 9}`, 'arriendo', 'caja', 3_000 + i, i % 2 === 0 ? { bookId: root.bookId } : {});
      await post(child, `${month}-1${i % 9}`, 'arriendo', 'proveedores', 500 + i, { partnerId: childSeesRoot });
      await post(child, `${month}-2${i % 9}`, 'clientes', 'ventas', 900 + i * 3, { partnerId: childSeesRoot });
    }
    // The current month (June 2026): never folded.
    await post(root, '2026-06-02', 'clientes', 'ventas', 4_444, { partnerId: outsider });
    await post(root, '2026-06-03', 'clientes', 'ventas', 5_555, { partnerId: outsider });
    // A year-end closing (D90) posts into December 2025, a past month.
    await staff.patch(url(root, '/ledger-lock-date')).send({ ledgerLockDate: '2025-12-31' }).expect(200);
    closingId = randomUUID();
    const closing = await staff
      .post(url(root, '/ledger/closings'))
      .send({ id: closingId, exerciseStart: '2025-01-01', exerciseEnd: '2025-12-31', retainedEarningsAccountId: root.a.resultados, bookId: root.bookId });
    expect({ status: closing.status, code: closing.body.code }).toEqual({ status: 201, code: undefined });
  });
  afterAll(() => t?.close());
  afterEach(() => clock.set(NOON('2026-06-15')));

  it('folds every month before the current one into one row per account, Book and month; every report reads the same', async () => {
    const before = await figures();
    const rowsBefore = await slotRows(root.id, '2026-06-01');
    expect(rowsBefore.accounts.unfolded).toBeGreaterThan(60);
    expect(rowsBefore.accounts.folded).toBe(0);

    const capture = captureServiceSql();
    const done = await folding.foldAll();
    capture.stop();
    expect(done).toMatchObject({ before: '2026-06-01', busy: 0 });
    // D94: each statement on one Entity's shard (the discovery is the one marked multi-shard read).
    const entityTables = await entityTablesOf((text) => t.sql(text));
    expect(capture.statements().length).toBeGreaterThanOrEqual(5);
    expect(capture.statements().flatMap((sql) => routingViolations(sql, entityTables))).toEqual([]);
    expect(done.entities).toBeGreaterThanOrEqual(2);

    for (const b of [root, child]) {
      const rows = await slotRows(b.id, '2026-06-01');
      expect(rows.accounts.unfolded).toBe(0);
      expect(rows.partners.unfolded).toBe(0);
      expect(rows.accounts.foldedCurrent).toBe(0);
      // One folded row for each account, Book and past month that has lines.
      const [groups] = await t.sql<{ accounts: string; partners: string }>(
        `SELECT (SELECT count(DISTINCT (account_id, coalesce(book_id, '${NIL}'::uuid), date_trunc('month', entry_date))) FROM ledger_lines
                  WHERE entity_id = $1 AND status IN ('active', 'reversed') AND entry_date < '2026-06-01') AS accounts,
                (SELECT count(DISTINCT (account_id, coalesce(partner_id, '${NIL}'::uuid), coalesce(book_id, '${NIL}'::uuid), date_trunc('month', entry_date))) FROM ledger_lines
                  WHERE entity_id = $1 AND status IN ('active', 'reversed') AND entry_date < '2026-06-01') AS partners`,
        [b.id],
      );
      expect(rows.accounts.folded).toBe(Number(groups.accounts));
      expect(rows.partners.folded).toBe(Number(groups.partners));
      await expectMonthlyTotalsMatchLines(t, b.id);
    }
    // The current month keeps its slots.
    expect((await slotRows(root.id, '2026-06-01')).accounts.current).toBe(rowsBefore.accounts.current);
    expect(await figures()).toEqual(before);

    // Nothing left: a second fold folds nothing.
    expect(await folding.foldAll(root.id)).toMatchObject({ accountRows: 0, partnerRows: 0, busy: 0 });
  });

  it('a posting into a folded month adds to a posting slot, folded by the next round; when the month ends its slots are folded', async () => {
    await folding.foldAll();
    await post(root, '2026-03-05', 'caja', 'ventas', 12_345);
    await post(root, '2026-06-10', 'caja', 'ventas', 1_111);
    expect((await slotRows(root.id, '2026-06-01')).accounts.unfolded).toBe(2);
    await expectMonthlyTotalsMatchLines(t, root.id);
    const before = await figures();

    // The periodic job's tick: one round of an Entity with past months to fold.
    const tick = await folding.foldNext();
    expect(tick).toEqual({ entityId: root.id, round: { status: 'folded', accountRows: 2, partnerRows: 2 } });
    expect(await folding.foldNext()).toBeNull();
    expect(await figures()).toEqual(before);

    // July: June is a past month now.
    clock.set(NOON('2026-07-01'));
    expect(folding.currentMonth()).toBe('2026-07-01');
    await folding.foldAll();
    const rows = await slotRows(root.id, '2026-07-01');
    expect(rows.accounts).toMatchObject({ unfolded: 0, current: 0 });
    expect(await figures()).toEqual(before);
    await expectMonthlyTotalsMatchLines(t, root.id);
  });

  it('never waits on a posting: a totals row a posting holds is left for the next round', async () => {
    await folding.foldAll();
    const entryId = await post(root, '2026-02-11', 'caja', 'ventas', 777);
    const [held] = await t.sql<{ slot: number }>(
      `SELECT slot FROM ledger_account_monthly_totals WHERE entity_id = $1 AND account_id = $2 AND month = '2026-02-01' AND slot >= 0`,
      [root.id, root.a.caja],
    );
    const blocker = new Client({ connectionString: t.databaseUrl });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      // The row as a posting in flight holds it (its upsert's row lock).
      await blocker.query(`UPDATE ledger_account_monthly_totals SET debit = debit WHERE entity_id = $1 AND account_id = $2 AND month = '2026-02-01' AND slot = $3`, [
        root.id,
        root.a.caja,
        held.slot,
      ]);
      const round = await folding.foldRound(root.id);
      // The Ventas row of the same entry was folded; the held Caja row was skipped.
      expect(round).toEqual({ status: 'folded', accountRows: 1, partnerRows: 2 });
      expect((await slotRows(root.id, '2026-06-01')).accounts.unfolded).toBe(1);
      await blocker.query('COMMIT');
    } finally {
      await blocker.end();
    }
    expect(await folding.foldRound(root.id)).toEqual({ status: 'folded', accountRows: 1, partnerRows: 0 });
    expect((await slotRows(root.id, '2026-06-01')).accounts.unfolded).toBe(0);
    await expectMonthlyTotalsMatchLines(t, root.id);
    expect(entryId).toBeDefined();
  });

  it('a posting on a row a fold holds waits for the fold, then adds to a new slot row: nothing lost', async () => {
    await folding.foldAll();
    await post(root, '2026-04-08', 'caja', 'ventas', 1_000);
    const [row] = await t.sql<{ slot: number }>(
      `SELECT slot FROM ledger_account_monthly_totals WHERE entity_id = $1 AND account_id = $2 AND month = '2026-04-01' AND slot >= 0`,
      [root.id, root.a.caja],
    );
    // An entry id whose slot is that row's (the slot is the id's last byte modulo 32).
    const id = randomUUID().slice(0, 34) + row.slot.toString(16).padStart(2, '0');
    const txHost = t.app.get(TransactionHost);
    const folds = t.app.get(MonthlyTotalsFolds);
    let pending: ReturnType<typeof sendNow> | undefined;
    const outside = AsyncLocalStorage.snapshot();
    await txHost.withTransaction(async () => {
      expect(await folds.foldRound(root.id, '2026-06-01', 5_000)).toEqual({ status: 'folded', accountRows: 2, partnerRows: 2 });
      // Sent from outside this transaction's context (else the request would join it).
      pending = outside(() => sendNow(entry(root, '2026-04-09', 'caja', 'ventas', 2_000, { id })));
      await waitUntil(async () => (await lockWaiters(t)) >= 1);
      expect(pending!.answered()).toBe(false);
    });
    expect((await pending!.response).status).toBe(201);
    await expectMonthlyTotalsMatchLines(t, root.id);
    expect((await slotRows(root.id, '2026-06-01')).accounts.unfolded).toBe(2);
    await folding.foldAll(root.id);
    await expectMonthlyTotalsMatchLines(t, root.id);
  });

  it('a second round on the same Entity while one runs is busy, not a wait', async () => {
    await post(root, '2026-01-08', 'caja', 'ventas', 10);
    const txHost = t.app.get(TransactionHost);
    const folds = t.app.get(MonthlyTotalsFolds);
    await txHost.withTransaction(async () => {
      expect(await folds.foldRound(root.id, '2026-06-01', 5_000)).toMatchObject({ status: 'folded' });
      expect(await folding.foldRound(root.id)).toEqual({ status: 'busy' });
    });
    await expectMonthlyTotalsMatchLines(t, root.id);
  });

  it('races postings, unbookings, reversals and a reopened and repeated closing into past months with folds: no failure, no deadlock, totals equal the lines', async () => {
    const targets = [];
    for (let i = 0; i < 6; i++) targets.push(await post(root, `2026-0${1 + (i % 5)}-1${i}`, 'clientes', 'ventas', 100 + i, { partnerId: root.partners[1] }));
    await folding.foldAll();
    const requests: Array<Promise<{ status: number }>> = [];
    const folds: Array<Promise<unknown>> = [];
    for (let i = 0; i < 24; i++) {
      const month = `2026-0${1 + (i % 5)}`;
      requests.push(entry(root, `${month}-0${1 + (i % 9)}`, i % 2 ? 'clientes' : 'caja', 'ventas', 50 + i, { partnerId: root.partners[1] }).then((r) => r));
      if (i < 3) requests.push(staff.delete(url(root, `/ledger/entries/${targets[i]}`)).then((r) => r));
      else if (i < 6) requests.push(staff.post(url(root, `/ledger/entries/${targets[i]}/reverse`)).send({ id: randomUUID(), reversalDate: '2026-05-28' }).then((r) => r));
      if (i % 4 === 0) folds.push(folding.foldRound(root.id, 7));
    }
    // The 2025 closing reopened and closed again meanwhile: its entry unbooked, then another
    // posted, both into December 2025 (a locked past month) on the accounts being folded.
    const reclosingId = randomUUID();
    requests.push(
      staff
        .delete(url(root, `/ledger/closings/${closingId}`))
        .then((reopened) =>
          reopened.status !== 200
            ? reopened
            : staff
                .post(url(root, '/ledger/closings'))
                .send({ id: reclosingId, exerciseStart: '2025-01-01', exerciseEnd: '2025-12-31', retainedEarningsAccountId: root.a.resultados, bookId: root.bookId }),
        ),
    );
    folds.push(folding.foldAll(root.id, 11));
    const statuses = (await Promise.all(requests)).map((r) => r.status);
    closingId = reclosingId;
    await Promise.all(folds);
    expect(statuses.filter((s) => s !== 201 && s !== 200)).toEqual([]);
    expect(await deadlocked(t)).toBe(false);
    await expectMonthlyTotalsMatchLines(t, root.id);
    await folding.foldAll(root.id);
    expect((await slotRows(root.id, '2026-06-01')).accounts.unfolded).toBe(0);
    await expectMonthlyTotalsMatchLines(t, root.id);
  });

  it('npm run cli -- ledger:fold-totals folds at once (the system clock: months before the current one), and refuses a malformed --entity', async () => {
    await post(child, '2026-02-11', 'clientes', 'ventas', 321, { partnerId: child.partners[0] });
    const run = (args: string[]) =>
      promisify(execFile)('node', ['-r', '@swc-node/register', 'src/cli.ts', 'ledger:fold-totals', ...args], {
        env: { ...process.env, DATABASE_URL: t.databaseUrl, NODE_ENV: 'test' },
      }).then(
        (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout, err: e.stderr }),
      );
    const done = await run(['--entity', child.id]);
    expect(done).toMatchObject({ code: 0 });
    expect(done.out).toMatch(/^Folded 2 account and 2 partner monthly-total rows of 1 Entities \(months before \d{4}-\d{2}-01\) in 1 rounds, \d+ ms\n$/);
    expect(await slotRows(child.id, '2026-06-01')).toMatchObject({ accounts: { unfolded: 0 }, partners: { unfolded: 0 } });
    await expectMonthlyTotalsMatchLines(t, child.id);
    const refused = await run(['--entity', 'not-an-id']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('--entity must be an Entity id');
  }, 120_000);

  it('property: random postings, unbookings and folds over random months, the clock moving on: totals equal a recomputation from the lines', async () => {
    const runs = Number(process.env.FOLDING_RUNS ?? 6);
    const step = fc.oneof(
      fc.record({ kind: fc.constant('post' as const), month: fc.integer({ min: 0, max: 8 }), day: fc.integer({ min: 1, max: 28 }), amount: fc.integer({ min: 1, max: 1_000_000 }), account: fc.constantFrom('caja', 'clientes', 'arriendo') }),
      fc.record({ kind: fc.constant('unbook' as const), index: fc.nat() }),
      fc.record({ kind: fc.constant('fold' as const), rows: fc.integer({ min: 1, max: 40 }) }),
      fc.record({ kind: fc.constant('together' as const), month: fc.integer({ min: 0, max: 8 }), rows: fc.integer({ min: 1, max: 40 }) }),
      fc.record({ kind: fc.constant('next day' as const), days: fc.integer({ min: 1, max: 40 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 14 }), async (steps) => {
        const b = await books('Propiedad', 'CLP');
        const p = await partner(b, freshRut());
        const posted: string[] = [];
        let today = NOON('2026-03-15');
        clock.set(today);
        const monthOf = (n: number) => addMonths('2025-06-01', n).slice(0, 7);
        for (const s of steps) {
          if (s.kind === 'post') posted.push(await post(b, `${monthOf(s.month)}-${String(s.day).padStart(2, '0')}`, s.account, 'ventas', s.amount, { partnerId: p }));
          else if (s.kind === 'unbook' && posted.length > 0) {
            const [id] = posted.splice(s.index % posted.length, 1);
            await staff.delete(url(b, `/ledger/entries/${id}`)).expect(200);
          } else if (s.kind === 'fold') await folding.foldRound(b.id, s.rows);
          else if (s.kind === 'together') {
            const [res] = await Promise.all([
              entry(b, `${monthOf(s.month)}-14`, 'clientes', 'ventas', 99, { partnerId: p }),
              folding.foldRound(b.id, s.rows),
              folding.foldRound(b.id, s.rows),
            ]);
            expect(res.status).toBe(201);
            posted.push(res.body.id as string);
          } else if (s.kind === 'next day') {
            today = new Date(today.getTime() + s.days * 86_400_000);
            clock.set(today);
          }
        }
        await expectMonthlyTotalsMatchLines(t, b.id);
        await folding.foldAll(b.id);
        await expectMonthlyTotalsMatchLines(t, b.id);
        expect((await slotRows(b.id, folding.currentMonth())).accounts.unfolded).toBe(0);
      }),
      { numRuns: runs },
    );
  });
});
