import type { TestApp } from '../harness/test-app';
import { createWorldApp, freshEntity, type Agent, type World } from '../harness/world';
import { buildChart, createPartner, cr, dr, expectError, expectStatus, freshRut, MovableClock, post, uuid, type Chart, type PostedEntry } from './bb-helpers';

interface Section {
  total: number;
  groups: Array<{ groupId: string; codePrefix: string; name: string; total: number; groups: unknown[]; accounts: AccountRow[] }>;
  accounts: AccountRow[];
}
interface AccountRow {
  accountId: string;
  code: string;
  name: string;
  balance: number;
}

/** Every account row of a section, through its group tree. */
function accountsOf(section: Section): AccountRow[] {
  const out: AccountRow[] = [...section.accounts];
  const walk = (groups: Section['groups']) => {
    for (const g of groups) {
      out.push(...g.accounts);
      walk(g.groups as Section['groups']);
    }
  };
  walk(section.groups);
  return out;
}
const balanceOf = (section: Section, accountId: string) => accountsOf(section).find((a) => a.accountId === accountId)?.balance;

describe('black box: reports', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock: new MovableClock() }));
  });
  afterAll(() => t.close());

  const base = (entityId: string) => `/api/entities/${entityId}`;

  // The hand-computed ledger (see the comments for each figure).
  let entityId: string;
  let c: Chart;
  let alfa: string;
  let beta: string;
  let dimensionId: string;
  let norte: string;
  let norte1: string;
  let sur: string;
  const entries: Record<string, PostedEntry> = {};

  beforeAll(async () => {
    entityId = await freshEntity(world);
    c = await buildChart(staff, entityId);
    alfa = await createPartner(staff, entityId, 'Alfa Ltda', freshRut());
    beta = await createPartner(staff, entityId, 'Beta SpA', freshRut());
    dimensionId = uuid();
    await staff.post(`${base(entityId)}/dimensions`).send({ id: dimensionId, name: 'Zona' }).expect(201);
    const value = async (code: string, parentId: string | null = null) => {
      const id = uuid();
      await staff.post(`${base(entityId)}/dimensions/${dimensionId}/values`).send({ id, code, name: `Zona ${code}`, parentId }).expect(201);
      return id;
    };
    norte = await value('NORTE');
    norte1 = await value('NORTE-1', norte);
    sur = await value('SUR');
    entries.e1 = await post(staff, entityId, '2025-12-01', [dr(c.cash, 10000), cr(c.capital, 10000)], { memo: 'Capital contribution' });
    entries.e2 = await post(staff, entityId, '2025-12-10', [dr(c.receivable, 2000, { partnerId: beta }), cr(c.sales, 2000)], { memo: 'December sale' });
    entries.e3 = await post(staff, entityId, '2026-02-01', [dr(c.receivable, 5000, { partnerId: alfa }), cr(c.sales, 5000, { dimensionValueIds: [norte1] })], { memo: 'February sale' });
    entries.e4 = await post(staff, entityId, '2026-03-01', [dr(c.cogs, 1500), cr(c.cash, 1500)], { memo: 'Goods bought' });
    entries.e5 = await post(staff, entityId, '2026-03-15', [dr(c.opex, 700, { dimensionValueIds: [sur], description: 'Office rent' }), cr(c.payable, 700, { partnerId: beta })], { memo: 'Rent' });
    entries.e6 = await post(staff, entityId, '2026-04-01', [dr(c.cash, 300), cr(c.otherIncome, 300)], { memo: 'Interest' });
    entries.e7 = await post(staff, entityId, '2026-04-02', [dr(c.otherExpense, 100), cr(c.cash, 100)], { memo: 'Bank fee' });
    entries.e8 = await post(staff, entityId, '2026-05-01', [dr(c.cash, 2000), cr(c.receivable, 2000, { partnerId: alfa })], { memo: 'Alfa pays' });
    entries.e9 = await post(staff, entityId, '2026-05-20', [dr(c.receivable, 100), cr(c.cash, 100)], { memo: 'Advance' });
    // Never in any report: an unbooked entry and a scheduled one.
    const gone = await post(staff, entityId, '2026-05-21', [dr(c.cash, 999), cr(c.sales, 999)], { memo: 'Mistake' });
    await staff.delete(`${base(entityId)}/ledger/entries/${gone.id}`).expect(200);
    await staff
      .post(`${base(entityId)}/ledger/scheduled-entries`)
      .send({ id: uuid(), entryDate: '2026-06-30', memo: 'Future', newLedgerEntryLines: [dr(c.opex, 777), cr(c.cash, 777)] })
      .expect(201);
  });

  const get = (path: string, query: Record<string, unknown> = {}) => staff.get(`${base(entityId)}${path}`).query(query);
  const balanceSheet = (query: Record<string, unknown> = {}) => get('/reports/balance-sheet', { exerciseStart: '2026-01-01', cutoffDate: '2026-06-15', ...query });
  const incomeStatement = (query: Record<string, unknown> = {}) => get('/reports/income-statement', { from: '2026-01-01', to: '2026-06-15', ...query });
  const eightColumn = (query: Record<string, unknown> = {}) => get('/ledger/reports/eight-column-balance', { exerciseStart: '2026-01-01', cutoffDate: '2026-06-15', ...query });

  describe('balance sheet (D50, D51)', () => {
    it('answers the D51 body', async () => {
      const res = await balanceSheet();
      expectStatus(res, 200);
      expect(Object.keys(res.body).sort()).toEqual(['assets', 'bookId', 'currency', 'cutoffDate', 'equity', 'exerciseStart', 'liabilities', 'presentation', 'totals'].sort());
      expect(res.body).toMatchObject({ exerciseStart: '2026-01-01', cutoffDate: '2026-06-15', currency: 'CLP', bookId: null, presentation: null });
      expect(Object.keys(res.body.totals).sort()).toEqual(['assets', 'liabilitiesAndEquity']);
      for (const section of ['assets', 'liabilities']) expect(Object.keys(res.body[section]).sort()).toEqual(['accounts', 'groups', 'total']);
      expect(res.body.equity).toMatchObject({ currentPeriodResult: expect.any(Number), priorPeriodsResult: expect.any(Number), total: expect.any(Number) });
    });

    it('adds up the hand-computed figures, and assets equal liabilities plus equity', async () => {
      const { body } = await balanceSheet();
      // cash 10000 - 1500 + 300 - 100 + 2000 - 100; receivables 2000 + 5000 - 2000 + 100.
      expect(balanceOf(body.assets, c.cash)).toBe(10600);
      expect(balanceOf(body.assets, c.receivable)).toBe(5100);
      expect(body.assets.total).toBe(15700);
      expect(balanceOf(body.liabilities, c.payable)).toBe(700);
      expect(body.liabilities.total).toBe(700);
      expect(balanceOf(body.equity, c.capital)).toBe(10000);
      expect(body.equity.priorPeriodsResult).toBe(2000);
      expect(body.equity.currentPeriodResult).toBe(3000);
      expect(body.equity.total).toBe(15000);
      expect(body.totals).toEqual({ assets: 15700, liabilitiesAndEquity: 15700 });
    });

    it('groups accounts by the chart\'s group tree and leaves out idle accounts', async () => {
      const { body } = await balanceSheet();
      expect(body.assets.accounts).toEqual([]);
      expect(body.assets.groups).toHaveLength(1);
      const group = body.assets.groups[0];
      expect(group).toMatchObject({ groupId: c.assetsGroup, codePrefix: '11', name: 'Current assets', total: 15700, groups: [] });
      expect(group.accounts).toEqual([
        { accountId: c.cash, code: '1101', name: 'Cash', balance: 10600 },
        { accountId: c.receivable, code: '1105', name: 'Receivables', balance: 5100 },
      ]);
      // Bank (1102) has no balance and no movement: left out.
      expect(balanceOf(body.assets, c.bank)).toBeUndefined();
    });

    it('currentPeriodResult equals the income statement\'s netResult over the exercise', async () => {
      const bs = await balanceSheet({ exerciseStart: '2026-02-15', cutoffDate: '2026-04-30' });
      const is = await incomeStatement({ from: '2026-02-15', to: '2026-04-30' });
      expect(bs.body.equity.currentPeriodResult).toBe(is.body.netResult);
      // Before 2026-02-15: December sale 2000 and February sale 5000.
      expect(bs.body.equity.priorPeriodsResult).toBe(7000);
      expect(bs.body.totals.assets).toBe(bs.body.totals.liabilitiesAndEquity);
    });

    it('reads as of the cutoff date only', async () => {
      const { body } = await balanceSheet({ exerciseStart: '2026-01-01', cutoffDate: '2026-01-31' });
      expect(body.assets.total).toBe(12000);
      expect(body.equity.currentPeriodResult).toBe(0);
      expect(body.equity.priorPeriodsResult).toBe(2000);
      expect(body.totals).toEqual({ assets: 12000, liabilitiesAndEquity: 12000 });
    });

    it('exerciseStart and cutoffDate are required (400 VALIDATION_ERROR)', async () => {
      expectError(await get('/reports/balance-sheet', { exerciseStart: '2026-01-01' }), 400, 'VALIDATION_ERROR');
      expectError(await get('/reports/balance-sheet', { cutoffDate: '2026-01-01' }), 400, 'VALIDATION_ERROR');
      expectError(await get('/reports/balance-sheet', { exerciseStart: '2026-13-01', cutoffDate: '2026-01-01' }), 400, 'VALIDATION_ERROR');
    });

    it('cutoffDate before exerciseStart is 400 VALIDATION_ERROR', async () => {
      expectError(await balanceSheet({ exerciseStart: '2026-06-01', cutoffDate: '2026-05-01' }), 400, 'VALIDATION_ERROR');
    });
  });

  describe('presentation currency (D57)', () => {
    it('converts every leaf, keeps the identity and names the presentation', async () => {
      const res = await balanceSheet({ presentationCurrency: 'USD', presentationRate: '0.00137' });
      expectStatus(res, 200);
      expect(res.body.presentation).toEqual({ currency: 'USD', rate: '0.00137' });
      // 10600 CLP * 0.00137 * 100 = 1452.2 -> 1452; 5100 -> 698.7 -> 699.
      expect(balanceOf(res.body.assets, c.cash)).toBe(1452);
      expect(balanceOf(res.body.assets, c.receivable)).toBe(699);
      expect(res.body.assets.total).toBe(2151);
      expect(res.body.totals.assets).toBe(res.body.totals.liabilitiesAndEquity);
      expect(typeof res.body.equity.presentationRoundingDifference).toBe('number');
    });

    it('the income statement converts leaves and sums them', async () => {
      const res = await incomeStatement({ presentationCurrency: 'USD', presentationRate: '0.00137' });
      expectStatus(res, 200);
      expect(res.body.presentation).toEqual({ currency: 'USD', rate: '0.00137' });
      // 5000 -> 685; 1500 -> 205.5 -> 206; 700 -> 95.9 -> 96; 300 -> 41.1 -> 41; 100 -> 13.7 -> 14.
      expect(res.body.income.total).toBe(685);
      expect(res.body.costOfGoodsSold.total).toBe(206);
      expect(res.body.grossProfit).toBe(479);
      expect(res.body.netResult).toBe(685 - 206 - 96 + 41 - 14);
    });

    it('one of the pair without the other is 400 VALIDATION_ERROR', async () => {
      expectError(await balanceSheet({ presentationCurrency: 'USD' }), 400, 'VALIDATION_ERROR');
      expectError(await incomeStatement({ presentationRate: '0.001' }), 400, 'VALIDATION_ERROR');
    });

    it('an unknown currency or a bad rate is 400', async () => {
      expect((await balanceSheet({ presentationCurrency: 'ZZZ', presentationRate: '0.001' })).status).toBe(400);
      for (const rate of ['0', '-1', '1e-3', 'abc']) expect((await balanceSheet({ presentationCurrency: 'USD', presentationRate: rate })).status).toBe(400);
    });

    it('the eight-column balance converts too and still balances', async () => {
      const res = await eightColumn({ presentationCurrency: 'USD', presentationRate: '0.00137' });
      expectStatus(res, 200);
      const { totals } = res.body;
      expect(totals.debit).toBe(totals.credit);
      expect(totals.asset).toBe(totals.liability);
      expect(totals.loss).toBe(totals.profit);
    });
  });

  describe('income statement (D52)', () => {
    it('answers the sections in order with the hand-computed figures', async () => {
      const res = await incomeStatement();
      expectStatus(res, 200);
      const order = ['income', 'costOfGoodsSold', 'grossProfit', 'operatingExpense', 'operatingResult', 'otherIncome', 'otherExpense', 'netResult'];
      expect(Object.keys(res.body).filter((k) => order.includes(k))).toEqual(order);
      const b = res.body;
      expect(b.income.total).toBe(5000);
      expect(b.income.accounts).toEqual([{ accountId: c.sales, code: '4101', name: 'Sales', balance: 5000 }]);
      expect(b.costOfGoodsSold.total).toBe(1500);
      expect(b.grossProfit).toBe(3500);
      expect(b.operatingExpense.total).toBe(700);
      expect(b.operatingResult).toBe(2800);
      expect(b.otherIncome.total).toBe(300);
      expect(b.otherExpense.total).toBe(100);
      expect(b.netResult).toBe(3000);
      for (const s of ['income', 'costOfGoodsSold', 'operatingExpense', 'otherIncome', 'otherExpense']) expect(Object.keys(b[s]).sort()).toEqual(['accounts', 'groups', 'total']);
    });

    it('reads only the range', async () => {
      const res = await incomeStatement({ from: '2026-03-01', to: '2026-03-31' });
      expect(res.body.income.total).toBe(0);
      expect(res.body.income.accounts).toEqual([]);
      expect(res.body.netResult).toBe(-2200);
    });

    it('from and to are required; to before from is 400 VALIDATION_ERROR (D58)', async () => {
      expectError(await get('/reports/income-statement', { from: '2026-01-01' }), 400, 'VALIDATION_ERROR');
      expectError(await incomeStatement({ from: '2026-06-01', to: '2026-05-31' }), 400, 'VALIDATION_ERROR');
      expectStatus(await incomeStatement({ from: '2026-06-01', to: '2026-06-01' }), 200);
    });
  });

  describe('income statement by dimension (D52)', () => {
    it('answers one column per value, a parent including its descendants, and the unassigned rest', async () => {
      const res = await get('/reports/income-statement-by-dimension', { dimensionId, from: '2026-01-01', to: '2026-06-15' });
      expectStatus(res, 200);
      expect(Object.keys(res.body)).toEqual(expect.arrayContaining(['columns', 'dimensionId', 'from', 'to', 'unassigned']));
      expect(res.body).toMatchObject({ dimensionId, from: '2026-01-01', to: '2026-06-15' });
      const col = (id: string) => res.body.columns.find((x: { dimensionValueId: string }) => x.dimensionValueId === id);
      expect(res.body.columns).toHaveLength(3);
      expect(col(norte)).toMatchObject({ dimensionValueId: norte, code: 'NORTE', name: 'Zona NORTE' });
      expect(col(norte).statement.income.total).toBe(5000);
      expect(col(norte).statement.netResult).toBe(5000);
      expect(col(norte1).statement.netResult).toBe(5000);
      expect(col(sur).statement.operatingExpense.total).toBe(700);
      expect(col(sur).statement.netResult).toBe(-700);
      expect(res.body.unassigned.netResult).toBe(-1300);
      expect(res.body.unassigned.costOfGoodsSold.total).toBe(1500);
      expect(col(norte1).statement.netResult + col(sur).statement.netResult + res.body.unassigned.netResult).toBe(3000);
    });

    it('dimensionId, from and to are required (400); a missing Dimension is 404 DIMENSION_NOT_FOUND_ERROR', async () => {
      expectError(await get('/reports/income-statement-by-dimension', { from: '2026-01-01', to: '2026-06-15' }), 400, 'VALIDATION_ERROR');
      expectError(await get('/reports/income-statement-by-dimension', { dimensionId, from: '2026-01-01' }), 400, 'VALIDATION_ERROR');
      expectError(await get('/reports/income-statement-by-dimension', { dimensionId: uuid(), from: '2026-01-01', to: '2026-06-15' }), 404, 'DIMENSION_NOT_FOUND_ERROR');
      expectError(await get('/reports/income-statement-by-dimension', { dimensionId, from: '2026-06-15', to: '2026-01-01' }), 400, 'VALIDATION_ERROR');
    });
  });

  describe('eight-column balance (D53)', () => {
    it('answers the D53 body with the hand-computed rows', async () => {
      const res = await eightColumn();
      expectStatus(res, 200);
      expect(Object.keys(res.body)).toEqual(expect.arrayContaining(['cutoffDate', 'exerciseStart', 'result', 'rows', 'subtotals', 'totals']));
      const row = (id: string | null) => res.body.rows.find((r: { accountId: string | null }) => r.accountId === id);
      const cols = (r: Record<string, number>) => [r.debit, r.credit, r.debtorBalance, r.creditorBalance, r.asset, r.liability, r.loss, r.profit];
      expect(Object.keys(row(c.cash)).sort()).toEqual(['accountId', 'asset', 'code', 'credit', 'creditorBalance', 'debit', 'debtorBalance', 'liability', 'loss', 'name', 'profit', 'type'].sort());
      expect(row(c.cash)).toMatchObject({ code: '1101', name: 'Cash', type: 'asset' });
      // Opening 10000 in debit, then +300 +2000 and -1500 -100 -100.
      expect(cols(row(c.cash))).toEqual([12300, 1700, 10600, 0, 10600, 0, 0, 0]);
      expect(cols(row(c.receivable))).toEqual([7100, 2000, 5100, 0, 5100, 0, 0, 0]);
      expect(cols(row(c.payable))).toEqual([0, 700, 0, 700, 0, 700, 0, 0]);
      expect(cols(row(c.capital))).toEqual([0, 10000, 0, 10000, 0, 10000, 0, 0]);
      expect(row(null)).toEqual({ accountId: null, code: null, name: 'Prior periods result', type: 'equity', debit: 0, credit: 2000, debtorBalance: 0, creditorBalance: 2000, asset: 0, liability: 2000, loss: 0, profit: 0 });
      expect(cols(row(c.sales))).toEqual([0, 5000, 0, 5000, 0, 0, 0, 5000]);
      expect(cols(row(c.cogs))).toEqual([1500, 0, 1500, 0, 0, 0, 1500, 0]);
      expect(cols(row(c.opex))).toEqual([700, 0, 700, 0, 0, 0, 700, 0]);
      expect(cols(row(c.otherIncome))).toEqual([0, 300, 0, 300, 0, 0, 0, 300]);
      expect(cols(row(c.otherExpense))).toEqual([100, 0, 100, 0, 0, 0, 100, 0]);
      expect(row(c.bank)).toBeUndefined();
      expect(res.body.rows).toHaveLength(10);
      expect(res.body.subtotals).toEqual({ debit: 21700, credit: 21700, debtorBalance: 18000, creditorBalance: 18000, asset: 15700, liability: 12700, loss: 2300, profit: 5300 });
      expect(res.body.result).toEqual({ kind: 'profit', amount: 3000 });
      expect(res.body.totals).toEqual({ debit: 21700, credit: 21700, debtorBalance: 18000, creditorBalance: 18000, asset: 15700, liability: 15700, loss: 5300, profit: 5300 });
    });

    it('a loss puts the result in profit and asset', async () => {
      const res = await eightColumn({ exerciseStart: '2026-03-01', cutoffDate: '2026-03-31' });
      expectStatus(res, 200);
      // March: cogs 1500, opex 700: a loss of 2200.
      expect(res.body.result).toEqual({ kind: 'loss', amount: 2200 });
      const { subtotals, totals } = res.body;
      expect(totals.profit).toBe(subtotals.profit + 2200);
      expect(totals.asset).toBe(subtotals.asset + 2200);
      expect(totals.debit).toBe(totals.credit);
      expect(totals.debtorBalance).toBe(totals.creditorBalance);
      expect(totals.asset).toBe(totals.liability);
      expect(totals.loss).toBe(totals.profit);
    });

    it('requires exerciseStart and cutoffDate (400 VALIDATION_ERROR)', async () => {
      expectError(await get('/ledger/reports/eight-column-balance', { exerciseStart: '2026-01-01' }), 400, 'VALIDATION_ERROR');
    });
  });

  describe('journal (D54)', () => {
    it('answers { rows, nextCursor }: live lines in (entryDate, entryId, lineId) order with the D54 row', async () => {
      const res = await get('/reports/journal');
      expectStatus(res, 200);
      expect(Object.keys(res.body).sort()).toEqual(['nextCursor', 'rows']);
      expect(res.body.rows).toHaveLength(18);
      expect(res.body.nextCursor).toBeNull();
      const keys = (r: { entryDate: string; entryId: string; lineId: string }) => [r.entryDate, r.entryId, r.lineId];
      const sorted = [...res.body.rows].sort((a, b) => {
        const [x, y] = [keys(a).join('|'), keys(b).join('|')];
        return x < y ? -1 : x > y ? 1 : 0;
      });
      expect(res.body.rows).toEqual(sorted);
      const rent = res.body.rows.find((r: { lineId: string }) => r.lineId === entries.e5.lines[0].id);
      expect(Object.keys(rent).sort()).toEqual(
        ['accountCode', 'accountId', 'accountName', 'amount', 'bookId', 'description', 'entryDate', 'entryId', 'lineId', 'memo', 'partnerId', 'partnerName', 'side', 'status'].sort(),
      );
      expect(rent).toMatchObject({
        entryId: entries.e5.id,
        entryDate: '2026-03-15',
        memo: 'Rent',
        status: 'active',
        bookId: null,
        side: 'debit',
        amount: 700,
        accountId: c.opex,
        accountCode: '6101',
        accountName: 'Rent',
        partnerId: null,
        partnerName: null,
        description: 'Office rent',
      });
      const payable = res.body.rows.find((r: { lineId: string }) => r.lineId === entries.e5.lines[1].id);
      expect(payable).toMatchObject({ partnerId: beta, partnerName: 'Beta SpA' });
    });

    it('filters by from and to', async () => {
      const res = await get('/reports/journal', { from: '2026-04-01', to: '2026-04-30' });
      expect(res.body.rows.map((r: { entryId: string }) => r.entryId)).toEqual([entries.e6.id, entries.e6.id, entries.e7.id, entries.e7.id]);
    });

    it('searches memo, description, account code or name and partner name, ignoring case', async () => {
      const ids = async (search: string) => [...new Set((await get('/reports/journal', { search })).body.rows.map((r: { entryId: string }) => r.entryId))];
      expect(await ids('bank FEE')).toEqual([entries.e7.id]);
      expect(await ids('office')).toEqual([entries.e5.id]);
      expect(await ids('5101')).toEqual([entries.e4.id]);
      expect(await ids('interest earned')).toEqual([entries.e6.id]);
      expect(await ids('alfa ltda')).toEqual([entries.e3.id, entries.e8.id]);
    });

    it('pages with a cursor of the form date~entryId~lineId', async () => {
      const first = await get('/reports/journal', { limit: 5 });
      expect(first.body.rows).toHaveLength(5);
      const last = first.body.rows[4];
      expect(first.body.nextCursor).toBe(`${last.entryDate}~${last.entryId}~${last.lineId}`);
      const all = (await get('/reports/journal')).body.rows;
      const seen = [...first.body.rows];
      let cursor = first.body.nextCursor;
      while (cursor) {
        const page = await get('/reports/journal', { limit: 5, cursor });
        seen.push(...page.body.rows);
        cursor = page.body.nextCursor;
      }
      expect(seen).toEqual(all);
    });

    it('limit over 100, or search over 200 characters, is 400 VALIDATION_ERROR', async () => {
      expectError(await get('/reports/journal', { limit: 101 }), 400, 'VALIDATION_ERROR');
      expectError(await get('/reports/journal', { search: 'x'.repeat(201) }), 400, 'VALIDATION_ERROR');
      expectStatus(await get('/reports/journal', { search: 'x'.repeat(200) }), 200);
    });

    it('defaults the page to 100 rows', async () => {
      const other = await freshEntity(world);
      const oc = await buildChart(staff, other);
      for (let i = 0; i < 51; i++) await post(staff, other, '2026-06-01', [dr(oc.cash, 1), cr(oc.sales, 1)]);
      const res = await staff.get(`${base(other)}/reports/journal`);
      expect(res.body.rows).toHaveLength(100);
      expect(res.body.nextCursor).not.toBeNull();
      const rest = await staff.get(`${base(other)}/reports/journal`).query({ cursor: res.body.nextCursor });
      expect(rest.body.rows).toHaveLength(2);
      expect(rest.body.nextCursor).toBeNull();
    });
  });

  describe('general ledger (D55)', () => {
    it('answers { lines, nextCursor, openingBalance, closingBalance, lineCount } with running balances from inception', async () => {
      const res = await get('/ledger/general-ledger', { accountId: c.cash, from: '2026-03-01', to: '2026-04-30' });
      expectStatus(res, 200);
      expect(Object.keys(res.body).sort()).toEqual(['closingBalance', 'lineCount', 'lines', 'nextCursor', 'openingBalance']);
      expect(res.body).toMatchObject({ openingBalance: 10000, closingBalance: 8700, lineCount: 3, nextCursor: null });
      expect(res.body.lines.map((l: { entryId: string; side: string; amount: number; runningBalance: number }) => [l.entryId, l.side, l.amount, l.runningBalance])).toEqual([
        [entries.e4.id, 'credit', 1500, 8500],
        [entries.e6.id, 'debit', 300, 8800],
        [entries.e7.id, 'credit', 100, 8700],
      ]);
      expect(Object.keys(res.body.lines[0]).sort()).toEqual(['amount', 'description', 'entryDate', 'entryId', 'lineId', 'memo', 'partnerId', 'runningBalance', 'side'].sort());
      expect(res.body.lines[0]).toMatchObject({ lineId: entries.e4.lines[1].id, entryDate: '2026-03-01', memo: 'Goods bought', partnerId: null, description: null });
    });

    it('without from and to: opening 0, every live line, closing the balance', async () => {
      const res = await get('/ledger/general-ledger', { accountId: c.cash });
      expect(res.body).toMatchObject({ openingBalance: 0, closingBalance: 10600, lineCount: 6 });
      expect(res.body.lines).toHaveLength(6);
      expect(res.body.lines[5].runningBalance).toBe(10600);
    });

    it('a credit-normal account runs debit-positive (negative balances)', async () => {
      const res = await get('/ledger/general-ledger', { accountId: c.sales });
      expect(res.body.closingBalance).toBe(-7000);
      expect(res.body.lines.map((l: { runningBalance: number }) => l.runningBalance)).toEqual([-2000, -7000]);
    });

    it('pages with the last line\'s id as cursor; the running balance carries across pages', async () => {
      const first = await get('/ledger/general-ledger', { accountId: c.cash, limit: 4 });
      expect(first.body.lines).toHaveLength(4);
      expect(first.body.nextCursor).toBe(first.body.lines[3].lineId);
      expect(first.body.lineCount).toBe(6);
      const second = await get('/ledger/general-ledger', { accountId: c.cash, limit: 4, cursor: first.body.nextCursor });
      expect(second.body.lines).toHaveLength(2);
      expect(second.body.nextCursor).toBeNull();
      expect(second.body.lines.map((l: { runningBalance: number }) => l.runningBalance)).toEqual([10700, 10600]);
      expect(second.body.openingBalance).toBe(0);
      expect(second.body.closingBalance).toBe(10600);
    });

    it('defaults the page to 50 lines', async () => {
      const other = await freshEntity(world);
      const oc = await buildChart(staff, other);
      for (let i = 0; i < 26; i++) await post(staff, other, '2026-06-01', [dr(oc.cash, 1), dr(oc.cash, 1), cr(oc.sales, 2)]);
      const res = await staff.get(`${base(other)}/ledger/general-ledger`).query({ accountId: oc.cash });
      expect(res.body.lines).toHaveLength(50);
      expect(res.body.lineCount).toBe(52);
      expect(res.body.nextCursor).not.toBeNull();
    });

    it('accountId is required; limit over 100 is 400; a missing account is 404 LEDGER_ACCOUNT_NOT_FOUND_ERROR', async () => {
      expectError(await get('/ledger/general-ledger'), 400, 'VALIDATION_ERROR');
      expectError(await get('/ledger/general-ledger', { accountId: c.cash, limit: 101 }), 400, 'VALIDATION_ERROR');
      expectError(await get('/ledger/general-ledger', { accountId: uuid() }), 404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR');
      expectError(await get('/ledger/general-ledger', { accountId: c.cash, from: '2026-05-01', to: '2026-04-01' }), 400, 'VALIDATION_ERROR');
    });
  });

  describe('partner ledger (D56)', () => {
    const ledger = (query: Record<string, unknown> = {}) => get('/ledger/partner-ledger', { accountId: c.receivable, from: '2026-01-01', to: '2026-06-15', ...query });

    it('answers every partner with an opening balance or a line in the range, by name', async () => {
      const res = await ledger();
      expectStatus(res, 200);
      expect(Object.keys(res.body)).toEqual(expect.arrayContaining(['accountId', 'from', 'partners', 'to']));
      expect(res.body).toMatchObject({ accountId: c.receivable, from: '2026-01-01', to: '2026-06-15' });
      expect(res.body.partners.map((p: { partnerId: string }) => p.partnerId)).toEqual([alfa, beta]);
      const [a, b] = res.body.partners;
      expect(Object.keys(a).sort()).toEqual(['closingBalance', 'lines', 'openingBalance', 'partnerId', 'partnerName']);
      expect(a).toMatchObject({ partnerName: 'Alfa Ltda', openingBalance: 0, closingBalance: 3000 });
      expect(a.lines).toEqual([
        { lineId: entries.e3.lines[0].id, entryId: entries.e3.id, entryDate: '2026-02-01', memo: 'February sale', side: 'debit', amount: 5000, runningBalance: 5000, openAmount: 5000 },
        { lineId: entries.e8.lines[1].id, entryId: entries.e8.id, entryDate: '2026-05-01', memo: 'Alfa pays', side: 'credit', amount: 2000, runningBalance: 3000, openAmount: 2000 },
      ]);
      expect(b).toMatchObject({ partnerId: beta, partnerName: 'Beta SpA', openingBalance: 2000, closingBalance: 2000, lines: [] });
    });

    it('includeUnassigned adds a partnerId null group', async () => {
      const res = await ledger({ includeUnassigned: true });
      const unassigned = res.body.partners.find((p: { partnerId: string | null }) => p.partnerId === null);
      expect(unassigned).toMatchObject({ openingBalance: 0, closingBalance: 100 });
      expect(unassigned.lines.map((l: { lineId: string }) => l.lineId)).toEqual([entries.e9.lines[0].id]);
      expect((await ledger()).body.partners.find((p: { partnerId: string | null }) => p.partnerId === null)).toBeUndefined();
    });

    it('partnerIds (repeated parameters) narrows the groups', async () => {
      const res = await staff.get(`${base(entityId)}/ledger/partner-ledger?accountId=${c.receivable}&from=2026-01-01&to=2026-06-15&partnerIds=${beta}`);
      expect(res.body.partners.map((p: { partnerId: string }) => p.partnerId)).toEqual([beta]);
      const both = await staff.get(`${base(entityId)}/ledger/partner-ledger?accountId=${c.receivable}&from=2026-01-01&to=2026-06-15&partnerIds=${beta}&partnerIds=${alfa}`);
      expect(both.body.partners.map((p: { partnerId: string }) => p.partnerId)).toEqual([alfa, beta]);
    });

    it('openAmount is as of now: an allocation shows', async () => {
      const e = await freshEntity(world);
      const ec = await buildChart(staff, e);
      const p = await createPartner(staff, e, 'Gamma', freshRut());
      const inv = await post(staff, e, '2026-06-01', [dr(ec.receivable, 100, { partnerId: p }), cr(ec.sales, 100)]);
      const pay = await post(staff, e, '2026-06-02', [dr(ec.cash, 60), cr(ec.receivable, 60, { partnerId: p })]);
      await staff.post(`${base(e)}/ledger/allocations`).send({ id: uuid(), debitLineId: inv.lines[0].id, creditLineId: pay.lines[1].id, amount: 60 }).expect(201);
      const res = await staff.get(`${base(e)}/ledger/partner-ledger`).query({ accountId: ec.receivable, from: '2026-06-01', to: '2026-06-01' });
      expect(res.body.partners[0].lines).toEqual([expect.objectContaining({ lineId: inv.lines[0].id, openAmount: 40, runningBalance: 100 })]);
      expect(res.body.partners[0].closingBalance).toBe(100);
    });

    it('accountId, from and to are required; more than 100 partnerIds is 400', async () => {
      expectError(await get('/ledger/partner-ledger', { accountId: c.receivable, from: '2026-01-01' }), 400, 'VALIDATION_ERROR');
      expectError(await get('/ledger/partner-ledger', { from: '2026-01-01', to: '2026-06-15' }), 400, 'VALIDATION_ERROR');
      const many = Array.from({ length: 101 }, () => `partnerIds=${uuid()}`).join('&');
      expectError(await staff.get(`${base(entityId)}/ledger/partner-ledger?accountId=${c.receivable}&from=2026-01-01&to=2026-06-15&${many}`), 400, 'VALIDATION_ERROR');
      expectError(await ledger({ from: '2026-06-15', to: '2026-01-01' }), 400, 'VALIDATION_ERROR');
    });

    it('an account that is not open-item is refused', async () => {
      const res = await ledger({ accountId: c.cash });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    });
  });

  describe('scenarios', () => {
    it('a reversal nets its original to zero in every report', async () => {
      const e = await freshEntity(world);
      const ec = await buildChart(staff, e);
      const sale = await post(staff, e, '2026-06-01', [dr(ec.cash, 1000), cr(ec.sales, 1000)]);
      await staff.post(`${base(e)}/ledger/entries/${sale.id}/reverse`).send({ id: uuid(), reversalDate: '2026-06-02' }).expect(201);
      const is = await staff.get(`${base(e)}/reports/income-statement`).query({ from: '2026-06-01', to: '2026-06-15' });
      expect(is.body.netResult).toBe(0);
      // Moved in the range, so it still shows, at zero.
      expect(is.body.income.accounts).toEqual([{ accountId: ec.sales, code: '4101', name: 'Sales', balance: 0 }]);
      const firstDay = await staff.get(`${base(e)}/reports/income-statement`).query({ from: '2026-06-01', to: '2026-06-01' });
      expect(firstDay.body.netResult).toBe(1000);
      const bs = await staff.get(`${base(e)}/reports/balance-sheet`).query({ exerciseStart: '2026-01-01', cutoffDate: '2026-06-15' });
      expect(bs.body.totals).toEqual({ assets: 0, liabilitiesAndEquity: 0 });
      const gl = await staff.get(`${base(e)}/ledger/general-ledger`).query({ accountId: ec.cash });
      expect(gl.body).toMatchObject({ closingBalance: 0, lineCount: 2 });
      const journal = await staff.get(`${base(e)}/reports/journal`);
      expect(journal.body.rows.map((r: { status: string }) => r.status).sort()).toEqual(['active', 'active', 'reversed', 'reversed']);
    });

    it('an unbooked entry vanishes from every report', async () => {
      const e = await freshEntity(world);
      const ec = await buildChart(staff, e);
      const keep = await post(staff, e, '2026-06-01', [dr(ec.cash, 100), cr(ec.sales, 100)]);
      const gone = await post(staff, e, '2026-06-02', [dr(ec.cash, 40), cr(ec.opex, 40)]);
      await staff.delete(`${base(e)}/ledger/entries/${gone.id}`).expect(200);
      const is = await staff.get(`${base(e)}/reports/income-statement`).query({ from: '2026-06-01', to: '2026-06-15' });
      expect(is.body.netResult).toBe(100);
      expect(is.body.operatingExpense).toEqual({ total: 0, groups: [], accounts: [] });
      const bs = await staff.get(`${base(e)}/reports/balance-sheet`).query({ exerciseStart: '2026-01-01', cutoffDate: '2026-06-15' });
      expect(bs.body.totals).toEqual({ assets: 100, liabilitiesAndEquity: 100 });
      const journal = await staff.get(`${base(e)}/reports/journal`);
      expect([...new Set(journal.body.rows.map((r: { entryId: string }) => r.entryId))]).toEqual([keep.id]);
      const gl = await staff.get(`${base(e)}/ledger/general-ledger`).query({ accountId: ec.cash });
      expect(gl.body).toMatchObject({ closingBalance: 100, lineCount: 1 });
      const eight = await staff.get(`${base(e)}/ledger/reports/eight-column-balance`).query({ exerciseStart: '2026-01-01', cutoffDate: '2026-06-15' });
      expect(eight.body.rows.find((r: { accountId: string }) => r.accountId === ec.opex)).toBeUndefined();
    });

    it('scheduled entries stay out of the reports until booked', async () => {
      const bs = await balanceSheet({ cutoffDate: '2026-06-30', exerciseStart: '2026-01-01' });
      expect(bs.body.assets.total).toBe(15700);
      const gl = await get('/ledger/general-ledger', { accountId: c.opex });
      expect(gl.body.lineCount).toBe(1);
    });

    it('Books separate Book Entries while Common Entries count in every Book', async () => {
      const e = await freshEntity(world);
      const ec = await buildChart(staff, e);
      const b1 = uuid();
      const b2 = uuid();
      await staff.post(`${base(e)}/books`).send({ id: b1, name: 'Local GAAP' }).expect(201);
      await staff.post(`${base(e)}/books`).send({ id: b2, name: 'IFRS' }).expect(201);
      const common = await post(staff, e, '2026-06-01', [dr(ec.cash, 1000), cr(ec.sales, 1000)]);
      const only1 = await post(staff, e, '2026-06-02', [dr(ec.cash, 500), cr(ec.sales, 500)], { bookId: b1 });
      const only2 = await post(staff, e, '2026-06-03', [dr(ec.opex, 200), cr(ec.cash, 200)], { bookId: b2 });
      const is = (bookId: string) => staff.get(`${base(e)}/reports/income-statement`).query({ from: '2026-06-01', to: '2026-06-15', bookId });
      expect((await is(b1)).body.netResult).toBe(1500);
      expect((await is(b2)).body.netResult).toBe(800);
      const bs1 = await staff.get(`${base(e)}/reports/balance-sheet`).query({ exerciseStart: '2026-01-01', cutoffDate: '2026-06-15', bookId: b1 });
      expectStatus(bs1, 200);
      expect(bs1.body.bookId).toBe(b1);
      expect(bs1.body.totals).toEqual({ assets: 1500, liabilitiesAndEquity: 1500 });
      const bs2 = await staff.get(`${base(e)}/reports/balance-sheet`).query({ exerciseStart: '2026-01-01', cutoffDate: '2026-06-15', bookId: b2 });
      expect(bs2.body.totals).toEqual({ assets: 800, liabilitiesAndEquity: 800 });
      const j1 = await staff.get(`${base(e)}/reports/journal`).query({ bookId: b1 });
      expect([...new Set(j1.body.rows.map((r: { entryId: string }) => r.entryId))]).toEqual([common.id, only1.id]);
      expect(j1.body.rows.map((r: { bookId: string | null }) => r.bookId)).toEqual([null, null, b1, b1]);
      const gl2 = await staff.get(`${base(e)}/ledger/general-ledger`).query({ accountId: ec.cash, bookId: b2 });
      expect(gl2.body.lines.map((l: { entryId: string }) => l.entryId)).toEqual([common.id, only2.id]);
      expect(gl2.body.closingBalance).toBe(800);
      const eight1 = await staff.get(`${base(e)}/ledger/reports/eight-column-balance`).query({ exerciseStart: '2026-01-01', cutoffDate: '2026-06-15', bookId: b1 });
      expect(eight1.body.result).toEqual({ kind: 'profit', amount: 1500 });
      // A Book's reversal stays in its Book.
      await staff.post(`${base(e)}/ledger/entries/${only1.id}/reverse`).send({ id: uuid(), reversalDate: '2026-06-04' }).expect(201);
      expect((await is(b1)).body.netResult).toBe(1000);
      expect((await is(b2)).body.netResult).toBe(800);
      const missing = await staff.get(`${base(e)}/reports/income-statement`).query({ from: '2026-06-01', to: '2026-06-15', bookId: uuid() });
      expectError(missing, 404, 'BOOK_NOT_FOUND_ERROR');
    });

    it('the partner ledger\'s closing balances and the unassigned group add up to the account\'s balance', async () => {
      const res = await get('/ledger/partner-ledger', { accountId: c.receivable, from: '2026-01-01', to: '2026-06-15', includeUnassigned: true });
      const sum = res.body.partners.reduce((s: number, p: { closingBalance: number }) => s + p.closingBalance, 0);
      const gl = await get('/ledger/general-ledger', { accountId: c.receivable, to: '2026-06-15' });
      expect(sum).toBe(gl.body.closingBalance);
      expect(sum).toBe(5100);
    });

    it('a viewer and a read-only key read every report', async () => {
      const path = `${base(world.entityId)}/reports/income-statement?from=2026-01-01&to=2026-06-15`;
      expectStatus(await world.viewerMember.agent.get(path), 200);
      expectStatus(await t.http.get(path).set('x-api-key', world.keys.memberReadOnly), 200);
      expectError(await world.outsider.agent.get(path), 404, 'ENTITY_NOT_FOUND_ERROR');
    });
  });
});
