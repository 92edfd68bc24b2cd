import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { FixedClock } from '../src/platform/clock/clock';
import { expectMonthlyTotalsMatchLines, tableLockWaiters, waitUntil } from './harness/db-checks';
import { createTestApp, TestApp } from './harness/test-app';
import { Agent, buildWorld, createEntity } from './harness/world';

const clock = new FixedClock(new Date('2026-06-15T15:00:00Z'));

/**
 * One small ledger with every report figure worked out by hand from D50-D57 (never from the
 * code): accounts of every type, grouped, ungrouped and in nested groups; the 2024 exercise (a
 * prior result not closed into equity) and the 2025 exercise; a reversal (counts, netting its
 * original), an unbooked entry and a scheduled entry (neither counts); entries of two Books and
 * common entries; Dimension tags (a parent value and its child); partners on open-item lines;
 * a foreign-currency line. The hand figures are in the comments beside each expectation.
 *
 * Accounts (IFRS Book = common entries + IFRS entries; TAX Book = common + TAX):
 *   1101 Caja           2024: +9000 -3000 +3000 -400 -250 = 8350; 2025: D 9067 C 9217; 2026: +800
 *   1102 Banco USD      2025: D 9975 (USD 10.50 at 950) C 75
 *   1105 Clientes (oi)  2024: +1190 Alfa; 2025: -1190 Alfa, +2380 Zeta, +500 no partner, +100 Zeta (IFRS)
 *   1201 Maquinaria     2024: +3000 -3000 (zero, no 2025 movement: left out)
 *   1202 Dep. acumulada 2024: -120; 2025: -204 (IFRS), -350 (TAX)
 *   1301 Inversiones    nothing (left out, and its group 13 with it)
 *   1901 Depósito       (no group) 2024: +1000
 *   2101 Proveedores(oi)2025: -900 Mu, +500 Mu
 *   2105 IVA            2024: -190; 2025: -380
 *   2201 Préstamo       (no group) 2025: -9975
 *   3101 Capital        2024: -10000
 *   3201 Resultados ac. nothing
 *   4101 Ventas         2024: -1000 [A]; 2025: -2000 [A1], -100 (IFRS)
 *   4102 Servicios      2025: -500 [B]; 2026: -800 [A]
 *   5101 Costo de venta 2025: +900 [A1]
 *   6101 Arriendo       2024: +400 [B]; 2025: +300 [B]; unbooked +5555; scheduled +4444
 *   6102 Sueldos        2024: +250; 2025: +7777 reversed by -7777, +600 [A] (tagged B first); +75 moved to 8101
 *   6103 Depreciación   2024: +120; 2025: +204 (IFRS), +350 (TAX)
 *   7101 Int. ganados   2025: -60 (posted in 2026, dated back)
 *   7102 Dividendos     2025: -40, +40 (zero but moved: shown)
 *   8101 Int. pagados   (no group) 2025: +75
 */
describe('financial reports worked out by hand (D50-D58)', () => {
  let t: TestApp;
  let staff: Agent;
  let organizationId: string;
  let entityId: string;
  let ifrs: string;
  let tax: string;
  let dimensionId: string;
  const g: Record<string, { id: string; codePrefix: string; name: string }> = {};
  const a: Record<string, { id: string; code: string; name: string }> = {};
  const v: Record<string, string> = {};
  const p: Record<string, string> = {};
  const e: Record<string, { id: string; entryDate: string; memo: string; lines: Array<{ id: string }> }> = {};

  const url = (path: string) => `/api/entities/${entityId}${path}`;
  const leaf = (key: string, balance: number) => ({ accountId: a[key].id, code: a[key].code, name: a[key].name, balance });
  const node = (key: string, total: number, groups: unknown[], accounts: unknown[]) => ({ groupId: g[key].id, codePrefix: g[key].codePrefix, name: g[key].name, total, groups, accounts });
  const section = (total: number, groups: unknown[], accounts: unknown[]) => ({ total, groups, accounts });
  const EMPTY = section(0, [], []);

  beforeAll(async () => {
    t = await createTestApp({ clock });
    const world = await buildWorld(t);
    staff = world.staff;
    organizationId = world.organizationId;
    entityId = (await createEntity(staff, world.organizationId)).id;
    ifrs = randomUUID();
    tax = randomUUID();
    await staff.post(url('/books')).send({ id: ifrs, name: 'IFRS' }).expect(201);
    await staff.post(url('/books')).send({ id: tax, name: 'TAX' }).expect(201);
    const group = async (key: string, codePrefix: string, name: string, type: string, parent: string | null = null) => {
      g[key] = { id: randomUUID(), codePrefix, name };
      await staff.post(url('/ledger/account-groups')).send({ id: g[key].id, codePrefix, name, type, parentGroupId: parent ? g[parent].id : null }).expect(201);
    };
    await group('1', '1', 'Activos', 'asset');
    await group('11', '11', 'Activo corriente', 'asset', '1');
    await group('12', '12', 'Activo fijo', 'asset', '1');
    await group('13', '13', 'Inversiones', 'asset', '1');
    await group('2', '2', 'Pasivos', 'liability');
    await group('3', '3', 'Patrimonio', 'equity');
    await group('4', '4', 'Ingresos', 'income');
    await group('41', '41', 'Ingresos de explotación', 'income', '4');
    await group('5', '5', 'Costos', 'cost_of_goods_sold');
    await group('6', '6', 'Gastos', 'operating_expense');
    await group('7', '7', 'Otros ingresos', 'other_income');
    const account = async (key: string, code: string, name: string, type: string, groupKey: string | null, tracking = 'balance') => {
      a[key] = { id: randomUUID(), code, name };
      await staff
        .post(url('/ledger/accounts'))
        .send({ id: a[key].id, code, name, type, tracking, ...(groupKey ? { groupId: g[groupKey].id } : {}) })
        .expect(201);
    };
    await account('caja', '1101', 'Caja', 'asset', '11');
    await account('banco', '1102', 'Banco USD', 'asset', '11');
    await account('clientes', '1105', 'Clientes', 'asset', '11', 'open_item');
    await account('maquinaria', '1201', 'Maquinaria', 'asset', '12');
    await account('depAcum', '1202', 'Depreciación acumulada', 'asset', '12');
    await account('inversiones', '1301', 'Inversiones', 'asset', '13');
    await account('deposito', '1901', 'Depósito en garantía', 'asset', null);
    await account('proveedores', '2101', 'Proveedores', 'liability', '2', 'open_item');
    await account('iva', '2105', 'IVA débito', 'liability', '2');
    await account('prestamo', '2201', 'Préstamo', 'liability', null);
    await account('capital', '3101', 'Capital', 'equity', '3');
    await account('acumulados', '3201', 'Resultados acumulados', 'equity', '3');
    await account('ventas', '4101', 'Ventas', 'income', '41');
    await account('servicios', '4102', 'Servicios', 'income', '4');
    await account('costo', '5101', 'Costo de ventas', 'cost_of_goods_sold', '5');
    await account('arriendo', '6101', 'Arriendo', 'operating_expense', '6');
    await account('sueldos', '6102', 'Sueldos', 'operating_expense', '6');
    await account('depreciacion', '6103', 'Depreciación', 'operating_expense', '6');
    await account('intGanados', '7101', 'Intereses ganados', 'other_income', '7');
    await account('dividendos', '7102', 'Dividendos', 'other_income', '7');
    await account('intPagados', '8101', 'Intereses pagados', 'other_expense', null);

    dimensionId = randomUUID();
    await staff.post(url('/dimensions')).send({ id: dimensionId, name: 'Centro' }).expect(201);
    const value = async (key: string, code: string, parent: string | null = null) => {
      v[key] = randomUUID();
      await staff.post(url(`/dimensions/${dimensionId}/values`)).send({ id: v[key], code, name: `Centro ${code}`, parentId: parent ? v[parent] : null }).expect(201);
    };
    await value('A', 'A');
    await value('A1', 'A1', 'A');
    await value('B', 'B');
    const partner = async (key: string, name: string, taxId: string) => {
      p[key] = randomUUID();
      await staff.post(url('/partners')).send({ id: p[key], name, type: 'company', country: 'CL', taxId }).expect(201);
    };
    await partner('zeta', 'Zeta SpA', '12.345.678-5');
    await partner('alfa', 'Alfa Ltda', '11.111.111-1');
    await partner('mu', 'Mu SA', '22.222.222-2');

    type Line = [string, 'debit' | 'credit', number, Record<string, unknown>?];
    const post = async (key: string, entryDate: string, lines: Line[], bookId?: string) => {
      const res = await staff.post(url('/ledger/entries')).send({
        id: randomUUID(),
        entryDate,
        memo: `Asiento ${key}`,
        ...(bookId ? { bookId } : {}),
        newLedgerEntryLines: lines.map(([account, side, amount, extra]) => ({ ledgerAccountId: a[account].id, side, amount, ...extra })),
      });
      expect({ key, status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ key, status: 201, body: null });
      e[key] = res.body;
    };
    const tag = (value: string) => ({ dimensionValueIds: [v[value]] });
    // 2024
    await post('E1', '2024-01-10', [['caja', 'debit', 9000], ['deposito', 'debit', 1000], ['capital', 'credit', 10000]]);
    await post('E2', '2024-03-05', [['maquinaria', 'debit', 3000], ['caja', 'credit', 3000]]);
    await post('E4', '2024-06-15', [['clientes', 'debit', 1190, { partnerId: p.alfa }], ['ventas', 'credit', 1000, tag('A')], ['iva', 'credit', 190]]);
    await post('E5', '2024-09-01', [['arriendo', 'debit', 400, tag('B')], ['caja', 'credit', 400]]);
    await post('E3', '2024-11-30', [['caja', 'debit', 3000], ['maquinaria', 'credit', 3000]]);
    await post('E6', '2024-12-31', [['sueldos', 'debit', 250], ['caja', 'credit', 250]]);
    await post('E7', '2024-12-31', [['depreciacion', 'debit', 120], ['depAcum', 'credit', 120]]);
    // 2025
    await post('E8', '2025-01-20', [['caja', 'debit', 1190], ['clientes', 'credit', 1190, { partnerId: p.alfa }]]);
    await post('E9', '2025-02-14', [['clientes', 'debit', 2380, { partnerId: p.zeta }], ['ventas', 'credit', 2000, tag('A1')], ['iva', 'credit', 380]]);
    await post('E10', '2025-03-03', [['costo', 'debit', 900, tag('A1')], ['proveedores', 'credit', 900, { partnerId: p.mu }]]);
    await post('E11', '2025-03-31', [['proveedores', 'debit', 500, { partnerId: p.mu }], ['caja', 'credit', 500]]);
    await post('E12', '2025-04-10', [['banco', 'debit', 9975, { transactionCurrency: 'USD', transactionAmount: 1050, exchangeRate: '950' }], ['prestamo', 'credit', 9975]]);
    // Posted on Sueldos, then moved to Intereses pagados (the monthly totals move with the line).
    await post('E13', '2025-05-05', [['sueldos', 'debit', 75], ['banco', 'credit', 75]]);
    await staff.patch(url(`/ledger/lines/${e.E13.lines[0].id}/account`)).send({ ledgerAccountId: a.intPagados.id }).expect(200);
    // Posted in 2026, then dated back into 2025 (the totals move across exercises).
    await post('E14', '2026-01-15', [['caja', 'debit', 60], ['intGanados', 'credit', 60]]);
    await staff.patch(url(`/ledger/entries/${e.E14.id}`)).send({ entryDate: '2025-06-30' }).expect(200);
    e.E14.entryDate = '2025-06-30';
    await post('E15', '2025-07-15', [['clientes', 'debit', 500], ['servicios', 'credit', 500, tag('B')]]);
    await post('E16', '2025-08-01', [['arriendo', 'debit', 300, tag('B')], ['caja', 'credit', 300]]);
    await post('E17', '2025-09-10', [['sueldos', 'debit', 7777], ['caja', 'credit', 7777]]);
    const reversal = await staff.post(url(`/ledger/entries/${e.E17.id}/reverse`)).send({ id: randomUUID(), reversalDate: '2025-09-11' });
    expect(reversal.status).toBe(201);
    e.E17r = reversal.body.reversalEntry;
    await post('E18', '2025-10-05', [['arriendo', 'debit', 5555], ['caja', 'credit', 5555]]);
    await staff.delete(url(`/ledger/entries/${e.E18.id}`)).expect(200);
    await post('E26', '2025-10-20', [['caja', 'debit', 40], ['dividendos', 'credit', 40]]);
    await post('E27', '2025-10-21', [['dividendos', 'debit', 40], ['caja', 'credit', 40]]);
    await post('E22', '2025-11-15', [['clientes', 'debit', 100, { partnerId: p.zeta }], ['ventas', 'credit', 100]], ifrs);
    // Tagged B, then re-tagged A.
    await post('E25', '2025-11-30', [['sueldos', 'debit', 600, tag('B')], ['caja', 'credit', 600]]);
    await staff.put(url(`/ledger/lines/${e.E25.lines[0].id}/dimension-values`)).send({ dimensionValueIds: [v.A] }).expect(200);
    await post('E20', '2025-12-31', [['depreciacion', 'debit', 204], ['depAcum', 'credit', 204]], ifrs);
    await post('E21', '2025-12-31', [['depreciacion', 'debit', 350], ['depAcum', 'credit', 350]], tax);
    // 2026, before today (2026-06-15), and a scheduled entry after it.
    await post('E24', '2026-02-01', [['caja', 'debit', 800], ['servicios', 'credit', 800, tag('A')]]);
    await staff
      .post(url('/ledger/scheduled-entries'))
      .send({ id: randomUUID(), entryDate: '2026-07-01', memo: 'Programado', newLedgerEntryLines: [{ ledgerAccountId: a.arriendo.id, side: 'debit', amount: 4444 }, { ledgerAccountId: a.caja.id, side: 'credit', amount: 4444 }] })
      .expect(201);
    // Allocations: Alfa's payment settles its 2024 invoice; 500 of Mu's 900 is paid.
    await staff.post(url('/ledger/allocations')).send({ id: randomUUID(), debitLineId: e.E4.lines[0].id, creditLineId: e.E8.lines[1].id, amount: 1190 }).expect(201);
    await staff.post(url('/ledger/allocations')).send({ id: randomUUID(), debitLineId: e.E11.lines[0].id, creditLineId: e.E10.lines[1].id, amount: 500 }).expect(201);
  });
  afterAll(() => t.close());

  const exercise = { exerciseStart: '2025-01-01', cutoffDate: '2025-12-31' };
  const year = { from: '2025-01-01', to: '2025-12-31' };

  describe('balance sheet (D50, D51)', () => {
    it('IFRS Book 2025: every section, group, account and total by hand', async () => {
      const res = await staff.get(url('/reports/balance-sheet')).query({ ...exercise, bookId: ifrs });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...exercise,
        currency: 'CLP',
        bookId: ifrs,
        presentation: null,
        // Caja 8200, Banco 9900, Clientes 2980; Dep. acumulada -324 (a contra asset: negative); Maquinaria
        // (zero, no 2025 movement) and group 13 (no account shown) left out; Depósito ungrouped.
        assets: section(
          21756,
          [node('1', 20756, [node('11', 21080, [], [leaf('caja', 8200), leaf('banco', 9900), leaf('clientes', 2980)]), node('12', -324, [], [leaf('depAcum', -324)])], [])],
          [leaf('deposito', 1000)],
        ),
        liabilities: section(10945, [node('2', 970, [], [leaf('proveedores', 400), leaf('iva', 570)])], [leaf('prestamo', 9975)]),
        // 2025 result 581 (income 2600 - cost 900 - opex 1104 + 60 - 75); 2024 result 1000 - 400 - 250 - 120 = 230.
        equity: { total: 10811, groups: [node('3', 10000, [], [leaf('capital', 10000)])], accounts: [], currentPeriodResult: 581, priorPeriodsResult: 230 },
        totals: { assets: 21756, liabilitiesAndEquity: 21756 },
      });
    });

    it('TAX Book 2025 reads the common entries and its own only', async () => {
      const res = await staff.get(url('/reports/balance-sheet')).query({ ...exercise, bookId: tax });
      expect(res.status).toBe(200);
      // Clientes 2880 (no IFRS sale of 100), Dep. acumulada -470; 2025 result 2500 - 900 - 1250 + 60 - 75 = 335.
      expect(res.body.assets.total).toBe(21510);
      expect(res.body.assets.groups[0].groups.map((n: { total: number }) => n.total)).toEqual([20980, -470]);
      expect(res.body.equity).toMatchObject({ total: 10565, currentPeriodResult: 335, priorPeriodsResult: 230 });
      expect(res.body.totals).toEqual({ assets: 21510, liabilitiesAndEquity: 21510 });
    });

    it('in a presentation currency: leaves converted half up (a negative half away from zero), totals summed from them (D57)', async () => {
      const res = await staff.get(url('/reports/balance-sheet')).query({ ...exercise, bookId: ifrs, presentationCurrency: 'USD', presentationRate: '0.00125' });
      expect(res.status).toBe(200);
      // x 0.125 cents: Caja 1025, Banco 1237.5 -> 1238, Clientes 372.5 -> 373, Dep. -40.5 -> -41, Depósito 125.
      expect(res.body.presentation).toEqual({ currency: 'USD', rate: '0.00125' });
      expect(res.body.assets).toEqual(
        section(2720, [node('1', 2595, [node('11', 2636, [], [leaf('caja', 1025), leaf('banco', 1238), leaf('clientes', 373)]), node('12', -41, [], [leaf('depAcum', -41)])], [])], [leaf('deposito', 125)]),
      );
      // Proveedores 50, IVA 71.25 -> 71, Préstamo 1246.875 -> 1247.
      expect(res.body.liabilities).toEqual(section(1368, [node('2', 121, [], [leaf('proveedores', 50), leaf('iva', 71)])], [leaf('prestamo', 1247)]));
      // Current result from converted leaves: 263 + 63 - 113 - (38 + 75 + 26) + 8 + 0 - 9 = 73; prior 125 - 50 - 31 - 15 = 29.
      expect(res.body.equity).toEqual({
        total: 1352,
        groups: [node('3', 1250, [], [leaf('capital', 1250)])],
        accounts: [],
        currentPeriodResult: 73,
        priorPeriodsResult: 29,
        presentationRoundingDifference: 0,
      });
      expect(res.body.totals).toEqual({ assets: 2720, liabilitiesAndEquity: 2720 });
    });

    it('answers the presentation rate in its canonical form, as rates are answered everywhere', async () => {
      for (const path of ['/reports/balance-sheet', '/ledger/reports/eight-column-balance']) {
        const res = await staff.get(url(path)).query({ ...exercise, bookId: ifrs, presentationCurrency: 'USD', presentationRate: '00.001250' });
        expect({ path, status: res.status, presentation: res.body.presentation }).toEqual({ path, status: 200, presentation: { currency: 'USD', rate: '0.00125' } });
      }
      for (const [path, extra] of [['/reports/income-statement', {}], ['/reports/income-statement-by-dimension', { dimensionId }]] as const) {
        const res = await staff.get(url(path)).query({ ...year, ...extra, bookId: ifrs, presentationCurrency: 'USD', presentationRate: '2.50' });
        expect({ path, status: res.status, presentation: res.body.presentation }).toEqual({ path, status: 200, presentation: { currency: 'USD', rate: '2.5' } });
      }
    });
  });

  describe('income statement (D52)', () => {
    it('IFRS Book 2025: sections, groups, the zero account that moved, and the results by hand', async () => {
      const res = await staff.get(url('/reports/income-statement')).query({ ...year, bookId: ifrs });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...year,
        currency: 'CLP',
        bookId: ifrs,
        presentation: null,
        income: section(2600, [node('4', 2600, [node('41', 2100, [], [leaf('ventas', 2100)])], [leaf('servicios', 500)])], []),
        costOfGoodsSold: section(900, [node('5', 900, [], [leaf('costo', 900)])], []),
        grossProfit: 1700,
        // Sueldos: 7777 reversed, plus 600; the unbooked 5555 and the scheduled 4444 do not count.
        operatingExpense: section(1104, [node('6', 1104, [], [leaf('arriendo', 300), leaf('sueldos', 600), leaf('depreciacion', 204)])], []),
        operatingResult: 596,
        otherIncome: section(60, [node('7', 60, [], [leaf('intGanados', 60), leaf('dividendos', 0)])], []),
        otherExpense: section(75, [], [leaf('intPagados', 75)]),
        netResult: 581,
      });
    });

    it('TAX Book and a range of the 2026 exercise', async () => {
      const taxBook = await staff.get(url('/reports/income-statement')).query({ ...year, bookId: tax });
      expect(taxBook.body).toMatchObject({ income: { total: 2500 }, grossProfit: 1600, operatingExpense: { total: 1250 }, operatingResult: 350, netResult: 335 });
      const y2026 = await staff.get(url('/reports/income-statement')).query({ from: '2026-01-01', to: '2026-12-31', bookId: ifrs });
      expect(y2026.body).toMatchObject({
        income: section(800, [node('4', 800, [], [leaf('servicios', 800)])], []),
        costOfGoodsSold: EMPTY,
        operatingExpense: EMPTY,
        otherIncome: EMPTY,
        otherExpense: EMPTY,
        netResult: 800,
      });
    });

    it('in a presentation currency: every leaf converted, totals and results from converted leaves (D57)', async () => {
      const res = await staff.get(url('/reports/income-statement')).query({ ...year, bookId: ifrs, presentationCurrency: 'USD', presentationRate: '0.00125' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...year,
        currency: 'CLP',
        bookId: ifrs,
        presentation: { currency: 'USD', rate: '0.00125' },
        income: section(326, [node('4', 326, [node('41', 263, [], [leaf('ventas', 263)])], [leaf('servicios', 63)])], []),
        costOfGoodsSold: section(113, [node('5', 113, [], [leaf('costo', 113)])], []),
        grossProfit: 213,
        operatingExpense: section(139, [node('6', 139, [], [leaf('arriendo', 38), leaf('sueldos', 75), leaf('depreciacion', 26)])], []),
        operatingResult: 74,
        otherIncome: section(8, [node('7', 8, [], [leaf('intGanados', 8), leaf('dividendos', 0)])], []),
        otherExpense: section(9, [], [leaf('intPagados', 9)]),
        netResult: 73,
      });
    });
  });

  describe('income statement by dimension (D52)', () => {
    it('one column per value by code, a parent including its child, and the untagged lines', async () => {
      const res = await staff.get(url('/reports/income-statement-by-dimension')).query({ dimensionId, ...year, bookId: ifrs });
      expect(res.status).toBe(200);
      const header = { ...year, currency: 'CLP', bookId: ifrs, presentation: null };
      const statement = (parts: Record<string, unknown>) => ({
        ...header,
        income: EMPTY,
        costOfGoodsSold: EMPTY,
        grossProfit: 0,
        operatingExpense: EMPTY,
        operatingResult: 0,
        otherIncome: EMPTY,
        otherExpense: EMPTY,
        netResult: 0,
        ...parts,
      });
      // A: Ventas 2000 and Costo 900 of A1, Sueldos 600 of A. A1: Ventas 2000, Costo 900. B: Servicios 500, Arriendo 300.
      const a1 = { income: section(2000, [node('4', 2000, [node('41', 2000, [], [leaf('ventas', 2000)])], [])], []), costOfGoodsSold: section(900, [node('5', 900, [], [leaf('costo', 900)])], []), grossProfit: 1100 };
      expect(res.body).toEqual({
        dimensionId,
        ...header,
        columns: [
          { dimensionValueId: v.A, code: 'A', name: 'Centro A', statement: statement({ ...a1, operatingExpense: section(600, [node('6', 600, [], [leaf('sueldos', 600)])], []), operatingResult: 500, netResult: 500 }) },
          { dimensionValueId: v.A1, code: 'A1', name: 'Centro A1', statement: statement({ ...a1, operatingResult: 1100, netResult: 1100 }) },
          {
            dimensionValueId: v.B,
            code: 'B',
            name: 'Centro B',
            statement: statement({
              income: section(500, [node('4', 500, [], [leaf('servicios', 500)])], []),
              grossProfit: 500,
              operatingExpense: section(300, [node('6', 300, [], [leaf('arriendo', 300)])], []),
              operatingResult: 200,
              netResult: 200,
            }),
          },
        ],
        // Ventas 100 (IFRS), Sueldos 7777 - 7777 (moved: shown at 0), Depreciación 204, interest 60 and 75, Dividendos 0.
        unassigned: statement({
          income: section(100, [node('4', 100, [node('41', 100, [], [leaf('ventas', 100)])], [])], []),
          grossProfit: 100,
          operatingExpense: section(204, [node('6', 204, [], [leaf('sueldos', 0), leaf('depreciacion', 204)])], []),
          operatingResult: -104,
          otherIncome: section(60, [node('7', 60, [], [leaf('intGanados', 60), leaf('dividendos', 0)])], []),
          otherExpense: section(75, [], [leaf('intPagados', 75)]),
          netResult: -119,
        }),
      });
    });
  });

  describe('eight-column balance (D53)', () => {
    const row = (key: string | null, type: string, debit: number, credit: number) => {
      const result = !['asset', 'liability', 'equity'].includes(type);
      const debtor = Math.max(debit - credit, 0);
      const creditor = Math.max(credit - debit, 0);
      return {
        accountId: key ? a[key].id : null,
        code: key ? a[key].code : null,
        name: key ? a[key].name : 'Prior periods result',
        type,
        debit,
        credit,
        debtorBalance: debtor,
        creditorBalance: creditor,
        asset: result ? 0 : debtor,
        liability: result ? 0 : creditor,
        loss: result ? debtor : 0,
        profit: result ? creditor : 0,
      };
    };

    it('IFRS Book 2025: every row, subtotals, result and totals by hand', async () => {
      const res = await staff.get(url('/ledger/reports/eight-column-balance')).query({ ...exercise, bookId: ifrs });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...exercise,
        currency: 'CLP',
        bookId: ifrs,
        presentation: null,
        rows: [
          row('caja', 'asset', 8350 + 9067, 9217),
          row('banco', 'asset', 9975, 75),
          row('clientes', 'asset', 1190 + 2980, 1190),
          row('depAcum', 'asset', 0, 120 + 204),
          row('deposito', 'asset', 1000, 0),
          row('proveedores', 'liability', 500, 900),
          row('iva', 'liability', 0, 190 + 380),
          row('prestamo', 'liability', 0, 9975),
          row('capital', 'equity', 0, 10000),
          row('ventas', 'income', 0, 2100),
          row('servicios', 'income', 0, 500),
          row('costo', 'cost_of_goods_sold', 900, 0),
          row('arriendo', 'operating_expense', 300, 0),
          row('sueldos', 'operating_expense', 8377, 7777),
          row('depreciacion', 'operating_expense', 204, 0),
          row('intGanados', 'other_income', 0, 60),
          row('dividendos', 'other_income', 40, 40),
          row('intPagados', 'other_expense', 75, 0),
          row(null, 'equity', 0, 230),
        ],
        subtotals: { debit: 42958, credit: 42958, debtorBalance: 24159, creditorBalance: 24159, asset: 22080, liability: 21499, loss: 2079, profit: 2660 },
        result: { kind: 'profit', amount: 581 },
        totals: { debit: 42958, credit: 42958, debtorBalance: 24159, creditorBalance: 24159, asset: 22080, liability: 22080, loss: 2660, profit: 2660 },
      });
    });

    it('in a presentation currency: debit and credit of each row converted, a rounding row, the four identities (D53, D57)', async () => {
      const res = await staff.get(url('/ledger/reports/eight-column-balance')).query({ ...exercise, bookId: ifrs, presentationCurrency: 'USD', presentationRate: '0.00125' });
      expect(res.status).toBe(200);
      expect(res.body.presentation).toEqual({ currency: 'USD', rate: '0.00125' });
      // Converted debits sum to 5371, credits to 5372: one debit in the rounding row.
      expect(res.body.rows).toEqual([
        row('caja', 'asset', 2177, 1152),
        row('banco', 'asset', 1247, 9),
        row('clientes', 'asset', 521, 149),
        row('depAcum', 'asset', 0, 41),
        row('deposito', 'asset', 125, 0),
        row('proveedores', 'liability', 63, 113),
        row('iva', 'liability', 0, 71),
        row('prestamo', 'liability', 0, 1247),
        row('capital', 'equity', 0, 1250),
        row('ventas', 'income', 0, 263),
        row('servicios', 'income', 0, 63),
        row('costo', 'cost_of_goods_sold', 113, 0),
        row('arriendo', 'operating_expense', 38, 0),
        row('sueldos', 'operating_expense', 1047, 972),
        row('depreciacion', 'operating_expense', 26, 0),
        row('intGanados', 'other_income', 0, 8),
        row('dividendos', 'other_income', 5, 5),
        row('intPagados', 'other_expense', 9, 0),
        row(null, 'equity', 0, 29),
        { ...row(null, 'equity', 1, 0), name: 'Presentation rounding difference' },
      ]);
      expect(res.body.subtotals).toEqual({ debit: 5372, credit: 5372, debtorBalance: 3022, creditorBalance: 3022, asset: 2761, liability: 2688, loss: 261, profit: 334 });
      expect(res.body.result).toEqual({ kind: 'profit', amount: 73 });
      expect(res.body.totals).toEqual({ debit: 5372, credit: 5372, debtorBalance: 3022, creditorBalance: 3022, asset: 2761, liability: 2761, loss: 334, profit: 334 });
    });
  });

  describe('journal (D54)', () => {
    /** Every live line of the Book by hand: the entries posted, in (entryDate, entryId, lineId) order. */
    const expectedRows = (bookId: string, from = '0000', to = '9999') => {
      const live = ['E1', 'E2', 'E4', 'E5', 'E3', 'E6', 'E7', 'E8', 'E9', 'E10', 'E11', 'E12', 'E13', 'E14', 'E15', 'E16', 'E17', 'E17r', 'E26', 'E27', 'E22', 'E25', 'E20', 'E21', 'E24'];
      const book: Record<string, string> = { E22: ifrs, E20: ifrs, E21: tax };
      return live
        .filter((k) => !book[k] || book[k] === bookId)
        .flatMap((k) => e[k].lines.map((l) => ({ entryDate: e[k].entryDate, entryId: e[k].id, lineId: l.id, bookId: book[k] ?? null })))
        .filter((r) => r.entryDate >= from && r.entryDate <= to)
        .sort((x, y) => (x.entryDate + x.entryId + x.lineId < y.entryDate + y.entryId + y.lineId ? -1 : 1));
    };

    it('visits every live line of the Book exactly once, in order, at every page size; statuses and fields', async () => {
      for (const bookId of [ifrs, tax]) {
        const expected = expectedRows(bookId);
        expect(expected).toHaveLength(bookId === ifrs ? 51 : 49);
        for (const limit of [1, 7, 49, 51, 100, undefined]) {
          const seen: Array<Record<string, unknown>> = [];
          let cursor: string | null = null;
          let pages = 0;
          do {
            const res = await staff.get(url('/reports/journal')).query({ bookId, ...(limit ? { limit } : {}), ...(cursor ? { cursor } : {}) });
            expect(res.status).toBe(200);
            expect(Object.keys(res.body)).toEqual(['rows', 'nextCursor']);
            expect(res.body.rows.length).toBeLessThanOrEqual(limit ?? 100);
            seen.push(...res.body.rows);
            cursor = res.body.nextCursor;
            pages += 1;
          } while (cursor);
          expect({ bookId, limit, pages }).toEqual({ bookId, limit, pages: Math.max(1, Math.ceil(expected.length / (limit ?? 100))) });
          expect({ bookId, limit, rows: seen.map((r) => ({ entryDate: r.entryDate, entryId: r.entryId, lineId: r.lineId, bookId: r.bookId })) }).toEqual({ bookId, limit, rows: expected });
        }
      }
      const rows = (await staff.get(url('/reports/journal')).query({ bookId: ifrs, from: '2025-09-10', to: '2025-09-11' })).body.rows;
      // The reversed original is `reversed`, its reversal `active`; both count.
      expect(rows.map((r: { entryDate: string; status: string; side: string; amount: number; accountCode: string }) => [r.entryDate, r.status, r.accountCode, r.side, r.amount]).sort()).toEqual([
        ['2025-09-10', 'reversed', '1101', 'credit', 7777],
        ['2025-09-10', 'reversed', '6102', 'debit', 7777],
        ['2025-09-11', 'active', '1101', 'debit', 7777],
        ['2025-09-11', 'active', '6102', 'credit', 7777],
      ]);
      const sale = (await staff.get(url('/reports/journal')).query({ bookId: ifrs, from: '2025-02-14', to: '2025-02-14' })).body.rows;
      expect(sale.find((r: { lineId: string }) => r.lineId === e.E9.lines[0].id)).toEqual({
        entryId: e.E9.id,
        entryDate: '2025-02-14',
        memo: 'Asiento E9',
        status: 'active',
        bookId: null,
        lineId: e.E9.lines[0].id,
        side: 'debit',
        amount: 2380,
        accountId: a.clientes.id,
        accountCode: '1105',
        accountName: 'Clientes',
        partnerId: p.zeta,
        partnerName: 'Zeta SpA',
        description: null,
      });
      const range = await staff.get(url('/reports/journal')).query({ bookId: ifrs, from: '2025-01-01', to: '2025-12-31', limit: 100 });
      expect(range.body.rows.map((r: { lineId: string }) => r.lineId)).toEqual(expectedRows(ifrs, '2025-01-01', '2025-12-31').map((r) => r.lineId));
      expect(range.body.nextCursor).toBeNull();
    });
  });

  describe('general ledger (D55)', () => {
    it('Caja in 2025: opening, closing, line count, running balances and pages by hand', async () => {
      const running: Array<[string, number]> = [];
      for (const limit of [1, 2, 4, 9, 50]) {
        const seen: Array<{ lineId: string; runningBalance: number; entryDate: string }> = [];
        let cursor: string | null = null;
        do {
          const res = await staff.get(url('/ledger/general-ledger')).query({ bookId: ifrs, accountId: a.caja.id, ...year, limit, ...(cursor ? { cursor } : {}) });
          expect(res.status).toBe(200);
          // 2024: 9000 - 3000 - 400 + 3000 - 250 = 8350; through 2025: 8350 + 9067 - 9217 = 8200; nine 2025 lines.
          expect(res.body).toMatchObject({ openingBalance: 8350, closingBalance: 8200, lineCount: 9 });
          expect(res.body.lines.length).toBeLessThanOrEqual(limit);
          seen.push(...res.body.lines);
          cursor = res.body.nextCursor;
        } while (cursor);
        running.splice(0, running.length, ...seen.map((l): [string, number] => [l.entryDate, l.runningBalance]));
        expect({ limit, running }).toEqual({
          limit,
          running: [
            ['2025-01-20', 9540],
            ['2025-03-31', 9040],
            ['2025-06-30', 9100],
            ['2025-08-01', 8800],
            ['2025-09-10', 1023],
            ['2025-09-11', 8800],
            ['2025-10-20', 8840],
            ['2025-10-21', 8800],
            ['2025-11-30', 8200],
          ],
        });
      }
      // Without a range: from inception, 15 live lines (the unbooked and the scheduled lines are not), 2026's 800 included.
      const all = await staff.get(url('/ledger/general-ledger')).query({ bookId: ifrs, accountId: a.caja.id });
      expect(all.body).toMatchObject({ openingBalance: 0, closingBalance: 9000, lineCount: 15, nextCursor: null });
      expect(all.body.lines.map((l: { runningBalance: number }) => l.runningBalance)).toEqual([9000, 6000, 5600, 8600, 8350, 9540, 9040, 9100, 8800, 1023, 8800, 8840, 8800, 8200, 9000]);
      expect(all.body.lines[0]).toEqual({ lineId: e.E1.lines[0].id, entryId: e.E1.id, entryDate: '2024-01-10', memo: 'Asiento E1', side: 'debit', amount: 9000, partnerId: null, description: null, runningBalance: 9000 });
      // The Book's own lines: Dep. acumulada differs between the Books.
      const ifrsDep = await staff.get(url('/ledger/general-ledger')).query({ bookId: ifrs, accountId: a.depAcum.id, from: '2025-01-01' });
      expect(ifrsDep.body).toMatchObject({ openingBalance: -120, closingBalance: -324, lineCount: 1, lines: [expect.objectContaining({ entryId: e.E20.id, runningBalance: -324 })] });
      const taxDep = await staff.get(url('/ledger/general-ledger')).query({ bookId: tax, accountId: a.depAcum.id, from: '2025-01-01' });
      expect(taxDep.body).toMatchObject({ openingBalance: -120, closingBalance: -470, lineCount: 1, lines: [expect.objectContaining({ entryId: e.E21.id, runningBalance: -470 })] });
      // Only `to`: opening 0, closing through `to`; the foreign-currency line counts at its functional amount.
      const banco = await staff.get(url('/ledger/general-ledger')).query({ bookId: ifrs, accountId: a.banco.id, to: '2025-04-30' });
      expect(banco.body).toEqual({
        lines: [{ lineId: e.E12.lines[0].id, entryId: e.E12.id, entryDate: '2025-04-10', memo: 'Asiento E12', side: 'debit', amount: 9975, partnerId: null, description: null, runningBalance: 9975 }],
        nextCursor: null,
        openingBalance: 0,
        closingBalance: 9975,
        lineCount: 1,
      });
    });
  });

  describe('general ledger cursor', () => {
    it('refuses a line no page of this ledger ends with: before `from`, after `to`, or of another Book (400 on cursor)', async () => {
      // Continuing after the 2024 line of E1 within 2025 gave the first 2025 line a running balance of
      // 9000 + 1190, skipping the rest of 2024.
      for (const [accountId, query, cursor] of [
        [a.caja.id, { from: '2025-01-01' }, e.E1.lines[0].id],
        [a.caja.id, { to: '2024-12-31' }, e.E8.lines[0].id],
        [a.depAcum.id, {}, e.E21.lines[1].id],
      ] as const) {
        const res = await staff.get(url('/ledger/general-ledger')).query({ bookId: ifrs, accountId, ...query, cursor });
        expect({ query, status: res.status, code: res.body.code, paths: (res.body.params?.errors ?? []).map((x: { path: string }) => x.path) }).toEqual({
          query,
          status: 400,
          code: 'VALIDATION_ERROR',
          paths: ['cursor'],
        });
      }
      // A line of the range and Book is a cursor, also after it was unbooked (a walk in progress goes on).
      const page = await staff.get(url('/ledger/general-ledger')).query({ bookId: ifrs, accountId: a.caja.id, from: '2025-01-01', cursor: e.E8.lines[0].id, limit: 1 });
      expect(page.body.lines).toEqual([expect.objectContaining({ entryDate: '2025-03-31', runningBalance: 9040 })]);
      const unbooked = await staff.get(url('/ledger/general-ledger')).query({ bookId: ifrs, accountId: a.caja.id, cursor: e.E18.lines[1].id, limit: 1 });
      expect(unbooked.body.lines).toEqual([expect.objectContaining({ entryDate: '2025-10-20', runningBalance: 8840 })]);
    });
  });

  describe('partner ledger (D56)', () => {
    it('Clientes in 2025 by partner name, with the unassigned group, openings, running balances and open amounts', async () => {
      const res = await staff.get(url('/ledger/partner-ledger')).query({ accountId: a.clientes.id, ...year, bookId: ifrs, includeUnassigned: 'true' });
      expect(res.status).toBe(200);
      const line = (key: string, index: number, side: string, amount: number, runningBalance: number, openAmount: number) => ({
        lineId: e[key].lines[index].id,
        entryId: e[key].id,
        entryDate: e[key].entryDate,
        memo: `Asiento ${key}`,
        side,
        amount,
        runningBalance,
        openAmount,
      });
      expect(res.body).toEqual({
        accountId: a.clientes.id,
        ...year,
        currency: 'CLP',
        bookId: ifrs,
        partners: [
          { partnerId: p.alfa, partnerName: 'Alfa Ltda', openingBalance: 1190, closingBalance: 0, lines: [line('E8', 1, 'credit', 1190, 0, 0)] },
          { partnerId: p.zeta, partnerName: 'Zeta SpA', openingBalance: 0, closingBalance: 2480, lines: [line('E9', 0, 'debit', 2380, 2380, 2380), line('E22', 0, 'debit', 100, 2480, 100)] },
          { partnerId: null, partnerName: null, openingBalance: 0, closingBalance: 500, lines: [line('E15', 0, 'debit', 500, 500, 500)] },
        ],
      });
      // The TAX Book has no IFRS sale; without includeUnassigned there is no null group.
      const taxBook = await staff.get(url('/ledger/partner-ledger')).query({ accountId: a.clientes.id, ...year, bookId: tax });
      expect(taxBook.body.partners.map((x: { partnerId: string; closingBalance: number }) => [x.partnerId, x.closingBalance])).toEqual([
        [p.alfa, 0],
        [p.zeta, 2380],
      ]);
      // In 2026 nobody moved and only Zeta's balance is open: Alfa's opening is 0, so Alfa is left out.
      const y2026 = await staff.get(url('/ledger/partner-ledger')).query({ accountId: a.clientes.id, from: '2026-01-01', to: '2026-12-31', bookId: ifrs });
      expect(y2026.body.partners).toEqual([{ partnerId: p.zeta, partnerName: 'Zeta SpA', openingBalance: 2480, closingBalance: 2480, lines: [] }]);
    });

    it('Proveedores: credit-side lines run negative (debit-positive), partnerIds shown by name with zeros', async () => {
      const res = await staff.get(url('/ledger/partner-ledger')).query(`accountId=${a.proveedores.id}&from=2025-01-01&to=2025-12-31&bookId=${ifrs}&partnerIds=${p.mu}&partnerIds=${p.alfa}`);
      expect(res.status).toBe(200);
      expect(res.body.partners).toEqual([
        { partnerId: p.alfa, partnerName: 'Alfa Ltda', openingBalance: 0, closingBalance: 0, lines: [] },
        {
          partnerId: p.mu,
          partnerName: 'Mu SA',
          openingBalance: 0,
          closingBalance: -400,
          lines: [
            { lineId: e.E10.lines[1].id, entryId: e.E10.id, entryDate: '2025-03-03', memo: 'Asiento E10', side: 'credit', amount: 900, runningBalance: -900, openAmount: 400 },
            { lineId: e.E11.lines[0].id, entryId: e.E11.id, entryDate: '2025-03-31', memo: 'Asiento E11', side: 'debit', amount: 500, runningBalance: -400, openAmount: 0 },
          ],
        },
      ]);
    });
  });

  it('orders partners by name as GET /partners does (code-point order: `Alfa` before `alba`)', async () => {
    const lower = randomUUID();
    await staff.post(url('/partners')).send({ id: lower, name: 'alba spa', type: 'company', country: 'US', taxId: '98-7654321' }).expect(201);
    const listed = (await staff.get(url('/partners'))).body.map((x: { id: string }) => x.id).filter((id: string) => id === lower || id === p.alfa);
    expect(listed).toEqual([p.alfa, lower]);
    const res = await staff.get(url('/ledger/partner-ledger')).query(`accountId=${a.proveedores.id}&from=2025-01-01&to=2025-12-31&bookId=${ifrs}&partnerIds=${lower}&partnerIds=${p.alfa}`);
    expect(res.status).toBe(200);
    expect(res.body.partners.map((x: { partnerId: string }) => x.partnerId)).toEqual(listed);
  });

  describe('refusals', () => {
    const routes = () =>
      [
        ['/reports/balance-sheet', { ...exercise }],
        ['/reports/income-statement', { ...year }],
        ['/reports/income-statement-by-dimension', { dimensionId, ...year }],
        ['/ledger/reports/eight-column-balance', { ...exercise }],
        ['/ledger/general-ledger', { accountId: a.caja.id }],
        ['/ledger/partner-ledger', { accountId: a.clientes.id, ...year }],
      ] as Array<[string, Record<string, string>]>;

    it('a missing or malformed required parameter is 400 VALIDATION_ERROR naming it', async () => {
      for (const [path, query] of routes()) {
        for (const name of Object.keys(query)) {
          for (const value of [undefined, 'nope', '2025-02-30']) {
            const sent: Record<string, string> = { ...query, bookId: ifrs };
            if (value === undefined) delete sent[name];
            else sent[name] = value;
            const res = await staff.get(url(path)).query(sent);
            expect({ path, name, value, status: res.status, code: res.body.code, paths: (res.body.params?.errors ?? []).map((x: { path: string }) => x.path) }).toEqual({
              path,
              name,
              value,
              status: 400,
              code: 'VALIDATION_ERROR',
              paths: [name],
            });
          }
        }
      }
    });

    it('an end before its start is 400 VALIDATION_ERROR on the end (D58), before the Book rules', async () => {
      for (const [path, query, end] of [
        ['/reports/balance-sheet', { exerciseStart: '2025-02-01', cutoffDate: '2025-01-31' }, 'cutoffDate'],
        ['/ledger/reports/eight-column-balance', { exerciseStart: '2025-02-01', cutoffDate: '2025-01-31' }, 'cutoffDate'],
        ['/reports/income-statement', { from: '2025-02-01', to: '2025-01-31' }, 'to'],
        ['/reports/income-statement-by-dimension', { dimensionId, from: '2025-02-01', to: '2025-01-31' }, 'to'],
        ['/reports/journal', { from: '2025-02-01', to: '2025-01-31' }, 'to'],
        ['/ledger/general-ledger', { accountId: a.caja.id, from: '2025-02-01', to: '2025-01-31' }, 'to'],
        ['/ledger/partner-ledger', { accountId: a.clientes.id, from: '2025-02-01', to: '2025-01-31' }, 'to'],
      ] as Array<[string, Record<string, string>, string]>) {
        for (const book of [{ bookId: ifrs }, {}]) {
          const res = await staff.get(url(path)).query({ ...query, ...book });
          expect({ path, book, status: res.status, code: res.body.code, paths: (res.body.params?.errors ?? []).map((x: { path: string }) => x.path) }).toEqual({
            path,
            book,
            status: 400,
            code: 'VALIDATION_ERROR',
            paths: [end],
          });
        }
        const same = Object.fromEntries(Object.entries(query).map(([k, x]) => [k, x === '2025-01-31' ? '2025-02-01' : x]));
        expect({ path, status: (await staff.get(url(path)).query({ ...same, bookId: ifrs })).status }).toEqual({ path, status: 200 });
      }
    });

    it('a presentation pair with one half is 400 naming the missing half once', async () => {
      for (const [sent, missing] of [
        [{ presentationCurrency: 'USD' }, 'presentationRate'],
        [{ presentationRate: '0.001' }, 'presentationCurrency'],
      ] as const) {
        const res = await staff.get(url('/reports/income-statement')).query({ ...year, bookId: ifrs, ...sent });
        const other = missing === 'presentationRate' ? 'presentationCurrency' : 'presentationRate';
        expect({ status: res.status, message: res.body.message, params: res.body.params }).toEqual({
          status: 400,
          message: `${missing} is required with ${other}`,
          params: { errors: [{ path: missing, message: `is required with ${other}` }] },
        });
      }
    });

    it('unknown account, Dimension and partner are 404 with their codes; a balance account on the partner ledger is 400', async () => {
      const missing = randomUUID();
      for (const [path, query, code, params] of [
        ['/ledger/general-ledger', { accountId: missing }, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR', { accountId: missing }],
        ['/ledger/partner-ledger', { accountId: missing, ...year }, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR', { accountId: missing }],
        ['/reports/income-statement-by-dimension', { dimensionId: missing, ...year }, 'DIMENSION_NOT_FOUND_ERROR', { dimensionId: missing }],
        ['/ledger/partner-ledger', { accountId: a.clientes.id, ...year, partnerIds: missing }, 'PARTNER_NOT_FOUND_ERROR', { partnerId: missing }],
      ] as Array<[string, Record<string, string>, string, Record<string, string>]>) {
        const res = await staff.get(url(path)).query({ ...query, bookId: ifrs });
        expect({ path, status: res.status, code: res.body.code, params: res.body.params }).toEqual({ path, status: 404, code, params });
      }
      const balance = await staff.get(url('/ledger/partner-ledger')).query({ accountId: a.caja.id, ...year, bookId: ifrs });
      expect({ status: balance.status, code: balance.body.code, paths: balance.body.params.errors.map((x: { path: string }) => x.path) }).toEqual({ status: 400, code: 'VALIDATION_ERROR', paths: ['accountId'] });
    });

    it('limits: journal and general ledger pages of 100 at most, partnerIds at most 100', async () => {
      for (const [path, query, name] of [
        ['/reports/journal', { limit: '101' }, 'limit'],
        ['/reports/journal', { limit: '0' }, 'limit'],
        ['/reports/journal', { search: 'x'.repeat(201) }, 'search'],
        ['/ledger/general-ledger', { accountId: a.caja.id, limit: '101' }, 'limit'],
        ['/ledger/general-ledger', { accountId: a.caja.id, limit: '0' }, 'limit'],
      ] as Array<[string, Record<string, string>, string]>) {
        const res = await staff.get(url(path)).query({ ...query, bookId: ifrs });
        expect({ path, query, status: res.status, code: res.body.code, paths: (res.body.params?.errors ?? []).map((x: { path: string }) => x.path) }).toEqual({
          path,
          query,
          status: 400,
          code: 'VALIDATION_ERROR',
          paths: [name],
        });
      }
      expect((await staff.get(url('/reports/journal')).query({ bookId: ifrs, limit: 100 })).body.rows).toHaveLength(51);
      const hundred = Array.from({ length: 100 }, () => randomUUID());
      const ok = await staff.get(url('/ledger/partner-ledger')).query(`accountId=${a.clientes.id}&from=2025-01-01&to=2025-12-31&bookId=${ifrs}&${[p.alfa, ...hundred.slice(1)].map((id) => `partnerIds=${id}`).join('&')}`);
      expect([ok.status, ok.body.code]).toEqual([404, 'PARTNER_NOT_FOUND_ERROR']);
      const over = await staff.get(url('/ledger/partner-ledger')).query(`accountId=${a.clientes.id}&from=2025-01-01&to=2025-12-31&bookId=${ifrs}&${[...hundred, randomUUID()].map((id) => `partnerIds=${id}`).join('&')}`);
      expect({ status: over.status, code: over.body.code, paths: over.body.params.errors.map((x: { path: string }) => x.path) }).toEqual({ status: 400, code: 'VALIDATION_ERROR', paths: ['partnerIds'] });
    });
  });

  describe('one snapshot per report', () => {
    /**
     * Holds an ACCESS EXCLUSIVE lock on ledger_entries while `request` runs: the report reads its
     * figures from the lines and the monthly totals first, then waits where it reads the entries.
     * Meanwhile an entry that copies `sourceEntryId` (lines and monthly totals too) is committed.
     */
    const withEntryCommittedMidReport = async (reportEntity: string, sourceEntryId: string, request: () => Promise<{ status: number; body: Record<string, unknown> }>) => {
      const blocker = new Client({ connectionString: t.databaseUrl });
      await blocker.connect();
      try {
        await blocker.query('BEGIN');
        await blocker.query('LOCK TABLE ledger_entries IN ACCESS EXCLUSIVE MODE');
        const pending = request();
        await waitUntil(async () => (await tableLockWaiters(t, 'ledger_entries')) >= 1);
        const copy = randomUUID();
        await blocker.query(
          `INSERT INTO ledger_entries (entity_id, id, book_id, entry_date, memo, notes, status, source, created_at, updated_at)
           SELECT entity_id, $3, book_id, entry_date, memo, notes, status, source, now(), now() FROM ledger_entries WHERE entity_id = $1 AND id = $2`,
          [reportEntity, sourceEntryId, copy],
        );
        await blocker.query(
          `INSERT INTO ledger_lines (entity_id, id, entry_id, line_no, side, account_id, amount, description, partner_id, transaction_currency, transaction_amount,
                                     exchange_rate, is_open_item, allocated_amount, book_id, entry_date, status, memo)
           SELECT entity_id, gen_random_uuid(), $3, line_no, side, account_id, amount, description, partner_id, transaction_currency, transaction_amount,
                  exchange_rate, is_open_item, 0, book_id, entry_date, status, memo FROM ledger_lines WHERE entity_id = $1 AND entry_id = $2`,
          [reportEntity, sourceEntryId, copy],
        );
        await blocker.query(
          `INSERT INTO ledger_account_monthly_totals AS t (entity_id, account_id, book_key, month, slot, debit, credit, line_count)
           SELECT entity_id, account_id, coalesce(book_id, '00000000-0000-0000-0000-000000000000'::uuid), date_trunc('month', entry_date)::date, 0,
                  coalesce(sum(amount) FILTER (WHERE side = 'debit'), 0), coalesce(sum(amount) FILTER (WHERE side = 'credit'), 0), count(*)
             FROM ledger_lines WHERE entity_id = $1 AND entry_id = $2 GROUP BY 1, 2, 3, 4
           ON CONFLICT (entity_id, account_id, book_key, month, slot)
           DO UPDATE SET debit = t.debit + EXCLUDED.debit, credit = t.credit + EXCLUDED.credit, line_count = t.line_count + EXCLUDED.line_count`,
          [reportEntity, copy],
        );
        await blocker.query('COMMIT');
        return await pending;
      } finally {
        await blocker.end();
      }
    };

    it('a general ledger agrees with itself (lines, line count, closing balance) while an entry is committed under it', async () => {
      const other = (await createEntity(staff, organizationId)).id;
      const base = `/api/entities/${other}`;
      const cash = randomUUID();
      const receivable = randomUUID();
      await staff.post(`${base}/ledger/accounts`).send({ id: cash, code: '1101', name: 'Caja', type: 'asset', tracking: 'balance' }).expect(201);
      await staff.post(`${base}/ledger/accounts`).send({ id: receivable, code: '1105', name: 'Clientes', type: 'asset', tracking: 'open_item' }).expect(201);
      const entry = (
        await staff
          .post(`${base}/ledger/entries`)
          .send({ id: randomUUID(), entryDate: '2025-03-10', memo: 'x', newLedgerEntryLines: [{ ledgerAccountId: receivable, side: 'debit', amount: 100 }, { ledgerAccountId: cash, side: 'credit', amount: 100 }] })
          .expect(201)
      ).body;

      const gl = await withEntryCommittedMidReport(other, entry.id, async () => staff.get(`${base}/ledger/general-ledger`).query({ accountId: cash }));
      expect(gl.status).toBe(200);
      const lines = gl.body.lines as Array<{ runningBalance: number }>;
      expect({ lineCount: gl.body.lineCount, closingBalance: gl.body.closingBalance }).toEqual({ lineCount: lines.length, closingBalance: lines[lines.length - 1].runningBalance });
    });
  });

  describe('monthly totals', () => {
    it('equal the live lines after the line moved to another account and the entry dated back', async () => {
      await expectMonthlyTotalsMatchLines(t, entityId);
    });
  });

  describe('journal page size (spec Limits: default 100)', () => {
    it('pages 130 lines as 100 and 30 without a limit, each line once', async () => {
      const other = (await createEntity(staff, organizationId)).id;
      const base = `/api/entities/${other}`;
      const cash = randomUUID();
      const capital = randomUUID();
      await staff.post(`${base}/ledger/accounts`).send({ id: cash, code: '1101', name: 'Caja', type: 'asset', tracking: 'balance' }).expect(201);
      await staff.post(`${base}/ledger/accounts`).send({ id: capital, code: '3101', name: 'Capital', type: 'equity', tracking: 'balance' }).expect(201);
      const lineIds: string[] = [];
      for (const entryDate of ['2025-01-01', '2025-01-02']) {
        const lines = Array.from({ length: 65 }, (_, i) => ({ ledgerAccountId: i === 0 ? capital : cash, side: i === 0 ? 'credit' : 'debit', amount: i === 0 ? 64 : 1 }));
        const entry = await staff.post(`${base}/ledger/entries`).send({ id: randomUUID(), entryDate, memo: entryDate, newLedgerEntryLines: lines }).expect(201);
        lineIds.push(...entry.body.lines.map((l: { id: string }) => l.id).sort());
      }
      const first = await staff.get(`${base}/reports/journal`);
      expect(first.status).toBe(200);
      expect(first.body.rows.map((r: { lineId: string }) => r.lineId)).toEqual(lineIds.slice(0, 100));
      const last = first.body.rows[99];
      expect(first.body.nextCursor).toBe(`${last.entryDate}~${last.entryId}~${last.lineId}`);
      const second = await staff.get(`${base}/reports/journal`).query({ cursor: first.body.nextCursor });
      expect({ rows: second.body.rows.map((r: { lineId: string }) => r.lineId), nextCursor: second.body.nextCursor }).toEqual({ rows: lineIds.slice(100), nextCursor: null });
    });
  });

  describe('presentation across exponents (D7, D57)', () => {
    it('converts a USD Entity into CLP and CLF: amount / 10^2 * rate * 10^e, half up', async () => {
      const other = (await createEntity(staff, organizationId, { currency: 'USD' })).id;
      const base = `/api/entities/${other}`;
      const cash = randomUUID();
      const capital = randomUUID();
      await staff.post(`${base}/ledger/accounts`).send({ id: cash, code: '1101', name: 'Cash', type: 'asset', tracking: 'balance' }).expect(201);
      await staff.post(`${base}/ledger/accounts`).send({ id: capital, code: '3101', name: 'Capital', type: 'equity', tracking: 'balance' }).expect(201);
      await staff
        .post(`${base}/ledger/entries`)
        .send({ id: randomUUID(), entryDate: '2025-03-01', memo: 'x', newLedgerEntryLines: [{ ledgerAccountId: cash, side: 'debit', amount: 12345 }, { ledgerAccountId: capital, side: 'credit', amount: 12345 }] })
        .expect(201);
      for (const [currency, rate, expected] of [
        ['CLP', '950.5', 117339], // 123.45 x 950.5 = 117,339.225
        ['CLF', '0.0256', 31603], // 123.45 x 0.0256 = 3.16032 CLF = 31,603.2 ten-thousandths
        ['JPY', '0.5', 62], // 61.725
      ] as const) {
        const res = await staff.get(`${base}/reports/balance-sheet`).query({ ...exercise, presentationCurrency: currency, presentationRate: rate });
        expect(res.status).toBe(200);
        expect({ currency, assets: res.body.assets.accounts, equity: res.body.equity.accounts, totals: res.body.totals }).toEqual({
          currency,
          assets: [{ accountId: cash, code: '1101', name: 'Cash', balance: expected }],
          equity: [{ accountId: capital, code: '3101', name: 'Capital', balance: expected }],
          totals: { assets: expected, liabilitiesAndEquity: expected },
        });
      }
    });
  });
});
