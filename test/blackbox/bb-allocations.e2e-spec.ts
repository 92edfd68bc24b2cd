import type { TestApp } from '../harness/test-app';
import { createWorldApp, freshEntity, ISO_DATETIME, type Agent, type World } from '../harness/world';
import { buildChart, createPartner, cr, dr, expectError, expectStatus, freshRut, MovableClock, post, uuid, type Chart } from './bb-helpers';

const ALLOCATION_KEYS = ['accountId', 'amount', 'createdAt', 'creditLineId', 'debitLineId', 'entityId', 'id', 'updatedAt'];

describe('black box: allocations, match and open-item lines', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock: new MovableClock() }));
  });
  afterAll(() => t.close());

  const base = (entityId: string) => `/api/entities/${entityId}`;

  async function setup(): Promise<{ entityId: string; chart: Chart }> {
    const entityId = await freshEntity(world);
    return { entityId, chart: await buildChart(staff, entityId) };
  }
  /** A receivable debit (invoice) of `amount` dated `date`; answers the line id. */
  const invoice = async (entityId: string, chart: Chart, amount: number, date = '2026-06-01', extra: Record<string, unknown> = {}) =>
    (await post(staff, entityId, date, [dr(chart.receivable, amount, extra), cr(chart.sales, amount)])).lines[0].id as string;
  /** A receivable credit (payment) of `amount`; answers the line id. */
  const payment = async (entityId: string, chart: Chart, amount: number, date = '2026-06-02', extra: Record<string, unknown> = {}) =>
    (await post(staff, entityId, date, [dr(chart.cash, amount), cr(chart.receivable, amount, extra)])).lines[1].id as string;
  const openAmountOf = async (entityId: string, lineId: string) => {
    const lines = (await staff.get(`${base(entityId)}/ledger/lines`).query({ status: 'all' })).body;
    return lines.find((l: { id: string }) => l.id === lineId).openAmount;
  };

  describe('create', () => {
    it('answers 201 with the Allocation and lowers both open amounts', async () => {
      const { entityId, chart } = await setup();
      const d = await invoice(entityId, chart, 500);
      const c = await payment(entityId, chart, 300);
      const id = uuid();
      const res = await staff.post(`${base(entityId)}/ledger/allocations`).send({ id, debitLineId: d, creditLineId: c, amount: 200 });
      expectStatus(res, 201);
      expect(Object.keys(res.body).sort()).toEqual(ALLOCATION_KEYS);
      expect(res.body).toMatchObject({ id, entityId, debitLineId: d, creditLineId: c, accountId: chart.receivable, amount: 200 });
      expect(res.body.createdAt).toMatch(ISO_DATETIME);
      expect(await openAmountOf(entityId, d)).toBe(300);
      expect(await openAmountOf(entityId, c)).toBe(100);
    });

    it('a reused id is 409 RECONCILIATION_ALLOCATION_ID_CONFLICT_ERROR', async () => {
      const { entityId, chart } = await setup();
      const d = await invoice(entityId, chart, 500);
      const c = await payment(entityId, chart, 300);
      const id = uuid();
      await staff.post(`${base(entityId)}/ledger/allocations`).send({ id, debitLineId: d, creditLineId: c, amount: 1 }).expect(201);
      expectError(await staff.post(`${base(entityId)}/ledger/allocations`).send({ id, debitLineId: d, creditLineId: c, amount: 1 }), 409, 'RECONCILIATION_ALLOCATION_ID_CONFLICT_ERROR');
    });

    it('the same line twice is 409 RECONCILIATION_ALLOCATION_DEBIT_AND_CREDIT_LINE_IDS_CANNOT_BE_THE_SAME_ERROR', async () => {
      const { entityId, chart } = await setup();
      const d = await invoice(entityId, chart, 500);
      const res = await staff.post(`${base(entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: d, creditLineId: d, amount: 1 });
      expectError(res, 409, 'RECONCILIATION_ALLOCATION_DEBIT_AND_CREDIT_LINE_IDS_CANNOT_BE_THE_SAME_ERROR');
    });

    it('a missing debit line is 404 ..._DEBIT_LINE_NOT_FOUND_ERROR; a missing credit line 404 ..._CREDIT_LINE_NOT_FOUND_ERROR', async () => {
      const { entityId, chart } = await setup();
      const d = await invoice(entityId, chart, 500);
      const c = await payment(entityId, chart, 300);
      expectError(await staff.post(`${base(entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: uuid(), creditLineId: c, amount: 1 }), 404, 'RECONCILIATION_ALLOCATION_DEBIT_LINE_NOT_FOUND_ERROR');
      expectError(await staff.post(`${base(entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: d, creditLineId: uuid(), amount: 1 }), 404, 'RECONCILIATION_ALLOCATION_CREDIT_LINE_NOT_FOUND_ERROR');
    });

    it('sides swapped are 409 ..._DEBIT_LINE_MUST_BE_DEBIT_ERROR and ..._CREDIT_LINE_MUST_BE_CREDIT_ERROR', async () => {
      const { entityId, chart } = await setup();
      const d = await invoice(entityId, chart, 500);
      const d2 = await invoice(entityId, chart, 500);
      const c = await payment(entityId, chart, 300);
      const c2 = await payment(entityId, chart, 300);
      expectError(await staff.post(`${base(entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: c2, creditLineId: c, amount: 1 }), 409, 'RECONCILIATION_ALLOCATION_DEBIT_LINE_MUST_BE_DEBIT_ERROR');
      expectError(await staff.post(`${base(entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: d, creditLineId: d2, amount: 1 }), 409, 'RECONCILIATION_ALLOCATION_CREDIT_LINE_MUST_BE_CREDIT_ERROR');
    });

    it('lines on two accounts are 409 RECONCILIATION_ALLOCATION_LINES_ON_DIFFERENT_ACCOUNTS_ERROR', async () => {
      const { entityId, chart } = await setup();
      const d = await invoice(entityId, chart, 500);
      const c = (await post(staff, entityId, '2026-06-01', [dr(chart.opex, 50), cr(chart.payable, 50)])).lines[1].id;
      expectError(await staff.post(`${base(entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: d, creditLineId: c, amount: 1 }), 409, 'RECONCILIATION_ALLOCATION_LINES_ON_DIFFERENT_ACCOUNTS_ERROR');
    });

    it('lines on a balance account are 409 RECONCILIATION_ALLOCATION_ACCOUNT_MUST_BE_OPEN_ITEM_ERROR', async () => {
      const { entityId, chart } = await setup();
      const a = await post(staff, entityId, '2026-06-01', [dr(chart.cash, 50), cr(chart.sales, 50)]);
      const b = await post(staff, entityId, '2026-06-01', [dr(chart.opex, 50), cr(chart.cash, 50)]);
      expectError(
        await staff.post(`${base(entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: a.lines[0].id, creditLineId: b.lines[1].id, amount: 1 }),
        409,
        'RECONCILIATION_ALLOCATION_ACCOUNT_MUST_BE_OPEN_ITEM_ERROR',
      );
    });

    it('an amount above either open amount is 409 RECONCILIATION_ALLOCATION_AMOUNT_EXCEEDS_OPEN_AMOUNT_ERROR', async () => {
      const { entityId, chart } = await setup();
      const d = await invoice(entityId, chart, 500);
      const c = await payment(entityId, chart, 300);
      expectError(await staff.post(`${base(entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: d, creditLineId: c, amount: 301 }), 409, 'RECONCILIATION_ALLOCATION_AMOUNT_EXCEEDS_OPEN_AMOUNT_ERROR');
      await staff.post(`${base(entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: d, creditLineId: c, amount: 300 }).expect(201);
      const c2 = await payment(entityId, chart, 300);
      expectError(await staff.post(`${base(entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: d, creditLineId: c2, amount: 201 }), 409, 'RECONCILIATION_ALLOCATION_AMOUNT_EXCEEDS_OPEN_AMOUNT_ERROR');
    });

    it.each([0, -1, 1.5])('amount %p is 400 VALIDATION_ERROR', async (amount) => {
      const { entityId, chart } = await setup();
      const d = await invoice(entityId, chart, 500);
      const c = await payment(entityId, chart, 300);
      expectError(await staff.post(`${base(entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: d, creditLineId: c, amount }), 400, 'VALIDATION_ERROR');
    });

    it('lines of two Books are 409 RECONCILIATION_ALLOCATION_LINES_IN_DIFFERENT_BOOKS_ERROR; a common line with a Book line too', async () => {
      const { entityId, chart } = await setup();
      const b1 = uuid();
      const b2 = uuid();
      await staff.post(`${base(entityId)}/books`).send({ id: b1, name: 'B1' }).expect(201);
      await staff.post(`${base(entityId)}/books`).send({ id: b2, name: 'B2' }).expect(201);
      const d = (await post(staff, entityId, '2026-06-01', [dr(chart.receivable, 100), cr(chart.sales, 100)], { bookId: b1 })).lines[0].id;
      const c = (await post(staff, entityId, '2026-06-01', [dr(chart.cash, 100), cr(chart.receivable, 100)], { bookId: b2 })).lines[1].id;
      const common = await payment(entityId, chart, 100);
      expectError(await staff.post(`${base(entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: d, creditLineId: c, amount: 1 }), 409, 'RECONCILIATION_ALLOCATION_LINES_IN_DIFFERENT_BOOKS_ERROR');
      expectError(await staff.post(`${base(entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: d, creditLineId: common, amount: 1 }), 409, 'RECONCILIATION_ALLOCATION_LINES_IN_DIFFERENT_BOOKS_ERROR');
      const c1 = (await post(staff, entityId, '2026-06-01', [dr(chart.cash, 100), cr(chart.receivable, 100)], { bookId: b1 })).lines[1].id;
      expectStatus(await staff.post(`${base(entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: d, creditLineId: c1, amount: 100 }), 201);
    });

    it('netting a reversal by hand is 409 RECONCILIATION_ALLOCATION_NETS_REVERSAL_ERROR', async () => {
      const { entityId, chart } = await setup();
      const orig = await post(staff, entityId, '2026-06-01', [dr(chart.receivable, 100), cr(chart.sales, 100)]);
      const rev = await staff.post(`${base(entityId)}/ledger/entries/${orig.id}/reverse`).send({ id: uuid(), reversalDate: '2026-06-02' }).expect(201);
      const revLine = rev.body.reversalEntry.lines[0].id;
      const auto = (await staff.get(`${base(entityId)}/ledger/allocations`).query({ lineId: revLine })).body[0];
      // The netting allocation the service made cannot be removed by hand either.
      expectError(await staff.delete(`${base(entityId)}/ledger/allocations/${auto.id}`), 409, 'RECONCILIATION_ALLOCATION_NETS_REVERSAL_ERROR');
      const res = await staff.post(`${base(entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: orig.lines[0].id, creditLineId: revLine, amount: 1 });
      expectError(res, 409, 'RECONCILIATION_ALLOCATION_NETS_REVERSAL_ERROR');
    });

    it('a reversal line is already settled by its netting: 409 RECONCILIATION_ALLOCATION_AMOUNT_EXCEEDS_OPEN_AMOUNT_ERROR', async () => {
      const { entityId, chart } = await setup();
      const orig = await post(staff, entityId, '2026-06-01', [dr(chart.cash, 100), cr(chart.receivable, 100)]);
      const rev = await staff.post(`${base(entityId)}/ledger/entries/${orig.id}/reverse`).send({ id: uuid(), reversalDate: '2026-06-02' }).expect(201);
      const revDebit = rev.body.reversalEntry.lines[1].id;
      const other = await payment(entityId, chart, 50);
      const res = await staff.post(`${base(entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: revDebit, creditLineId: other, amount: 1 });
      expectError(res, 409, 'RECONCILIATION_ALLOCATION_AMOUNT_EXCEEDS_OPEN_AMOUNT_ERROR');
    });

    it('a viewer cannot allocate (403 PERMISSION_DENIED_ERROR)', async () => {
      const res = await world.viewerMember.agent.post(`${base(world.entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: uuid(), creditLineId: uuid(), amount: 1 });
      expectError(res, 403, 'PERMISSION_DENIED_ERROR');
    });
  });

  describe('list and delete', () => {
    it('GET ?lineId lists allocations where the line is either side', async () => {
      const { entityId, chart } = await setup();
      const d = await invoice(entityId, chart, 500);
      const c1 = await payment(entityId, chart, 100);
      const c2 = await payment(entityId, chart, 100);
      const a1 = (await staff.post(`${base(entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: d, creditLineId: c1, amount: 100 }).expect(201)).body;
      const a2 = (await staff.post(`${base(entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: d, creditLineId: c2, amount: 50 }).expect(201)).body;
      const byDebit = await staff.get(`${base(entityId)}/ledger/allocations`).query({ lineId: d });
      expectStatus(byDebit, 200);
      expect(byDebit.body.map((a: { id: string }) => a.id).sort()).toEqual([a1.id, a2.id].sort());
      const byCredit = await staff.get(`${base(entityId)}/ledger/allocations`).query({ lineId: c2 });
      expect(byCredit.body).toEqual([a2]);
    });

    it('GET without lineId is 400 VALIDATION_ERROR', async () => {
      expectError(await staff.get(`${base(world.entityId)}/ledger/allocations`), 400, 'VALIDATION_ERROR');
    });

    it('DELETE answers 200 with the deleted Allocation and restores both open amounts; again is 404', async () => {
      const { entityId, chart } = await setup();
      const d = await invoice(entityId, chart, 500);
      const c = await payment(entityId, chart, 300);
      const a = (await staff.post(`${base(entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: d, creditLineId: c, amount: 250 }).expect(201)).body;
      const res = await staff.delete(`${base(entityId)}/ledger/allocations/${a.id}`);
      expectStatus(res, 200);
      expect(res.body).toEqual(a);
      expect(await openAmountOf(entityId, d)).toBe(500);
      expect(await openAmountOf(entityId, c)).toBe(300);
      expectError(await staff.delete(`${base(entityId)}/ledger/allocations/${a.id}`), 404, 'RECONCILIATION_ALLOCATION_NOT_FOUND_ERROR');
    });
  });

  describe('match (D39)', () => {
    it('pairs oldest debit with oldest credit greedily: 201 { allocations, settledLines, openTotal }', async () => {
      const { entityId, chart } = await setup();
      const d1 = await invoice(entityId, chart, 100, '2026-06-01');
      const d2 = await invoice(entityId, chart, 50, '2026-06-02');
      const c1 = await payment(entityId, chart, 120, '2026-06-03');
      const res = await staff.post(`${base(entityId)}/ledger/allocations/match`).send({ lineIds: [c1, d2, d1] });
      expectStatus(res, 201);
      expect(Object.keys(res.body).sort()).toEqual(['allocations', 'openTotal', 'settledLines']);
      expect(res.body.allocations.map((a: { debitLineId: string; creditLineId: string; amount: number }) => [a.debitLineId, a.creditLineId, a.amount])).toEqual([
        [d1, c1, 100],
        [d2, c1, 20],
      ]);
      for (const a of res.body.allocations) expect(Object.keys(a).sort()).toEqual(ALLOCATION_KEYS);
      expect([...res.body.settledLines].sort()).toEqual([d1, c1].sort());
      expect(res.body.openTotal).toBe(30);
      expect(await openAmountOf(entityId, d2)).toBe(30);
    });

    it('openTotal is negative when credits remain', async () => {
      const { entityId, chart } = await setup();
      const d1 = await invoice(entityId, chart, 100, '2026-06-01');
      const c1 = await payment(entityId, chart, 70, '2026-06-02');
      const c2 = await payment(entityId, chart, 80, '2026-06-03');
      const res = await staff.post(`${base(entityId)}/ledger/allocations/match`).send({ lineIds: [d1, c1, c2] });
      expectStatus(res, 201);
      expect(res.body.allocations.map((a: { creditLineId: string; amount: number }) => [a.creditLineId, a.amount])).toEqual([
        [c1, 70],
        [c2, 30],
      ]);
      expect(res.body.openTotal).toBe(-50);
      expect([...res.body.settledLines].sort()).toEqual([d1, c1].sort());
    });

    it('breaks equal dates by line id', async () => {
      const { entityId, chart } = await setup();
      const da = await invoice(entityId, chart, 10, '2026-06-01');
      const db = await invoice(entityId, chart, 10, '2026-06-01');
      const c = await payment(entityId, chart, 10, '2026-06-02');
      const res = await staff.post(`${base(entityId)}/ledger/allocations/match`).send({ lineIds: [da, db, c] });
      expectStatus(res, 201);
      expect(res.body.allocations.map((a: { debitLineId: string }) => a.debitLineId)).toEqual([[da, db].sort()[0]]);
    });

    it('fewer than two line ids is 400 VALIDATION_ERROR', async () => {
      const { entityId, chart } = await setup();
      const d = await invoice(entityId, chart, 10);
      expectError(await staff.post(`${base(entityId)}/ledger/allocations/match`).send({ lineIds: [d] }), 400, 'VALIDATION_ERROR');
    });

    it('a missing line is 404 RECONCILIATION_MATCH_LINE_NOT_FOUND_ERROR', async () => {
      const { entityId, chart } = await setup();
      const d = await invoice(entityId, chart, 10);
      expectError(await staff.post(`${base(entityId)}/ledger/allocations/match`).send({ lineIds: [d, uuid()] }), 404, 'RECONCILIATION_MATCH_LINE_NOT_FOUND_ERROR');
    });

    it('lines on two accounts are 409 RECONCILIATION_MATCH_LINES_ON_DIFFERENT_ACCOUNTS_ERROR', async () => {
      const { entityId, chart } = await setup();
      const d = await invoice(entityId, chart, 10);
      const c = (await post(staff, entityId, '2026-06-01', [dr(chart.opex, 10), cr(chart.payable, 10)])).lines[1].id;
      expectError(await staff.post(`${base(entityId)}/ledger/allocations/match`).send({ lineIds: [d, c] }), 409, 'RECONCILIATION_MATCH_LINES_ON_DIFFERENT_ACCOUNTS_ERROR');
    });

    it('only debits is 409 RECONCILIATION_MATCH_NOTHING_TO_MATCH_ERROR', async () => {
      const { entityId, chart } = await setup();
      const d1 = await invoice(entityId, chart, 10);
      const d2 = await invoice(entityId, chart, 10);
      expectError(await staff.post(`${base(entityId)}/ledger/allocations/match`).send({ lineIds: [d1, d2] }), 409, 'RECONCILIATION_MATCH_NOTHING_TO_MATCH_ERROR');
    });

    it('settled lines leave nothing to match: 409 RECONCILIATION_MATCH_NOTHING_TO_MATCH_ERROR', async () => {
      const { entityId, chart } = await setup();
      const d = await invoice(entityId, chart, 10);
      const c = await payment(entityId, chart, 10);
      await staff.post(`${base(entityId)}/ledger/allocations/match`).send({ lineIds: [d, c] }).expect(201);
      expectError(await staff.post(`${base(entityId)}/ledger/allocations/match`).send({ lineIds: [d, c] }), 409, 'RECONCILIATION_MATCH_NOTHING_TO_MATCH_ERROR');
    });

    it('lines of two Books are 409 RECONCILIATION_MATCH_LINES_IN_DIFFERENT_BOOKS_ERROR', async () => {
      const { entityId, chart } = await setup();
      const b1 = uuid();
      await staff.post(`${base(entityId)}/books`).send({ id: b1, name: 'B1' }).expect(201);
      const d = (await post(staff, entityId, '2026-06-01', [dr(chart.receivable, 100), cr(chart.sales, 100)], { bookId: b1 })).lines[0].id;
      const c = await payment(entityId, chart, 100);
      expectError(await staff.post(`${base(entityId)}/ledger/allocations/match`).send({ lineIds: [d, c] }), 409, 'RECONCILIATION_MATCH_LINES_IN_DIFFERENT_BOOKS_ERROR');
    });

    it('writes all its allocations or none', async () => {
      const { entityId, chart } = await setup();
      const d = await invoice(entityId, chart, 10);
      const c = await payment(entityId, chart, 10);
      const [before] = await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM reconciliation_allocations');
      await staff.post(`${base(entityId)}/ledger/allocations/match`).send({ lineIds: [d, c, uuid()] }).expect(404);
      const [after] = await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM reconciliation_allocations');
      expect(after.n).toBe(before.n);
    });
  });

  describe('open-item lines (D38)', () => {
    it('answers { lines, nextCursor, openTotal, lineCount, partnerOptions }, unsettled lines only by default', async () => {
      const { entityId, chart } = await setup();
      const p = await createPartner(staff, entityId, 'Cliente', freshRut());
      const d1 = await invoice(entityId, chart, 100, '2026-06-01', { partnerId: p });
      const d2 = await invoice(entityId, chart, 40, '2026-06-02');
      const c1 = await payment(entityId, chart, 100, '2026-06-03', { partnerId: p });
      await staff.post(`${base(entityId)}/ledger/allocations`).send({ id: uuid(), debitLineId: d1, creditLineId: c1, amount: 100 }).expect(201);
      const res = await staff.get(`${base(entityId)}/ledger/open-item-lines`).query({ accountId: chart.receivable });
      expectStatus(res, 200);
      expect(Object.keys(res.body).sort()).toEqual(['lineCount', 'lines', 'nextCursor', 'openTotal', 'partnerOptions']);
      expect(res.body.lines.map((l: { id: string }) => l.id)).toEqual([d2]);
      expect(res.body.openTotal).toBe(40);
      expect(res.body.lineCount).toBe(1);
      expect(res.body.nextCursor).toBeNull();
      expect(res.body.lines[0]).toMatchObject({ id: d2, openAmount: 40, amount: 40, side: 'debit' });
      const all = await staff.get(`${base(entityId)}/ledger/open-item-lines`).query({ accountId: chart.receivable, includeSettled: true });
      expect(all.body.lines.map((l: { id: string }) => l.id).sort()).toEqual([d1, d2, c1].sort());
      expect(all.body.openTotal).toBe(40);
      expect(JSON.stringify(all.body.partnerOptions)).toContain(p);
    });

    it('openTotal is signed, debit positive', async () => {
      const { entityId, chart } = await setup();
      await invoice(entityId, chart, 100);
      await payment(entityId, chart, 130);
      const res = await staff.get(`${base(entityId)}/ledger/open-item-lines`).query({ accountId: chart.receivable });
      expect(res.body.openTotal).toBe(-30);
      expect(res.body.lineCount).toBe(2);
    });

    it('filters by partnerId', async () => {
      const { entityId, chart } = await setup();
      const p = await createPartner(staff, entityId, 'Cliente', freshRut());
      const mine = await invoice(entityId, chart, 100, '2026-06-01', { partnerId: p });
      await invoice(entityId, chart, 40);
      const res = await staff.get(`${base(entityId)}/ledger/open-item-lines`).query({ accountId: chart.receivable, partnerId: p });
      expect(res.body.lines.map((l: { id: string }) => l.id)).toEqual([mine]);
      expect(res.body.openTotal).toBe(100);
    });

    it('pages with limit and cursor', async () => {
      const { entityId, chart } = await setup();
      const made = [];
      for (let i = 0; i < 5; i++) made.push(await invoice(entityId, chart, 10 + i, `2026-06-0${i + 1}`));
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await staff.get(`${base(entityId)}/ledger/open-item-lines`).query({ accountId: chart.receivable, limit: 2, ...(cursor ? { cursor } : {}) });
        expectStatus(res, 200);
        expect(res.body.lineCount).toBe(5);
        expect(res.body.openTotal).toBe(60);
        seen.push(...res.body.lines.map((l: { id: string }) => l.id));
        cursor = res.body.nextCursor;
        pages++;
      } while (cursor && pages < 10);
      expect(pages).toBe(3);
      expect(seen.sort()).toEqual(made.sort());
    });

    it('accountId is required (400 VALIDATION_ERROR); a missing account is 404', async () => {
      expectError(await staff.get(`${base(world.entityId)}/ledger/open-item-lines`), 400, 'VALIDATION_ERROR');
      expectError(await staff.get(`${base(world.entityId)}/ledger/open-item-lines`).query({ accountId: uuid() }), 404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR');
    });

    it('reads one Book: common lines plus that Book\'s', async () => {
      const { entityId, chart } = await setup();
      const b1 = uuid();
      const b2 = uuid();
      await staff.post(`${base(entityId)}/books`).send({ id: b1, name: 'B1' }).expect(201);
      await staff.post(`${base(entityId)}/books`).send({ id: b2, name: 'B2' }).expect(201);
      const common = await invoice(entityId, chart, 10);
      const in1 = (await post(staff, entityId, '2026-06-01', [dr(chart.receivable, 20), cr(chart.sales, 20)], { bookId: b1 })).lines[0].id;
      const in2 = (await post(staff, entityId, '2026-06-01', [dr(chart.receivable, 30), cr(chart.sales, 30)], { bookId: b2 })).lines[0].id;
      const r1 = await staff.get(`${base(entityId)}/ledger/open-item-lines`).query({ accountId: chart.receivable, bookId: b1 });
      expect(r1.body.lines.map((l: { id: string }) => l.id).sort()).toEqual([common, in1].sort());
      expect(r1.body.openTotal).toBe(30);
      const r2 = await staff.get(`${base(entityId)}/ledger/open-item-lines`).query({ accountId: chart.receivable, bookId: b2 });
      expect(r2.body.lines.map((l: { id: string }) => l.id).sort()).toEqual([common, in2].sort());
    });

    it('leaves out lines of unbooked and scheduled entries', async () => {
      const { entityId, chart } = await setup();
      const entry = await post(staff, entityId, '2026-06-01', [dr(chart.receivable, 10), cr(chart.sales, 10)]);
      await staff.delete(`${base(entityId)}/ledger/entries/${entry.id}`).expect(200);
      await staff
        .post(`${base(entityId)}/ledger/scheduled-entries`)
        .send({ id: uuid(), entryDate: '2026-07-01', memo: 'x', newLedgerEntryLines: [dr(chart.receivable, 5), cr(chart.sales, 5)] })
        .expect(201);
      const res = await staff.get(`${base(entityId)}/ledger/open-item-lines`).query({ accountId: chart.receivable });
      expect(res.body).toMatchObject({ lines: [], openTotal: 0, lineCount: 0 });
    });
  });
});
