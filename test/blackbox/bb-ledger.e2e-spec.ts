import type { TestApp } from '../harness/test-app';
import { createWorldApp, freshEntity, ISO_DATETIME, type Agent, type World } from '../harness/world';
import { buildChart, createPartner, cr, dr, expectError, expectStatus, freshRut, MovableClock, post, uuid, type Chart, type Line } from './bb-helpers';

const ENTRY_KEYS = ['bookId', 'createdAt', 'entityId', 'entryDate', 'id', 'lines', 'memo', 'notes', 'reversalOfEntryId', 'reversedByEntryId', 'source', 'status', 'updatedAt'];
const LINE_KEYS = ['amount', 'description', 'dimensionValues', 'exchangeRate', 'id', 'ledgerAccountId', 'openAmount', 'partnerId', 'side', 'transactionAmount', 'transactionCurrency'];

describe('black box: ledger entries and lines', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  const clock = new MovableClock();

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock }));
  });
  afterAll(() => t.close());

  const base = (entityId: string) => `/api/entities/${entityId}`;

  interface Setup {
    entityId: string;
    chart: Chart;
    partnerId: string;
    dimensionId: string;
    valueA: string;
    valueB: string;
    otherDimValue: string;
  }

  async function setup(): Promise<Setup> {
    const entityId = await freshEntity(world);
    const chart = await buildChart(staff, entityId);
    const partnerId = await createPartner(staff, entityId, 'Cliente', freshRut());
    const dimensionId = uuid();
    await staff.post(`${base(entityId)}/dimensions`).send({ id: dimensionId, name: 'Centre' }).expect(201);
    const valueA = uuid();
    const valueB = uuid();
    await staff.post(`${base(entityId)}/dimensions/${dimensionId}/values`).send({ id: valueA, code: 'A', name: 'Alpha' }).expect(201);
    await staff.post(`${base(entityId)}/dimensions/${dimensionId}/values`).send({ id: valueB, code: 'B', name: 'Beta' }).expect(201);
    const otherDim = uuid();
    await staff.post(`${base(entityId)}/dimensions`).send({ id: otherDim, name: 'Project' }).expect(201);
    const otherDimValue = uuid();
    await staff.post(`${base(entityId)}/dimensions/${otherDim}/values`).send({ id: otherDimValue, code: 'P1', name: 'Project one' }).expect(201);
    return { entityId, chart, partnerId, dimensionId, valueA, valueB, otherDimValue };
  }

  let s: Setup;
  beforeAll(async () => {
    s = await setup();
  });

  const create = (entityId: string, body: Record<string, unknown>) => staff.post(`${base(entityId)}/ledger/entries`).send(body);
  const entryBody = (lines: Line[], extra: Record<string, unknown> = {}) => ({ id: uuid(), entryDate: '2026-06-01', memo: 'Test', newLedgerEntryLines: lines, ...extra });

  describe('create (D33, D34)', () => {
    it('answers 201 with the entry and its lines in the D34 shape', async () => {
      const id = uuid();
      const lineId = uuid();
      const res = await create(s.entityId, {
        id,
        entryDate: '2026-06-01',
        memo: 'Sale',
        notes: 'first',
        newLedgerEntryLines: [
          dr(s.chart.receivable, 1190, { id: lineId, partnerId: s.partnerId, description: 'Invoice 1' }),
          cr(s.chart.sales, 1190, { dimensionValueIds: [s.valueA] }),
        ],
      });
      expectStatus(res, 201);
      expect(Object.keys(res.body).sort()).toEqual(ENTRY_KEYS);
      expect(res.body).toMatchObject({
        id,
        entityId: s.entityId,
        bookId: null,
        entryDate: '2026-06-01',
        memo: 'Sale',
        notes: 'first',
        status: 'active',
        source: 'manual',
        reversalOfEntryId: null,
        reversedByEntryId: null,
      });
      expect(res.body.createdAt).toMatch(ISO_DATETIME);
      expect(res.body.lines).toHaveLength(2);
      for (const line of res.body.lines) expect(Object.keys(line).sort()).toEqual(LINE_KEYS);
      const [receivable, sales] = res.body.lines;
      expect(receivable).toEqual({
        id: lineId,
        side: 'debit',
        ledgerAccountId: s.chart.receivable,
        amount: 1190,
        description: 'Invoice 1',
        partnerId: s.partnerId,
        transactionCurrency: null,
        transactionAmount: null,
        exchangeRate: null,
        dimensionValues: [],
        openAmount: 1190,
      });
      expect(sales).toMatchObject({ side: 'credit', amount: 1190, openAmount: null, partnerId: null, description: null });
      expect(sales.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(sales.dimensionValues).toEqual([{ id: s.valueA, dimensionId: s.dimensionId, code: 'A', name: 'Alpha' }]);
    });

    it('GET detail answers the entry with its lines; a missing entry is 404 LEDGER_ENTRY_NOT_FOUND_ERROR', async () => {
      const entry = await post(staff, s.entityId, '2026-06-02', [dr(s.chart.cash, 50), cr(s.chart.sales, 50)]);
      const res = await staff.get(`${base(s.entityId)}/ledger/entries/${entry.id}`);
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ id: entry.id, status: 'active', entryDate: '2026-06-02', memo: entry.memo });
      expect(res.body.lines.map((l: { id: string }) => l.id)).toEqual(entry.lines.map((l: { id: string }) => l.id));
      expectError(await staff.get(`${base(s.entityId)}/ledger/entries/${uuid()}`), 404, 'LEDGER_ENTRY_NOT_FOUND_ERROR');
    });

    it('notes default to null', async () => {
      const entry = await post(staff, s.entityId, '2026-06-02', [dr(s.chart.cash, 5), cr(s.chart.sales, 5)]);
      expect(entry.notes).toBeNull();
    });

    it('a reused id is 409 LEDGER_ENTRY_ALREADY_EXISTS_ERROR', async () => {
      const body = entryBody([dr(s.chart.cash, 5), cr(s.chart.sales, 5)]);
      await create(s.entityId, body).expect(201);
      expectError(await create(s.entityId, body), 409, 'LEDGER_ENTRY_ALREADY_EXISTS_ERROR');
    });

    it('unbalanced lines are 400 LEDGER_ENTRY_UNBALANCED_ERROR', async () => {
      expectError(await create(s.entityId, entryBody([dr(s.chart.cash, 10), cr(s.chart.sales, 9)])), 400, 'LEDGER_ENTRY_UNBALANCED_ERROR');
    });

    it('fewer than two lines is 400 LEDGER_ENTRY_LINE_COUNT_ERROR', async () => {
      expectError(await create(s.entityId, entryBody([dr(s.chart.cash, 10)])), 400, 'LEDGER_ENTRY_LINE_COUNT_ERROR');
      expectError(await create(s.entityId, entryBody([])), 400, 'LEDGER_ENTRY_LINE_COUNT_ERROR');
    });

    it.each([0, -5, 1.5, 2 ** 53])('amount %p is 400 VALIDATION_ERROR naming the line path', async (amount) => {
      const res = await create(s.entityId, entryBody([dr(s.chart.cash, 10), cr(s.chart.sales, amount as number)]));
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors.map((e: { path: string }) => e.path)).toContain('newLedgerEntryLines[1].amount');
    });

    it('accepts an amount of 2^53 - 1 (D6)', async () => {
      const max = Number.MAX_SAFE_INTEGER;
      const res = await create(s.entityId, entryBody([dr(s.chart.bank, max), cr(s.chart.capital, max)]));
      expectStatus(res, 201);
      expect(res.body.lines[0].amount).toBe(max);
      await staff.delete(`${base(s.entityId)}/ledger/entries/${res.body.id}`).expect(200);
    });

    it('an unknown side is 400 VALIDATION_ERROR', async () => {
      expectError(await create(s.entityId, entryBody([dr(s.chart.cash, 10), { side: 'left', ledgerAccountId: s.chart.sales, amount: 10 } as unknown as Line])), 400, 'VALIDATION_ERROR');
    });

    it('an entry date after today is 409 LEDGER_ENTRY_DATE_IN_FUTURE_ERROR; today is accepted', async () => {
      expectError(await create(s.entityId, entryBody([dr(s.chart.cash, 1), cr(s.chart.sales, 1)], { entryDate: '2026-06-16' })), 409, 'LEDGER_ENTRY_DATE_IN_FUTURE_ERROR');
      expectStatus(await create(s.entityId, entryBody([dr(s.chart.cash, 1), cr(s.chart.sales, 1)], { entryDate: '2026-06-15' })), 201);
    });

    it('an impossible date is 400 VALIDATION_ERROR', async () => {
      expectError(await create(s.entityId, entryBody([dr(s.chart.cash, 1), cr(s.chart.sales, 1)], { entryDate: '2026-02-29' })), 400, 'VALIDATION_ERROR');
    });

    it('a missing account is 404 LEDGER_ACCOUNT_NOT_FOUND_ERROR; a missing partner 404 PARTNER_NOT_FOUND_ERROR; a missing value 404 DIMENSION_VALUE_NOT_FOUND_ERROR', async () => {
      expectError(await create(s.entityId, entryBody([dr(uuid(), 1), cr(s.chart.sales, 1)])), 404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR');
      expectError(await create(s.entityId, entryBody([dr(s.chart.cash, 1, { partnerId: uuid() }), cr(s.chart.sales, 1)])), 404, 'PARTNER_NOT_FOUND_ERROR');
      expectError(await create(s.entityId, entryBody([dr(s.chart.cash, 1), cr(s.chart.sales, 1, { dimensionValueIds: [uuid()] })])), 404, 'DIMENSION_VALUE_NOT_FOUND_ERROR');
    });

    it('an account of another Entity is 404 LEDGER_ACCOUNT_NOT_FOUND_ERROR', async () => {
      const other = await setup();
      expectError(await create(s.entityId, entryBody([dr(other.chart.cash, 1), cr(s.chart.sales, 1)])), 404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR');
    });

    it('a Dimension Value on a balance-sheet line is 409 LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR', async () => {
      const res = await create(s.entityId, entryBody([dr(s.chart.cash, 1, { dimensionValueIds: [s.valueA] }), cr(s.chart.sales, 1)]));
      expectError(res, 409, 'LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR');
    });

    it('two values of one Dimension on a line are 400 LEDGER_LINE_DUPLICATE_DIMENSION_ERROR; values of two Dimensions are fine', async () => {
      expectError(
        await create(s.entityId, entryBody([dr(s.chart.cash, 1), cr(s.chart.sales, 1, { dimensionValueIds: [s.valueA, s.valueB] })])),
        400,
        'LEDGER_LINE_DUPLICATE_DIMENSION_ERROR',
      );
      const res = await create(s.entityId, entryBody([dr(s.chart.cash, 1), cr(s.chart.sales, 1, { dimensionValueIds: [s.valueA, s.otherDimValue] })]));
      expectStatus(res, 201);
      expect(res.body.lines[1].dimensionValues).toHaveLength(2);
    });

    describe('transaction currency trio (D7)', () => {
      it('accepts a trio whose amount is round_half_up(transactionAmount / 10^2 * rate * 10^0)', async () => {
        // 0.03 USD at 50.5 CLP = 1.515 CLP, rounds to 2.
        const res = await create(s.entityId, entryBody([
          dr(s.chart.bank, 2, { transactionCurrency: 'USD', transactionAmount: 3, exchangeRate: '50.5' }),
          cr(s.chart.sales, 2),
        ]));
        expectStatus(res, 201);
        expect(res.body.lines[0]).toMatchObject({ amount: 2, transactionCurrency: 'USD', transactionAmount: 3, exchangeRate: '50.5' });
      });

      it('rounds half up: 0.01 USD at 50 CLP is 1 CLP (0.5 rounds up)', async () => {
        const res = await create(s.entityId, entryBody([
          dr(s.chart.bank, 1, { transactionCurrency: 'USD', transactionAmount: 1, exchangeRate: '50' }),
          cr(s.chart.sales, 1),
        ]));
        expectStatus(res, 201);
      });

      it('an amount that is not the conversion is 400 LEDGER_LINE_TRANSACTION_AMOUNT_MISMATCH_ERROR', async () => {
        const res = await create(s.entityId, entryBody([
          dr(s.chart.bank, 1, { transactionCurrency: 'USD', transactionAmount: 3, exchangeRate: '50.5' }),
          cr(s.chart.sales, 1),
        ]));
        expectError(res, 400, 'LEDGER_LINE_TRANSACTION_AMOUNT_MISMATCH_ERROR');
      });

      it('a partial trio is 400', async () => {
        const res = await create(s.entityId, entryBody([dr(s.chart.bank, 2, { transactionCurrency: 'USD', transactionAmount: 3 }), cr(s.chart.sales, 2)]));
        expect(res.status).toBe(400);
      });

      it.each(['0', '1e3', '-1', '1.1234567890123', 12])('exchangeRate %p is 400 VALIDATION_ERROR', async (rate) => {
        const res = await create(s.entityId, entryBody([dr(s.chart.bank, 2, { transactionCurrency: 'USD', transactionAmount: 3, exchangeRate: rate }), cr(s.chart.sales, 2)]));
        expectError(res, 400, 'VALIDATION_ERROR');
      });

      it('an unknown transaction currency is 400 VALIDATION_ERROR', async () => {
        const res = await create(s.entityId, entryBody([dr(s.chart.bank, 2, { transactionCurrency: 'ZZZ', transactionAmount: 3, exchangeRate: '50.5' }), cr(s.chart.sales, 2)]));
        expectError(res, 400, 'VALIDATION_ERROR');
      });

      it('uses the minor units of ISO 4217: CLF has 4 decimals', async () => {
        // 1.0000 CLF (10000 minor units) at 39000 CLP per CLF = 39000 CLP.
        const res = await create(s.entityId, entryBody([
          dr(s.chart.bank, 39000, { transactionCurrency: 'CLF', transactionAmount: 10000, exchangeRate: '39000' }),
          cr(s.chart.sales, 39000),
        ]));
        expectStatus(res, 201);
      });
    });

    it('a viewer cannot create an entry (403 PERMISSION_DENIED_ERROR)', async () => {
      const res = await world.viewerMember.agent.post(`${base(world.entityId)}/ledger/entries`).send(entryBody([dr(uuid(), 1), cr(uuid(), 1)]));
      expectError(res, 403, 'PERMISSION_DENIED_ERROR');
    });
  });

  describe('list (D37)', () => {
    let e: Setup;
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      e = await setup();
      ids.jan = (await post(staff, e.entityId, '2026-01-10', [dr(e.chart.cash, 10), cr(e.chart.sales, 10)], { memo: 'January rent', notes: 'paid' })).id;
      ids.feb = (await post(staff, e.entityId, '2026-02-10', [dr(e.chart.receivable, 20, { partnerId: e.partnerId }), cr(e.chart.sales, 20)], { memo: 'Feb invoice' })).id;
      ids.mar = (await post(staff, e.entityId, '2026-03-10', [dr(e.chart.bank, 30), cr(e.chart.sales, 30)], { memo: 'March', notes: 'special NOTE' })).id;
      ids.apr = (await post(staff, e.entityId, '2026-04-10', [dr(e.chart.cash, 40), cr(e.chart.sales, 40)], { memo: 'April' })).id;
      ids.gone = (await post(staff, e.entityId, '2026-04-11', [dr(e.chart.cash, 41), cr(e.chart.sales, 41)], { memo: 'Gone' })).id;
      await staff.delete(`${base(e.entityId)}/ledger/entries/${ids.gone}`).expect(200);
      const sched = await staff
        .post(`${base(e.entityId)}/ledger/scheduled-entries`)
        .send({ id: uuid(), entryDate: '2026-07-01', memo: 'Future', newLedgerEntryLines: [dr(e.chart.cash, 1), cr(e.chart.sales, 1)] })
        .expect(201);
      ids.sched = sched.body.id;
    });
    const list = (query: Record<string, unknown> = {}) => staff.get(`${base(e.entityId)}/ledger/entries`).query(query);
    const idsOf = (body: { entries: Array<{ id: string }> }) => body.entries.map((x) => x.id);

    it('answers { entries, nextCursor }: live entries, newest first', async () => {
      const res = await list();
      expectStatus(res, 200);
      expect(Object.keys(res.body).sort()).toEqual(['entries', 'nextCursor']);
      expect(idsOf(res.body)).toEqual([ids.apr, ids.mar, ids.feb, ids.jan]);
      expect(res.body.nextCursor).toBeNull();
    });

    it('status=all includes deleted and scheduled entries; one status filters', async () => {
      expect(idsOf((await list({ status: 'all' })).body).sort()).toEqual(Object.values(ids).sort());
      expect(idsOf((await list({ status: 'deleted' })).body)).toEqual([ids.gone]);
      expect(idsOf((await list({ status: 'scheduled' })).body)).toEqual([ids.sched]);
      expect(idsOf((await list({ status: 'live' })).body)).toEqual([ids.apr, ids.mar, ids.feb, ids.jan]);
    });

    it('an unknown status is 400 VALIDATION_ERROR', async () => {
      expectError(await list({ status: 'posted' }), 400, 'VALIDATION_ERROR');
    });

    it('filters by from and to (inclusive)', async () => {
      expect(idsOf((await list({ from: '2026-02-10', to: '2026-03-10' })).body)).toEqual([ids.mar, ids.feb]);
    });

    it('to before from is 400 VALIDATION_ERROR', async () => {
      expectError(await list({ from: '2026-03-10', to: '2026-02-10' }), 400, 'VALIDATION_ERROR');
    });

    it('searches memo and notes', async () => {
      expect(idsOf((await list({ search: 'invoice' })).body)).toEqual([ids.feb]);
      expect(idsOf((await list({ search: 'special' })).body)).toEqual([ids.mar]);
    });

    it('filters by accountId and partnerId', async () => {
      expect(idsOf((await list({ accountId: e.chart.cash })).body)).toEqual([ids.apr, ids.jan]);
      expect(idsOf((await list({ partnerId: e.partnerId })).body)).toEqual([ids.feb]);
    });

    it('pages with limit and an opaque cursor, without gaps or repeats', async () => {
      const first = await list({ limit: 3 });
      expect(idsOf(first.body)).toEqual([ids.apr, ids.mar, ids.feb]);
      expect(typeof first.body.nextCursor).toBe('string');
      const second = await list({ limit: 3, cursor: first.body.nextCursor });
      expect(idsOf(second.body)).toEqual([ids.jan]);
      expect(second.body.nextCursor).toBeNull();
    });

    it('orders entries of one date by id, descending', async () => {
      const f = await setup();
      const made = [];
      for (let i = 0; i < 4; i++) made.push((await post(staff, f.entityId, '2026-05-05', [dr(f.chart.cash, 1), cr(f.chart.sales, 1)])).id);
      const res = await staff.get(`${base(f.entityId)}/ledger/entries`).query({ limit: 2 });
      const next = await staff.get(`${base(f.entityId)}/ledger/entries`).query({ limit: 2, cursor: res.body.nextCursor });
      expect([...idsOf(res.body), ...idsOf(next.body)]).toEqual([...made].sort().reverse());
    });

    it('limit over 100 is 400 VALIDATION_ERROR; a forged cursor is 400', async () => {
      expectError(await list({ limit: 101 }), 400, 'VALIDATION_ERROR');
      expect((await list({ cursor: 'not-a-cursor' })).status).toBe(400);
    });

    it('defaults the page to 50', async () => {
      const f = await setup();
      for (let i = 0; i < 26; i++) {
        await post(staff, f.entityId, '2026-05-05', [dr(f.chart.cash, 1), cr(f.chart.sales, 1)]);
        await post(staff, f.entityId, '2026-05-06', [dr(f.chart.cash, 1), cr(f.chart.sales, 1)]);
      }
      const res = await staff.get(`${base(f.entityId)}/ledger/entries`);
      expect(res.body.entries).toHaveLength(50);
      expect(res.body.nextCursor).not.toBeNull();
    });
  });

  describe('PATCH header', () => {
    it('changes date, memo and notes (200 entry)', async () => {
      const entry = await post(staff, s.entityId, '2026-06-01', [dr(s.chart.cash, 3), cr(s.chart.sales, 3)]);
      const res = await staff.patch(`${base(s.entityId)}/ledger/entries/${entry.id}`).send({ entryDate: '2026-05-31', memo: 'Changed', notes: 'n' });
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ id: entry.id, entryDate: '2026-05-31', memo: 'Changed', notes: 'n', status: 'active' });
      const cleared = await staff.patch(`${base(s.entityId)}/ledger/entries/${entry.id}`).send({ notes: null });
      expect(cleared.body.notes).toBeNull();
    });

    it('an empty body or a line change is 400 VALIDATION_ERROR', async () => {
      const entry = await post(staff, s.entityId, '2026-06-01', [dr(s.chart.cash, 3), cr(s.chart.sales, 3)]);
      expectError(await staff.patch(`${base(s.entityId)}/ledger/entries/${entry.id}`).send({}), 400, 'VALIDATION_ERROR');
      expectError(
        await staff.patch(`${base(s.entityId)}/ledger/entries/${entry.id}`).send({ newLedgerEntryLines: [dr(s.chart.cash, 4), cr(s.chart.sales, 4)] }),
        400,
        'VALIDATION_ERROR',
      );
    });

    it('a date after today is 409 LEDGER_ENTRY_DATE_IN_FUTURE_ERROR', async () => {
      const entry = await post(staff, s.entityId, '2026-06-01', [dr(s.chart.cash, 3), cr(s.chart.sales, 3)]);
      expectError(await staff.patch(`${base(s.entityId)}/ledger/entries/${entry.id}`).send({ entryDate: '2026-06-16' }), 409, 'LEDGER_ENTRY_DATE_IN_FUTURE_ERROR');
    });

    it('moving into, or editing in, a locked period is 409 LEDGER_PERIOD_LOCKED_ERROR', async () => {
      const e = await setup();
      const old = await post(staff, e.entityId, '2026-02-01', [dr(e.chart.cash, 3), cr(e.chart.sales, 3)]);
      const recent = await post(staff, e.entityId, '2026-06-01', [dr(e.chart.cash, 3), cr(e.chart.sales, 3)]);
      await staff.patch(`${base(e.entityId)}/ledger-lock-date`).send({ ledgerLockDate: '2026-03-31' }).expect(200);
      expectError(await staff.patch(`${base(e.entityId)}/ledger/entries/${recent.id}`).send({ entryDate: '2026-03-31' }), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
      expectError(await staff.patch(`${base(e.entityId)}/ledger/entries/${old.id}`).send({ memo: 'x' }), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
      expectError(await staff.patch(`${base(e.entityId)}/ledger/entries/${old.id}`).send({ entryDate: '2026-04-02' }), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
    });

    it('a missing entry is 404 LEDGER_ENTRY_NOT_FOUND_ERROR; an unbooked one is refused with 409', async () => {
      expectError(await staff.patch(`${base(s.entityId)}/ledger/entries/${uuid()}`).send({ memo: 'x' }), 404, 'LEDGER_ENTRY_NOT_FOUND_ERROR');
      const entry = await post(staff, s.entityId, '2026-06-01', [dr(s.chart.cash, 3), cr(s.chart.sales, 3)]);
      await staff.delete(`${base(s.entityId)}/ledger/entries/${entry.id}`).expect(200);
      expect((await staff.patch(`${base(s.entityId)}/ledger/entries/${entry.id}`).send({ memo: 'x' })).status).toBe(409);
    });
  });

  describe('reverse (D35, D36)', () => {
    it('answers 201 { reversalEntry, reversedEntry, severedInvoices, severedMovements, settledChainEntries } with a mirror', async () => {
      const entry = await post(staff, s.entityId, '2026-06-01', [dr(s.chart.cash, 70, { description: 'd' }), cr(s.chart.sales, 70, { dimensionValueIds: [s.valueA] })]);
      const id = uuid();
      const res = await staff.post(`${base(s.entityId)}/ledger/entries/${entry.id}/reverse`).send({ id, reversalDate: '2026-06-02', memo: 'Undo' });
      expectStatus(res, 201);
      expect(Object.keys(res.body).sort()).toEqual(['reversalEntry', 'reversedEntry', 'settledChainEntries', 'severedInvoices', 'severedMovements']);
      expect(res.body.severedInvoices).toEqual([]);
      expect(res.body.severedMovements).toEqual([]);
      expect(res.body.settledChainEntries).toEqual([]);
      expect(res.body.reversedEntry).toMatchObject({ id: entry.id, status: 'reversed', reversedByEntryId: id });
      const reversal = res.body.reversalEntry;
      expect(Object.keys(reversal).sort()).toEqual(ENTRY_KEYS);
      expect(reversal).toMatchObject({ id, entryDate: '2026-06-02', memo: 'Undo', status: 'active', source: 'reversal', reversalOfEntryId: entry.id, bookId: null });
      expect(reversal.lines.map((l: { side: string; ledgerAccountId: string; amount: number }) => [l.side, l.ledgerAccountId, l.amount])).toEqual([
        ['credit', s.chart.cash, 70],
        ['debit', s.chart.sales, 70],
      ]);
      expect(reversal.lines[1].dimensionValues.map((v: { id: string }) => v.id)).toEqual([s.valueA]);
      const detail = await staff.get(`${base(s.entityId)}/ledger/entries/${entry.id}`);
      expect(detail.body).toMatchObject({ status: 'reversed', reversedByEntryId: id });
    });

    it('memo is optional', async () => {
      const entry = await post(staff, s.entityId, '2026-06-01', [dr(s.chart.cash, 7), cr(s.chart.sales, 7)]);
      const res = await staff.post(`${base(s.entityId)}/ledger/entries/${entry.id}/reverse`).send({ id: uuid(), reversalDate: '2026-06-03' });
      expectStatus(res, 201);
      expect(typeof res.body.reversalEntry.memo).toBe('string');
    });

    it('a reversal date on or before the original\'s is 409 LEDGER_REVERSAL_DATE_INVALID_ERROR', async () => {
      const entry = await post(staff, s.entityId, '2026-06-01', [dr(s.chart.cash, 7), cr(s.chart.sales, 7)]);
      for (const reversalDate of ['2026-06-01', '2026-05-31']) {
        expectError(await staff.post(`${base(s.entityId)}/ledger/entries/${entry.id}/reverse`).send({ id: uuid(), reversalDate }), 409, 'LEDGER_REVERSAL_DATE_INVALID_ERROR');
      }
    });

    it('reversing twice, or reversing a reversal, is 409 LEDGER_ENTRY_NOT_REVERSIBLE_ERROR', async () => {
      const entry = await post(staff, s.entityId, '2026-06-01', [dr(s.chart.cash, 7), cr(s.chart.sales, 7)]);
      const res = await staff.post(`${base(s.entityId)}/ledger/entries/${entry.id}/reverse`).send({ id: uuid(), reversalDate: '2026-06-02' }).expect(201);
      expectError(await staff.post(`${base(s.entityId)}/ledger/entries/${entry.id}/reverse`).send({ id: uuid(), reversalDate: '2026-06-03' }), 409, 'LEDGER_ENTRY_NOT_REVERSIBLE_ERROR');
      expectError(
        await staff.post(`${base(s.entityId)}/ledger/entries/${res.body.reversalEntry.id}/reverse`).send({ id: uuid(), reversalDate: '2026-06-03' }),
        409,
        'LEDGER_ENTRY_NOT_REVERSIBLE_ERROR',
      );
    });

    it('reversing an unbooked entry is 409 LEDGER_ENTRY_NOT_REVERSIBLE_ERROR', async () => {
      const entry = await post(staff, s.entityId, '2026-06-01', [dr(s.chart.cash, 7), cr(s.chart.sales, 7)]);
      await staff.delete(`${base(s.entityId)}/ledger/entries/${entry.id}`).expect(200);
      expectError(await staff.post(`${base(s.entityId)}/ledger/entries/${entry.id}/reverse`).send({ id: uuid(), reversalDate: '2026-06-03' }), 409, 'LEDGER_ENTRY_NOT_REVERSIBLE_ERROR');
    });

    it('a reversal date on or before the lock date is 409 LEDGER_PERIOD_LOCKED_ERROR; after it, a locked original may be reversed', async () => {
      const e = await setup();
      const entry = await post(staff, e.entityId, '2026-02-01', [dr(e.chart.cash, 7), cr(e.chart.sales, 7)]);
      await staff.patch(`${base(e.entityId)}/ledger-lock-date`).send({ ledgerLockDate: '2026-03-31' }).expect(200);
      expectError(await staff.post(`${base(e.entityId)}/ledger/entries/${entry.id}/reverse`).send({ id: uuid(), reversalDate: '2026-03-31' }), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
      expectStatus(await staff.post(`${base(e.entityId)}/ledger/entries/${entry.id}/reverse`).send({ id: uuid(), reversalDate: '2026-04-01' }), 201);
    });

    it('a reused id is 409 LEDGER_ENTRY_ALREADY_EXISTS_ERROR; a bookId is 400 VALIDATION_ERROR; a missing entry 404', async () => {
      const entry = await post(staff, s.entityId, '2026-06-01', [dr(s.chart.cash, 7), cr(s.chart.sales, 7)]);
      expectError(await staff.post(`${base(s.entityId)}/ledger/entries/${entry.id}/reverse`).send({ id: entry.id, reversalDate: '2026-06-02' }), 409, 'LEDGER_ENTRY_ALREADY_EXISTS_ERROR');
      expectError(await staff.post(`${base(s.entityId)}/ledger/entries/${entry.id}/reverse`).send({ id: uuid(), reversalDate: '2026-06-02', bookId: uuid() }), 400, 'VALIDATION_ERROR');
      expectError(await staff.post(`${base(s.entityId)}/ledger/entries/${uuid()}/reverse`).send({ id: uuid(), reversalDate: '2026-06-02' }), 404, 'LEDGER_ENTRY_NOT_FOUND_ERROR');
      expectError(await staff.post(`${base(s.entityId)}/ledger/entries/${entry.id}/reverse`).send({ id: uuid() }), 400, 'VALIDATION_ERROR');
    });

    it('removes allocations on open-item lines and nets each against its mirror line', async () => {
      const e = await setup();
      const invoice = await post(staff, e.entityId, '2026-06-01', [dr(e.chart.receivable, 500, { partnerId: e.partnerId }), cr(e.chart.sales, 500)]);
      const payment = await post(staff, e.entityId, '2026-06-02', [dr(e.chart.cash, 200), cr(e.chart.receivable, 200, { partnerId: e.partnerId })]);
      const alloc = await staff
        .post(`${base(e.entityId)}/ledger/allocations`)
        .send({ id: uuid(), debitLineId: invoice.lines[0].id, creditLineId: payment.lines[1].id, amount: 200 })
        .expect(201);
      const res = await staff.post(`${base(e.entityId)}/ledger/entries/${invoice.id}/reverse`).send({ id: uuid(), reversalDate: '2026-06-03' });
      expectStatus(res, 201);
      expectError(await staff.delete(`${base(e.entityId)}/ledger/allocations/${alloc.body.id}`), 404, 'RECONCILIATION_ALLOCATION_NOT_FOUND_ERROR');
      const original = await staff.get(`${base(e.entityId)}/ledger/entries/${invoice.id}`);
      expect(original.body.lines[0].openAmount).toBe(0);
      expect(res.body.reversalEntry.lines[0].openAmount).toBe(0);
      const paymentNow = await staff.get(`${base(e.entityId)}/ledger/entries/${payment.id}`);
      expect(paymentNow.body.lines[1].openAmount).toBe(200);
      const allocs = await staff.get(`${base(e.entityId)}/ledger/allocations`).query({ lineId: invoice.lines[0].id });
      expect(allocs.body).toEqual([
        expect.objectContaining({ debitLineId: invoice.lines[0].id, creditLineId: res.body.reversalEntry.lines[0].id, amount: 500, accountId: e.chart.receivable }),
      ]);
    });
  });

  describe('unbook (DELETE entry)', () => {
    it('answers 200 { unbookedEntry, severedInvoices, severedMovements, settledChainEntries } with status deleted', async () => {
      const entry = await post(staff, s.entityId, '2026-06-01', [dr(s.chart.cash, 9), cr(s.chart.sales, 9)]);
      const res = await staff.delete(`${base(s.entityId)}/ledger/entries/${entry.id}`);
      expectStatus(res, 200);
      expect(Object.keys(res.body).sort()).toEqual(['settledChainEntries', 'severedInvoices', 'severedMovements', 'unbookedEntry']);
      expect(res.body.unbookedEntry).toMatchObject({ id: entry.id, status: 'deleted' });
      expect(res.body.severedInvoices).toEqual([]);
      expect(res.body.settledChainEntries).toEqual([]);
      const detail = await staff.get(`${base(s.entityId)}/ledger/entries/${entry.id}`);
      expectStatus(detail, 200);
      expect(detail.body.status).toBe('deleted');
    });

    it('unbooking twice is 409; a missing entry 404 LEDGER_ENTRY_NOT_FOUND_ERROR', async () => {
      const entry = await post(staff, s.entityId, '2026-06-01', [dr(s.chart.cash, 9), cr(s.chart.sales, 9)]);
      await staff.delete(`${base(s.entityId)}/ledger/entries/${entry.id}`).expect(200);
      expect((await staff.delete(`${base(s.entityId)}/ledger/entries/${entry.id}`)).status).toBe(409);
      expectError(await staff.delete(`${base(s.entityId)}/ledger/entries/${uuid()}`), 404, 'LEDGER_ENTRY_NOT_FOUND_ERROR');
    });

    it('unbooking in a locked period is 409 LEDGER_PERIOD_LOCKED_ERROR', async () => {
      const e = await setup();
      const entry = await post(staff, e.entityId, '2026-02-01', [dr(e.chart.cash, 9), cr(e.chart.sales, 9)]);
      await staff.patch(`${base(e.entityId)}/ledger-lock-date`).send({ ledgerLockDate: '2026-02-28' }).expect(200);
      expectError(await staff.delete(`${base(e.entityId)}/ledger/entries/${entry.id}`), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
    });

    it('unbooking a reversal puts the original back to active and names it among settledChainEntries', async () => {
      const e = await setup();
      const entry = await post(staff, e.entityId, '2026-06-01', [dr(e.chart.receivable, 80, { partnerId: e.partnerId }), cr(e.chart.sales, 80)]);
      const rev = await staff.post(`${base(e.entityId)}/ledger/entries/${entry.id}/reverse`).send({ id: uuid(), reversalDate: '2026-06-02' }).expect(201);
      const res = await staff.delete(`${base(e.entityId)}/ledger/entries/${rev.body.reversalEntry.id}`);
      expectStatus(res, 200);
      expect(res.body.unbookedEntry).toMatchObject({ id: rev.body.reversalEntry.id, status: 'deleted' });
      expect(JSON.stringify(res.body.settledChainEntries)).toContain(entry.id);
      const original = await staff.get(`${base(e.entityId)}/ledger/entries/${entry.id}`);
      expect(original.body).toMatchObject({ status: 'active', reversedByEntryId: null });
      expect(original.body.lines[0].openAmount).toBe(80);
      expect((await staff.get(`${base(e.entityId)}/ledger/allocations`).query({ lineId: entry.lines[0].id })).body).toEqual([]);
      // The original may be reversed again.
      expectStatus(await staff.post(`${base(e.entityId)}/ledger/entries/${entry.id}/reverse`).send({ id: uuid(), reversalDate: '2026-06-03' }), 201);
    });

    it('unbooking severs allocations and restores the other line\'s open amount', async () => {
      const e = await setup();
      const invoice = await post(staff, e.entityId, '2026-06-01', [dr(e.chart.receivable, 500), cr(e.chart.sales, 500)]);
      const payment = await post(staff, e.entityId, '2026-06-02', [dr(e.chart.cash, 300), cr(e.chart.receivable, 300)]);
      await staff.post(`${base(e.entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: invoice.lines[0].id, creditLineId: payment.lines[1].id, amount: 300 }).expect(201);
      await staff.delete(`${base(e.entityId)}/ledger/entries/${payment.id}`).expect(200);
      const inv = await staff.get(`${base(e.entityId)}/ledger/entries/${invoice.id}`);
      expect(inv.body.lines[0].openAmount).toBe(500);
      expect((await staff.get(`${base(e.entityId)}/ledger/allocations`).query({ lineId: invoice.lines[0].id })).body).toEqual([]);
    });
  });

  describe('scheduled entries', () => {
    const sched = (entityId: string, body: Record<string, unknown>) => staff.post(`${base(entityId)}/ledger/scheduled-entries`).send(body);

    it('POST answers 201 with a scheduled entry and its lines', async () => {
      const id = uuid();
      const res = await sched(s.entityId, { id, entryDate: '2026-07-01', memo: 'Rent July', newLedgerEntryLines: [dr(s.chart.opex, 100), cr(s.chart.payable, 100)] });
      expectStatus(res, 201);
      expect(Object.keys(res.body).sort()).toEqual(ENTRY_KEYS);
      expect(res.body).toMatchObject({ id, status: 'scheduled', entryDate: '2026-07-01', source: 'scheduled' });
      expect(res.body.lines).toHaveLength(2);
    });

    it('a date of today or earlier is 409 LEDGER_SCHEDULED_ENTRY_DATE_NOT_FUTURE_ERROR', async () => {
      for (const entryDate of ['2026-06-15', '2026-06-01']) {
        const res = await sched(s.entityId, { id: uuid(), entryDate, memo: 'x', newLedgerEntryLines: [dr(s.chart.opex, 1), cr(s.chart.cash, 1)] });
        expectError(res, 409, 'LEDGER_SCHEDULED_ENTRY_DATE_NOT_FUTURE_ERROR');
      }
    });

    it('transaction-currency lines are refused with 400', async () => {
      const res = await sched(s.entityId, {
        id: uuid(),
        entryDate: '2026-07-01',
        memo: 'x',
        newLedgerEntryLines: [dr(s.chart.bank, 2, { transactionCurrency: 'USD', transactionAmount: 3, exchangeRate: '50.5' }), cr(s.chart.sales, 2)],
      });
      expect(res.status).toBe(400);
    });

    it('unbalanced lines are 400 LEDGER_ENTRY_UNBALANCED_ERROR', async () => {
      const res = await sched(s.entityId, { id: uuid(), entryDate: '2026-07-01', memo: 'x', newLedgerEntryLines: [dr(s.chart.opex, 2), cr(s.chart.cash, 1)] });
      expectError(res, 400, 'LEDGER_ENTRY_UNBALANCED_ERROR');
    });

    it('booking before its date is 409 LEDGER_SCHEDULED_ENTRY_NOT_DUE_ERROR', async () => {
      const res = await sched(s.entityId, { id: uuid(), entryDate: '2026-07-01', memo: 'x', newLedgerEntryLines: [dr(s.chart.opex, 1), cr(s.chart.cash, 1)] }).expect(201);
      expectError(await staff.post(`${base(s.entityId)}/ledger/scheduled-entries/${res.body.id}/book`), 409, 'LEDGER_SCHEDULED_ENTRY_NOT_DUE_ERROR');
    });

    it('booking on or after its date answers 200 with the active entry and lines', async () => {
      const e = await setup();
      const res = await sched(e.entityId, { id: uuid(), entryDate: '2026-06-20', memo: 'due', newLedgerEntryLines: [dr(e.chart.opex, 15), cr(e.chart.cash, 15)] }).expect(201);
      clock.setToday('2026-06-20');
      try {
        const booked = await staff.post(`${base(e.entityId)}/ledger/scheduled-entries/${res.body.id}/book`);
        expectStatus(booked, 200);
        expect(booked.body).toMatchObject({ id: res.body.id, status: 'active', entryDate: '2026-06-20' });
        expect(booked.body.lines).toHaveLength(2);
        const list = await staff.get(`${base(e.entityId)}/ledger/entries`);
        expect(list.body.entries.map((x: { id: string }) => x.id)).toEqual([res.body.id]);
        // Booked already: the scheduled routes refuse it.
        expect((await staff.post(`${base(e.entityId)}/ledger/scheduled-entries/${res.body.id}/book`)).status).toBeGreaterThanOrEqual(400);
      } finally {
        clock.setToday('2026-06-15');
      }
    });

    it('PATCH replaces date, memo, notes and the entire line set (200 entry with lines)', async () => {
      const res = await sched(s.entityId, { id: uuid(), entryDate: '2026-07-01', memo: 'x', newLedgerEntryLines: [dr(s.chart.opex, 1), cr(s.chart.cash, 1)] }).expect(201);
      const patched = await staff.patch(`${base(s.entityId)}/ledger/scheduled-entries/${res.body.id}`).send({
        entryDate: '2026-08-01',
        memo: 'Rent August',
        notes: 'changed',
        newLedgerEntryLines: [dr(s.chart.opex, 60), dr(s.chart.cogs, 40), cr(s.chart.payable, 100)],
      });
      expectStatus(patched, 200);
      expect(patched.body).toMatchObject({ id: res.body.id, entryDate: '2026-08-01', memo: 'Rent August', notes: 'changed', status: 'scheduled' });
      expect(patched.body.lines.map((l: { ledgerAccountId: string; amount: number }) => [l.ledgerAccountId, l.amount])).toEqual([
        [s.chart.opex, 60],
        [s.chart.cogs, 40],
        [s.chart.payable, 100],
      ]);
      const detail = await staff.get(`${base(s.entityId)}/ledger/entries/${res.body.id}`);
      expect(detail.body.lines).toHaveLength(3);
    });

    it('PATCH to a date of today is 409 LEDGER_SCHEDULED_ENTRY_DATE_NOT_FUTURE_ERROR; unbalanced lines 400', async () => {
      const res = await sched(s.entityId, { id: uuid(), entryDate: '2026-07-01', memo: 'x', newLedgerEntryLines: [dr(s.chart.opex, 1), cr(s.chart.cash, 1)] }).expect(201);
      const url = `${base(s.entityId)}/ledger/scheduled-entries/${res.body.id}`;
      expectError(await staff.patch(url).send({ entryDate: '2026-06-15', memo: 'x', newLedgerEntryLines: [dr(s.chart.opex, 1), cr(s.chart.cash, 1)] }), 409, 'LEDGER_SCHEDULED_ENTRY_DATE_NOT_FUTURE_ERROR');
      expectError(await staff.patch(url).send({ entryDate: '2026-07-02', memo: 'x', newLedgerEntryLines: [dr(s.chart.opex, 2), cr(s.chart.cash, 1)] }), 400, 'LEDGER_ENTRY_UNBALANCED_ERROR');
    });

    it('DELETE cancels: 200 with the entry in status cancelled; it cannot be booked afterwards', async () => {
      const res = await sched(s.entityId, { id: uuid(), entryDate: '2026-07-01', memo: 'x', newLedgerEntryLines: [dr(s.chart.opex, 1), cr(s.chart.cash, 1)] }).expect(201);
      const cancelled = await staff.delete(`${base(s.entityId)}/ledger/scheduled-entries/${res.body.id}`);
      expectStatus(cancelled, 200);
      expect(cancelled.body).toMatchObject({ id: res.body.id, status: 'cancelled' });
      clock.setToday('2026-07-02');
      try {
        expect((await staff.post(`${base(s.entityId)}/ledger/scheduled-entries/${res.body.id}/book`)).status).toBeGreaterThanOrEqual(400);
      } finally {
        clock.setToday('2026-06-15');
      }
    });

    it('scheduled routes for a missing entry are 404 LEDGER_ENTRY_NOT_FOUND_ERROR', async () => {
      expectError(await staff.post(`${base(s.entityId)}/ledger/scheduled-entries/${uuid()}/book`), 404, 'LEDGER_ENTRY_NOT_FOUND_ERROR');
      expectError(await staff.delete(`${base(s.entityId)}/ledger/scheduled-entries/${uuid()}`), 404, 'LEDGER_ENTRY_NOT_FOUND_ERROR');
    });

    it('a scheduled entry is not live: it is left out of the default entry and line lists', async () => {
      const e = await setup();
      const res = await sched(e.entityId, { id: uuid(), entryDate: '2026-07-01', memo: 'x', newLedgerEntryLines: [dr(e.chart.opex, 1), cr(e.chart.cash, 1)] }).expect(201);
      expect((await staff.get(`${base(e.entityId)}/ledger/entries`)).body.entries).toEqual([]);
      expect((await staff.get(`${base(e.entityId)}/ledger/lines`).query({ accountId: e.chart.opex })).body).toEqual([]);
      expect(res.body.id).toBeDefined();
    });
  });

  describe('lines (D38)', () => {
    let e: Setup;
    let sale: { id: string; lines: Array<{ id: string }> };
    beforeAll(async () => {
      e = await setup();
      sale = await post(staff, e.entityId, '2026-06-01', [dr(e.chart.receivable, 100, { partnerId: e.partnerId }), cr(e.chart.sales, 100, { dimensionValueIds: [e.valueA] })], { memo: 'Sale one' });
      await post(staff, e.entityId, '2026-05-01', [dr(e.chart.cash, 10), cr(e.chart.sales, 10)], { memo: 'Cash sale' });
      const gone = await post(staff, e.entityId, '2026-05-02', [dr(e.chart.cash, 11), cr(e.chart.sales, 11)], { memo: 'Gone' });
      await staff.delete(`${base(e.entityId)}/ledger/entries/${gone.id}`).expect(200);
    });

    it('GET lines answers the D34 line plus entryId, entryDate, memo, status and bookId, live only by default', async () => {
      const res = await staff.get(`${base(e.entityId)}/ledger/lines`).query({ accountId: e.chart.sales });
      expectStatus(res, 200);
      expect(res.body).toHaveLength(2);
      for (const line of res.body) expect(Object.keys(line).sort()).toEqual([...LINE_KEYS, 'bookId', 'entryDate', 'entryId', 'memo', 'status'].sort());
      const mine = res.body.find((l: { id: string }) => l.id === sale.lines[1].id);
      expect(mine).toMatchObject({ entryId: sale.id, entryDate: '2026-06-01', memo: 'Sale one', status: 'active', bookId: null, amount: 100, side: 'credit' });
    });

    it('filters by partnerId, from and to, and status', async () => {
      const byPartner = await staff.get(`${base(e.entityId)}/ledger/lines`).query({ partnerId: e.partnerId });
      expect(byPartner.body.map((l: { id: string }) => l.id)).toEqual([sale.lines[0].id]);
      const byDate = await staff.get(`${base(e.entityId)}/ledger/lines`).query({ accountId: e.chart.sales, from: '2026-05-15', to: '2026-06-15' });
      expect(byDate.body.map((l: { id: string }) => l.id)).toEqual([sale.lines[1].id]);
      const all = await staff.get(`${base(e.entityId)}/ledger/lines`).query({ accountId: e.chart.sales, status: 'all' });
      expect(all.body).toHaveLength(3);
    });

    describe('PATCH partner', () => {
      it('sets and clears the partner, answering the line', async () => {
        const p2 = await createPartner(staff, e.entityId, 'Second', freshRut());
        const url = `${base(e.entityId)}/ledger/lines/${sale.lines[0].id}/partner`;
        const res = await staff.patch(url).send({ partnerId: p2 });
        expectStatus(res, 200);
        expect(res.body).toMatchObject({ id: sale.lines[0].id, partnerId: p2 });
        const cleared = await staff.patch(url).send({ partnerId: null });
        expect(cleared.body.partnerId).toBeNull();
        await staff.patch(url).send({ partnerId: e.partnerId }).expect(200);
      });

      it('a missing partner is 404 PARTNER_NOT_FOUND_ERROR; a missing line 404 LEDGER_LINE_NOT_FOUND_ERROR; no field 400', async () => {
        expectError(await staff.patch(`${base(e.entityId)}/ledger/lines/${sale.lines[0].id}/partner`).send({ partnerId: uuid() }), 404, 'PARTNER_NOT_FOUND_ERROR');
        expectError(await staff.patch(`${base(e.entityId)}/ledger/lines/${uuid()}/partner`).send({ partnerId: null }), 404, 'LEDGER_LINE_NOT_FOUND_ERROR');
        expectError(await staff.patch(`${base(e.entityId)}/ledger/lines/${sale.lines[0].id}/partner`).send({}), 400, 'VALIDATION_ERROR');
      });
    });

    describe('PATCH account', () => {
      it('moves the line, answering it with named dimension values', async () => {
        const f = await setup();
        const entry = await post(staff, f.entityId, '2026-06-01', [dr(f.chart.cash, 5), cr(f.chart.sales, 5, { dimensionValueIds: [f.valueA] })]);
        const res = await staff.patch(`${base(f.entityId)}/ledger/lines/${entry.lines[1].id}/account`).send({ ledgerAccountId: f.chart.otherIncome });
        expectStatus(res, 200);
        expect(res.body).toMatchObject({ id: entry.lines[1].id, ledgerAccountId: f.chart.otherIncome });
        expect(res.body.dimensionValues).toEqual([{ id: f.valueA, dimensionId: f.dimensionId, code: 'A', name: 'Alpha' }]);
      });

      it('a line with an allocation is 409 LEDGER_LINE_HAS_ALLOCATIONS_ERROR', async () => {
        const f = await setup();
        const a = await post(staff, f.entityId, '2026-06-01', [dr(f.chart.receivable, 5), cr(f.chart.sales, 5)]);
        const b = await post(staff, f.entityId, '2026-06-01', [dr(f.chart.cash, 5), cr(f.chart.receivable, 5)]);
        await staff.post(`${base(f.entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: a.lines[0].id, creditLineId: b.lines[1].id, amount: 5 }).expect(201);
        expectError(await staff.patch(`${base(f.entityId)}/ledger/lines/${a.lines[0].id}/account`).send({ ledgerAccountId: f.chart.cash }), 409, 'LEDGER_LINE_HAS_ALLOCATIONS_ERROR');
      });

      it('a line of an entry that is not live is 409 LEDGER_ENTRY_NOT_LIVE_ERROR', async () => {
        const f = await setup();
        const a = await post(staff, f.entityId, '2026-06-01', [dr(f.chart.cash, 5), cr(f.chart.sales, 5)]);
        await staff.delete(`${base(f.entityId)}/ledger/entries/${a.id}`).expect(200);
        expectError(await staff.patch(`${base(f.entityId)}/ledger/lines/${a.lines[0].id}/account`).send({ ledgerAccountId: f.chart.bank }), 409, 'LEDGER_ENTRY_NOT_LIVE_ERROR');
      });

      it('a line in the locked period is 409 LEDGER_PERIOD_LOCKED_ERROR', async () => {
        const f = await setup();
        const a = await post(staff, f.entityId, '2026-02-01', [dr(f.chart.cash, 5), cr(f.chart.sales, 5)]);
        await staff.patch(`${base(f.entityId)}/ledger-lock-date`).send({ ledgerLockDate: '2026-02-28' }).expect(200);
        expectError(await staff.patch(`${base(f.entityId)}/ledger/lines/${a.lines[0].id}/account`).send({ ledgerAccountId: f.chart.bank }), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
      });

      it('a tagged line moved to a balance-sheet account is 409 LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR', async () => {
        const f = await setup();
        const a = await post(staff, f.entityId, '2026-06-01', [dr(f.chart.cash, 5), cr(f.chart.sales, 5, { dimensionValueIds: [f.valueA] })]);
        expectError(await staff.patch(`${base(f.entityId)}/ledger/lines/${a.lines[1].id}/account`).send({ ledgerAccountId: f.chart.capital }), 409, 'LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR');
      });

      it('a missing account is 404 LEDGER_ACCOUNT_NOT_FOUND_ERROR', async () => {
        expectError(await staff.patch(`${base(e.entityId)}/ledger/lines/${sale.lines[1].id}/account`).send({ ledgerAccountId: uuid() }), 404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR');
      });
    });

    describe('PUT dimension values', () => {
      it('replaces the tag set and answers the line with named values; [] untags', async () => {
        const f = await setup();
        const a = await post(staff, f.entityId, '2026-06-01', [dr(f.chart.cash, 5), cr(f.chart.sales, 5, { dimensionValueIds: [f.valueA] })]);
        const url = `${base(f.entityId)}/ledger/lines/${a.lines[1].id}/dimension-values`;
        const res = await staff.put(url).send({ dimensionValueIds: [f.valueB, f.otherDimValue] });
        expectStatus(res, 200);
        expect(res.body.dimensionValues.map((v: { id: string }) => v.id).sort()).toEqual([f.valueB, f.otherDimValue].sort());
        expect(res.body.dimensionValues.find((v: { id: string }) => v.id === f.valueB)).toEqual({ id: f.valueB, dimensionId: f.dimensionId, code: 'B', name: 'Beta' });
        const cleared = await staff.put(url).send({ dimensionValueIds: [] });
        expectStatus(cleared, 200);
        expect(cleared.body.dimensionValues).toEqual([]);
      });

      it('on a balance-sheet line 409 LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR; two values of one Dimension 400; missing 404', async () => {
        const f = await setup();
        const a = await post(staff, f.entityId, '2026-06-01', [dr(f.chart.cash, 5), cr(f.chart.sales, 5)]);
        expectError(await staff.put(`${base(f.entityId)}/ledger/lines/${a.lines[0].id}/dimension-values`).send({ dimensionValueIds: [f.valueA] }), 409, 'LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR');
        expectError(
          await staff.put(`${base(f.entityId)}/ledger/lines/${a.lines[1].id}/dimension-values`).send({ dimensionValueIds: [f.valueA, f.valueB] }),
          400,
          'LEDGER_LINE_DUPLICATE_DIMENSION_ERROR',
        );
        expectError(await staff.put(`${base(f.entityId)}/ledger/lines/${a.lines[1].id}/dimension-values`).send({ dimensionValueIds: [uuid()] }), 404, 'DIMENSION_VALUE_NOT_FOUND_ERROR');
        expectError(await staff.put(`${base(f.entityId)}/ledger/lines/${uuid()}/dimension-values`).send({ dimensionValueIds: [] }), 404, 'LEDGER_LINE_NOT_FOUND_ERROR');
      });
    });
  });

  describe('Books on entries (Book rules 2 and 4)', () => {
    it('an entry naming a Book carries bookId; its reversal stays in that Book', async () => {
      const e = await setup();
      const bookId = uuid();
      await staff.post(`${base(e.entityId)}/books`).send({ id: bookId, name: 'Tax' }).expect(201);
      const entry = await post(staff, e.entityId, '2026-06-01', [dr(e.chart.cash, 5), cr(e.chart.sales, 5)], { bookId });
      expect(entry.bookId).toBe(bookId);
      const rev = await staff.post(`${base(e.entityId)}/ledger/entries/${entry.id}/reverse`).send({ id: uuid(), reversalDate: '2026-06-02' }).expect(201);
      expect(rev.body.reversalEntry.bookId).toBe(bookId);
      const common = await post(staff, e.entityId, '2026-06-01', [dr(e.chart.cash, 5), cr(e.chart.sales, 5)]);
      expect(common.bookId).toBeNull();
      const byBook = await staff.get(`${base(e.entityId)}/ledger/entries`).query({ bookId });
      expect(byBook.body.entries.map((x: { id: string }) => x.id)).toEqual(expect.arrayContaining([entry.id, rev.body.reversalEntry.id]));
    });

    it('PATCH cannot move an entry to another Book (400 VALIDATION_ERROR)', async () => {
      const e = await setup();
      const bookId = uuid();
      await staff.post(`${base(e.entityId)}/books`).send({ id: bookId, name: 'Tax' }).expect(201);
      const entry = await post(staff, e.entityId, '2026-06-01', [dr(e.chart.cash, 5), cr(e.chart.sales, 5)]);
      expectError(await staff.patch(`${base(e.entityId)}/ledger/entries/${entry.id}`).send({ bookId }), 400, 'VALIDATION_ERROR');
    });
  });
});
