import { randomUUID } from 'node:crypto';
import { FixedClock } from '../src/platform/clock/clock';
import { checkAccessMatrix } from './harness/access-matrix';
import { expectMonthlyTotalsMatchLines } from './harness/db-checks';
import { createTestApp, TestApp } from './harness/test-app';
import { Agent, buildWorld, createEntity, World } from './harness/world';

const clock = new FixedClock(new Date('2026-06-15T15:00:00Z'));

/**
 * A small, fixed set of entries with figures worked out by hand: an opening balance and a prior
 * period's income (2024), the 2025 exercise with a sale, rent, cost of sales, interest and other
 * income, a reversed entry, an unbooked entry, a scheduled entry, and entries in two Books.
 */
describe('financial reports', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let entityId: string;
  let ifrs: string;
  const acc: Record<string, string> = {};

  const url = (path: string) => `/api/entities/${entityId}${path}`;
  const post = async (entryDate: string, lines: Array<[string, 'debit' | 'credit', number]>, extra: Record<string, unknown> = {}) => {
    const res = await staff.post(url('/ledger/entries')).send({
      id: randomUUID(),
      entryDate,
      memo: `Asiento ${entryDate}`,
      bookId: ifrs,
      newLedgerEntryLines: lines.map(([account, side, amount]) => ({ ledgerAccountId: acc[account], side, amount })),
      ...extra,
    });
    expect(res.status).toBe(201);
    return res.body;
  };

  beforeAll(async () => {
    t = await createTestApp({ clock });
    world = await buildWorld(t);
    staff = world.staff;
    entityId = (await createEntity(staff, world.organizationId)).id;
    const group = async (codePrefix: string, name: string, type: string, parentGroupId: string | null = null) => {
      const id = randomUUID();
      await staff.post(url('/ledger/account-groups')).send({ id, codePrefix, name, type, parentGroupId }).expect(201);
      return id;
    };
    const g1 = await group('1', 'Activo', 'asset');
    const g11 = await group('11', 'Activo corriente', 'asset', g1);
    const g2 = await group('2', 'Pasivo', 'liability');
    const g3 = await group('3', 'Patrimonio', 'equity');
    const g4 = await group('4', 'Ingresos', 'income');
    const g5 = await group('5', 'Gastos', 'operating_expense');
    const account = async (key: string, code: string, name: string, type: string, groupId: string | null, tracking = 'balance') => {
      acc[key] = randomUUID();
      await staff.post(url('/ledger/accounts')).send({ id: acc[key], code, name, type, groupId, tracking }).expect(201);
    };
    await account('caja', '1101', 'Caja', 'asset', g11);
    await account('clientes', '1105', 'Clientes', 'asset', g11, 'open_item');
    await account('proveedores', '2101', 'Proveedores', 'liability', g2, 'open_item');
    await account('iva', '2105', 'IVA débito fiscal', 'liability', g2);
    await account('capital', '3101', 'Capital', 'equity', g3);
    await account('ventas', '4101', 'Ventas', 'income', g4);
    await account('otros', '4201', 'Otros ingresos', 'other_income', g4);
    await account('arriendos', '5101', 'Arriendos', 'operating_expense', g5);
    await account('costo', '7101', 'Costo de ventas', 'cost_of_goods_sold', null);
    await account('intereses', '8101', 'Intereses', 'other_expense', null);

    await post('2024-12-15', [['caja', 'debit', 1000], ['capital', 'credit', 1000]], { bookId: undefined });
    await post('2024-12-20', [['caja', 'debit', 200], ['ventas', 'credit', 200]], { bookId: undefined });
    await post('2025-03-01', [['clientes', 'debit', 119], ['ventas', 'credit', 100], ['iva', 'credit', 19]], { bookId: undefined });
    await post('2025-04-01', [['arriendos', 'debit', 50], ['caja', 'credit', 50]], { bookId: undefined });
    await post('2025-05-01', [['costo', 'debit', 30], ['caja', 'credit', 30]], { bookId: undefined });
    await post('2025-06-01', [['intereses', 'debit', 5], ['caja', 'credit', 5]], { bookId: undefined });
    await post('2025-07-01', [['caja', 'debit', 8], ['otros', 'credit', 8]], { bookId: undefined });
    const reversed = await post('2025-08-01', [['arriendos', 'debit', 999], ['caja', 'credit', 999]], { bookId: undefined });
    await staff.post(url(`/ledger/entries/${reversed.id}/reverse`)).send({ id: randomUUID(), reversalDate: '2025-08-02' }).expect(201);
    const unbooked = await post('2025-09-01', [['arriendos', 'debit', 777], ['caja', 'credit', 777]], { bookId: undefined });
    await staff.delete(url(`/ledger/entries/${unbooked.id}`)).expect(200);
    await staff
      .post(url('/ledger/scheduled-entries'))
      .send({ id: randomUUID(), entryDate: '2026-07-01', memo: 'futuro', newLedgerEntryLines: [{ ledgerAccountId: acc.arriendos, side: 'debit', amount: 5000 }, { ledgerAccountId: acc.caja, side: 'credit', amount: 5000 }] })
      .expect(201);
    // Common entries above; Book entries below.
    ifrs = randomUUID();
    await staff.post(url('/books')).send({ id: ifrs, name: 'IFRS' }).expect(201);
    const tax = randomUUID();
    await staff.post(url('/books')).send({ id: tax, name: 'Tributario' }).expect(201);
    await post('2025-10-01', [['arriendos', 'debit', 40], ['caja', 'credit', 40]]);
    await post('2025-10-02', [['arriendos', 'debit', 60], ['caja', 'credit', 60]], { bookId: tax });
  });
  afterAll(() => t.close());

  const exercise = { exerciseStart: '2025-01-01', cutoffDate: '2025-12-31' };

  describe('balance sheet (D50, D51)', () => {
    it('gives the hand-computed figures in the IFRS Book, and assets equal liabilities plus equity', async () => {
      const res = await staff.get(url('/reports/balance-sheet')).query({ ...exercise, bookId: ifrs });
      expect(res.status).toBe(200);
      const b = res.body;
      expect(b).toMatchObject({ ...exercise, currency: 'CLP', bookId: ifrs, presentation: null });
      expect(b.assets.total).toBe(1202);
      expect(b.assets.groups).toEqual([
        expect.objectContaining({
          codePrefix: '1',
          total: 1202,
          accounts: [],
          groups: [expect.objectContaining({ codePrefix: '11', total: 1202, accounts: [expect.objectContaining({ code: '1101', balance: 1083 }), expect.objectContaining({ code: '1105', balance: 119 })] })],
        }),
      ]);
      // Proveedores has no movement and a zero balance: left out, and so is no empty group.
      expect(b.liabilities).toEqual({ total: 19, accounts: [], groups: [expect.objectContaining({ codePrefix: '2', total: 19, accounts: [{ accountId: acc.iva, code: '2105', name: 'IVA débito fiscal', balance: 19 }] })] });
      expect(b.equity).toMatchObject({ total: 1183, currentPeriodResult: -17, priorPeriodsResult: 200 });
      expect(b.equity.groups[0].accounts).toEqual([expect.objectContaining({ code: '3101', balance: 1000 })]);
      expect(b.totals).toEqual({ assets: 1202, liabilitiesAndEquity: 1202 });
    });

    it('reads the other Book separately', async () => {
      const res = await staff.get(url('/reports/balance-sheet')).query({ ...exercise, bookId: (await staff.get(url('/books'))).body[1].id });
      // Common entries (Caja 1,123, Clientes 119) and the Tax Book's rent of 60.
      expect(res.body.totals).toEqual({ assets: 1182, liabilitiesAndEquity: 1182 });
    });

    it('converts leaves into a presentation currency and keeps the identity (D57)', async () => {
      const res = await staff.get(url('/reports/balance-sheet')).query({ ...exercise, bookId: ifrs, presentationCurrency: 'USD', presentationRate: '0.001' });
      expect(res.status).toBe(200);
      expect(res.body.presentation).toEqual({ currency: 'USD', rate: '0.001' });
      const accounts = res.body.assets.groups[0].groups[0].accounts.map((a: { balance: number }) => a.balance);
      expect(accounts).toEqual([108, 12]); // 10.83 and 1.19 USD in cents, half up
      expect(res.body.equity).toMatchObject({ currentPeriodResult: -2, priorPeriodsResult: 20, presentationRoundingDifference: 0 });
      expect(res.body.totals.assets).toBe(res.body.totals.liabilitiesAndEquity);
    });

    it('gives the period results as the converted income statements give them, rounding going to equity (D57)', async () => {
      const pair = { presentationCurrency: 'USD', presentationRate: '0.003' };
      const res = await staff.get(url('/reports/balance-sheet')).query({ ...exercise, bookId: ifrs, ...pair });
      expect(res.status).toBe(200);
      const statement = await staff.get(url('/reports/income-statement')).query({ from: exercise.exerciseStart, to: exercise.cutoffDate, bookId: ifrs, ...pair });
      // By hand at 0.3 cents per peso: income 30, other income 2 (2.4), cost 9, rent 27, interest 2 (1.5) give -6;
      // converting the peso result of -17 once would give -5.
      expect(statement.body.netResult).toBe(-6);
      expect(res.body.equity).toMatchObject({ currentPeriodResult: -6, priorPeriodsResult: 60, presentationRoundingDifference: 1, total: 355 });
      // Caja 325 (324.9) and Clientes 36 (35.7); IVA 6 (5.7); Capital 300.
      expect(res.body.assets.total).toBe(361);
      expect(res.body.liabilities.total).toBe(6);
      expect(res.body.equity.groups[0].total).toBe(300);
      expect(res.body.totals).toEqual({ assets: 361, liabilitiesAndEquity: 361 });
    });

    it('judges the presentation pair (400) before the Book rules (409, 404)', async () => {
      const foreign = randomUUID();
      const other = (await createEntity(staff, world.organizationId)).id;
      await staff.post(`/api/entities/${other}/books`).send({ id: foreign, name: 'Otra' }).expect(201);
      for (const pair of [{ presentationCurrency: 'USD' }, { presentationRate: '0.001' }, { presentationCurrency: 'XXQ', presentationRate: '1' }, { presentationCurrency: 'USD', presentationRate: '0' }]) {
        for (const book of [{}, { bookId: foreign }]) {
          for (const path of ['/reports/balance-sheet', '/ledger/reports/eight-column-balance']) {
            const res = await staff.get(url(path)).query({ ...exercise, ...book, ...pair });
            expect({ path, pair, book, status: res.status, code: res.body.code }).toEqual({ path, pair, book, status: 400, code: 'VALIDATION_ERROR' });
          }
          const statement = await staff.get(url('/reports/income-statement')).query({ from: '2025-01-01', to: '2025-12-31', ...book, ...pair });
          expect({ pair, book, status: statement.status, code: statement.body.code }).toEqual({ pair, book, status: 400, code: 'VALIDATION_ERROR' });
        }
      }
      const pair = await staff.get(url('/reports/balance-sheet')).query({ ...exercise, presentationCurrency: 'USD' });
      expect(pair.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR', params: { errors: [{ path: 'presentationRate', message: expect.any(String) }] } });
    });

    it('refuses bad parameters with 400 and applies the Book rules', async () => {
      for (const query of [
        { exerciseStart: '2025-01-01' },
        { ...exercise, cutoffDate: '2024-12-31' },
        { ...exercise, presentationCurrency: 'USD' },
        { ...exercise, presentationCurrency: 'XXQ', presentationRate: '1' },
        { ...exercise, presentationCurrency: 'USD', presentationRate: '0' },
        { ...exercise, presentationCurrency: 'USD', presentationRate: '1e3' },
      ]) {
        const res = await staff.get(url('/reports/balance-sheet')).query({ ...query, bookId: ifrs });
        expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'VALIDATION_ERROR' });
      }
      const required = await staff.get(url('/reports/balance-sheet')).query(exercise);
      expect([required.status, required.body.code]).toEqual([409, 'BOOK_REQUIRED_ERROR']);
      const foreign = randomUUID();
      const other = (await createEntity(staff, world.organizationId)).id;
      await staff.post(`/api/entities/${other}/books`).send({ id: foreign, name: 'Otra' }).expect(201);
      const wrong = await staff.get(url('/reports/balance-sheet')).query({ ...exercise, bookId: foreign });
      expect([wrong.status, wrong.body.code]).toEqual([404, 'BOOK_NOT_FOUND_ERROR']);
    });
  });

  describe('Book rules on every report (spec "Books")', () => {
    /** Every report, with the ids it needs in an Entity (`ids`), and no bookId. */
    const reports = (ids: { cash: string; receivables: string; dimensionId: string }) =>
      [
        ['/reports/balance-sheet', { ...exercise }],
        ['/reports/income-statement', { from: '2025-01-01', to: '2025-12-31' }],
        ['/reports/income-statement-by-dimension', { dimensionId: ids.dimensionId, from: '2025-01-01', to: '2025-12-31' }],
        ['/reports/journal', {}],
        ['/ledger/reports/eight-column-balance', { ...exercise }],
        ['/ledger/general-ledger', { accountId: ids.cash }],
        ['/ledger/partner-ledger', { accountId: ids.receivables, from: '2025-01-01', to: '2025-12-31' }],
      ] as const;

    it('refuses a report without bookId once the Entity keeps Books (409 BOOK_REQUIRED_ERROR), and a Book of another Entity or none (404 BOOK_NOT_FOUND_ERROR)', async () => {
      const dimensionId = randomUUID();
      await staff.post(url('/dimensions')).send({ id: dimensionId, name: 'Proyecto' }).expect(201);
      const other = (await createEntity(staff, world.organizationId)).id;
      const foreign = randomUUID();
      await staff.post(`/api/entities/${other}/books`).send({ id: foreign, name: 'Ajena' }).expect(201);
      for (const [path, query] of reports({ cash: acc.caja, receivables: acc.clientes, dimensionId })) {
        const required = await staff.get(url(path)).query(query);
        expect({ path, status: required.status, body: required.body }).toEqual({
          path,
          status: 409,
          body: { requestId: required.headers['x-request-id'], statusCode: 409, code: 'BOOK_REQUIRED_ERROR', message: expect.any(String), params: {} },
        });
        for (const bookId of [foreign, randomUUID()]) {
          const missing = await staff.get(url(path)).query({ ...query, bookId });
          expect({ path, status: missing.status, code: missing.body.code, params: missing.body.params }).toEqual({ path, status: 404, code: 'BOOK_NOT_FOUND_ERROR', params: { bookId } });
        }
        for (const bookId of [ifrs, ifrs.toUpperCase()]) {
          const res = await staff.get(url(path)).query({ ...query, bookId });
          expect({ path, status: res.status }).toEqual({ path, status: 200 });
          if (!('rows' in res.body) && !('lines' in res.body)) expect({ path, bookId: res.body.bookId }).toEqual({ path, bookId: ifrs });
        }
      }
    });

    it('reads the common entries plus the named Book\'s in the journal and the general ledger', async () => {
      const tax = (await staff.get(url('/books'))).body[1].id;
      for (const [bookId, mine, theirs] of [
        [ifrs, 40, 60],
        [tax, 60, 40],
      ] as const) {
        const journal = await staff.get(url('/reports/journal')).query({ bookId, from: '2025-10-01', to: '2025-10-31' });
        const rows = journal.body.rows.map((r: { bookId: string; amount: number; accountCode: string }) => [r.bookId, r.accountCode, r.amount]);
        expect(rows.sort()).toEqual([
          [bookId, '1101', mine],
          [bookId, '5101', mine],
        ]);
        const ledger = await staff.get(url('/ledger/general-ledger')).query({ bookId, accountId: acc.arriendos, from: '2025-10-01' });
        // Rent from inception in this Book: 50 in April, 999 reversed in August, then this Book's own line (never the other's).
        expect(ledger.body).toMatchObject({ openingBalance: 50, closingBalance: 50 + mine, lineCount: 1, lines: [expect.objectContaining({ amount: mine, runningBalance: 50 + mine })] });
        expect(ledger.body.lines.some((l: { amount: number }) => l.amount === theirs)).toBe(false);
      }
    });

    it('refuses any bookId on an Entity without Books (404 BOOK_NOT_FOUND_ERROR) and reads its one set of books without it', async () => {
      const plain = (await createEntity(staff, world.organizationId)).id;
      const base = `/api/entities/${plain}`;
      const cash = randomUUID();
      const receivables = randomUUID();
      await staff.post(`${base}/ledger/accounts`).send({ id: cash, code: '1101', name: 'Caja', type: 'asset', tracking: 'balance' }).expect(201);
      await staff.post(`${base}/ledger/accounts`).send({ id: receivables, code: '1105', name: 'Clientes', type: 'asset', tracking: 'open_item' }).expect(201);
      const dimensionId = randomUUID();
      await staff.post(`${base}/dimensions`).send({ id: dimensionId, name: 'Proyecto' }).expect(201);
      for (const [path, query] of reports({ cash, receivables, dimensionId })) {
        for (const bookId of [ifrs, randomUUID()]) {
          const res = await staff.get(`${base}${path}`).query({ ...query, bookId });
          expect({ path, status: res.status, code: res.body.code, params: res.body.params }).toEqual({ path, status: 404, code: 'BOOK_NOT_FOUND_ERROR', params: { bookId } });
        }
        const res = await staff.get(`${base}${path}`).query(query);
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
        if (!('rows' in res.body) && !('lines' in res.body)) expect({ path, bookId: res.body.bookId }).toEqual({ path, bookId: null });
      }
    });
  });

  describe('income statement (D52)', () => {
    it('gives the hand-computed sections and results', async () => {
      const res = await staff.get(url('/reports/income-statement')).query({ from: '2025-01-01', to: '2025-12-31', bookId: ifrs });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        from: '2025-01-01',
        to: '2025-12-31',
        grossProfit: 70,
        operatingResult: -20,
        netResult: -17,
        income: { total: 100 },
        costOfGoodsSold: { total: 30, accounts: [expect.objectContaining({ code: '7101', balance: 30 })] },
        operatingExpense: { total: 90 },
        otherIncome: { total: 8 },
        otherExpense: { total: 5 },
      });
      expect(Object.keys(res.body).filter((k) => !['from', 'to', 'currency', 'bookId', 'presentation'].includes(k))).toEqual([
        'income',
        'costOfGoodsSold',
        'grossProfit',
        'operatingExpense',
        'operatingResult',
        'otherIncome',
        'otherExpense',
        'netResult',
      ]);
    });

    it('refuses to before from', async () => {
      const res = await staff.get(url('/reports/income-statement')).query({ from: '2025-02-01', to: '2025-01-31', bookId: ifrs });
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    });
  });

  describe('eight-column balance (D53)', () => {
    it('gives every column by hand and the four identities', async () => {
      const res = await staff.get(url('/ledger/reports/eight-column-balance')).query({ ...exercise, bookId: ifrs });
      expect(res.status).toBe(200);
      // D53's fields only: rows once leaked the account's group, opening and period sums.
      expect(Object.keys(res.body)).toEqual(['exerciseStart', 'cutoffDate', 'currency', 'bookId', 'presentation', 'rows', 'subtotals', 'result', 'totals']);
      for (const r of res.body.rows) {
        expect(Object.keys(r)).toEqual(['accountId', 'code', 'name', 'type', 'debit', 'credit', 'debtorBalance', 'creditorBalance', 'asset', 'liability', 'loss', 'profit']);
      }
      expect(res.body.rows.map((r: { code: string | null }) => r.code)).toEqual(['1101', '1105', '2105', '3101', '4101', '4201', '5101', '7101', '8101', null]);
      const byCode = new Map(res.body.rows.map((r: { code: string | null }) => [r.code, r]));
      expect(byCode.get('1101')).toMatchObject({ debit: 2207, credit: 1124, debtorBalance: 1083, creditorBalance: 0, asset: 1083, liability: 0, loss: 0, profit: 0 });
      expect(byCode.get('3101')).toMatchObject({ debit: 0, credit: 1000, creditorBalance: 1000, liability: 1000 });
      expect(byCode.get('4101')).toMatchObject({ debit: 0, credit: 100, creditorBalance: 100, profit: 100, liability: 0 });
      expect(byCode.get('5101')).toMatchObject({ debit: 1089, credit: 999, debtorBalance: 90, loss: 90 });
      expect(byCode.get(null)).toEqual({
        accountId: null,
        code: null,
        name: 'Prior periods result',
        type: 'equity',
        debit: 0,
        credit: 200,
        debtorBalance: 0,
        creditorBalance: 200,
        asset: 0,
        liability: 200,
        loss: 0,
        profit: 0,
      });
      expect(res.body.subtotals).toEqual({ debit: 3450, credit: 3450, debtorBalance: 1327, creditorBalance: 1327, asset: 1202, liability: 1219, loss: 125, profit: 108 });
      expect(res.body.result).toEqual({ kind: 'loss', amount: 17 });
      const totals = res.body.totals;
      expect(totals).toEqual({ debit: 3450, credit: 3450, debtorBalance: 1327, creditorBalance: 1327, asset: 1219, liability: 1219, loss: 125, profit: 125 });
    });
  });

  describe('eight-column balance in a presentation currency (D53, D57)', () => {
    it('converts each row, derives the other columns, puts the rounding difference in one equity row and keeps the four identities', async () => {
      const functional = (await staff.get(url('/ledger/reports/eight-column-balance')).query({ ...exercise, bookId: ifrs })).body;
      const res = await staff.get(url('/ledger/reports/eight-column-balance')).query({ ...exercise, bookId: ifrs, presentationCurrency: 'USD', presentationRate: '0.003' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ...exercise, currency: 'CLP', bookId: ifrs, presentation: { currency: 'USD', rate: '0.003' } });
      // Each functional row, debit and credit converted half up (0.3 cents per peso), the rest derived from them.
      const convert = (amount: number) => Math.round(amount * 0.3);
      const rows = res.body.rows as Array<Record<string, number | string | null>>;
      expect(rows.slice(0, functional.rows.length).map((r) => [r.accountId, r.name, r.debit, r.credit])).toEqual(
        functional.rows.map((r: Record<string, number | string | null>) => [r.accountId, r.name, convert(r.debit as number), convert(r.credit as number)]),
      );
      expect(rows.find((r) => r.code === '1101')).toMatchObject({ debit: 662, credit: 337, debtorBalance: 325, creditorBalance: 0, asset: 325 });
      expect(rows.find((r) => r.code === '5101')).toMatchObject({ debit: 327, credit: 300, debtorBalance: 27, loss: 27 });
      // Debits 1,036 and credits 1,035 after rounding: one credit in the rounding row.
      expect(rows.slice(functional.rows.length)).toEqual([
        { accountId: null, code: null, name: 'Presentation rounding difference', type: 'equity', debit: 0, credit: 1, debtorBalance: 0, creditorBalance: 1, asset: 0, liability: 1, loss: 0, profit: 0 },
      ]);
      const columns = ['debit', 'credit', 'debtorBalance', 'creditorBalance', 'asset', 'liability', 'loss', 'profit'];
      for (const column of columns) expect({ column, sum: rows.reduce((sum, r) => sum + (r[column] as number), 0) }).toEqual({ column, sum: res.body.subtotals[column] });
      expect(res.body.result).toEqual({ kind: 'loss', amount: res.body.subtotals.loss - res.body.subtotals.profit });
      const totals = res.body.totals;
      expect(totals.debit).toBe(1036);
      expect([totals.debit, totals.debtorBalance, totals.asset, totals.loss]).toEqual([totals.credit, totals.creditorBalance, totals.liability, totals.profit]);
      // Without a presentation currency there is no rounding row.
      expect(functional.rows.some((r: { name: string }) => r.name === 'Presentation rounding difference')).toBe(false);
    });
  });

  describe('journal (D54)', () => {
    it('pages live lines in (date, entry, line) order with the date~entryId~lineId cursor', async () => {
      const seen: Array<{ entryDate: string; entryId: string; lineId: string }> = [];
      let cursor: string | null = null;
      do {
        const res = await staff.get(url('/reports/journal')).query({ bookId: ifrs, limit: 5, ...(cursor ? { cursor } : {}) });
        expect(res.status).toBe(200);
        seen.push(...res.body.rows);
        cursor = res.body.nextCursor;
        if (cursor) expect(cursor).toMatch(/^\d{4}-\d{2}-\d{2}~[0-9a-f-]{36}~[0-9a-f-]{36}$/);
      } while (cursor);
      expect(seen).toHaveLength(21);
      const keys = seen.map((r) => `${r.entryDate}|${r.entryId}|${r.lineId}`);
      expect(keys).toEqual([...keys].sort());
      expect(seen[0]).toMatchObject({ entryDate: '2024-12-15', memo: 'Asiento 2024-12-15', status: 'active', bookId: null, accountCode: expect.any(String), partnerName: null });
      const search = await staff.get(url('/reports/journal')).query({ bookId: ifrs, search: 'iva débito' });
      expect(search.body.rows).toHaveLength(1);
      // A cursor's date goes into the query: one PostgreSQL refuses was a 500.
      const forged = [`2026-02-30~${randomUUID()}~${randomUUID()}`, `0000-01-01~${randomUUID()}~${randomUUID()}`, `2026-13-45~${randomUUID()}~${randomUUID()}`];
      for (const query of [{ limit: 101 }, { search: 'x'.repeat(201) }, { cursor: 'nope' }, ...forged.map((cursor) => ({ cursor }))]) {
        const res = await staff.get(url('/reports/journal')).query({ bookId: ifrs, ...query });
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
      }
    });

    it('judges the cursor (400) before the Book the query names or leaves out', async () => {
      for (const book of [{}, { bookId: randomUUID() }]) {
        const res = await staff.get(url('/reports/journal')).query({ cursor: 'nope', ...book });
        expect([res.status, res.body.code, res.body.params?.errors?.[0]?.path]).toEqual([400, 'VALIDATION_ERROR', 'cursor']);
      }
    });
  });

  describe('journal and general ledger on entries of several lines (D54, D55)', () => {
    let other: string;
    const ourl = (path: string) => `/api/entities/${other}${path}`;
    const a: Record<string, string> = {};
    let partnerId: string;
    const ids: Record<string, { id: string; lines: Array<{ id: string }> }> = {};

    /** D54 from the raw lines: live lines in (entryDate, entryId, lineId) order. */
    const rawJournal = async (where = 'true', values: unknown[] = []) =>
      t.sql<{ id: string; entry_id: string; entry_date: string }>(
        `SELECT l.id, l.entry_id, l.entry_date::text FROM ledger_lines l
          WHERE l.entity_id = $1 AND l.status IN ('active', 'reversed') AND ${where} ORDER BY l.entry_date, l.entry_id, l.id`,
        [other, ...values],
      );
    const walk = async (path: string, query: Record<string, unknown>, key: 'rows' | 'lines') => {
      const seen: Array<Record<string, unknown>> = [];
      const cursors: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await staff.get(ourl(path)).query({ ...query, ...(cursor ? { cursor } : {}) });
        expect(res.status).toBe(200);
        seen.push(...res.body[key]);
        cursor = res.body.nextCursor;
        if (cursor) cursors.push(cursor);
      } while (cursor);
      return { seen, cursors };
    };

    beforeAll(async () => {
      other = (await createEntity(staff, world.organizationId)).id;
      for (const [key, code, name, type, tracking] of [
        ['caja', '1101', 'Caja de ahorro', 'asset', 'balance'],
        ['clientes', '1105', 'Clientes', 'asset', 'open_item'],
        ['iva', '2105', 'IVA débito fiscal', 'liability', 'balance'],
        ['capital', '3101', 'Capital', 'equity', 'balance'],
        ['ventas', '4101', 'Ventas', 'income', 'balance'],
      ]) {
        a[key] = randomUUID();
        await staff.post(ourl('/ledger/accounts')).send({ id: a[key], code, name, type, tracking }).expect(201);
      }
      partnerId = randomUUID();
      await staff.post(ourl('/partners')).send({ id: partnerId, name: 'Ñandú Comercial SpA', type: 'company', country: 'CL', taxId: '11.111.111-1' }).expect(201);
      const entry = async (key: string, entryDate: string, memo: string, lines: Array<Record<string, unknown>>) => {
        const res = await staff.post(ourl('/ledger/entries')).send({ id: randomUUID(), entryDate, memo, newLedgerEntryLines: lines });
        expect(res.status).toBe(201);
        ids[key] = res.body;
      };
      await entry('opening', '2025-01-31', 'Apertura ÉLAN', [
        { ledgerAccountId: a.caja, side: 'debit', amount: 1000, description: 'Depósito inicial' },
        { ledgerAccountId: a.capital, side: 'credit', amount: 1000 },
      ]);
      await entry('sale', '2025-02-01', 'Venta 50% descuento', [
        { ledgerAccountId: a.clientes, side: 'debit', amount: 119, partnerId },
        { ledgerAccountId: a.ventas, side: 'credit', amount: 100 },
        { ledgerAccountId: a.iva, side: 'credit', amount: 19, description: 'IVA_debito' },
      ]);
      await entry('payment', '2025-02-01', 'Pago', [
        { ledgerAccountId: a.caja, side: 'debit', amount: 119 },
        { ledgerAccountId: a.clientes, side: 'credit', amount: 119, partnerId },
      ]);
      await entry('reversed', '2025-02-28', 'Venta anulada', [
        { ledgerAccountId: a.caja, side: 'debit', amount: 30 },
        { ledgerAccountId: a.ventas, side: 'credit', amount: 30 },
      ]);
      await staff.post(ourl(`/ledger/entries/${ids.reversed.id}/reverse`)).send({ id: randomUUID(), reversalDate: '2025-03-01' }).expect(201);
      await entry('unbooked', '2025-03-15', 'Borrada', [
        { ledgerAccountId: a.caja, side: 'debit', amount: 5 },
        { ledgerAccountId: a.ventas, side: 'credit', amount: 5 },
      ]);
      await staff.delete(ourl(`/ledger/entries/${ids.unbooked.id}`)).expect(200);
      await staff
        .post(ourl('/ledger/scheduled-entries'))
        .send({ id: randomUUID(), entryDate: '2026-07-01', memo: 'Programada', newLedgerEntryLines: [{ ledgerAccountId: a.caja, side: 'debit', amount: 7 }, { ledgerAccountId: a.ventas, side: 'credit', amount: 7 }] })
        .expect(201);
      // One entry of 101 lines, past a page of either report: 100 sales of 1 into cash, mid-April.
      await entry('batch', '2025-04-16', 'Lote', [
        ...Array.from({ length: 100 }, () => ({ ledgerAccountId: a.caja, side: 'debit', amount: 1 })),
        { ledgerAccountId: a.ventas, side: 'credit', amount: 100 },
      ]);
    });

    it('lists every live line once, in (entryDate, entryId, lineId) order, whatever the page size; unbooked and scheduled entries are left out', async () => {
      const expected = await rawJournal();
      expect(expected).toHaveLength(2 + 3 + 2 + 2 + 2 + 101);
      const first = await staff.get(ourl('/reports/journal'));
      expect(first.status).toBe(200);
      expect(Object.keys(first.body)).toEqual(['rows', 'nextCursor']);
      // Default limit 100 (D54); the cursor is date~entryId~lineId of the page's last row.
      expect(first.body.rows).toHaveLength(100);
      const last = first.body.rows[99];
      expect(first.body.nextCursor).toBe(`${last.entryDate}~${last.entryId}~${last.lineId}`);
      for (const limit of [1, 3, 7, 100]) {
        const { seen, cursors } = await walk('/reports/journal', { limit }, 'rows');
        expect({ limit, keys: seen.map((r) => [r.lineId, r.entryId, r.entryDate]) }).toEqual({ limit, keys: expected.map((r) => [r.id, r.entry_id, r.entry_date]) });
        expect(cursors).toHaveLength(Math.ceil(expected.length / limit) - 1);
      }
      // A row: the line, its entry and its account, in D54's order.
      const saleLine = first.body.rows.find((r: { lineId: string }) => r.lineId === ids.sale.lines[0].id);
      expect(Object.keys(saleLine)).toEqual(['entryId', 'entryDate', 'memo', 'status', 'bookId', 'lineId', 'side', 'amount', 'accountId', 'accountCode', 'accountName', 'partnerId', 'partnerName', 'description']);
      expect(saleLine).toEqual({
        entryId: ids.sale.id,
        entryDate: '2025-02-01',
        memo: 'Venta 50% descuento',
        status: 'active',
        bookId: null,
        lineId: ids.sale.lines[0].id,
        side: 'debit',
        amount: 119,
        accountId: a.clientes,
        accountCode: '1105',
        accountName: 'Clientes',
        partnerId,
        partnerName: 'Ñandú Comercial SpA',
        description: null,
      });
      // The reversed original stays, as does its mirror (D50: a reversal nets its original).
      const statuses = first.body.rows.filter((r: { memo: string }) => r.memo.endsWith('Venta anulada')).map((r: { status: string; memo: string }) => [r.memo, r.status]);
      expect(statuses).toEqual([
        ['Venta anulada', 'reversed'],
        ['Venta anulada', 'reversed'],
        ['Reversal of Venta anulada', 'active'],
        ['Reversal of Venta anulada', 'active'],
      ]);
      const days = await staff.get(ourl('/reports/journal')).query({ from: '2025-02-01', to: '2025-02-01' });
      expect(days.body.rows.map((r: { lineId: string }) => r.lineId)).toEqual((await rawJournal(`l.entry_date = '2025-02-01'`)).map((r) => r.id));
      const backwards = await staff.get(ourl('/reports/journal')).query({ from: '2025-02-02', to: '2025-02-01' });
      expect(backwards.status).toBe(400);
      expect(backwards.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR', params: { errors: [{ path: 'to', message: expect.any(String) }] } });
    });

    it('searches memo, line description, account code and name and partner name, case-insensitively for every letter, % and _ literally (D54)', async () => {
      const search = async (text: string, limit = 100) => (await walk('/reports/journal', { search: text, limit }, 'rows')).seen.map((r) => r.lineId);
      const lines = (key: string, ...index: number[]) => index.map((i) => ids[key].lines[i].id);
      const inOrder = async (lineIds: string[]) => (await rawJournal('l.id = ANY($2::uuid[])', [lineIds])).map((r) => r.id);
      // Memo: every line of the entry; non-ASCII capitals fold too.
      expect(await search('élan')).toEqual(await inOrder(lines('opening', 0, 1)));
      expect(await search('APERTURA élan')).toEqual(await inOrder(lines('opening', 0, 1)));
      // Line description: that line only.
      expect(await search('DEPÓSITO')).toEqual(lines('opening', 0));
      // Account code and account name.
      expect(await search('2105')).toEqual(lines('sale', 2));
      expect(await search('iva DÉBITO')).toEqual(lines('sale', 2));
      // Partner name, also across pages of one row.
      const partnerLines = await inOrder([...lines('sale', 0), ...lines('payment', 1)]);
      expect(await search('ÑANDÚ comercial')).toEqual(partnerLines);
      expect(await search('ñandú', 1)).toEqual(partnerLines);
      // % and _ are the characters themselves: "a_d" is not "a d" of "Caja de ahorro", "50%" not "50 anything".
      expect(await search('a_d')).toEqual(lines('sale', 2));
      expect(await search('50%')).toEqual(await inOrder(lines('sale', 0, 1, 2)));
      expect(await search('0%d')).toEqual([]);
      // Unbooked and scheduled entries are never found.
      expect(await search('Borrada')).toEqual([]);
      expect(await search('Programada')).toEqual([]);
      expect((await staff.get(ourl('/reports/journal')).query({ search: 'x'.repeat(200) })).status).toBe(200);
      const tooLong = await staff.get(ourl('/reports/journal')).query({ search: 'x'.repeat(201) });
      expect(tooLong.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR', params: { errors: [{ path: 'search' }] } });
    });

    it('pages the general ledger by default 50 lines, running from inception on a deep page that starts mid-month (D55)', async () => {
      const running = await t.sql<{ id: string; running: string; entry_date: string }>(
        `SELECT id, entry_date::text, sum(CASE side WHEN 'debit' THEN amount ELSE -amount END) OVER (ORDER BY entry_date, entry_id, id)::text AS running
           FROM ledger_lines WHERE entity_id = $1 AND account_id = $2 AND status IN ('active', 'reversed') ORDER BY entry_date, entry_id, id`,
        [other, a.caja],
      );
      const first = await staff.get(ourl('/ledger/general-ledger')).query({ accountId: a.caja });
      expect(first.status).toBe(200);
      expect(first.body.lines).toHaveLength(50);
      expect(first.body.nextCursor).toBe(first.body.lines[49].lineId);
      // Inception to now: opening 0, closing the balance of every live line (scheduled 7 and unbooked 5 left out).
      expect(first.body).toMatchObject({ openingBalance: 0, closingBalance: 1000 + 119 + 30 - 30 + 100, lineCount: running.length });
      for (const query of [{}, { from: '2025-02-15' }, { from: '2025-03-01', to: '2025-04-16' }, { to: '2025-02-28' }]) {
        const inRange = running.filter((r) => (!('from' in query) || r.entry_date >= query.from!) && (!('to' in query) || r.entry_date <= query.to!));
        for (const limit of [3, 50, 100]) {
          const { seen } = await walk('/ledger/general-ledger', { accountId: a.caja, limit, ...query }, 'lines');
          expect({ query, limit, lines: seen.map((l) => [l.lineId, l.runningBalance]) }).toEqual({ query, limit, lines: inRange.map((r) => [r.id, Number(r.running)]) });
        }
        const res = await staff.get(ourl('/ledger/general-ledger')).query({ accountId: a.caja, ...query });
        const before = running.filter((r) => 'from' in query && r.entry_date < query.from!);
        expect({ query, openingBalance: res.body.openingBalance, closingBalance: res.body.closingBalance, lineCount: res.body.lineCount }).toEqual({
          query,
          openingBalance: before.length ? Number(before[before.length - 1].running) : 0,
          closingBalance: inRange.length ? Number(inRange[inRange.length - 1].running) : before.length ? Number(before[before.length - 1].running) : 0,
          lineCount: inRange.length,
        });
      }
      // A cursor must be a line of this account (from a previous page).
      for (const cursor of [ids.sale.lines[1].id, randomUUID()]) {
        const res = await staff.get(ourl('/ledger/general-ledger')).query({ accountId: a.caja, cursor });
        expect(res.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR', params: { errors: [{ path: 'cursor' }] } });
      }
      for (const limit of [0, 101]) expect((await staff.get(ourl('/ledger/general-ledger')).query({ accountId: a.caja, limit })).status).toBe(400);
    });
  });

  describe('general ledger (D55)', () => {
    it('gives opening, closing, line count and running balances from inception across pages', async () => {
      const query = { bookId: ifrs, accountId: acc.caja, from: '2025-01-01', to: '2025-12-31', limit: 3 };
      const first = await staff.get(url('/ledger/general-ledger')).query(query);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ openingBalance: 1200, closingBalance: 1083, lineCount: 7 });
      // D55's fields in its order (runningBalance came before partnerId and description).
      expect(Object.keys(first.body)).toEqual(['lines', 'nextCursor', 'openingBalance', 'closingBalance', 'lineCount']);
      expect(first.body.lines[0]).toEqual({
        lineId: expect.any(String),
        entryId: expect.any(String),
        entryDate: '2025-04-01',
        memo: 'Asiento 2025-04-01',
        side: 'credit',
        amount: 50,
        partnerId: null,
        description: null,
        runningBalance: 1150,
      });
      expect(Object.keys(first.body.lines[0])).toEqual(['lineId', 'entryId', 'entryDate', 'memo', 'side', 'amount', 'partnerId', 'description', 'runningBalance']);
      const pages = [first.body];
      while (pages[pages.length - 1].nextCursor) {
        pages.push((await staff.get(url('/ledger/general-ledger')).query({ ...query, cursor: pages[pages.length - 1].nextCursor })).body);
      }
      const running = pages.flatMap((p) => p.lines.map((l: { runningBalance: number }) => l.runningBalance));
      expect(running).toEqual([1150, 1120, 1115, 1123, 124, 1123, 1083]);
      const unknown = await staff.get(url('/ledger/general-ledger')).query({ bookId: ifrs, accountId: randomUUID() });
      expect([unknown.status, unknown.body.code]).toEqual([404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR']);
      expect((await staff.get(url('/ledger/general-ledger')).query({ bookId: ifrs })).status).toBe(400);
    });
  });

  describe('by dimension and partner ledger', () => {
    let other: string;
    const ourl = (path: string) => `/api/entities/${other}${path}`;
    const a: Record<string, string> = {};
    const v: Record<string, string> = {};
    const p: Record<string, string> = {};
    let dimensionId: string;

    beforeAll(async () => {
      other = (await createEntity(staff, world.organizationId)).id;
      const account = async (key: string, code: string, type: string, tracking = 'balance') => {
        a[key] = randomUUID();
        await staff.post(ourl('/ledger/accounts')).send({ id: a[key], code, name: key, type, tracking }).expect(201);
      };
      await account('caja', '1101', 'asset');
      await account('clientes', '1105', 'asset', 'open_item');
      await account('ventas', '4101', 'income');
      await account('arriendos', '5101', 'operating_expense');
      dimensionId = randomUUID();
      await staff.post(ourl('/dimensions')).send({ id: dimensionId, name: 'Zona' }).expect(201);
      const value = async (key: string, code: string, parentId: string | null = null) => {
        v[key] = randomUUID();
        await staff.post(ourl(`/dimensions/${dimensionId}/values`)).send({ id: v[key], code, name: key, parentId }).expect(201);
      };
      await value('norte', 'N');
      await value('norte1', 'N1', v.norte);
      await value('sur', 'S');
      const partner = async (key: string, name: string, taxId: string) => {
        p[key] = randomUUID();
        await staff.post(ourl('/partners')).send({ id: p[key], name, type: 'company', country: 'CL', taxId }).expect(201);
      };
      await partner('beta', 'Beta Ltda', '12.345.678-5');
      await partner('alfa', 'Alfa SpA', '11.111.111-1');
      const entry = async (entryDate: string, lines: Array<Record<string, unknown>>) =>
        (await staff.post(ourl('/ledger/entries')).send({ id: randomUUID(), entryDate, memo: entryDate, newLedgerEntryLines: lines }).expect(201)).body;
      await entry('2025-01-05', [{ ledgerAccountId: a.arriendos, side: 'debit', amount: 10, dimensionValueIds: [v.norte1] }, { ledgerAccountId: a.caja, side: 'credit', amount: 10 }]);
      await entry('2025-01-06', [{ ledgerAccountId: a.arriendos, side: 'debit', amount: 20, dimensionValueIds: [v.sur] }, { ledgerAccountId: a.caja, side: 'credit', amount: 20 }]);
      await entry('2025-01-07', [{ ledgerAccountId: a.caja, side: 'debit', amount: 50 }, { ledgerAccountId: a.ventas, side: 'credit', amount: 50, dimensionValueIds: [v.norte] }]);
      await entry('2025-01-08', [{ ledgerAccountId: a.arriendos, side: 'debit', amount: 5 }, { ledgerAccountId: a.caja, side: 'credit', amount: 5 }]);
      const invoice = await entry('2025-01-10', [{ ledgerAccountId: a.clientes, side: 'debit', amount: 100, partnerId: p.alfa }, { ledgerAccountId: a.ventas, side: 'credit', amount: 100 }]);
      await entry('2025-02-10', [{ ledgerAccountId: a.clientes, side: 'debit', amount: 200, partnerId: p.beta }, { ledgerAccountId: a.ventas, side: 'credit', amount: 200 }]);
      const payment = await entry('2025-03-10', [{ ledgerAccountId: a.caja, side: 'debit', amount: 60 }, { ledgerAccountId: a.clientes, side: 'credit', amount: 60, partnerId: p.alfa }]);
      await entry('2025-03-15', [{ ledgerAccountId: a.clientes, side: 'debit', amount: 7 }, { ledgerAccountId: a.ventas, side: 'credit', amount: 7 }]);
      await staff.post(ourl('/ledger/allocations/match')).send({ lineIds: [invoice.lines[0].id, payment.lines[1].id] }).expect(201);
    });

    it('splits the income statement by Dimension Value, a parent including its descendants', async () => {
      const res = await staff.get(ourl('/reports/income-statement-by-dimension')).query({ dimensionId, from: '2025-01-01', to: '2025-01-31' });
      expect(res.status).toBe(200);
      const column = (id: string) => res.body.columns.find((c: { dimensionValueId: string }) => c.dimensionValueId === id).statement;
      expect(column(v.norte)).toMatchObject({ income: { total: 50 }, operatingExpense: { total: 10 }, netResult: 40 });
      expect(column(v.norte1)).toMatchObject({ income: { total: 0 }, operatingExpense: { total: 10 }, netResult: -10 });
      expect(column(v.sur)).toMatchObject({ operatingExpense: { total: 20 }, netResult: -20 });
      // Untagged in January: rent of 5 and the sale of 100 to Alfa.
      expect(res.body.unassigned).toMatchObject({ income: { total: 100 }, operatingExpense: { total: 5 }, netResult: 95 });
      expect(res.body).toMatchObject({ dimensionId, from: '2025-01-01', to: '2025-01-31', currency: 'CLP', bookId: null, presentation: null });
      expect(res.body.columns.map((c: { code: string }) => c.code)).toEqual(['N', 'N1', 'S']);
      // Each statement is a whole income statement body, the same fields in the same order.
      const plain = await staff.get(ourl('/reports/income-statement')).query({ from: '2025-01-01', to: '2025-01-31' });
      for (const statement of [...res.body.columns.map((c: { statement: unknown }) => c.statement), res.body.unassigned]) {
        expect(Object.keys(statement)).toEqual(Object.keys(plain.body));
        expect(statement).toMatchObject({ from: '2025-01-01', to: '2025-01-31', currency: 'CLP', bookId: null, presentation: null });
      }
      // With nothing tagged in the range, the unassigned statement is the income statement itself.
      const untagged = { from: '2025-02-01', to: '2025-03-31' };
      const february = await staff.get(ourl('/reports/income-statement-by-dimension')).query({ dimensionId, ...untagged });
      expect(february.body.unassigned).toEqual((await staff.get(ourl('/reports/income-statement')).query(untagged)).body);
      const missing = await staff.get(ourl('/reports/income-statement-by-dimension')).query({ dimensionId: randomUUID(), from: '2025-01-01', to: '2025-01-31' });
      expect([missing.status, missing.body.code]).toEqual([404, 'DIMENSION_NOT_FOUND_ERROR']);
    });

    it('groups an open-item account by partner with openings, running balances and open amounts (D56)', async () => {
      const res = await staff.get(ourl('/ledger/partner-ledger')).query({ accountId: a.clientes, from: '2025-02-01', to: '2025-12-31', includeUnassigned: 'true' });
      expect(res.status).toBe(200);
      expect(res.body.partners.map((g: { partnerName: string | null }) => g.partnerName)).toEqual(['Alfa SpA', 'Beta Ltda', null]);
      const [alfa, beta, none] = res.body.partners;
      expect(alfa).toMatchObject({ partnerId: p.alfa, openingBalance: 100, closingBalance: 40, lines: [expect.objectContaining({ side: 'credit', amount: 60, runningBalance: 40, openAmount: 0 })] });
      expect(beta).toMatchObject({ openingBalance: 0, closingBalance: 200, lines: [expect.objectContaining({ amount: 200, runningBalance: 200, openAmount: 200 })] });
      expect(none).toMatchObject({ partnerId: null, closingBalance: 7 });
      // D56's fields in its order.
      expect(Object.keys(res.body)).toEqual(['accountId', 'from', 'to', 'currency', 'bookId', 'partners']);
      expect(Object.keys(alfa)).toEqual(['partnerId', 'partnerName', 'openingBalance', 'closingBalance', 'lines']);
      expect(Object.keys(alfa.lines[0])).toEqual(['lineId', 'entryId', 'entryDate', 'memo', 'side', 'amount', 'runningBalance', 'openAmount']);
      const one = await staff.get(ourl('/ledger/partner-ledger')).query({ accountId: a.clientes, from: '2025-02-01', to: '2025-12-31', partnerIds: p.beta });
      expect(one.body.partners.map((g: { partnerId: string }) => g.partnerId)).toEqual([p.beta]);
      const notOpenItem = await staff.get(ourl('/ledger/partner-ledger')).query({ accountId: a.caja, from: '2025-01-01', to: '2025-12-31' });
      expect([notOpenItem.status, notOpenItem.body.code]).toEqual([400, 'VALIDATION_ERROR']);
      const tooMany = await staff.get(ourl('/ledger/partner-ledger')).query(`accountId=${a.clientes}&from=2025-01-01&to=2025-12-31&${Array.from({ length: 101 }, () => `partnerIds=${randomUUID()}`).join('&')}`);
      expect(tooMany.status).toBe(400);
    });
  });

  describe('partner ledger after edits of its lines', () => {
    let other: string;
    const ourl = (path: string) => `/api/entities/${other}${path}`;
    const a: Record<string, string> = {};
    const p: Record<string, string> = {};

    /** D56 from the raw lines: live lines of the account, openings before `from`, running balances in ledger order. */
    const fromRawLines = async (accountId: string, from: string, to: string, partners: Array<string | null>) => {
      const lines = await t.sql<{ id: string; entry_id: string; entry_date: string; memo: string; side: string; amount: number; allocated: number; partner_id: string | null }>(
        `SELECT l.id, l.entry_id, l.entry_date::text, e.memo, l.side, l.amount::int, l.allocated_amount::int AS allocated, l.partner_id
           FROM ledger_lines l JOIN ledger_entries e ON e.entity_id = l.entity_id AND e.id = l.entry_id
          WHERE l.entity_id = $1 AND l.account_id = $2 AND l.status IN ('active', 'reversed') AND l.entry_date <= $3
          ORDER BY l.entry_date, l.entry_id, l.id`,
        [other, accountId, to],
      );
      const names = new Map((await t.sql<{ id: string; name: string }>('SELECT id, name FROM partners WHERE entity_id = $1', [other])).map((n) => [n.id, n.name]));
      return partners.map((partnerId) => {
        const mine = lines.filter((l) => l.partner_id === partnerId);
        const openingBalance = mine.filter((l) => l.entry_date < from).reduce((sum, l) => sum + (l.side === 'debit' ? l.amount : -l.amount), 0);
        let running = openingBalance;
        const inRange = mine
          .filter((l) => l.entry_date >= from)
          .map((l) => {
            running += l.side === 'debit' ? l.amount : -l.amount;
            return { lineId: l.id, entryId: l.entry_id, entryDate: l.entry_date, memo: l.memo, side: l.side, amount: l.amount, runningBalance: running, openAmount: l.amount - l.allocated };
          });
        return { partnerId, partnerName: partnerId ? names.get(partnerId) : null, openingBalance, closingBalance: running, lines: inRange };
      });
    };

    beforeAll(async () => {
      other = (await createEntity(staff, world.organizationId)).id;
      const account = async (key: string, code: string, type: string, tracking = 'balance') => {
        a[key] = randomUUID();
        await staff.post(ourl('/ledger/accounts')).send({ id: a[key], code, name: key, type, tracking }).expect(201);
      };
      await account('caja', '1101', 'asset');
      await account('clientes', '1105', 'asset', 'open_item');
      await account('documentos', '1106', 'asset', 'open_item');
      await account('ventas', '4101', 'income');
      const partner = async (key: string, name: string, taxId: string) => {
        p[key] = randomUUID();
        await staff.post(ourl('/partners')).send({ id: p[key], name, type: 'company', country: 'CL', taxId }).expect(201);
      };
      await partner('alfa', 'Alfa SpA', '11.111.111-1');
      await partner('beta', 'Beta Ltda', '12.345.678-5');
      await partner('gamma', 'Gamma EIRL', '22.222.222-2');
      const entry = async (entryDate: string, lines: Array<Record<string, unknown>>) =>
        (await staff.post(ourl('/ledger/entries')).send({ id: randomUUID(), entryDate, memo: `Asiento ${entryDate}`, newLedgerEntryLines: lines }).expect(201)).body;
      const sale = (entryDate: string, amount: number, partnerId: string | null) =>
        entry(entryDate, [{ ledgerAccountId: a.clientes, side: 'debit', amount, partnerId }, { ledgerAccountId: a.ventas, side: 'credit', amount }]);

      const opening = await sale('2024-11-10', 500, p.alfa);
      const toGammaBefore = await sale('2024-12-05', 300, p.beta);
      await sale('2025-02-01', 200, p.alfa);
      const payment = await entry('2025-03-01', [{ ledgerAccountId: a.caja, side: 'debit', amount: 450 }, { ledgerAccountId: a.clientes, side: 'credit', amount: 450, partnerId: p.alfa }]);
      await staff.post(ourl('/ledger/allocations/match')).send({ lineIds: [opening.lines[0].id, payment.lines[1].id] }).expect(201);
      const reversed = await sale('2025-04-01', 120, p.beta);
      await staff.post(ourl(`/ledger/entries/${reversed.id}/reverse`)).send({ id: randomUUID(), reversalDate: '2025-04-10' }).expect(201);
      const unbooked = await sale('2025-05-01', 80, p.gamma);
      await staff.delete(ourl(`/ledger/entries/${unbooked.id}`)).expect(200);
      const moved = await sale('2025-06-01', 60, p.beta);
      await staff.patch(ourl(`/ledger/lines/${moved.lines[0].id}/account`)).send({ ledgerAccountId: a.documentos }).expect(200);
      await sale('2025-07-01', 33, null);
      const toBeta = await sale('2025-08-01', 70, p.gamma);
      await staff.patch(ourl(`/ledger/lines/${toBeta.lines[0].id}/partner`)).send({ partnerId: p.beta }).expect(200);
      await staff.patch(ourl(`/ledger/lines/${toGammaBefore.lines[0].id}/partner`)).send({ partnerId: p.gamma }).expect(200);
      await sale('2026-01-10', 999, p.alfa);
    });

    it('agrees with the raw lines after a match, a reversal, an unbooking and partner and account changes', async () => {
      const range = { from: '2025-01-01', to: '2025-12-31' };
      const res = await staff.get(ourl('/ledger/partner-ledger')).query({ accountId: a.clientes, ...range, includeUnassigned: 'true' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ accountId: a.clientes, ...range, currency: 'CLP', bookId: null, partners: await fromRawLines(a.clientes, range.from, range.to, [p.alfa, p.beta, p.gamma, null]) });
      // By hand: Alfa 500 + 200 - 450; Beta's 120 reversed, plus the 70 moved from Gamma; Gamma keeps the 300 moved from Beta before the range.
      expect(res.body.partners.map((g: { openingBalance: number; closingBalance: number }) => [g.openingBalance, g.closingBalance])).toEqual([
        [500, 250],
        [0, 70],
        [300, 300],
        [0, 33],
      ]);
      const chosen = await staff.get(ourl('/ledger/partner-ledger')).query(`accountId=${a.clientes}&from=${range.from}&to=${range.to}&partnerIds=${p.gamma}&partnerIds=${p.beta}`);
      expect(chosen.body.partners).toEqual(await fromRawLines(a.clientes, range.from, range.to, [p.beta, p.gamma]));
      const documentos = await staff.get(ourl('/ledger/partner-ledger')).query({ accountId: a.documentos, ...range });
      expect(documentos.body.partners).toEqual(await fromRawLines(a.documentos, range.from, range.to, [p.beta]));
      expect(documentos.body.partners[0].closingBalance).toBe(60);
    });

    it('leaves out a partner whose opening balance is zero and who has no line in the range, unless asked for by id (D56)', async () => {
      // 11 April to 31 May 2025: Beta's sale of 120 and its reversal net to 0 before the range, Gamma's sale in it was unbooked.
      const range = { from: '2025-04-11', to: '2025-05-31' };
      const res = await staff.get(ourl('/ledger/partner-ledger')).query({ accountId: a.clientes, ...range });
      expect(res.status).toBe(200);
      expect(res.body.partners).toEqual(await fromRawLines(a.clientes, range.from, range.to, [p.alfa, p.gamma]));
      const asked = await staff.get(ourl('/ledger/partner-ledger')).query(`accountId=${a.clientes}&from=${range.from}&to=${range.to}&partnerIds=${p.beta}`);
      expect(asked.body.partners).toEqual([{ partnerId: p.beta, partnerName: 'Beta Ltda', openingBalance: 0, closingBalance: 0, lines: [] }]);
    });

    it('answers 404 PARTNER_NOT_FOUND_ERROR for a partnerIds entry that is not a partner of the Entity', async () => {
      const elsewhere = randomUUID();
      const otherEntity = (await createEntity(staff, world.organizationId)).id;
      await staff.post(`/api/entities/${otherEntity}/partners`).send({ id: elsewhere, name: 'Delta', type: 'company', country: 'CL', taxId: '11.111.111-1' }).expect(201);
      for (const unknown of [randomUUID(), elsewhere]) {
        const res = await staff.get(ourl('/ledger/partner-ledger')).query(`accountId=${a.clientes}&from=2025-01-01&to=2025-12-31&partnerIds=${p.alfa}&partnerIds=${unknown}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ requestId: res.headers['x-request-id'], statusCode: 404, code: 'PARTNER_NOT_FOUND_ERROR', message: expect.any(String), params: { partnerId: unknown } });
      }
    });
  });

  describe('eight-column balance against a published Chilean worked example', () => {
    /*
     * "Ejercicio Clase 16 de Junio", balance de 8 columnas (Chilean accounting class exercise,
     * https://es.scribd.com/document/513054385): Caja, Banco, Mercadería, Capital, Costo de venta,
     * Arriendo, Gastos generales and Ventas, with sums of 5,500,000, a loss of 100,000 and totals
     * of 5,500,000 / 2,900,000 / 2,000,000 / 1,000,000. The entries below are one set of journal
     * entries that gives exactly the example's debe and haber sums.
     */
    it('matches the example column by column', async () => {
      const id = (await createEntity(staff, world.organizationId)).id;
      const a: Record<string, string> = {};
      for (const [key, code, type] of [
        ['caja', '1101', 'asset'],
        ['banco', '1102', 'asset'],
        ['mercaderia', '1201', 'asset'],
        ['capital', '3101', 'equity'],
        ['costo', '5101', 'cost_of_goods_sold'],
        ['arriendo', '5201', 'operating_expense'],
        ['gastos', '5202', 'operating_expense'],
        ['ventas', '4101', 'income'],
      ]) {
        a[key] = randomUUID();
        await staff.post(`/api/entities/${id}/ledger/accounts`).send({ id: a[key], code, name: key, type, tracking: 'balance' }).expect(201);
      }
      const entry = (date: string, debit: string, credit: string, amount: number) =>
        staff
          .post(`/api/entities/${id}/ledger/entries`)
          .send({ id: randomUUID(), entryDate: date, memo: `${debit} / ${credit}`, newLedgerEntryLines: [{ ledgerAccountId: a[debit], side: 'debit', amount }, { ledgerAccountId: a[credit], side: 'credit', amount }] })
          .expect(201);
      await entry('2025-06-01', 'caja', 'capital', 2_000_000);
      await entry('2025-06-02', 'banco', 'caja', 1_000_000);
      await entry('2025-06-03', 'mercaderia', 'banco', 600_000);
      await entry('2025-06-04', 'caja', 'ventas', 900_000);
      await entry('2025-06-04', 'costo', 'mercaderia', 300_000);
      await entry('2025-06-05', 'arriendo', 'caja', 100_000);
      await entry('2025-06-06', 'gastos', 'caja', 600_000);

      const res = await staff.get(`/api/entities/${id}/ledger/reports/eight-column-balance`).query({ exerciseStart: '2025-01-01', cutoffDate: '2025-12-31' });
      expect(res.status).toBe(200);
      const columns = (r: Record<string, number>) => [r.debit, r.credit, r.debtorBalance, r.creditorBalance, r.asset, r.liability, r.loss, r.profit];
      const byAccount = new Map(res.body.rows.map((r: { accountId: string }) => [r.accountId, r]));
      const expected: Record<string, number[]> = {
        caja: [2_900_000, 1_700_000, 1_200_000, 0, 1_200_000, 0, 0, 0],
        banco: [1_000_000, 600_000, 400_000, 0, 400_000, 0, 0, 0],
        mercaderia: [600_000, 300_000, 300_000, 0, 300_000, 0, 0, 0],
        capital: [0, 2_000_000, 0, 2_000_000, 0, 2_000_000, 0, 0],
        costo: [300_000, 0, 300_000, 0, 0, 0, 300_000, 0],
        arriendo: [100_000, 0, 100_000, 0, 0, 0, 100_000, 0],
        gastos: [600_000, 0, 600_000, 0, 0, 0, 600_000, 0],
        ventas: [0, 900_000, 0, 900_000, 0, 0, 0, 900_000],
      };
      for (const [key, values] of Object.entries(expected)) expect({ key, columns: columns(byAccount.get(a[key]) as Record<string, number>) }).toEqual({ key, columns: values });
      expect(res.body.rows).toHaveLength(8);
      expect(columns(res.body.subtotals)).toEqual([5_500_000, 5_500_000, 2_900_000, 2_900_000, 1_900_000, 2_000_000, 1_000_000, 900_000]);
      expect(res.body.result).toEqual({ kind: 'loss', amount: 100_000 });
      expect(columns(res.body.totals)).toEqual([5_500_000, 5_500_000, 2_900_000, 2_900_000, 2_000_000, 2_000_000, 1_000_000, 1_000_000]);
    });
  });

  describe('ranges that cut through months', () => {
    /** Each account's raw figures in one Book straight from the live lines: before `from`, and debits and credits from `from` to `to`. */
    const rawFigures = async (bookId: string, from: string, to: string) =>
      t.sql<{ id: string; code: string; name: string; type: string; opening: number; debit: number; credit: number; moved: number }>(
        `SELECT a.id, a.code, a.name, a.type,
                coalesce(sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END) FILTER (WHERE l.entry_date < $3), 0)::int AS opening,
                coalesce(sum(l.amount) FILTER (WHERE l.side = 'debit' AND l.entry_date BETWEEN $3 AND $4), 0)::int AS debit,
                coalesce(sum(l.amount) FILTER (WHERE l.side = 'credit' AND l.entry_date BETWEEN $3 AND $4), 0)::int AS credit,
                count(l.id) FILTER (WHERE l.entry_date BETWEEN $3 AND $4)::int AS moved
           FROM ledger_accounts a
           LEFT JOIN ledger_lines l ON l.entity_id = a.entity_id AND l.account_id = a.id AND l.status IN ('active', 'reversed') AND (l.book_id IS NULL OR l.book_id = $2)
          WHERE a.entity_id = $1 GROUP BY a.entity_id, a.id ORDER BY a.code`,
        [entityId, bookId, from, to],
      );
    const isResult = (type: string) => !['asset', 'liability', 'equity'].includes(type);
    const ranges = [
      ['2025-01-01', '2025-02-28'],
      ['2025-01-01', '2025-03-01'],
      ['2025-03-01', '2025-03-31'],
      ['2025-03-02', '2025-07-31'],
      ['2024-12-16', '2025-08-01'],
      ['2024-12-20', '2025-08-02'],
      ['2025-08-02', '2025-08-02'],
      ['2025-08-01', '2025-08-31'],
      ['2024-12-31', '2025-10-01'],
      ['2025-02-01', '2025-12-31'],
      ['2026-01-01', '2026-12-31'],
    ];

    it('shows an account whose balance is zero but moved in the range, and leaves out one that did not move (D50)', async () => {
      // August 2025: rent of 999 and its reversal the next day.
      const statement = await staff.get(url('/reports/income-statement')).query({ from: '2025-08-01', to: '2025-08-31', bookId: ifrs });
      expect(statement.body.operatingExpense).toEqual({
        total: 0,
        groups: [{ groupId: expect.any(String), codePrefix: '5', name: 'Gastos', total: 0, groups: [], accounts: [{ accountId: acc.arriendos, code: '5101', name: 'Arriendos', balance: 0 }] }],
        accounts: [],
      });
      expect(statement.body.income).toEqual({ total: 0, groups: [], accounts: [] });
      const eight = await staff.get(url('/ledger/reports/eight-column-balance')).query({ exerciseStart: '2025-08-01', cutoffDate: '2025-08-31', bookId: ifrs });
      expect(eight.body.rows.find((r: { accountId: string }) => r.accountId === acc.arriendos)).toMatchObject({ debit: 999, credit: 999, debtorBalance: 0, creditorBalance: 0, loss: 0, profit: 0 });
      expect(eight.body.rows.some((r: { accountId: string }) => r.accountId === acc.proveedores)).toBe(false);
    });

    it.each(ranges)('eight-column balance, balance sheet and income statement from %s to %s agree with the lines in both Books (D51, D52, D53)', async (exerciseStart, cutoffDate) => {
      for (const bookId of (await staff.get(url('/books'))).body.map((b: { id: string }) => b.id)) {
        const figures = await rawFigures(bookId, exerciseStart, cutoffDate);
        // D53 by hand: opening like an opening entry for balance-sheet accounts, period movements for Result Accounts, the prior result as one equity row.
        const rows: Array<Record<string, unknown>> = [];
        const columns = (debit: number, credit: number, result: boolean) => {
          const debtor = Math.max(debit - credit, 0);
          const creditor = Math.max(credit - debit, 0);
          return { debit, credit, debtorBalance: debtor, creditorBalance: creditor, asset: result ? 0 : debtor, liability: result ? 0 : creditor, loss: result ? debtor : 0, profit: result ? creditor : 0 };
        };
        let prior = 0;
        for (const f of figures) {
          const result = isResult(f.type);
          if (result) prior += f.opening;
          const debit = f.debit + (result ? 0 : Math.max(f.opening, 0));
          const credit = f.credit + (result ? 0 : Math.max(-f.opening, 0));
          if (debit !== 0 || credit !== 0) rows.push({ accountId: f.id, code: f.code, name: f.name, type: f.type, ...columns(debit, credit, result) });
        }
        if (prior !== 0) rows.push({ accountId: null, code: null, name: 'Prior periods result', type: 'equity', ...columns(Math.max(prior, 0), Math.max(-prior, 0), false) });
        const keys = ['debit', 'credit', 'debtorBalance', 'creditorBalance', 'asset', 'liability', 'loss', 'profit'];
        const subtotals = Object.fromEntries(keys.map((k) => [k, rows.reduce((sum, r) => sum + (r[k] as number), 0)]));
        const profit = subtotals.profit >= subtotals.loss;
        const amount = Math.abs(subtotals.profit - subtotals.loss);
        const totals = { ...subtotals, ...(profit ? { loss: subtotals.loss + amount, liability: subtotals.liability + amount } : { profit: subtotals.profit + amount, asset: subtotals.asset + amount }) };
        const eight = await staff.get(url('/ledger/reports/eight-column-balance')).query({ exerciseStart, cutoffDate, bookId });
        expect(eight.body).toEqual({ exerciseStart, cutoffDate, currency: 'CLP', bookId, presentation: null, rows, subtotals, result: { kind: profit ? 'profit' : 'loss', amount }, totals });

        // D51 by hand: balance-sheet accounts through the cut-off in their normal sign, shown when not zero or moved in the range.
        const sheet = await staff.get(url('/reports/balance-sheet')).query({ exerciseStart, cutoffDate, bookId });
        expect(sheet.status).toBe(200);
        const leaves = (section: { accounts: Array<{ accountId: string; balance: number }>; groups: unknown[] }): Array<[string, number]> => [
          ...(section.groups as Array<typeof section>).flatMap(leaves),
          ...section.accounts.map((x): [string, number] => [x.accountId, x.balance]),
        ];
        for (const [section, type, sign] of [['assets', 'asset', 1], ['liabilities', 'liability', -1], ['equity', 'equity', -1]] as const) {
          const expected = figures
            .filter((f) => f.type === type && (f.opening + f.debit - f.credit !== 0 || f.moved > 0))
            .map((f): [string, number] => [f.id, sign * (f.opening + f.debit - f.credit)]);
          expect({ section, leaves: leaves(sheet.body[section]).sort() }).toEqual({ section, leaves: expected.sort() });
        }
        const results = figures.filter((f) => isResult(f.type));
        expect(sheet.body.equity).toMatchObject({
          currentPeriodResult: results.reduce((sum, f) => sum + f.credit - f.debit, 0),
          priorPeriodsResult: 0 - results.reduce((sum, f) => sum + f.opening, 0),
        });
        expect(sheet.body.totals.assets).toBe(sheet.body.totals.liabilitiesAndEquity);

        // D52 by hand over the same range: each section's accounts in their normal sign, totals and results.
        const statement = await staff.get(url('/reports/income-statement')).query({ from: exerciseStart, to: cutoffDate, bookId });
        const total: Record<string, number> = {};
        for (const [section, type, sign] of [
          ['income', 'income', -1],
          ['costOfGoodsSold', 'cost_of_goods_sold', 1],
          ['operatingExpense', 'operating_expense', 1],
          ['otherIncome', 'other_income', -1],
          ['otherExpense', 'other_expense', 1],
        ] as const) {
          const expected = figures.filter((f) => f.type === type && (f.debit !== f.credit || f.moved > 0)).map((f): [string, number] => [f.id, sign * (f.debit - f.credit)]);
          expect({ section, leaves: leaves(statement.body[section]).sort() }).toEqual({ section, leaves: expected.sort() });
          total[section] = expected.reduce((sum, [, balance]) => sum + balance, 0);
          expect({ section, total: statement.body[section].total }).toEqual({ section, total: total[section] });
        }
        const grossProfit = total.income - total.costOfGoodsSold;
        const operatingResult = grossProfit - total.operatingExpense;
        expect(statement.body).toMatchObject({ grossProfit, operatingResult, netResult: operatingResult + total.otherIncome - total.otherExpense });
        expect(statement.body.netResult).toBe(sheet.body.equity.currentPeriodResult);
      }
    });

    it.each([
      ['2024-12-16', '2025-03-01'],
      ['2025-02-15', '2025-08-01'],
      ['2025-03-01', '2025-03-01'],
      ['2025-08-02', '2025-10-01'],
      ['2024-12-20', '2025-12-30'],
    ])('%s to %s: the totals and edge lines agree with a plain sum over the lines', async (from, to) => {
      const naive = async (account: string, where: string, values: unknown[]) =>
        (
          await t.sql<{ raw: string; n: number }>(
            `SELECT coalesce(sum(CASE side WHEN 'debit' THEN amount ELSE -amount END), 0)::text AS raw, count(*)::int AS n FROM ledger_lines
              WHERE entity_id = $1 AND account_id = $2 AND status IN ('active', 'reversed') AND (book_id IS NULL OR book_id = $3) AND ${where}`,
            [entityId, acc[account], ifrs, ...values],
          )
        )[0];
      const gl = await staff.get(url('/ledger/general-ledger')).query({ bookId: ifrs, accountId: acc.caja, from, to });
      const opening = await naive('caja', 'entry_date < $4', [from]);
      const range = await naive('caja', 'entry_date BETWEEN $4 AND $5', [from, to]);
      expect(gl.body).toMatchObject({ openingBalance: Number(opening.raw), closingBalance: Number(opening.raw) + Number(range.raw), lineCount: range.n });
      const statement = await staff.get(url('/reports/income-statement')).query({ bookId: ifrs, from, to });
      let net = 0;
      for (const account of ['ventas', 'otros', 'arriendos', 'costo', 'intereses']) net -= Number((await naive(account, 'entry_date BETWEEN $4 AND $5', [from, to])).raw);
      expect(statement.body.netResult).toBe(net);
    });
  });

  describe('ranges at the ends of the calendar', () => {
    it('answer 200 from 1000-01-01 and into December 9999 (a start late in December 9999 was a 500)', async () => {
      const dimensionId = randomUUID();
      await staff.post(url('/dimensions')).send({ id: dimensionId, name: 'Centro' }).expect(201);
      for (const [from, to] of [
        ['9999-12-15', '9999-12-31'],
        ['9999-12-02', '9999-12-30'],
        ['9999-11-30', '9999-12-31'],
        ['1000-01-01', '9999-12-31'],
        ['1000-01-01', '1000-01-01'],
      ]) {
        for (const [path, query] of [
          ['/reports/balance-sheet', { exerciseStart: from, cutoffDate: to }],
          ['/ledger/reports/eight-column-balance', { exerciseStart: from, cutoffDate: to }],
          ['/reports/income-statement', { from, to }],
          ['/reports/income-statement-by-dimension', { dimensionId, from, to }],
          ['/reports/journal', { from, to }],
          ['/ledger/general-ledger', { accountId: acc.caja, from, to }],
          ['/ledger/general-ledger', { accountId: acc.caja, from }],
          ['/ledger/partner-ledger', { accountId: acc.clientes, from, to }],
        ] as const) {
          const res = await staff.get(url(path)).query({ ...query, bookId: ifrs });
          expect({ path, query, status: res.status }).toEqual({ path, query, status: 200 });
        }
      }
      // Everything through 9999-12-31 is every live line of the IFRS Book: the balance sheet of 2025 plus
      // nothing later but the scheduled entry, which is not booked and so not counted.
      const all = await staff.get(url('/ledger/general-ledger')).query({ bookId: ifrs, accountId: acc.caja, from: '9999-12-15' });
      expect(all.body).toEqual({ lines: [], nextCursor: null, openingBalance: 1083, closingBalance: 1083, lineCount: 0 });
    });
  });

  describe('general ledger pages at any depth', () => {
    it('carries the running balance from inception through keys early and late in a month', async () => {
      const expected = await t.sql<{ id: string; running: string }>(
        `SELECT id, sum(CASE side WHEN 'debit' THEN amount ELSE -amount END) OVER (ORDER BY entry_date, entry_id, id)::text AS running
           FROM ledger_lines WHERE entity_id = $1 AND account_id = $2 AND status IN ('active', 'reversed') AND (book_id IS NULL OR book_id = $3)
          ORDER BY entry_date, entry_id, id`,
        [entityId, acc.caja, ifrs],
      );
      const seen: Array<{ lineId: string; runningBalance: number }> = [];
      let cursor: string | null = null;
      do {
        const res = await staff.get(url('/ledger/general-ledger')).query({ bookId: ifrs, accountId: acc.caja, limit: 1, ...(cursor ? { cursor } : {}) });
        seen.push(...res.body.lines);
        cursor = res.body.nextCursor;
      } while (cursor);
      expect(seen.map((l) => [l.lineId, l.runningBalance])).toEqual(expected.map((r) => [r.id, Number(r.running)]));
    });
  });

  describe('monthly totals', () => {
    it('equal the sums of live lines of every Entity', async () => {
      for (const { entity_id } of await t.sql<{ entity_id: string }>('SELECT DISTINCT entity_id FROM ledger_lines')) {
        await expectMonthlyTotalsMatchLines(t, entity_id);
      }
    });
  });

  describe('balances beyond bigint', () => {
    it('are summed exactly, never cast to bigint, and a figure JSON cannot hold exactly is 409 AMOUNT_OUT_OF_RANGE_ERROR naming it (D6a), not a 500', async () => {
      // 2 x 9e18 on one account: about 2,000 entries of the largest total, written here straight
      // into the monthly totals the reports read.
      const other = (await createEntity(staff, world.organizationId)).id;
      const cash = randomUUID();
      await staff.post(`/api/entities/${other}/ledger/accounts`).send({ id: cash, code: '1101', name: 'Caja', type: 'asset', tracking: 'balance' }).expect(201);
      for (const slot of [0, 1]) {
        await t.sql(
          `INSERT INTO ledger_account_monthly_totals (entity_id, account_id, book_key, month, slot, debit, credit, line_count)
           VALUES ($1, $2, '00000000-0000-0000-0000-000000000000', '2025-01-01', $3, 9000000000000000000, 0, 1000)`,
          [other, cash, slot],
        );
      }
      const base = `/api/entities/${other}`;
      for (const [path, query] of [
        ['/reports/balance-sheet', { exerciseStart: '2025-01-01', cutoffDate: '2025-12-31' }],
        ['/ledger/reports/eight-column-balance', { exerciseStart: '2025-01-01', cutoffDate: '2025-12-31' }],
        ['/ledger/general-ledger', { accountId: cash, from: '2025-06-01' }],
      ] as const) {
        const res = await staff.get(`${base}${path}`).query(query);
        expect({ path, status: res.status, code: res.body.code, field: typeof res.body.params?.field }).toEqual({ path, status: 409, code: 'AMOUNT_OUT_OF_RANGE_ERROR', field: 'string' });
      }
    });
  });

  describe('access', () => {
    it.each([
      ['balance sheet', { method: 'get' as const, path: (id: string) => `/api/entities/${id}/reports/balance-sheet?exerciseStart=2025-01-01&cutoffDate=2025-12-31` }],
      ['journal', { method: 'get' as const, path: (id: string) => `/api/entities/${id}/reports/journal` }],
      ['income statement', { method: 'get' as const, path: (id: string) => `/api/entities/${id}/reports/income-statement?from=2025-01-01&to=2025-12-31` }],
      [
        'income statement by dimension',
        { method: 'get' as const, path: (id: string) => `/api/entities/${id}/reports/income-statement-by-dimension?dimensionId=${randomUUID()}&from=2025-01-01&to=2025-12-31` },
      ],
      ['eight-column balance', { method: 'get' as const, path: (id: string) => `/api/entities/${id}/ledger/reports/eight-column-balance?exerciseStart=2025-01-01&cutoffDate=2025-12-31` }],
      ['general ledger', { method: 'get' as const, path: (id: string) => `/api/entities/${id}/ledger/general-ledger?accountId=${randomUUID()}` }],
      ['partner ledger', { method: 'get' as const, path: (id: string) => `/api/entities/${id}/ledger/partner-ledger?accountId=${randomUUID()}&from=2025-01-01&to=2025-12-31` }],
    ])('%s', async (_label, route) => {
      await checkAccessMatrix(t, world, route);
    });
  });
});
