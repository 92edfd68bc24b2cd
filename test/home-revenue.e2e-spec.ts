import { randomUUID } from 'node:crypto';
import { FixedClock } from '../src/platform/clock/clock';
import { checkAccessMatrix } from './harness/access-matrix';
import type { TestApp } from './harness/test-app';
import { Agent, createWorldApp, freshEntity, World } from './harness/world';

/**
 * Home (D81, D81a) and revenue realization (D82, D82a, D82b) on a small ledger whose every
 * figure was worked out by hand. Today is 2026-03-20 (Santiago). The Entity keeps two Books,
 * IFRS and Tax; entries without a Book are common.
 *
 *   E1  2025-12-01  Bank 1,000,000 / Equity                                   common
 *   E2  2026-01-15  AR #101: Receivable 1,190,000 / Sales 1,000,000, VAT 190,000   common
 *                   (service 2026-01-15..2026-03-14, 59 days; due 2026-02-14)
 *   E3  2026-02-10  Bank 500,000 / Receivable (settles #101)                   common
 *   E4  2026-03-05  Bank 300,000 / Receivable (settles #101)                   common
 *   E5  2026-03-01  AR #102: Receivable 288,000 / Sales 250,000 (net 200,000 + exempt 50,000), VAT 38,000; due 2026-04-30   common
 *   E6  2026-02-20  AP #7001: Rent 400,000 / Payable; due 2026-03-10           common
 *   E7  2026-03-18  COGS 60,000 / Card                                          common
 *   E8  2026-03-10  Bank 20,000 / Other income                                  IFRS
 *   E9  2026-03-11  Rent 7,000 / Equity                                         Tax
 *   E11 2026-02-01  AR #103: Receivable 119,000 / Sales 100,000, VAT 19,000; due 2026-03-03   Tax
 *   unbooked: AR #104, AP #7002; three bank movements, one booked (E3).
 * Invoices and the movement of E3 are booked through their routes (D62, D66).
 */
const NOW = new Date('2026-03-20T15:00:00Z');

describe('Home and revenue realization (D81, D81a, D82, D82a, D82b)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let entityId: string;
  const ids: Record<string, string> = {};
  const books = { ifrs: randomUUID(), tax: randomUUID() };

  const base = () => `/api/entities/${entityId}`;
  const post = async (path: string, body: Record<string, unknown>, status = 201) => {
    const res = await staff.post(`${base()}${path}`).send(body);
    expect({ path, status: res.status, body: res.status === status ? 'ok' : res.body }).toEqual({ path, status, body: 'ok' });
    return res.body;
  };
  const account = async (key: string, code: string, type: string, extra: Record<string, unknown> = {}) => {
    ids[key] = randomUUID();
    await post('/ledger/accounts', { id: ids[key], name: `${key} ${code}`, code, type, tracking: 'balance', ...extra });
  };
  type Line = [side: 'debit' | 'credit', accountKey: string, amount: number];
  const entry = async (key: string, entryDate: string, lines: Line[], bookId?: string) => {
    const body = await post('/ledger/entries', {
      id: randomUUID(),
      entryDate,
      memo: key,
      ...(bookId ? { bookId } : {}),
      newLedgerEntryLines: lines.map(([side, a, amount]) => ({ side, ledgerAccountId: ids[a], amount })),
    });
    ids[key] = body.id;
    return body as { id: string; lines: Array<{ id: string; ledgerAccountId: string }> };
  };
  const lineOn = (e: { lines: Array<{ id: string; ledgerAccountId: string }> }, accountKey: string) => e.lines.find((l) => l.ledgerAccountId === ids[accountKey])!.id;
  const invoice = async (key: string, body: Record<string, unknown>) => {
    ids[key] = randomUUID();
    await post('/invoices', { id: ids[key], partnerId: ids.partner, currency: 'CLP', exemptAmount: 0, taxAmount: 0, ...body });
  };
  /** Books an invoice through its route (D62): open item against the counter account and the tax account. */
  const book = async (invoiceKey: string, entryKey: string, body: Record<string, unknown>) => {
    ids[entryKey] = randomUUID();
    const res = await staff.post(`${base()}/invoices/${ids[invoiceKey]}/book`).send({ entryId: ids[entryKey], ...body });
    expect({ invoiceKey, status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ invoiceKey, status: 200, body: 'ok' });
    return res.body.entry as { id: string; lines: Array<{ id: string; ledgerAccountId: string }> };
  };
  /** Books a bank movement through its route (D66): bank against the counter account, dated the movement date. */
  const bookMovement = async (movementId: string, entryKey: string, counterAccountId: string) => {
    ids[entryKey] = randomUUID();
    const res = await staff.post(`${base()}/bank-movements/${movementId}/book`).send({ entryId: ids[entryKey], counterAccountId });
    expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
    return res.body.entry as { id: string; lines: Array<{ id: string; ledgerAccountId: string }> };
  };
  const allocate = (debitLineId: string, creditLineId: string, amount: number) => post('/ledger/allocations', { id: randomUUID(), debitLineId, creditLineId, amount });

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock: new FixedClock(NOW) }));
    entityId = await freshEntity(world);
    await post('/books', { id: books.ifrs, name: 'IFRS' });
    await post('/books', { id: books.tax, name: 'Tax' });
    await account('bank', '1101', 'asset');
    await account('card', '2101', 'liability');
    await account('receivable', '1201', 'asset', { tracking: 'open_item', subtype: 'receivable' });
    await account('payable', '2201', 'liability', { tracking: 'open_item', subtype: 'payable' });
    await account('vat', '2301', 'liability');
    await account('equity', '3101', 'equity');
    await account('sales', '4101', 'income');
    await account('otherIncome', '4201', 'other_income');
    await account('cogs', '5001', 'cost_of_goods_sold');
    await account('rent', '5101', 'operating_expense');
    ids.partner = randomUUID();
    await post('/partners', { id: ids.partner, name: 'Cliente Uno SpA', type: 'company', country: 'CL', taxId: '76.086.428-5' });
    ids.banco = randomUUID();
    await post('/bank-accounts', { id: ids.banco, name: 'Banco', kind: 'bank', ledgerAccountId: ids.bank, currency: 'CLP' });
    ids.tarjeta = randomUUID();
    await post('/bank-accounts', { id: ids.tarjeta, name: 'Tarjeta', kind: 'card', ledgerAccountId: ids.card, currency: 'CLP' });

    await entry('E1', '2025-12-01', [['debit', 'bank', 1_000_000], ['credit', 'equity', 1_000_000]]);
    await invoice('A', { direction: 'ar', documentKind: 'invoice', documentNumber: '101', issueDate: '2026-01-15', dueDate: '2026-02-14', netAmount: 1_000_000, taxAmount: 190_000, totalAmount: 1_190_000, servicePeriodStart: '2026-01-15', servicePeriodEnd: '2026-03-14' });
    const e2 = await book('A', 'E2', { counterAccountId: ids.sales, taxAccountId: ids.vat });
    const movement = async (movementDate: string, amount: number) => (await post(`/bank-accounts/${ids.banco}/movements`, { id: randomUUID(), movementDate, description: 'm', amount, side: 'debit' })).id as string;
    const e3 = await bookMovement(await movement('2026-02-10', 500_000), 'E3', ids.receivable);
    await allocate(lineOn(e2, 'receivable'), lineOn(e3, 'receivable'), 500_000);
    const e4 = await entry('E4', '2026-03-05', [['debit', 'bank', 300_000], ['credit', 'receivable', 300_000]]);
    await allocate(lineOn(e2, 'receivable'), lineOn(e4, 'receivable'), 300_000);
    await invoice('B', { direction: 'ar', documentKind: 'invoice', documentNumber: '102', issueDate: '2026-03-01', dueDate: '2026-04-30', netAmount: 200_000, exemptAmount: 50_000, taxAmount: 38_000, totalAmount: 288_000 });
    await book('B', 'E5', { counterAccountId: ids.sales, taxAccountId: ids.vat });
    await invoice('P', { direction: 'ap', documentKind: 'invoice', documentNumber: '7001', issueDate: '2026-02-20', dueDate: '2026-03-10', netAmount: 400_000, totalAmount: 400_000 });
    await book('P', 'E6', { counterAccountId: ids.rent });
    await entry('E7', '2026-03-18', [['debit', 'cogs', 60_000], ['credit', 'card', 60_000]]);
    await entry('E8', '2026-03-10', [['debit', 'bank', 20_000], ['credit', 'otherIncome', 20_000]], books.ifrs);
    await entry('E9', '2026-03-11', [['debit', 'rent', 7_000], ['credit', 'equity', 7_000]], books.tax);
    await invoice('C', { direction: 'ar', documentKind: 'invoice', documentNumber: '103', issueDate: '2026-02-01', dueDate: '2026-03-03', netAmount: 100_000, taxAmount: 19_000, totalAmount: 119_000 });
    await book('C', 'E11', { counterAccountId: ids.sales, taxAccountId: ids.vat, bookId: books.tax });
    await invoice('D', { direction: 'ar', documentKind: 'invoice', documentNumber: '104', issueDate: '2026-03-15', netAmount: 10_000, totalAmount: 10_000 });
    await invoice('Q', { direction: 'ap', documentKind: 'invoice', documentNumber: '7002', issueDate: '2026-03-16', netAmount: 5_000, totalAmount: 5_000 });
    await movement('2026-03-05', 300_000);
    await movement('2026-03-06', 1);
  });
  afterAll(() => t.close());

  const daily = (from: string, days: number, balance: number) =>
    Array.from({ length: days }, (_, i) => ({ date: new Date(Date.parse(`${from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10), balance }));

  it('home reads one Book: the exact figures of the IFRS Book', async () => {
    const res = await staff.get(`${base()}/reports/home`).query({ bookId: books.ifrs });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      currency: 'CLP',
      bookId: books.ifrs,
      // D78 balances are of live common entries: the IFRS entry E8 on the bank is not cash here.
      cashPosition: {
        total: 1_800_000,
        accounts: [
          { bankAccountId: ids.banco, name: 'Banco', kind: 'bank', currency: 'CLP', balance: 1_800_000 },
          { bankAccountId: ids.tarjeta, name: 'Tarjeta', kind: 'card', currency: 'CLP', balance: 60_000 },
        ],
      },
      dailyBalances: [...daily('2026-01-20', 21, 1_000_000), ...daily('2026-02-10', 23, 1_500_000), ...daily('2026-03-05', 16, 1_800_000)],
      monthlyIncome: [
        { month: '2025-10', income: 0, expenses: 0, result: 0 },
        { month: '2025-11', income: 0, expenses: 0, result: 0 },
        { month: '2025-12', income: 0, expenses: 0, result: 0 },
        { month: '2026-01', income: 1_000_000, expenses: 0, result: 1_000_000 },
        { month: '2026-02', income: 0, expenses: 400_000, result: -400_000 },
        { month: '2026-03', income: 270_000, expenses: 60_000, result: 210_000 },
      ],
      receivables: { open: 678_000, overdue: 390_000 },
      payables: { open: 400_000, overdue: 400_000 },
      unbookedInvoices: { ar: 1, ap: 1 },
      unreconciledMovements: 2,
    });
    expect(res.body.dailyBalances).toHaveLength(60);
  });

  it('home in the Tax Book counts its own entries and invoices instead', async () => {
    const res = await staff.get(`${base()}/reports/home`).query({ bookId: books.tax });
    expect(res.status).toBe(200);
    expect(res.body.monthlyIncome.slice(4)).toEqual([
      { month: '2026-02', income: 100_000, expenses: 400_000, result: -300_000 },
      { month: '2026-03', income: 250_000, expenses: 67_000, result: 183_000 },
    ]);
    expect(res.body.receivables).toEqual({ open: 797_000, overdue: 509_000 });
    expect(res.body.cashPosition.total).toBe(1_800_000);
  });

  it("home follows a booked invoice's new due date (D61): #102 made overdue, then due again", async () => {
    const receivables = async () => (await staff.get(`${base()}/reports/home`).query({ bookId: books.ifrs }).expect(200)).body.receivables;
    await staff.patch(`${base()}/invoices/${ids.B}`).send({ dueDate: '2026-03-01' }).expect(200);
    expect(await receivables()).toEqual({ open: 678_000, overdue: 678_000 });
    await staff.patch(`${base()}/invoices/${ids.B}`).send({ dueDate: '2026-04-30' }).expect(200);
    expect(await receivables()).toEqual({ open: 678_000, overdue: 390_000 });
  });

  it('home follows the Books rule: 409 BOOK_REQUIRED_ERROR without a Book, 404 for a Book of nobody, 400 for an unknown parameter', async () => {
    const none = await staff.get(`${base()}/reports/home`);
    expect([none.status, none.body.code]).toEqual([409, 'BOOK_REQUIRED_ERROR']);
    const missing = await staff.get(`${base()}/reports/home`).query({ bookId: randomUUID() });
    expect([missing.status, missing.body.code]).toEqual([404, 'BOOK_NOT_FOUND_ERROR']);
    const extra = await staff.get(`${base()}/reports/home`).query({ bookId: books.ifrs, from: '2026-01-01' });
    expect([extra.status, extra.body.code]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('home of an empty Entity is all zeros, 60 days and 6 months long', async () => {
    const empty = await freshEntity(world);
    const res = await staff.get(`/api/entities/${empty}/reports/home`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ bookId: null, cashPosition: { total: 0, accounts: [] }, receivables: { open: 0, overdue: 0 }, payables: { open: 0, overdue: 0 }, unbookedInvoices: { ar: 0, ap: 0 }, unreconciledMovements: 0 });
    expect(res.body.dailyBalances).toEqual(daily('2026-01-20', 60, 0));
    expect(res.body.monthlyIncome.map((m: { month: string }) => m.month)).toEqual(['2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03']);
  });

  it('revenue realization spreads #101 by day over January to March and adds up exactly', async () => {
    const res = await staff.get(`${base()}/reports/revenue-realization`).query({ bookId: books.ifrs, from: '2026-01-01', to: '2026-03-31' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      from: '2026-01-01',
      to: '2026-03-31',
      currency: 'CLP',
      bookId: books.ifrs,
      presentation: null,
      totals: { recognized: 1_250_000, billed: 1_250_000, collected: 800_000, outstanding: 678_000 },
      months: [
        // floor(1,000,000 × 17 / 59) = 288,135; floor(1,000,000 × 45 / 59) = 762,711.
        { month: '2026-01', from: '2026-01-01', to: '2026-01-31', recognized: 288_135, billed: 1_000_000, collected: 0, outstanding: 1_190_000 },
        { month: '2026-02', from: '2026-02-01', to: '2026-02-28', recognized: 474_576, billed: 0, collected: 500_000, outstanding: 690_000 },
        { month: '2026-03', from: '2026-03-01', to: '2026-03-31', recognized: 487_289, billed: 250_000, collected: 300_000, outstanding: 678_000 },
      ],
      invoices: [
        { invoiceId: ids.A, documentKind: 'invoice', documentNumber: '101', partnerId: ids.partner, issueDate: '2026-01-15', servicePeriodStart: '2026-01-15', servicePeriodEnd: '2026-03-14', revenueAmount: 1_000_000, recognized: 1_000_000, billed: 1_000_000, collected: 800_000, outstanding: 390_000 },
        { invoiceId: ids.B, documentKind: 'invoice', documentNumber: '102', partnerId: ids.partner, issueDate: '2026-03-01', servicePeriodStart: '2026-03-01', servicePeriodEnd: '2026-03-01', revenueAmount: 250_000, recognized: 250_000, billed: 250_000, collected: 0, outstanding: 288_000 },
      ],
      nextInvoiceCursor: null,
    });
  });

  it('revenue realization pages its invoice rows (D82c): totals and months cover every invoice whatever the page', async () => {
    const path = `${base()}/reports/revenue-realization`;
    const range = { bookId: books.ifrs, from: '2026-01-01', to: '2026-03-31' };
    const whole = (await staff.get(path).query(range).expect(200)).body;
    const first = (await staff.get(path).query({ ...range, invoiceLimit: 1 }).expect(200)).body;
    expect(first.invoices.map((i: { invoiceId: string }) => i.invoiceId)).toEqual([ids.A]);
    expect(first.nextInvoiceCursor).toEqual(expect.any(String));
    expect({ totals: first.totals, months: first.months }).toEqual({ totals: whole.totals, months: whole.months });
    const second = (await staff.get(path).query({ ...range, invoiceLimit: 1, invoiceCursor: first.nextInvoiceCursor }).expect(200)).body;
    expect(second.invoices).toEqual([whole.invoices[1]]);
    expect(second.nextInvoiceCursor).toBeNull();
    expect({ totals: second.totals, months: second.months }).toEqual({ totals: whole.totals, months: whole.months });
    // Exactly a page: the list is complete, no cursor.
    expect((await staff.get(path).query({ ...range, invoiceLimit: 2 }).expect(200)).body.nextInvoiceCursor).toBeNull();
    for (const bad of [{ invoiceLimit: 0 }, { invoiceLimit: 1001 }, { invoiceLimit: 'x' }, { invoiceCursor: 'bm90LWEtY3Vyc29y' }, { invoiceCursor: '***' }]) {
      const res = await staff.get(path).query({ ...range, ...bad });
      expect({ bad, status: res.status, code: res.body.code }).toEqual({ bad, status: 400, code: 'VALIDATION_ERROR' });
    }
    expect((await staff.get(path).query({ ...range, invoiceLimit: 1000 }).expect(200)).body.invoices).toHaveLength(2);
  });

  it('revenue realization counts only the days inside the range; the first and last month rows are cut (D82b)', async () => {
    const res = await staff.get(`${base()}/reports/revenue-realization`).query({ bookId: books.ifrs, from: '2026-02-15', to: '2026-03-10' });
    expect(res.status).toBe(200);
    expect(res.body.months).toEqual([
      // through 28 Feb (day 45) 762,711 minus through 14 Feb (day 31) 525,423.
      { month: '2026-02', from: '2026-02-15', to: '2026-02-28', recognized: 237_288, billed: 0, collected: 0, outstanding: 690_000 },
      // through 10 Mar (day 55) 932,203 minus 762,711; plus #102 whole on 1 March.
      { month: '2026-03', from: '2026-03-01', to: '2026-03-10', recognized: 419_492, billed: 250_000, collected: 300_000, outstanding: 678_000 },
    ]);
    expect(res.body.totals).toEqual({ recognized: 656_780, billed: 250_000, collected: 300_000, outstanding: 678_000 });
  });

  it('revenue realization in a presentation currency converts each invoice-month once, so every row adds up', async () => {
    const res = await staff.get(`${base()}/reports/revenue-realization`).query({ bookId: books.ifrs, from: '2026-01-01', to: '2026-03-31', presentationCurrency: 'USD', presentationRate: '0.00105' });
    expect(res.status).toBe(200);
    expect(res.body.presentation).toEqual({ currency: 'USD', rate: '0.00105' });
    // round_half_up(x × 0.00105 × 100) per cell: 288,135 → 30,254; 474,576 → 49,830; 237,289 → 24,915; 250,000 → 26,250.
    expect(res.body.months.map(({ month, recognized, billed, collected, outstanding }: Record<string, unknown>) => ({ month, recognized, billed, collected, outstanding }))).toEqual([
      { month: '2026-01', recognized: 30_254, billed: 105_000, collected: 0, outstanding: 124_950 },
      { month: '2026-02', recognized: 49_830, billed: 0, collected: 52_500, outstanding: 72_450 },
      { month: '2026-03', recognized: 51_165, billed: 26_250, collected: 31_500, outstanding: 71_190 },
    ]);
    expect(res.body.totals).toEqual({ recognized: 131_249, billed: 131_250, collected: 84_000, outstanding: 71_190 });
    expect(res.body.invoices.map(({ revenueAmount, recognized, billed, collected, outstanding }: Record<string, unknown>) => ({ revenueAmount, recognized, billed, collected, outstanding }))).toEqual([
      { revenueAmount: 105_000, recognized: 104_999, billed: 105_000, collected: 84_000, outstanding: 40_950 },
      { revenueAmount: 26_250, recognized: 26_250, billed: 26_250, collected: 0, outstanding: 30_240 },
    ]);
  });

  it('revenue realization in the Tax Book shows #103 instead of nothing from IFRS', async () => {
    const res = await staff.get(`${base()}/reports/revenue-realization`).query({ bookId: books.tax, from: '2026-02-01', to: '2026-02-28' });
    expect(res.body.invoices.map((i: { documentNumber: string }) => i.documentNumber)).toEqual(['101', '103']);
    expect(res.body.totals).toEqual({ recognized: 474_576 + 100_000, billed: 100_000, collected: 500_000, outstanding: 690_000 + 119_000 });
  });

  it('refuses a bad range or presentation pair with 400 VALIDATION_ERROR and a missing Book with 409', async () => {
    const path = `${base()}/reports/revenue-realization`;
    for (const query of [
      { bookId: books.ifrs, from: '2026-03-01', to: '2026-02-28' },
      { bookId: books.ifrs, from: '2026-03-01' },
      { bookId: books.ifrs, from: '2000-01-01', to: '2026-01-01' },
      { bookId: books.ifrs, from: '2026-01-01', to: '2026-01-31', presentationCurrency: 'USD' },
      { bookId: books.ifrs, from: '2026-01-01', to: '2026-01-31', presentationCurrency: 'USD', presentationRate: '-1' },
    ]) {
      const res = await staff.get(path).query(query);
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'VALIDATION_ERROR' });
    }
    const noBook = await staff.get(path).query({ from: '2026-01-01', to: '2026-01-31' });
    expect([noBook.status, noBook.body.code]).toEqual([409, 'BOOK_REQUIRED_ERROR']);
  });

  it('refuses a figure past the exact range of a JSON number with 409 AMOUNT_OUT_OF_RANGE_ERROR (D6a), never an inexact one', async () => {
    // 1,000,000 CLP at 999,999,999,999 USD per CLP is 10^20 cents.
    const res = await staff.get(`${base()}/reports/revenue-realization`).query({ bookId: books.ifrs, from: '2026-01-01', to: '2026-03-31', presentationCurrency: 'USD', presentationRate: '999999999999' });
    expect([res.status, res.body.code]).toEqual([409, 'AMOUNT_OUT_OF_RANGE_ERROR']);
    expect(res.body.params.field).toEqual(expect.any(String));
  });

  it('GET /reports/home goes through the access matrix', () => checkAccessMatrix(t, world, { method: 'get', path: (id) => `/api/entities/${id}/reports/home` }));
  it('GET /reports/revenue-realization goes through the access matrix', () =>
    checkAccessMatrix(t, world, { method: 'get', path: (id) => `/api/entities/${id}/reports/revenue-realization?from=2026-01-01&to=2026-01-31` }));
});
