import request from 'supertest';
import type { TestApp } from '../harness/test-app';
import { BOOTSTRAP_STAFF, createEntity, createOrganization, createWorldApp, freshEntity, grantMembership, onboardUser, type Agent, type World } from '../harness/world';
import { buildChart, createPartner, cr, dr, expectError, expectStatus, freshRut, MovableClock, post, uuid } from './bb-helpers';

describe('black box: edges across the contract', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  const clock = new MovableClock();

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock }));
  });
  afterAll(() => t.close());

  const base = (entityId: string) => `/api/entities/${entityId}`;
  const anon = () => request(t.app.getHttpServer());

  describe('auth and access', () => {
    it('keeps an x-request-id of exactly 128 visible characters (D1)', async () => {
      const id = 'r'.repeat(128);
      const res = await anon().get('/api/entities').set('x-request-id', id);
      expect(res.headers['x-request-id']).toBe(id);
      expect(res.body.requestId).toBe(id);
    });

    it('replaces an x-request-id with a space (not visible ASCII) (D1)', async () => {
      const res = await anon().get('/api/entities').set('x-request-id', 'has space');
      expect(res.headers['x-request-id']).not.toBe('has space');
    });

    it('regenerates the session id on sign-in (D11)', async () => {
      const agent = request.agent(t.app.getHttpServer());
      const first = await agent.post('/api/auth/sign-in/email').send(BOOTSTRAP_STAFF).expect(200);
      const second = await agent.post('/api/auth/sign-in/email').send(BOOTSTRAP_STAFF).expect(200);
      const cookieOf = (res: request.Response) => ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]?.split(';')[0];
      expect(cookieOf(first)).toBeTruthy();
      expect(cookieOf(second)).toBeTruthy();
      expect(cookieOf(second)).not.toBe(cookieOf(first));
    });

    it('an unknown set-password token is 400 SET_PASSWORD_TOKEN_INVALID_ERROR (D33a)', async () => {
      expectError(await anon().post('/api/auth/set-password').send({ token: 'nope', newPassword: 'long-enough-password' }), 400, 'SET_PASSWORD_TOKEN_INVALID_ERROR');
    });

    it('finds a User by e-mail in any case (stored lower-cased, D15)', async () => {
      const res = await staff.get('/api/onboarding/users').query({ email: world.clientMember.email.toUpperCase() });
      expectStatus(res, 200);
      expect(res.body.id).toBe(world.clientMember.id);
    });

    it('the Membership covering the Entity decides: viewer in one Organization, client in another (D16)', async () => {
      const user = await onboardUser(t, staff, 'client', 'multi');
      const orgB = await createOrganization(staff);
      const { id: entityB } = await createEntity(staff, orgB);
      await grantMembership(staff, user.id, world.organizationId, 'viewer');
      await grantMembership(staff, user.id, orgB, 'client');
      expectError(await user.agent.post(`${base(world.entityId)}/dimensions`).send({ id: uuid(), name: 'no' }), 403, 'PERMISSION_DENIED_ERROR');
      expectStatus(await user.agent.post(`${base(entityB)}/dimensions`).send({ id: uuid(), name: 'yes' }), 201);
    });

    it('a client\'s key confined to one Entity gets 404 on another Entity of the same Organization (D13)', async () => {
      const { id: second } = await createEntity(staff, world.organizationId);
      const res = await world.clientMember.agent.post('/api/auth/api-keys').send({ name: 'scoped', entityId: world.entityId });
      expectStatus(res, 201);
      expect(res.body.entityId).toBe(world.entityId);
      await anon().get(`${base(world.entityId)}/books`).set('x-api-key', res.body.key).expect(200);
      expectError(await anon().get(`${base(second)}/books`).set('x-api-key', res.body.key), 404, 'ENTITY_NOT_FOUND_ERROR');
    });

    it('the audit trail lists rows newest first with the D18 fields, filtered by resourceId', async () => {
      const e = await freshEntity(world);
      const dim = uuid();
      await staff.post(`${base(e)}/dimensions`).send({ id: dim, name: 'First' }).expect(201);
      await staff.patch(`${base(e)}/dimensions/${dim}`).set('x-audit-reason', 'rename').send({ name: 'Second' }).expect(200);
      const res = await staff.get(`${base(e)}/audit-trail`).query({ resourceId: dim });
      expectStatus(res, 200);
      expect(Object.keys(res.body).sort()).toEqual(['nextCursor', 'rows']);
      expect(res.body.rows).toHaveLength(2);
      expect(Object.keys(res.body.rows[0]).sort()).toEqual(
        ['action', 'actorUserId', 'apiKeyId', 'credential', 'declaredActor', 'entityId', 'id', 'method', 'occurredAt', 'organizationId', 'path', 'reason', 'requestId', 'resourceId', 'resourceType'].sort(),
      );
      expect(res.body.rows.map((r: { method: string }) => r.method)).toEqual(['PATCH', 'POST']);
      expect(res.body.rows[0]).toMatchObject({ entityId: e, organizationId: world.organizationId, resourceId: dim, reason: 'rename', credential: 'session', declaredActor: null, apiKeyId: null });
    });

    it('a refused mutation leaves the audit trail as it was', async () => {
      const [before] = await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM audit_trail');
      await staff.post(`${base(world.entityId)}/ledger/entries`).send({ id: uuid(), entryDate: '2026-06-01', memo: 'x', newLedgerEntryLines: [] }).expect(400);
      await world.viewerMember.agent.post(`${base(world.entityId)}/books`).send({ id: uuid(), name: 'x' }).expect(403);
      const [after] = await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM audit_trail');
      expect(after.n).toBe(before.n);
    });
  });

  describe('today in the business time zone (D5)', () => {
    it('at 23:00 in Santiago (03:00 UTC next day) tomorrow\'s date is still in the future', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      const saved = clock.now();
      clock.set(new Date('2026-06-16T03:00:00.000Z'));
      try {
        const res = await staff
          .post(`${base(e)}/ledger/entries`)
          .send({ id: uuid(), entryDate: '2026-06-16', memo: 'x', newLedgerEntryLines: [dr(c.cash, 1), cr(c.sales, 1)] });
        expectError(res, 409, 'LEDGER_ENTRY_DATE_IN_FUTURE_ERROR');
        await post(staff, e, '2026-06-15', [dr(c.cash, 1), cr(c.sales, 1)]);
      } finally {
        clock.set(saved);
      }
    });
  });

  describe('ledger', () => {
    it('an unknown property inside a line is 400 VALIDATION_ERROR naming its path', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      const res = await staff
        .post(`${base(e)}/ledger/entries`)
        .send({ id: uuid(), entryDate: '2026-06-01', memo: 'x', newLedgerEntryLines: [dr(c.cash, 1, { foo: 1 }), cr(c.sales, 1)] });
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors.map((x: { path: string }) => x.path)).toContain('newLedgerEntryLines[0].foo');
    });

    it('a scheduled entry cannot be reversed (409 LEDGER_ENTRY_NOT_REVERSIBLE_ERROR) or unbooked (409 LEDGER_ENTRY_NOT_LIVE_ERROR)', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      const s = await staff
        .post(`${base(e)}/ledger/scheduled-entries`)
        .send({ id: uuid(), entryDate: '2026-07-01', memo: 'x', newLedgerEntryLines: [dr(c.cash, 1), cr(c.sales, 1)] })
        .expect(201);
      expectError(await staff.post(`${base(e)}/ledger/entries/${s.body.id}/reverse`).send({ id: uuid(), reversalDate: '2026-07-02' }), 409, 'LEDGER_ENTRY_NOT_REVERSIBLE_ERROR');
      expectError(await staff.delete(`${base(e)}/ledger/entries/${s.body.id}`), 409, 'LEDGER_ENTRY_NOT_LIVE_ERROR');
    });

    it('PATCH scheduled-entries needs the whole body: date, memo and lines (400 VALIDATION_ERROR)', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      const s = await staff
        .post(`${base(e)}/ledger/scheduled-entries`)
        .send({ id: uuid(), entryDate: '2026-07-01', memo: 'x', newLedgerEntryLines: [dr(c.cash, 1), cr(c.sales, 1)] })
        .expect(201);
      expectError(await staff.patch(`${base(e)}/ledger/scheduled-entries/${s.body.id}`).send({ memo: 'only memo' }), 400, 'VALIDATION_ERROR');
    });

    it('a scheduled entry may name a Book and counts in that Book once booked', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      const bookId = uuid();
      await staff.post(`${base(e)}/books`).send({ id: bookId, name: 'Tax' }).expect(201);
      const s = await staff
        .post(`${base(e)}/ledger/scheduled-entries`)
        .send({ id: uuid(), entryDate: '2026-06-20', memo: 'x', bookId, newLedgerEntryLines: [dr(c.cash, 7), cr(c.sales, 7)] });
      expectStatus(s, 201);
      expect(s.body.bookId).toBe(bookId);
      clock.setToday('2026-06-21');
      try {
        await staff.post(`${base(e)}/ledger/scheduled-entries/${s.body.id}/book`).expect(200);
        const is = await staff.get(`${base(e)}/reports/income-statement`).query({ from: '2026-06-01', to: '2026-06-30', bookId });
        expect(is.body.netResult).toBe(7);
      } finally {
        clock.setToday('2026-06-15');
      }
    });

    it('a scheduled entry on or before a (future) lock date is 409 LEDGER_PERIOD_LOCKED_ERROR (D24)', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      await staff.patch(`${base(e)}/ledger-lock-date`).send({ ledgerLockDate: '2026-07-05' }).expect(200);
      const res = await staff
        .post(`${base(e)}/ledger/scheduled-entries`)
        .send({ id: uuid(), entryDate: '2026-07-05', memo: 'x', newLedgerEntryLines: [dr(c.cash, 1), cr(c.sales, 1)] });
      expectError(res, 409, 'LEDGER_PERIOD_LOCKED_ERROR');
    });

    it('changing an original\'s or a reversal\'s date keeps the reversal after its original (409 LEDGER_REVERSAL_DATE_INVALID_ERROR)', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      const orig = await post(staff, e, '2026-06-02', [dr(c.cash, 1), cr(c.sales, 1)]);
      const rev = await staff.post(`${base(e)}/ledger/entries/${orig.id}/reverse`).send({ id: uuid(), reversalDate: '2026-06-05' }).expect(201);
      expectError(await staff.patch(`${base(e)}/ledger/entries/${rev.body.reversalEntry.id}`).send({ entryDate: '2026-06-02' }), 409, 'LEDGER_REVERSAL_DATE_INVALID_ERROR');
      expectError(await staff.patch(`${base(e)}/ledger/entries/${orig.id}`).send({ entryDate: '2026-06-05' }), 409, 'LEDGER_REVERSAL_DATE_INVALID_ERROR');
    });

    it('the entries search ignores case', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      const entry = await post(staff, e, '2026-06-01', [dr(c.cash, 1), cr(c.sales, 1)], { memo: 'Monthly Rent' });
      const res = await staff.get(`${base(e)}/ledger/entries`).query({ search: 'monthly RENT' });
      expect(res.body.entries.map((x: { id: string }) => x.id)).toEqual([entry.id]);
    });

    it('GET allocations for a missing line is 404 LEDGER_LINE_NOT_FOUND_ERROR', async () => {
      expectError(await staff.get(`${base(world.entityId)}/ledger/allocations`).query({ lineId: uuid() }), 404, 'LEDGER_LINE_NOT_FOUND_ERROR');
    });

    it('allocating a line of an unbooked entry is refused with 409', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      const gone = await post(staff, e, '2026-06-01', [dr(c.receivable, 10), cr(c.sales, 10)]);
      await staff.delete(`${base(e)}/ledger/entries/${gone.id}`).expect(200);
      const pay = await post(staff, e, '2026-06-02', [dr(c.cash, 10), cr(c.receivable, 10)]);
      const res = await staff.post(`${base(e)}/ledger/allocations`).send({ id: uuid(), debitLineId: gone.lines[0].id, creditLineId: pay.lines[1].id, amount: 1 });
      expect([404, 409]).toContain(res.status);
    });

    it('line routes on an unbooked entry\'s line are 409 LEDGER_ENTRY_NOT_LIVE_ERROR', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      const gone = await post(staff, e, '2026-06-01', [dr(c.cash, 10), cr(c.sales, 10)]);
      await staff.delete(`${base(e)}/ledger/entries/${gone.id}`).expect(200);
      expectError(await staff.patch(`${base(e)}/ledger/lines/${gone.lines[0].id}/partner`).send({ partnerId: null }), 409, 'LEDGER_ENTRY_NOT_LIVE_ERROR');
      expectError(await staff.put(`${base(e)}/ledger/lines/${gone.lines[1].id}/dimension-values`).send({ dimensionValueIds: [] }), 409, 'LEDGER_ENTRY_NOT_LIVE_ERROR');
    });

    it('line routes in the locked period are 409 LEDGER_PERIOD_LOCKED_ERROR', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      const p = await createPartner(staff, e, 'P', freshRut());
      const old = await post(staff, e, '2026-02-01', [dr(c.cash, 10), cr(c.sales, 10)]);
      await staff.patch(`${base(e)}/ledger-lock-date`).send({ ledgerLockDate: '2026-02-28' }).expect(200);
      expectError(await staff.patch(`${base(e)}/ledger/lines/${old.lines[0].id}/partner`).send({ partnerId: p }), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
      expectError(await staff.put(`${base(e)}/ledger/lines/${old.lines[1].id}/dimension-values`).send({ dimensionValueIds: [] }), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
    });

    it('an account whose code misses its group\'s prefix is 400 VALIDATION_ERROR; a same-family type may join the group (D30, D31)', async () => {
      const e = await freshEntity(world);
      const g = uuid();
      await staff.post(`${base(e)}/ledger/account-groups`).send({ id: g, codePrefix: '4', name: 'Income', type: 'income' }).expect(201);
      expectError(await staff.post(`${base(e)}/ledger/accounts`).send({ id: uuid(), name: 'x', code: '5101', type: 'income', tracking: 'balance', groupId: g }), 400, 'VALIDATION_ERROR');
      expectStatus(await staff.post(`${base(e)}/ledger/accounts`).send({ id: uuid(), name: 'x', code: '4701', type: 'other_income', tracking: 'balance', groupId: g }), 201);
      expectStatus(await staff.post(`${base(e)}/ledger/account-groups`).send({ id: uuid(), parentGroupId: g, codePrefix: '47', name: 'Other', type: 'other_income' }), 201);
    });

    it('answers an exchange rate as a plain decimal string', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      const res = await staff
        .post(`${base(e)}/ledger/entries`)
        .send({ id: uuid(), entryDate: '2026-06-01', memo: 'x', newLedgerEntryLines: [dr(c.bank, 95050, { transactionCurrency: 'USD', transactionAmount: 10000, exchangeRate: '950.5' }), cr(c.sales, 95050)] });
      expectStatus(res, 201);
      expect(res.body.lines[0].exchangeRate).toBe('950.5');
    });
  });

  describe('reports', () => {
    it('the partner ledger runs from the opening balance; a payable runs negative (debit-positive)', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      const p = await createPartner(staff, e, 'Proveedor', freshRut());
      await post(staff, e, '2026-01-10', [dr(c.receivable, 500, { partnerId: p }), cr(c.sales, 500)]);
      const pay = await post(staff, e, '2026-03-10', [dr(c.cash, 200), cr(c.receivable, 200, { partnerId: p })]);
      const res = await staff.get(`${base(e)}/ledger/partner-ledger`).query({ accountId: c.receivable, from: '2026-02-01', to: '2026-06-15' });
      expect(res.body.partners).toEqual([
        expect.objectContaining({ partnerId: p, openingBalance: 500, closingBalance: 300, lines: [expect.objectContaining({ lineId: pay.lines[1].id, runningBalance: 300 })] }),
      ]);
      await post(staff, e, '2026-04-01', [dr(c.opex, 700), cr(c.payable, 700, { partnerId: p })]);
      const ap = await staff.get(`${base(e)}/ledger/partner-ledger`).query({ accountId: c.payable, from: '2026-01-01', to: '2026-06-15' });
      expect(ap.body.partners[0]).toMatchObject({ partnerId: p, openingBalance: 0, closingBalance: -700 });
      expect(ap.body.partners[0].lines[0]).toMatchObject({ side: 'credit', amount: 700, runningBalance: -700 });
    });

    it('a grandparent value\'s column includes its grandchildren\'s lines (D52)', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      const dim = uuid();
      await staff.post(`${base(e)}/dimensions`).send({ id: dim, name: 'Zona' }).expect(201);
      const mk = async (code: string, parentId: string | null) => {
        const id = uuid();
        await staff.post(`${base(e)}/dimensions/${dim}/values`).send({ id, code, name: code, parentId }).expect(201);
        return id;
      };
      const top = await mk('TOP', null);
      const mid = await mk('MID', top);
      const leaf = await mk('LEAF', mid);
      await post(staff, e, '2026-06-01', [dr(c.cash, 40), cr(c.sales, 40, { dimensionValueIds: [leaf] })]);
      await post(staff, e, '2026-06-01', [dr(c.cash, 2), cr(c.sales, 2, { dimensionValueIds: [mid] })]);
      const res = await staff.get(`${base(e)}/reports/income-statement-by-dimension`).query({ dimensionId: dim, from: '2026-06-01', to: '2026-06-15' });
      const col = (id: string) => res.body.columns.find((x: { dimensionValueId: string }) => x.dimensionValueId === id).statement.netResult;
      expect([col(top), col(mid), col(leaf)]).toEqual([42, 42, 40]);
      expect(res.body.unassigned.netResult).toBe(0);
    });

    it('income statement rows follow the group tree, with node totals', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      const g = uuid();
      const sub = uuid();
      await staff.post(`${base(e)}/ledger/account-groups`).send({ id: g, codePrefix: '42', name: 'Services', type: 'income' }).expect(201);
      await staff.post(`${base(e)}/ledger/account-groups`).send({ id: sub, parentGroupId: g, codePrefix: '421', name: 'Consulting', type: 'income' }).expect(201);
      const a1 = (await staff.post(`${base(e)}/ledger/accounts`).send({ id: uuid(), name: 'Advice', code: '4211', type: 'income', tracking: 'balance', groupId: sub }).expect(201)).body.account.id;
      const a2 = (await staff.post(`${base(e)}/ledger/accounts`).send({ id: uuid(), name: 'Support', code: '4201', type: 'income', tracking: 'balance', groupId: g }).expect(201)).body.account.id;
      await post(staff, e, '2026-06-01', [dr(c.cash, 100), cr(a1, 60), cr(a2, 30), cr(c.sales, 10)]);
      const res = await staff.get(`${base(e)}/reports/income-statement`).query({ from: '2026-06-01', to: '2026-06-15' });
      const income = res.body.income;
      expect(income.total).toBe(100);
      expect(income.accounts).toEqual([{ accountId: c.sales, code: '4101', name: 'Sales', balance: 10 }]);
      expect(income.groups).toHaveLength(1);
      expect(income.groups[0]).toMatchObject({ groupId: g, codePrefix: '42', name: 'Services', total: 90 });
      expect(income.groups[0].accounts).toEqual([{ accountId: a2, code: '4201', name: 'Support', balance: 30 }]);
      expect(income.groups[0].groups).toEqual([{ groupId: sub, codePrefix: '421', name: 'Consulting', total: 60, groups: [], accounts: [{ accountId: a1, code: '4211', name: 'Advice', balance: 60 }] }]);
    });

    it('a loss shows as a negative current period result and the balance sheet still balances', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      await post(staff, e, '2026-01-05', [dr(c.cash, 1000), cr(c.capital, 1000)]);
      await post(staff, e, '2026-02-05', [dr(c.opex, 300), cr(c.cash, 300)]);
      const bs = await staff.get(`${base(e)}/reports/balance-sheet`).query({ exerciseStart: '2026-01-01', cutoffDate: '2026-06-15' });
      expect(bs.body.equity.currentPeriodResult).toBe(-300);
      expect(bs.body.equity.total).toBe(700);
      expect(bs.body.totals).toEqual({ assets: 700, liabilitiesAndEquity: 700 });
    });

    it('a contra balance shows negative in its section (normal-side sign, D50)', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      await post(staff, e, '2026-06-01', [dr(c.opex, 50), cr(c.bank, 50)]);
      const bs = await staff.get(`${base(e)}/reports/balance-sheet`).query({ exerciseStart: '2026-01-01', cutoffDate: '2026-06-15' });
      expect(bs.body.assets.groups[0].accounts).toEqual([{ accountId: c.bank, code: '1102', name: 'Bank', balance: -50 }]);
      expect(bs.body.totals).toEqual({ assets: -50, liabilitiesAndEquity: -50 });
    });

    it('the journal reads from a date alone and to a date alone', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      const a = await post(staff, e, '2026-05-01', [dr(c.cash, 1), cr(c.sales, 1)]);
      const b = await post(staff, e, '2026-06-01', [dr(c.cash, 1), cr(c.sales, 1)]);
      const from = await staff.get(`${base(e)}/reports/journal`).query({ from: '2026-05-02' });
      expect([...new Set(from.body.rows.map((r: { entryId: string }) => r.entryId))]).toEqual([b.id]);
      const to = await staff.get(`${base(e)}/reports/journal`).query({ to: '2026-05-31' });
      expect([...new Set(to.body.rows.map((r: { entryId: string }) => r.entryId))]).toEqual([a.id]);
      expectError(await staff.get(`${base(e)}/reports/journal`).query({ from: '2026-06-02', to: '2026-06-01' }), 400, 'VALIDATION_ERROR');
    });

    it('the general ledger from a date alone opens with the balance before it', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      await post(staff, e, '2026-05-01', [dr(c.cash, 10), cr(c.sales, 10)]);
      await post(staff, e, '2026-06-01', [dr(c.cash, 5), cr(c.sales, 5)]);
      const res = await staff.get(`${base(e)}/ledger/general-ledger`).query({ accountId: c.cash, from: '2026-05-02' });
      expect(res.body).toMatchObject({ openingBalance: 10, closingBalance: 15, lineCount: 1 });
      expect(res.body.lines[0].runningBalance).toBe(15);
      const to = await staff.get(`${base(e)}/ledger/general-ledger`).query({ accountId: c.cash, to: '2026-05-31' });
      expect(to.body).toMatchObject({ openingBalance: 0, closingBalance: 10, lineCount: 1 });
    });

    it('presentation into a currency with 4 decimals (CLF) uses its minor units (D6, D7)', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      await post(staff, e, '2026-06-01', [dr(c.cash, 39000), cr(c.capital, 39000)]);
      const res = await staff.get(`${base(e)}/reports/balance-sheet`).query({ exerciseStart: '2026-01-01', cutoffDate: '2026-06-15', presentationCurrency: 'CLF', presentationRate: '0.0000256410' });
      expectStatus(res, 200);
      // 39000 * 0.000025641 * 10^4 = 9999.99 -> 10000 (1.0000 CLF).
      expect(res.body.totals.assets).toBe(10000);
    });

    it('GET /partners/pages reads open balances in one Book: common lines plus that Book\'s (D45)', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      const p = await createPartner(staff, e, 'Cliente', freshRut());
      const b1 = uuid();
      const b2 = uuid();
      await staff.post(`${base(e)}/books`).send({ id: b1, name: 'B1' }).expect(201);
      await staff.post(`${base(e)}/books`).send({ id: b2, name: 'B2' }).expect(201);
      await post(staff, e, '2026-06-01', [dr(c.receivable, 1000, { partnerId: p }), cr(c.sales, 1000)]);
      await post(staff, e, '2026-06-01', [dr(c.receivable, 234, { partnerId: p }), cr(c.sales, 234)], { bookId: b1 });
      const row = async (bookId: string) => (await staff.get(`${base(e)}/partners/pages`).query({ bookId })).body.rows[0];
      const r1 = await row(b1);
      const r2 = await row(b2);
      expect(r1).not.toHaveProperty('bookId');
      expect(Object.values(r1)).toContain(1234);
      expect(Object.values(r2)).toContain(1000);
      expect(Object.values(r2)).not.toContain(1234);
    });

    it('by dimension answers a column for every value, even one with no lines', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      const dim = uuid();
      await staff.post(`${base(e)}/dimensions`).send({ id: dim, name: 'Zona' }).expect(201);
      const used = uuid();
      const idle = uuid();
      await staff.post(`${base(e)}/dimensions/${dim}/values`).send({ id: used, code: 'U', name: 'Used' }).expect(201);
      await staff.post(`${base(e)}/dimensions/${dim}/values`).send({ id: idle, code: 'I', name: 'Idle' }).expect(201);
      await post(staff, e, '2026-06-01', [dr(c.cash, 5), cr(c.sales, 5, { dimensionValueIds: [used] })]);
      const res = await staff.get(`${base(e)}/reports/income-statement-by-dimension`).query({ dimensionId: dim, from: '2026-06-01', to: '2026-06-15' });
      const idleCol = res.body.columns.find((x: { dimensionValueId: string }) => x.dimensionValueId === idle);
      expect(idleCol).toMatchObject({ code: 'I', name: 'Idle' });
      expect(idleCol.statement.netResult).toBe(0);
    });

    it('the eight-column balance omits the prior periods row when it is zero', async () => {
      const e = await freshEntity(world);
      const c = await buildChart(staff, e);
      await post(staff, e, '2025-06-01', [dr(c.cash, 10), cr(c.capital, 10)]);
      await post(staff, e, '2026-06-01', [dr(c.cash, 5), cr(c.sales, 5)]);
      const res = await staff.get(`${base(e)}/ledger/reports/eight-column-balance`).query({ exerciseStart: '2026-01-01', cutoffDate: '2026-06-15' });
      expect(res.body.rows.find((r: { accountId: string | null }) => r.accountId === null)).toBeUndefined();
      expect(res.body.rows).toHaveLength(3);
      expect(res.body.result).toEqual({ kind: 'profit', amount: 5 });
    });

    it.each([
      ['/reports/journal', { limit: 0 }],
      ['/reports/journal', { cursor: 'garbage' }],
      ['/ledger/entries', { limit: 0 }],
      ['/reports/journal', { bookId: 'not-a-uuid' }],
    ])('GET %s with %p is 400 VALIDATION_ERROR', async (path, query) => {
      expectError(await staff.get(`${base(world.entityId)}${path}`).query(query), 400, 'VALIDATION_ERROR');
    });

    it('with Books, every book-scoped report also needs bookId: by dimension and eight-column', async () => {
      const e = await freshEntity(world);
      await buildChart(staff, e);
      const dim = uuid();
      await staff.post(`${base(e)}/dimensions`).send({ id: dim, name: 'D' }).expect(201);
      await staff.post(`${base(e)}/books`).send({ id: uuid(), name: 'B' }).expect(201);
      expectError(await staff.get(`${base(e)}/reports/income-statement-by-dimension`).query({ dimensionId: dim, from: '2026-01-01', to: '2026-06-15' }), 409, 'BOOK_REQUIRED_ERROR');
      expectStatus(await staff.get(`${base(e)}/ledger/entries`), 200);
    });
  });
});
