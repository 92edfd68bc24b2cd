import { randomUUID } from 'node:crypto';
import { entityRowLockSql } from '../src/modules/entities';
import { FixedClock } from '../src/platform/clock/clock';
import { countRows, expectAudited, expectMonthlyTotalsMatchLines, expectRefused, lockWaiters, waitUntil, whileRowLocked } from './harness/db-checks';
import { checkAccessMatrix } from './harness/access-matrix';
import { createTestApp, TestApp } from './harness/test-app';
import { Agent, buildWorld, createEntity, World } from './harness/world';

const clock = new FixedClock(new Date('2026-06-15T15:00:00Z'));

/** Every table a closing, a reopening or a lock-date move could write. */
const TABLES = ['ledger_closings', 'ledger_entries', 'ledger_lines', 'ledger_account_monthly_totals', 'entities', 'audit_trail'];

/**
 * D90 Year-end closing, the write side: the closing entry computed by hand, the order of the
 * rules, the lock date held behind active closings, reopening only the latest, audit rows, and
 * closings raced against each other and against lock-date moves.
 *
 * The ledger (no Books), amounts in CLP:
 *   2024 (a loss): D Caja 10000 / C Capital 10000; D Arriendo 3000 / C Caja 3000; D Caja 1000 / C Ventas 1000
 *     Result Accounts: Ventas -1000 (credit), Arriendo +3000 (debit): result = 1000 - 3000 = -2000
 *     closing entry: D Ventas 1000, C Arriendo 3000, D Resultados acumulados 2000
 *   2025 (a profit): D Caja 8000 / C Ventas 8000; D Costo 2500 / C Caja 2500; D Arriendo 1200 / C Caja 1200;
 *     D Caja 500 / C Otros ingresos 500 (dated 2025-12-31); D Arriendo 999 / C Caja 999 unbooked (not live)
 *     result = 8000 + 500 - 2500 - 1200 = 4800
 *     closing entry: D Ventas 8000, C Costo 2500, C Arriendo 1200, D Otros ingresos 500, C Resultados acumulados 4800
 */
describe('year-end closing (D90)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let entityId: string;
  const a: Record<string, string> = {};

  const url = (path: string, entity = entityId) => `/api/entities/${entity}${path}`;
  const lockDate = (date: string | null, entity = entityId) => staff.patch(url('/ledger-lock-date', entity)).send({ ledgerLockDate: date });
  const post = async (entryDate: string, debit: string, credit: string, amount: number, options: { entity?: string; bookId?: string } = {}) => {
    const id = randomUUID();
    await staff
      .post(url('/ledger/entries', options.entity))
      .send({
        id,
        entryDate,
        memo: `${debit} / ${credit}`,
        bookId: options.bookId,
        newLedgerEntryLines: [
          { side: 'debit', ledgerAccountId: a[debit], amount },
          { side: 'credit', ledgerAccountId: a[credit], amount },
        ],
      })
      .expect(201);
    return id;
  };
  const chart = async (entity: string, prefix = '') => {
    const accounts: Array<[string, string, string]> = [
      ['caja', '1101', 'asset'],
      ['capital', '3101', 'equity'],
      ['resultados', '3201', 'equity'],
      ['ventas', '4101', 'income'],
      ['costo', '5101', 'cost_of_goods_sold'],
      ['arriendo', '6101', 'operating_expense'],
      ['otros', '7101', 'other_income'],
    ];
    for (const [key, code, type] of accounts) {
      a[prefix + key] = randomUUID();
      await staff.post(url('/ledger/accounts', entity)).send({ id: a[prefix + key], code, name: key, type, tracking: 'balance' }).expect(201);
    }
  };
  const close = (body: Record<string, unknown>, entity = entityId) => staff.post(url('/ledger/closings', entity)).send({ id: randomUUID(), retainedEarningsAccountId: a.resultados, ...body });
  const linesOf = (entry: { lines: Array<{ side: string; ledgerAccountId: string; amount: number; partnerId: string | null; dimensionValueIds?: string[] }> }) =>
    entry.lines.map((l) => ({ side: l.side, ledgerAccountId: l.ledgerAccountId, amount: l.amount, partnerId: l.partnerId }));

  beforeAll(async () => {
    t = await createTestApp({ clock });
    world = await buildWorld(t);
    staff = world.staff;
    entityId = (await createEntity(staff, world.organizationId)).id;
    await chart(entityId);
    await post('2024-01-10', 'caja', 'capital', 10000);
    await post('2024-03-15', 'arriendo', 'caja', 3000);
    await post('2024-11-30', 'caja', 'ventas', 1000);
    await post('2025-02-01', 'caja', 'ventas', 8000);
    await post('2025-06-10', 'costo', 'caja', 2500);
    await post('2025-07-01', 'arriendo', 'caja', 1200);
    await post('2025-12-31', 'caja', 'otros', 500);
    const unbooked = await post('2025-08-01', 'arriendo', 'caja', 999);
    await staff.delete(url(`/ledger/entries/${unbooked}`)).expect(200);
  });

  afterAll(() => t?.close());

  let closing2024: { id: string; entryId: string };
  let closing2025: { id: string; entryId: string };

  describe('refusals, nothing written', () => {
    it('refuses exerciseStart after exerciseEnd with 400 VALIDATION_ERROR', () =>
      expectRefused(t, TABLES, close({ exerciseStart: '2025-01-01', exerciseEnd: '2024-12-31' }), 400, 'VALIDATION_ERROR'));

    it('refuses a malformed body with 400 VALIDATION_ERROR', () =>
      expectRefused(t, TABLES, close({ exerciseStart: '2024-01-01', exerciseEnd: '2024-02-30' }), 400, 'VALIDATION_ERROR'));

    it('refuses a missing retained-earnings account with 404 LEDGER_ACCOUNT_NOT_FOUND_ERROR', () =>
      expectRefused(t, TABLES, close({ exerciseStart: '2024-01-01', exerciseEnd: '2024-12-31', retainedEarningsAccountId: randomUUID() }), 404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR'));

    it('refuses a retained-earnings account not of type equity with 400 LEDGER_CLOSING_ACCOUNT_NOT_EQUITY_ERROR', () =>
      expectRefused(t, TABLES, close({ exerciseStart: '2024-01-01', exerciseEnd: '2024-12-31', retainedEarningsAccountId: a.caja }), 400, 'LEDGER_CLOSING_ACCOUNT_NOT_EQUITY_ERROR'));

    it('refuses a Book on an Entity without Books with 404 BOOK_NOT_FOUND_ERROR', () =>
      expectRefused(t, TABLES, close({ exerciseStart: '2024-01-01', exerciseEnd: '2024-12-31', bookId: randomUUID() }), 404, 'BOOK_NOT_FOUND_ERROR'));

    it('refuses an exercise not locked (no lock date) with 409 LEDGER_CLOSING_PERIOD_NOT_LOCKED_ERROR', () =>
      expectRefused(t, TABLES, close({ exerciseStart: '2024-01-01', exerciseEnd: '2024-12-31' }), 409, 'LEDGER_CLOSING_PERIOD_NOT_LOCKED_ERROR'));

    it('refuses an exercise ending after the lock date with 409 LEDGER_CLOSING_PERIOD_NOT_LOCKED_ERROR', async () => {
      await lockDate('2024-12-30').expect(200);
      await expectRefused(t, TABLES, close({ exerciseStart: '2024-01-01', exerciseEnd: '2024-12-31' }), 409, 'LEDGER_CLOSING_PERIOD_NOT_LOCKED_ERROR');
    });

    it('answers an unknown closing with 404 LEDGER_CLOSING_NOT_FOUND_ERROR (GET and DELETE)', async () => {
      const res = await staff.get(url(`/ledger/closings/${randomUUID()}`)).expect(404);
      expect(res.body.code).toBe('LEDGER_CLOSING_NOT_FOUND_ERROR');
      await expectRefused(t, TABLES, staff.delete(url(`/ledger/closings/${randomUUID()}`)), 404, 'LEDGER_CLOSING_NOT_FOUND_ERROR');
    });
  });

  describe('a loss year, then a profit year', () => {
    it('closes 2024 (a loss): one closing entry dated its last day, into the locked period, with an audit row', async () => {
      await lockDate('2024-12-31').expect(200);
      const id = randomUUID();
      const res = await expectAudited(
        t,
        staff.post(url('/ledger/closings')).send({ id, exerciseStart: '2024-01-01', exerciseEnd: '2024-12-31', retainedEarningsAccountId: a.resultados }),
        201,
        { action: 'ledger_closing.create', resource_type: 'ledger_closing', resource_id: id, entity_id: entityId, method: 'POST' },
      );
      expect(res.body).toEqual({
        id,
        entityId,
        bookId: null,
        exerciseStart: '2024-01-01',
        exerciseEnd: '2024-12-31',
        retainedEarningsAccountId: a.resultados,
        entryId: expect.any(String),
        result: -2000,
        status: 'active',
        createdAt: '2026-06-15T15:00:00.000Z',
        updatedAt: '2026-06-15T15:00:00.000Z',
      });
      closing2024 = res.body;
      const entry = (await staff.get(url(`/ledger/entries/${res.body.entryId}`)).expect(200)).body;
      expect(entry).toMatchObject({ source: 'closing', status: 'active', entryDate: '2024-12-31', bookId: null, closingId: id });
      expect(linesOf(entry)).toEqual([
        { side: 'debit', ledgerAccountId: a.ventas, amount: 1000, partnerId: null },
        { side: 'credit', ledgerAccountId: a.arriendo, amount: 3000, partnerId: null },
        { side: 'debit', ledgerAccountId: a.resultados, amount: 2000, partnerId: null },
      ]);
      expect(entry.lines.every((l: { dimensionValueIds?: string[]; dimensionValues?: unknown[] }) => (l.dimensionValueIds ?? l.dimensionValues ?? []).length === 0)).toBe(true);
      await expectMonthlyTotalsMatchLines(t, entityId);
      expect((await staff.get(url(`/ledger/closings/${id}`)).expect(200)).body).toEqual(res.body);
    });

    it('an ordinary entry is no closing: its detail names none', async () => {
      const id = await post('2026-01-05', 'caja', 'ventas', 1);
      expect((await staff.get(url(`/ledger/entries/${id}`)).expect(200)).body.closingId).toBeNull();
      await staff.delete(url(`/ledger/entries/${id}`)).expect(200);
    });

    it('lists the closing entry like any entry (entries and lines lists, the journal)', async () => {
      const entries = (await staff.get(url('/ledger/entries?from=2024-12-31&to=2024-12-31')).expect(200)).body;
      expect(entries.entries.map((e: { id: string; source: string }) => [e.id, e.source])).toContainEqual([closing2024.entryId, 'closing']);
      const lines = (await staff.get(url(`/ledger/lines?accountId=${a.resultados}`)).expect(200)).body;
      expect(JSON.stringify(lines)).toContain(closing2024.entryId);
    });

    it('refuses a reused closing id with 409 LEDGER_CLOSING_ALREADY_EXISTS_ERROR', () =>
      expectRefused(t, TABLES, close({ id: closing2024.id, exerciseStart: '2024-01-01', exerciseEnd: '2024-12-31' }), 409, 'LEDGER_CLOSING_ALREADY_EXISTS_ERROR'));

    it('holds the lock date: not before the closing end (409 LEDGER_LOCK_DATE_BEFORE_CLOSING_ERROR), not cleared; later is fine', async () => {
      await expectRefused(t, TABLES, lockDate('2024-12-30'), 409, 'LEDGER_LOCK_DATE_BEFORE_CLOSING_ERROR');
      await expectRefused(t, TABLES, lockDate(null), 409, 'LEDGER_LOCK_DATE_BEFORE_CLOSING_ERROR');
      await lockDate('2024-12-31').expect(200);
      await lockDate('2025-03-31').expect(200);
    });

    it('the closing entry changes only by reopening: unbook, reverse and edit meet 409 LEDGER_PERIOD_LOCKED_ERROR', async () => {
      const entry = url(`/ledger/entries/${closing2024.entryId}`);
      await expectRefused(t, TABLES, staff.delete(entry), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
      await expectRefused(t, TABLES, staff.post(`${entry}/reverse`).send({ id: randomUUID(), reversalDate: '2026-01-10' }), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
      await expectRefused(t, TABLES, staff.patch(entry).send({ memo: 'another memo' }), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
    });

    it('refuses an exercise that does not start the day after the latest closing with 409 LEDGER_CLOSING_SEQUENCE_ERROR', async () => {
      await lockDate('2025-12-31').expect(200);
      await expectRefused(t, TABLES, close({ exerciseStart: '2025-01-02', exerciseEnd: '2025-12-31' }), 409, 'LEDGER_CLOSING_SEQUENCE_ERROR');
      await expectRefused(t, TABLES, close({ exerciseStart: '2024-01-01', exerciseEnd: '2024-12-31' }), 409, 'LEDGER_CLOSING_SEQUENCE_ERROR');
    });

    it('closes 2025 (a profit): Result Accounts to zero, the profit credited to retained earnings; the unbooked entry does not count', async () => {
      const res = await close({ exerciseStart: '2025-01-01', exerciseEnd: '2025-12-31' }).expect(201);
      expect(res.body).toMatchObject({ exerciseStart: '2025-01-01', exerciseEnd: '2025-12-31', result: 4800, status: 'active' });
      closing2025 = res.body;
      const entry = (await staff.get(url(`/ledger/entries/${res.body.entryId}`)).expect(200)).body;
      expect(entry).toMatchObject({ source: 'closing', entryDate: '2025-12-31', closingId: res.body.id });
      // By account code: 4101, 5101, 6101, 7101, then retained earnings.
      expect(linesOf(entry)).toEqual([
        { side: 'debit', ledgerAccountId: a.ventas, amount: 8000, partnerId: null },
        { side: 'credit', ledgerAccountId: a.costo, amount: 2500, partnerId: null },
        { side: 'credit', ledgerAccountId: a.arriendo, amount: 1200, partnerId: null },
        { side: 'debit', ledgerAccountId: a.otros, amount: 500, partnerId: null },
        { side: 'credit', ledgerAccountId: a.resultados, amount: 4800, partnerId: null },
      ]);
      await expectMonthlyTotalsMatchLines(t, entityId);
    });

    it('lists every closing, newest exerciseEnd first', async () => {
      const res = await staff.get(url('/ledger/closings')).expect(200);
      expect(res.body.closings.map((c: { id: string }) => c.id)).toEqual([closing2025.id, closing2024.id]);
    });
  });

  describe('reopening', () => {
    it('refuses to reopen a closing that is not the latest with 409 LEDGER_CLOSING_NOT_LATEST_ERROR', () =>
      expectRefused(t, TABLES, staff.delete(url(`/ledger/closings/${closing2024.id}`)), 409, 'LEDGER_CLOSING_NOT_LATEST_ERROR'));

    it('reopens the latest: the closing reopened, its entry deleted, an audit row; then the lock date may move back', async () => {
      const res = await expectAudited(t, staff.delete(url(`/ledger/closings/${closing2025.id}`)), 200, {
        action: 'ledger_closing.reopen',
        resource_type: 'ledger_closing',
        resource_id: closing2025.id,
        method: 'DELETE',
      });
      expect(res.body).toMatchObject({ id: closing2025.id, status: 'reopened', entryId: closing2025.entryId, result: 4800 });
      const entry = (await staff.get(url(`/ledger/entries/${closing2025.entryId}`)).expect(200)).body;
      expect(entry).toMatchObject({ status: 'deleted', closingId: closing2025.id });
      await expectMonthlyTotalsMatchLines(t, entityId);
      await lockDate('2025-06-30').expect(200);
      await expectRefused(t, TABLES, lockDate('2024-12-30'), 409, 'LEDGER_LOCK_DATE_BEFORE_CLOSING_ERROR');
    });

    it('refuses to reopen a reopened closing with 409 LEDGER_CLOSING_NOT_LATEST_ERROR', () =>
      expectRefused(t, TABLES, staff.delete(url(`/ledger/closings/${closing2025.id}`)), 409, 'LEDGER_CLOSING_NOT_LATEST_ERROR'));

    it('re-closes 2025 with the same figures; the list keeps the reopened closing', async () => {
      await lockDate('2025-12-31').expect(200);
      const res = await close({ exerciseStart: '2025-01-01', exerciseEnd: '2025-12-31' }).expect(201);
      expect(res.body).toMatchObject({ result: 4800, status: 'active' });
      expect(res.body.entryId).not.toBe(closing2025.entryId);
      const list = (await staff.get(url('/ledger/closings')).expect(200)).body.closings;
      expect(list.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
        [res.body.id, 'active'],
        [closing2025.id, 'reopened'],
        [closing2024.id, 'active'],
      ]);
      closing2025 = res.body;
    });
  });

  describe('nothing to close', () => {
    it('answers entryId null and result 0, no entry written', async () => {
      const other = (await createEntity(staff, world.organizationId)).id;
      await chart(other, 'o.');
      await lockDate('2025-12-31', other).expect(200);
      const entriesBefore = await countRows(t, 'ledger_entries');
      const res = await close({ exerciseStart: '2025-01-01', exerciseEnd: '2025-12-31', retainedEarningsAccountId: a['o.resultados'] }, other).expect(201);
      expect(res.body).toMatchObject({ entryId: null, result: 0, status: 'active' });
      expect(await countRows(t, 'ledger_entries')).toBe(entriesBefore);
      // A balance sheet entry alone (no Result Account) closes nothing either, and the next exercise follows.
      await post('2026-02-01', 'o.caja', 'o.capital', 700, { entity: other });
      await lockDate('2026-03-31', other).expect(200);
      const next = await close({ exerciseStart: '2026-01-01', exerciseEnd: '2026-03-31', retainedEarningsAccountId: a['o.resultados'] }, other);
      expect(next.status).toBe(201);
      expect(next.body).toMatchObject({ entryId: null, result: 0 });
    });
  });

  describe('a Book closing', () => {
    let booked: string;
    let ifrs: string;
    let tax: string;

    beforeAll(async () => {
      booked = (await createEntity(staff, world.organizationId)).id;
      await chart(booked, 'b.');
      ifrs = randomUUID();
      tax = randomUUID();
      await staff.post(url('/books', booked)).send({ id: ifrs, name: 'IFRS' }).expect(201);
      await staff.post(url('/books', booked)).send({ id: tax, name: 'TAX' }).expect(201);
      // Common: sales 5000 (income), rent 1000; IFRS: depreciation as rent 300; TAX: rent 700.
      await post('2025-03-01', 'b.caja', 'b.ventas', 5000, { entity: booked });
      await post('2025-04-01', 'b.arriendo', 'b.caja', 1000, { entity: booked });
      await post('2025-05-01', 'b.arriendo', 'b.caja', 300, { entity: booked, bookId: ifrs });
      await post('2025-05-01', 'b.arriendo', 'b.caja', 700, { entity: booked, bookId: tax });
      await lockDate('2025-12-31', booked).expect(200);
    });

    it('refuses a closing without a Book on an Entity with Books with 409 BOOK_REQUIRED_ERROR', () =>
      expectRefused(t, TABLES, close({ exerciseStart: '2025-01-01', exerciseEnd: '2025-12-31', retainedEarningsAccountId: a['b.resultados'] }, booked), 409, 'BOOK_REQUIRED_ERROR'));

    it('closes the IFRS Book from common plus IFRS lines: 5000 - 1000 - 300 = 3700, a Book Entry', async () => {
      const res = await close({ exerciseStart: '2025-01-01', exerciseEnd: '2025-12-31', retainedEarningsAccountId: a['b.resultados'], bookId: ifrs }, booked).expect(201);
      expect(res.body).toMatchObject({ bookId: ifrs, result: 3700 });
      const entry = (await staff.get(url(`/ledger/entries/${res.body.entryId}`, booked)).expect(200)).body;
      expect(entry.bookId).toBe(ifrs);
      expect(linesOf(entry)).toEqual([
        { side: 'debit', ledgerAccountId: a['b.ventas'], amount: 5000, partnerId: null },
        { side: 'credit', ledgerAccountId: a['b.arriendo'], amount: 1300, partnerId: null },
        { side: 'credit', ledgerAccountId: a['b.resultados'], amount: 3700, partnerId: null },
      ]);
    });

    it('the TAX Book keeps its own sequence: 5000 - 1000 - 700 = 3300; the list filters by Book', async () => {
      const res = await close({ exerciseStart: '2025-01-01', exerciseEnd: '2025-12-31', retainedEarningsAccountId: a['b.resultados'], bookId: tax }, booked).expect(201);
      expect(res.body).toMatchObject({ bookId: tax, result: 3300 });
      const list = (await staff.get(url(`/ledger/closings?bookId=${tax}`, booked)).expect(200)).body.closings;
      expect(list.map((c: { id: string }) => c.id)).toEqual([res.body.id]);
      expect((await staff.get(url('/ledger/closings', booked)).expect(200)).body.closings).toHaveLength(2);
    });
  });

  describe('access as for ledger entries (D16)', () => {
    const closingsOf = (entity: string) => `/api/entities/${entity}/ledger/closings`;
    it('POST /ledger/closings', () =>
      checkAccessMatrix(t, world, {
        method: 'post',
        path: closingsOf,
        body: () => ({ id: randomUUID(), exerciseStart: '2025-01-01', exerciseEnd: '2025-12-31', retainedEarningsAccountId: randomUUID() }),
      }));
    it('GET /ledger/closings', () => checkAccessMatrix(t, world, { method: 'get', path: closingsOf }));
    it('GET /ledger/closings/:closingId', () => checkAccessMatrix(t, world, { method: 'get', path: (entity) => `${closingsOf(entity)}/${randomUUID()}` }));
    it('DELETE /ledger/closings/:closingId', () => checkAccessMatrix(t, world, { method: 'delete', path: (entity) => `${closingsOf(entity)}/${randomUUID()}` }));
  });

  describe('races (real concurrent requests)', () => {
    let racing: string;
    beforeEach(async () => {
      racing = (await createEntity(staff, world.organizationId)).id;
      await chart(racing, `r${racing}.`);
      a.r = a[`r${racing}.resultados`];
      await post('2025-05-05', `r${racing}.caja`, `r${racing}.ventas`, 900, { entity: racing });
      await lockDate('2025-12-31', racing).expect(200);
    });
    // Locked where the service locks it: on Citus, the copy on the Entity's shard group (entityRowLockSql).
    const entityRow = (entity: string) => [entityRowLockSql('UPDATE'), [entity]] as const;

    it('two closings of one exercise: one is written, the other meets the sequence (or its id)', async () => {
      const body = () => ({ id: randomUUID(), exerciseStart: '2025-01-01', exerciseEnd: '2025-12-31', retainedEarningsAccountId: a.r });
      const [sql, values] = entityRow(racing);
      const answers = await whileRowLocked(t, sql, [...values], () => Promise.all([staff.post(url('/ledger/closings', racing)).send(body()), staff.post(url('/ledger/closings', racing)).send(body())]), undefined, { waiters: 2 });
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
      expect(answers.find((r) => r.status === 409)!.body.code).toBe('LEDGER_CLOSING_SEQUENCE_ERROR');
      expect(await countRows(t, 'ledger_closings', 'entity_id = $1', [racing])).toBe(1);
      expect(await countRows(t, 'ledger_entries', "entity_id = $1 AND source = 'closing'", [racing])).toBe(1);
    });

    it('a closing and a lock-date move back: one serial order wins, and the lock date never ends before an active closing', async () => {
      const [sql, values] = entityRow(racing);
      const [closed, moved] = await whileRowLocked(
        t,
        sql,
        [...values],
        () =>
          Promise.all([
            staff.post(url('/ledger/closings', racing)).send({ id: randomUUID(), exerciseStart: '2025-01-01', exerciseEnd: '2025-12-31', retainedEarningsAccountId: a.r }),
            lockDate('2025-06-30', racing),
          ]),
        undefined,
        { waiters: 2 },
      );
      const outcome = [closed.status, closed.body.code ?? null, moved.status, moved.body.code ?? null];
      expect([
        [201, null, 409, 'LEDGER_LOCK_DATE_BEFORE_CLOSING_ERROR'],
        [409, 'LEDGER_CLOSING_PERIOD_NOT_LOCKED_ERROR', 200, null],
      ]).toContainEqual(outcome);
      const [entity] = await t.sql<{ d: string }>('SELECT ledger_lock_date::text AS d FROM entities WHERE id = $1', [racing]);
      expect(entity.d).toBe(closed.status === 201 ? '2025-12-31' : '2025-06-30');
    });

    it('a closing and postings after the lock date: both written, the closing unaffected', async () => {
      const [sql, values] = entityRow(racing);
      const postings = () =>
        Array.from({ length: 3 }, () =>
          staff.post(url('/ledger/entries', racing)).send({
            id: randomUUID(),
            entryDate: '2026-02-02',
            memo: 'after the lock date',
            newLedgerEntryLines: [
              { side: 'debit', ledgerAccountId: a[`r${racing}.caja`], amount: 11 },
              { side: 'credit', ledgerAccountId: a[`r${racing}.ventas`], amount: 11 },
            ],
          }),
        );
      const answers = await whileRowLocked(
        t,
        sql,
        [...values],
        () => Promise.all([staff.post(url('/ledger/closings', racing)).send({ id: randomUUID(), exerciseStart: '2025-01-01', exerciseEnd: '2025-12-31', retainedEarningsAccountId: a.r }), ...postings()]),
        undefined,
        { waiters: 2 },
      );
      expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201]);
      expect(answers[0].body.result).toBe(900);
      await expectMonthlyTotalsMatchLines(t, racing);
    });

    it('a reopening and a lock-date move back: the move waits, then sees the closing reopened or still active', async () => {
      const closing = (await staff.post(url('/ledger/closings', racing)).send({ id: randomUUID(), exerciseStart: '2025-01-01', exerciseEnd: '2025-12-31', retainedEarningsAccountId: a.r }).expect(201)).body;
      const reopen = staff.delete(url(`/ledger/closings/${closing.id}`, racing));
      const move = lockDate('2025-06-30', racing);
      const [reopened, moved] = await Promise.all([reopen, move]);
      expect(reopened.status).toBe(200);
      expect([200, 409]).toContain(moved.status);
      if (moved.status === 409) expect(moved.body.code).toBe('LEDGER_LOCK_DATE_BEFORE_CLOSING_ERROR');
      await waitUntil(async () => (await lockWaiters(t)) === 0);
    });
  });
});
