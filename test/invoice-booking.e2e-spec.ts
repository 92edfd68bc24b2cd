import { entityRowLockSql } from '../src/modules/entities';
import { randomUUID } from 'node:crypto';
import type { Client } from 'pg';
import type { Test } from 'supertest';
import { checkAccessMatrix } from './harness/access-matrix';
import { expectAudited, expectLineTotalsMatchLines, expectMonthlyTotalsMatchLines, expectRefused, whileRowLocked, whileTableLocked } from './harness/db-checks';
import type { TestApp } from './harness/test-app';
import { Agent, createLedgerAccount, createWorldApp, freshEntity, World } from './harness/world';

const PARTNER_RUT = '96874030-K';
const TABLES = ['invoices', 'invoice_severed_bookings', 'ledger_entries', 'ledger_lines', 'ledger_line_dimension_values', 'reconciliation_allocations', 'audit_trail'];

interface Chart {
  entityId: string;
  partnerId: string;
  receivable: string;
  payable: string;
  income: string;
  expense: string;
  vatDebit: string;
  vatCredit: string;
  cash: string;
}

describe('Invoice booking (D62, D64)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp());
  });
  afterAll(() => t.close());

  const invoicesPath = (entityId: string, suffix = '') => `/api/entities/${entityId}/invoices${suffix}`;
  const refused = (req: Test, status: number, code: string) => expectRefused(t, TABLES, req, status, code);

  /** An Entity with a receivable, a payable, income, expense, VAT accounts and a partner whose default purchase account is the expense. */
  const setup = async (): Promise<Chart> => {
    const entityId = await freshEntity(world);
    const account = (code: string, type: string, tracking: string, subtype: string | null = null) => createLedgerAccount(staff, entityId, { code, type, tracking, subtype });
    const chart = {
      entityId,
      receivable: await account('1105', 'asset', 'open_item', 'receivable'),
      payable: await account('2105', 'liability', 'open_item', 'payable'),
      income: await account('4101', 'income', 'balance'),
      expense: await account('5101', 'operating_expense', 'balance'),
      vatDebit: await account('2110', 'liability', 'balance'),
      vatCredit: await account('1110', 'asset', 'balance'),
      cash: await account('1101', 'asset', 'balance'),
    };
    const partnerId = randomUUID();
    await staff
      .post(`/api/entities/${entityId}/partners`)
      .send({ id: partnerId, name: 'Comercial Ñuble Ltda.', type: 'company', country: 'CL', taxId: PARTNER_RUT, defaultPurchaseAccountId: chart.expense })
      .expect(201);
    return { ...chart, partnerId };
  };

  const createInvoice = async (c: Chart, overrides: Record<string, unknown> = {}) => {
    const res = await staff.post(invoicesPath(c.entityId)).send({
      id: randomUUID(),
      direction: 'ar',
      documentKind: 'invoice',
      documentNumber: String(Math.floor(Math.random() * 1e9)),
      issueDate: '2026-06-10',
      partnerId: c.partnerId,
      currency: 'CLP',
      netAmount: 100000,
      exemptAmount: 0,
      taxAmount: 19000,
      totalAmount: 119000,
      ...overrides,
    });
    expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ status: 201, body: null });
    return res.body as { id: string; documentNumber: string };
  };

  const book = (c: Chart, invoiceId: string, body: Record<string, unknown> = {}) => staff.post(invoicesPath(c.entityId, `/${invoiceId}/book`)).send({ entryId: randomUUID(), ...body });

  /** The entry's lines as [side, account, amount, trio, partner] in line order. */
  const linesOf = (entry: { lines: Array<Record<string, unknown>> }) =>
    entry.lines.map((l) => [l.side, l.ledgerAccountId, l.amount, l.transactionCurrency ? [l.transactionCurrency, l.transactionAmount, l.exchangeRate] : null, l.partnerId]);

  it('POST /invoices/:invoiceId/book: access matrix', async () => {
    const receivable = await createLedgerAccount(staff, world.entityId, { code: `1199${Math.floor(Math.random() * 100)}`, type: 'asset', tracking: 'open_item' });
    const income = await createLedgerAccount(staff, world.entityId, { code: `4199${Math.floor(Math.random() * 100)}`, type: 'income', tracking: 'balance' });
    const partnerId = randomUUID();
    await staff.post(`/api/entities/${world.entityId}/partners`).send({ id: partnerId, name: 'M', type: 'company', country: 'CL', taxId: '12345678-5' }).expect(201);
    await checkAccessMatrix(t, world, {
      method: 'post',
      path: (e) => invoicesPath(e, `/${randomUUID()}/book`),
      body: () => ({ entryId: randomUUID(), counterAccountId: income, openItemAccountId: receivable, partnerId }),
    });
  });

  it('books an AR invoice: debit receivable for the total, credit income for net + exempt, credit VAT for the tax; 200 { invoice, entry }, audited', async () => {
    const c = await setup();
    const invoice = await createInvoice(c, { netAmount: 100000, exemptAmount: 5000, taxAmount: 19000, totalAmount: 124000 });
    const entryId = randomUUID();
    const res = await expectAudited(t, book(c, invoice.id, { entryId, counterAccountId: c.income, taxAccountId: c.vatDebit }), 200, {
      action: 'invoice.book',
      resource_type: 'invoice',
      resource_id: invoice.id,
    });
    expect(res.body.invoice).toMatchObject({ id: invoice.id, bookStatus: 'booked', ledgerEntryId: entryId });
    expect(res.body.entry).toMatchObject({ id: entryId, source: 'invoice', status: 'active', entryDate: '2026-06-10', bookId: null, memo: `Invoice ${invoice.documentNumber} Comercial Ñuble Ltda.` });
    expect(linesOf(res.body.entry)).toEqual([
      ['debit', c.receivable, 124000, null, c.partnerId],
      ['credit', c.income, 105000, null, c.partnerId],
      ['credit', c.vatDebit, 19000, null, c.partnerId],
    ]);
    expect(res.body.entry.lines[0].openAmount).toBe(124000);
    // The detail shows the entry; the entry's detail shows the invoice.
    const detail = await staff.get(invoicesPath(c.entityId, `/${invoice.id}`)).expect(200);
    expect(detail.body.entry).toMatchObject({ id: entryId, lines: expect.any(Array) });
    const entry = await staff.get(`/api/entities/${c.entityId}/ledger/entries/${entryId}`).expect(200);
    expect(entry.body.relatedInvoices).toEqual([{ id: invoice.id, direction: 'ar', documentKind: 'invoice', documentNumber: invoice.documentNumber, partnerName: 'Comercial Ñuble Ltda.' }]);
  });

  it("books an AP invoice on the partner's default purchase account: debit expense and VAT credit, credit payable", async () => {
    const c = await setup();
    const invoice = await createInvoice(c, { direction: 'ap' });
    const res = await book(c, invoice.id, { taxAccountId: c.vatCredit, entryDate: '2026-06-12', memo: 'Compra junio' }).expect(200);
    expect(res.body.entry).toMatchObject({ entryDate: '2026-06-12', memo: 'Compra junio' });
    expect(linesOf(res.body.entry)).toEqual([
      ['credit', c.payable, 119000, null, c.partnerId],
      ['debit', c.expense, 100000, null, c.partnerId],
      ['debit', c.vatCredit, 19000, null, c.partnerId],
    ]);
  });

  it('books an AR credit note with the sides swapped, and an AP credit note likewise', async () => {
    const c = await setup();
    const ar = await createInvoice(c, { documentKind: 'credit_note', netAmount: 10000, taxAmount: 1900, totalAmount: 11900 });
    const res = await book(c, ar.id, { counterAccountId: c.income, taxAccountId: c.vatDebit }).expect(200);
    expect(linesOf(res.body.entry)).toEqual([
      ['credit', c.receivable, 11900, null, c.partnerId],
      ['debit', c.income, 10000, null, c.partnerId],
      ['debit', c.vatDebit, 1900, null, c.partnerId],
    ]);
    const ap = await createInvoice(c, { direction: 'ap', documentKind: 'credit_note', netAmount: 10000, taxAmount: 1900, totalAmount: 11900 });
    const apRes = await book(c, ap.id, { taxAccountId: c.vatCredit }).expect(200);
    expect(linesOf(apRes.body.entry)).toEqual([
      ['debit', c.payable, 11900, null, c.partnerId],
      ['credit', c.expense, 10000, null, c.partnerId],
      ['credit', c.vatCredit, 1900, null, c.partnerId],
    ]);
  });

  it('books a debit note like an invoice and an exempt invoice without a tax line (no taxAccountId needed)', async () => {
    const c = await setup();
    const debitNote = await createInvoice(c, { documentKind: 'debit_note', netAmount: 2000, taxAmount: 380, totalAmount: 2380 });
    expect(linesOf((await book(c, debitNote.id, { counterAccountId: c.income, taxAccountId: c.vatDebit }).expect(200)).body.entry)).toEqual([
      ['debit', c.receivable, 2380, null, c.partnerId],
      ['credit', c.income, 2000, null, c.partnerId],
      ['credit', c.vatDebit, 380, null, c.partnerId],
    ]);
    const exempt = await createInvoice(c, { documentKind: 'exempt_invoice', netAmount: 0, exemptAmount: 50000, taxAmount: 0, totalAmount: 50000 });
    expect(linesOf((await book(c, exempt.id, { counterAccountId: c.income }).expect(200)).body.entry)).toEqual([
      ['debit', c.receivable, 50000, null, c.partnerId],
      ['credit', c.income, 50000, null, c.partnerId],
    ]);
  });

  it('books a foreign-currency invoice with the trio on every line, each amount converted by D7', async () => {
    const c = await setup();
    // USD cents at 950.5 CLP per USD: 100.00 -> 95050, 19.00 -> 18059.5 -> 18060, 119.00 -> 113109.5 -> 113110.
    const usd = await createInvoice(c, { currency: 'USD', exchangeRate: '950.5', netAmount: 10000, taxAmount: 1900, totalAmount: 11900 });
    const res = await book(c, usd.id, { counterAccountId: c.income, taxAccountId: c.vatDebit }).expect(200);
    expect(linesOf(res.body.entry)).toEqual([
      ['debit', c.receivable, 113110, ['USD', 11900, '950.5'], c.partnerId],
      ['credit', c.income, 95050, ['USD', 10000, '950.5'], c.partnerId],
      ['credit', c.vatDebit, 18060, ['USD', 1900, '950.5'], c.partnerId],
    ]);
    // Where the total and its parts round apart (0.02 -> 19, 0.01 -> 10 twice), the open item is written per part.
    const tiny = await createInvoice(c, { currency: 'USD', exchangeRate: '950.5', netAmount: 1, taxAmount: 1, totalAmount: 2 });
    const split = await book(c, tiny.id, { counterAccountId: c.income, taxAccountId: c.vatDebit }).expect(200);
    expect(linesOf(split.body.entry)).toEqual([
      ['debit', c.receivable, 10, ['USD', 1, '950.5'], c.partnerId],
      ['debit', c.receivable, 10, ['USD', 1, '950.5'], c.partnerId],
      ['credit', c.income, 10, ['USD', 1, '950.5'], c.partnerId],
      ['credit', c.vatDebit, 10, ['USD', 1, '950.5'], c.partnerId],
    ]);
  });

  it('puts dimension values on the counter line, another partner on every line, and the entry in the Book named', async () => {
    const c = await setup();
    const dimensionId = randomUUID();
    await staff.post(`/api/entities/${c.entityId}/dimensions`).send({ id: dimensionId, name: 'Centro de costo' }).expect(201);
    const valueId = randomUUID();
    await staff.post(`/api/entities/${c.entityId}/dimensions/${dimensionId}/values`).send({ id: valueId, code: 'SANT', name: 'Santiago' }).expect(201);
    const bookId = randomUUID();
    await staff.post(`/api/entities/${c.entityId}/books`).send({ id: bookId, name: 'IFRS' }).expect(201);
    const other = randomUUID();
    await staff.post(`/api/entities/${c.entityId}/partners`).send({ id: other, name: 'Otro', type: 'company', country: 'CL', taxId: '77879240-0' }).expect(201);
    const invoice = await createInvoice(c);
    const res = await book(c, invoice.id, { counterAccountId: c.income, taxAccountId: c.vatDebit, dimensionValueIds: [valueId], partnerId: other, bookId }).expect(200);
    expect(res.body.entry.bookId).toBe(bookId);
    expect(res.body.entry.lines.map((l: { dimensionValues: Array<{ id: string }>; partnerId: string }) => [l.dimensionValues.map((v) => v.id), l.partnerId])).toEqual([
      [[], other],
      [[valueId], other],
      [[], other],
    ]);
  });

  describe('refusals write nothing', () => {
    it('404 INVOICE_NOT_FOUND_ERROR, 409 INVOICE_ALREADY_BOOKED_ERROR', async () => {
      const c = await setup();
      await refused(book(c, randomUUID(), { counterAccountId: c.income, taxAccountId: c.vatDebit }), 404, 'INVOICE_NOT_FOUND_ERROR');
      const invoice = await createInvoice(c);
      await book(c, invoice.id, { counterAccountId: c.income, taxAccountId: c.vatDebit }).expect(200);
      await refused(book(c, invoice.id, { counterAccountId: c.income, taxAccountId: c.vatDebit }), 409, 'INVOICE_ALREADY_BOOKED_ERROR');
    });

    it('400 INVOICE_COUNTER_ACCOUNT_REQUIRED_ERROR (AR without one; AP whose partner has no default), 400 INVOICE_TAX_ACCOUNT_REQUIRED_ERROR', async () => {
      const c = await setup();
      const ar = await createInvoice(c);
      await refused(book(c, ar.id, { taxAccountId: c.vatDebit }), 400, 'INVOICE_COUNTER_ACCOUNT_REQUIRED_ERROR');
      await refused(book(c, ar.id, { counterAccountId: c.income }), 400, 'INVOICE_TAX_ACCOUNT_REQUIRED_ERROR');
      await staff.patch(`/api/entities/${c.entityId}/partners/${c.partnerId}`).send({ defaultPurchaseAccountId: null }).expect(200);
      const ap = await createInvoice(c, { direction: 'ap' });
      await refused(book(c, ap.id, { taxAccountId: c.vatCredit }), 400, 'INVOICE_COUNTER_ACCOUNT_REQUIRED_ERROR');
    });

    it('400 VALIDATION_ERROR when no single receivable account is the default, and for a bad body', async () => {
      const c = await setup();
      await createLedgerAccount(staff, c.entityId, { code: '1106', type: 'asset', tracking: 'open_item', subtype: 'receivable' });
      const invoice = await createInvoice(c);
      const res = await refused(book(c, invoice.id, { counterAccountId: c.income, taxAccountId: c.vatDebit }), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors[0].path).toBe('openItemAccountId');
      for (const body of [{ entryId: 'x' }, { entryDate: '2026-02-30' }, { dimensionValueIds: 'x' }, { bookId: 1 }, { counterAccountId: c.income, extra: 1 }]) {
        await refused(staff.post(invoicesPath(c.entityId, `/${invoice.id}/book`)).send({ entryId: randomUUID(), ...body }), 400, 'VALIDATION_ERROR');
      }
    });

    it("404 for an account, partner or Book of another Entity; 409 for a reused entry id, a locked period or a future date", async () => {
      const c = await setup();
      const other = await setup();
      const invoice = await createInvoice(c);
      const ok = { counterAccountId: c.income, taxAccountId: c.vatDebit };
      await refused(book(c, invoice.id, { ...ok, counterAccountId: other.income }), 404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR');
      await refused(book(c, invoice.id, { ...ok, partnerId: other.partnerId }), 404, 'PARTNER_NOT_FOUND_ERROR');
      const otherBook = randomUUID();
      await staff.post(`/api/entities/${other.entityId}/books`).send({ id: otherBook, name: 'Other' }).expect(201);
      await refused(book(c, invoice.id, { ...ok, bookId: otherBook }), 404, 'BOOK_NOT_FOUND_ERROR');
      const manual = randomUUID();
      await staff
        .post(`/api/entities/${c.entityId}/ledger/entries`)
        .send({ id: manual, entryDate: '2026-06-01', memo: 'm', newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: c.cash, amount: 1 }, { side: 'credit', ledgerAccountId: c.income, amount: 1 }] })
        .expect(201);
      await refused(book(c, invoice.id, { ...ok, entryId: manual }), 409, 'LEDGER_ENTRY_ALREADY_EXISTS_ERROR');
      await refused(book(c, invoice.id, { ...ok, entryDate: '2999-01-01' }), 409, 'LEDGER_ENTRY_DATE_IN_FUTURE_ERROR');
      await staff.patch(`/api/entities/${c.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-06-30' }).expect(200);
      await refused(book(c, invoice.id, ok), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
    });

    it('a booking is judged on the facts as they are, not as the last booking naming the same accounts found them (lock date moved, a Book added)', async () => {
      const c = await setup();
      const ok = { counterAccountId: c.income, taxAccountId: c.vatDebit };
      // The ledger remembers the facts of this posting's accounts and partner...
      await book(c, (await createInvoice(c)).id, ok).expect(200);
      // ...which then change: the next booking naming them is refused on the facts as they are.
      await staff.patch(`/api/entities/${c.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-06-30' }).expect(200);
      const second = await createInvoice(c);
      await refused(book(c, second.id, ok), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
      await staff.patch(`/api/entities/${c.entityId}/ledger-lock-date`).send({ ledgerLockDate: null }).expect(200);
      const bookId = randomUUID();
      await staff.post(`/api/entities/${c.entityId}/books`).send({ id: bookId, name: 'IFRS' }).expect(201);
      const res = await book(c, second.id, { ...ok, bookId }).expect(200);
      expect(res.body.entry).toMatchObject({ bookId, status: 'active' });
      const [row] = await t.sql<{ book_status: string; ledger_entry_id: string }>('SELECT book_status, ledger_entry_id FROM invoices WHERE entity_id = $1 AND id = $2', [c.entityId, second.id]);
      expect(row).toEqual({ book_status: 'booked', ledger_entry_id: res.body.entry.id });
    });

    it("a booking whose remembered facts changed (a Book added) is posted again: the invoice's update, its read-model rows and its audit row are written once, with the entry written", async () => {
      const c = await setup();
      const ok = { counterAccountId: c.income, taxAccountId: c.vatDebit };
      await book(c, (await createInvoice(c)).id, ok).expect(200);
      // A Book changes the facts the ledger remembers without refusing a common entry: the posting
      // statement's guard finds them changed (its writes alongside write nothing), then the posting
      // is judged on facts read afresh and written by a second statement with its parts.
      await staff.post(`/api/entities/${c.entityId}/books`).send({ id: randomUUID(), name: 'IFRS' }).expect(201);
      const second = await createInvoice(c);
      const entryId = randomUUID();
      await expectAudited(t, book(c, second.id, { ...ok, entryId }), 200, { action: 'invoice.book', resource_type: 'invoice', resource_id: second.id });
      expect(await t.sql('SELECT book_status, ledger_entry_id FROM invoices WHERE entity_id = $1 AND id = $2', [c.entityId, second.id])).toEqual([{ book_status: 'booked', ledger_entry_id: entryId }]);
      expect(await t.sql('SELECT entry_id, receivable_amount::int AS amount FROM report_booked_invoices WHERE entity_id = $1 AND invoice_id = $2', [c.entityId, second.id])).toEqual([
        { entry_id: entryId, amount: 119000 },
      ]);
      // Home's open positions hold both invoices, each once.
      expect(await t.sql(`SELECT sum(open_amount)::int AS open FROM report_open_positions WHERE entity_id = $1 AND direction = 'ar'`, [c.entityId])).toEqual([{ open: 238000 }]);
    });
  });

  describe('the ledger lifecycle', () => {
    it('unbooking the entry returns the invoice to unbooked and lists it in severedInvoices; it can be booked again', async () => {
      const c = await setup();
      const invoice = await createInvoice(c);
      const entryId = (await book(c, invoice.id, { counterAccountId: c.income, taxAccountId: c.vatDebit }).expect(200)).body.entry.id;
      const res = await staff.delete(`/api/entities/${c.entityId}/ledger/entries/${entryId}`).expect(200);
      expect(res.body.severedInvoices).toEqual([
        { id: invoice.id, direction: 'ar', documentKind: 'invoice', documentNumber: invoice.documentNumber, partnerName: 'Comercial Ñuble Ltda.', entryId },
      ]);
      expect((await staff.get(invoicesPath(c.entityId, `/${invoice.id}`))).body).toMatchObject({ bookStatus: 'unbooked', ledgerEntryId: null, entry: null });
      expect((await staff.get(`/api/entities/${c.entityId}/ledger/entries/${entryId}`)).body.relatedInvoices).toEqual([]);
      await book(c, invoice.id, { counterAccountId: c.income, taxAccountId: c.vatDebit }).expect(200);
    });

    it('reversing the entry returns the invoice to unbooked and lists it in severedInvoices', async () => {
      const c = await setup();
      const invoice = await createInvoice(c);
      const entryId = (await book(c, invoice.id, { counterAccountId: c.income, taxAccountId: c.vatDebit }).expect(200)).body.entry.id;
      const res = await staff.post(`/api/entities/${c.entityId}/ledger/entries/${entryId}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-20' }).expect(201);
      expect(res.body.severedInvoices).toEqual([expect.objectContaining({ id: invoice.id, entryId })]);
      expect((await staff.get(invoicesPath(c.entityId, `/${invoice.id}`))).body).toMatchObject({ bookStatus: 'unbooked', ledgerEntryId: null });
      // Unbooked again, it can be deleted.
      await staff.delete(invoicesPath(c.entityId, `/${invoice.id}`)).expect(204);
    });

    it('unbooking the reversal books the invoice by its original entry again (D35: the chain settled back)', async () => {
      const c = await setup();
      const invoice = await createInvoice(c);
      const body = { counterAccountId: c.income, taxAccountId: c.vatDebit };
      const entry = (await book(c, invoice.id, body).expect(200)).body.entry;
      const reversalId = randomUUID();
      await staff.post(`/api/entities/${c.entityId}/ledger/entries/${entry.id}/reverse`).send({ id: reversalId, reversalDate: '2026-06-20' }).expect(201);
      await staff.delete(`/api/entities/${c.entityId}/ledger/entries/${reversalId}`).expect(200);
      expect((await staff.get(invoicesPath(c.entityId, `/${invoice.id}`))).body).toMatchObject({ bookStatus: 'booked', ledgerEntryId: entry.id });
      // The reports' read model of booked invoices learns of it too.
      expect(await t.sql(`SELECT entry_id, line_id FROM report_booked_invoices WHERE entity_id = $1 AND invoice_id = $2`, [c.entityId, invoice.id])).toEqual([
        { entry_id: entry.id, line_id: entry.lines[0].id },
      ]);
      expect((await staff.get(`/api/entities/${c.entityId}/ledger/entries/${entry.id}`)).body.relatedInvoices).toEqual([expect.objectContaining({ id: invoice.id })]);
      // The receivable line is the invoice's again: it keeps its account.
      const other = await createLedgerAccount(staff, c.entityId, { code: '1107', type: 'asset', tracking: 'open_item' });
      await refused(staff.patch(`/api/entities/${c.entityId}/ledger/lines/${entry.lines[0].id}/account`).send({ ledgerAccountId: other }), 409, 'LEDGER_LINE_DOCUMENT_LINKED_ERROR');
      await refused(book(c, invoice.id, body), 409, 'INVOICE_ALREADY_BOOKED_ERROR');
    });

    it('unbooking the reversal of an entry whose invoice is booked again since puts the entry back unlinked, the invoice left as it is (never a 409: the spec state table)', async () => {
      const c = await setup();
      const invoice = await createInvoice(c);
      const body = { counterAccountId: c.income, taxAccountId: c.vatDebit };
      const entryId = (await book(c, invoice.id, body).expect(200)).body.entry.id;
      const reversalId = randomUUID();
      await staff.post(`/api/entities/${c.entityId}/ledger/entries/${entryId}/reverse`).send({ id: reversalId, reversalDate: '2026-06-20' }).expect(201);
      const again = (await book(c, invoice.id, body).expect(200)).body.entry.id;
      const res = await staff.delete(`/api/entities/${c.entityId}/ledger/entries/${reversalId}`).expect(200);
      expect(res.body.settledChainEntries).toEqual([expect.objectContaining({ id: entryId, status: 'active' })]);
      // The restored entry no longer books the invoice: answered as severed from it.
      expect(res.body.severedInvoices).toEqual([
        { id: invoice.id, direction: 'ar', documentKind: 'invoice', documentNumber: invoice.documentNumber, partnerName: 'Comercial Ñuble Ltda.', entryId },
      ]);
      expect((await staff.get(invoicesPath(c.entityId, `/${invoice.id}`))).body).toMatchObject({ bookStatus: 'booked', ledgerEntryId: again });
      expect((await staff.get(`/api/entities/${c.entityId}/ledger/entries/${entryId}`)).body).toMatchObject({ status: 'active', relatedInvoices: [] });
      expect((await staff.get(`/api/entities/${c.entityId}/ledger/entries/${again}`)).body.relatedInvoices).toEqual([expect.objectContaining({ id: invoice.id })]);
      expect(await t.sql(`SELECT entry_id FROM invoice_severed_bookings WHERE entity_id = $1`, [c.entityId])).toEqual([]);
    });

    it('unbooking the reversal while the invoice is being booked anew, at once: the invoice ends booked by exactly one entry, the other answered', async () => {
      const c = await setup();
      const invoice = await createInvoice(c);
      const body = { counterAccountId: c.income, taxAccountId: c.vatDebit };
      const entryId = (await book(c, invoice.id, body).expect(200)).body.entry.id;
      const reversalId = randomUUID();
      await staff.post(`/api/entities/${c.entityId}/ledger/entries/${entryId}/reverse`).send({ id: reversalId, reversalDate: '2026-06-20' }).expect(201);
      const againId = randomUUID();
      const [unbooking, booking] = await Promise.all([
        staff.delete(`/api/entities/${c.entityId}/ledger/entries/${reversalId}`).then((r) => r),
        book(c, invoice.id, { ...body, entryId: againId }).then((r) => r),
      ]);
      expect(unbooking.status).toBe(200);
      const detail = (await staff.get(invoicesPath(c.entityId, `/${invoice.id}`))).body;
      if (booking.status === 200) {
        // The booking went first: the restored entry is left unlinked, and says so.
        expect(detail).toMatchObject({ bookStatus: 'booked', ledgerEntryId: againId });
        expect(unbooking.body.severedInvoices).toEqual([expect.objectContaining({ id: invoice.id, entryId })]);
      } else {
        expect({ status: booking.status, code: booking.body.code }).toEqual({ status: 409, code: 'INVOICE_ALREADY_BOOKED_ERROR' });
        expect(detail).toMatchObject({ bookStatus: 'booked', ledgerEntryId: entryId });
        expect(unbooking.body.severedInvoices).toEqual([]);
      }
      expect(await t.sql(`SELECT count(*)::int AS n FROM invoices WHERE entity_id = $1 AND ledger_entry_id IS NOT NULL`, [c.entityId])).toEqual([{ n: 1 }]);
    });

    describe('a chain of bookings: booked by E, reversed, booked by F, reversed (each entry finds its own booking)', () => {
      const chain = async () => {
        const c = await setup();
        const invoice = await createInvoice(c);
        const body = { counterAccountId: c.income, taxAccountId: c.vatDebit };
        const entries = `/api/entities/${c.entityId}/ledger/entries`;
        const e = (await book(c, invoice.id, body).expect(200)).body.entry.id as string;
        const reversalOfE = randomUUID();
        const first = await staff.post(`${entries}/${e}/reverse`).send({ id: reversalOfE, reversalDate: '2026-06-20' }).expect(201);
        expect(first.body.severedInvoices).toEqual([expect.objectContaining({ id: invoice.id, entryId: e })]);
        const f = (await book(c, invoice.id, body).expect(200)).body.entry.id as string;
        const reversalOfF = randomUUID();
        const second = await staff.post(`${entries}/${f}/reverse`).send({ id: reversalOfF, reversalDate: '2026-06-21' }).expect(201);
        expect(second.body.severedInvoices).toEqual([expect.objectContaining({ id: invoice.id, entryId: f })]);
        expect((await staff.get(invoicesPath(c.entityId, `/${invoice.id}`))).body).toMatchObject({ bookStatus: 'unbooked', ledgerEntryId: null });
        const related = async (entryId: string) => (await staff.get(`${entries}/${entryId}`).expect(200)).body as { status: string; relatedInvoices: Array<{ id: string }> };
        return { c, invoice, body, entries, e, f, reversalOfE, reversalOfF, related };
      };

      it("unbooking E's reversal books the invoice by E again (it was not forgotten when F booked it); then F's puts F back unlinked, the invoice staying E's", async () => {
        const { c, invoice, body, entries, e, f, reversalOfE, reversalOfF, related } = await chain();
        const res = await staff.delete(`${entries}/${reversalOfE}`).expect(200);
        expect(res.body.settledChainEntries).toEqual([expect.objectContaining({ id: e, status: 'active' })]);
        expect(res.body.severedInvoices).toEqual([]);
        expect((await staff.get(invoicesPath(c.entityId, `/${invoice.id}`))).body).toMatchObject({ bookStatus: 'booked', ledgerEntryId: e });
        expect(await related(e)).toMatchObject({ status: 'active', relatedInvoices: [expect.objectContaining({ id: invoice.id })] });
        expect(await related(f)).toMatchObject({ status: 'reversed', relatedInvoices: [] });
        // No third booking: the invoice is booked, by E.
        await refused(book(c, invoice.id, body), 409, 'INVOICE_ALREADY_BOOKED_ERROR');
        // F back in the books, not booking the invoice (it is E's): answered as severed from F.
        const back = await staff.delete(`${entries}/${reversalOfF}`).expect(200);
        expect(back.body.settledChainEntries).toEqual([expect.objectContaining({ id: f, status: 'active' })]);
        expect(back.body.severedInvoices).toEqual([expect.objectContaining({ id: invoice.id, entryId: f })]);
        expect(await related(f)).toMatchObject({ status: 'active', relatedInvoices: [] });
        expect((await staff.get(invoicesPath(c.entityId, `/${invoice.id}`))).body).toMatchObject({ bookStatus: 'booked', ledgerEntryId: e });
        expect(await t.sql(`SELECT entry_id FROM invoice_severed_bookings WHERE entity_id = $1`, [c.entityId])).toEqual([]);
      });

      it("in the other order: F's reversal books the invoice by F again, then E's puts E back unlinked", async () => {
        const { c, invoice, entries, e, f, reversalOfE, reversalOfF, related } = await chain();
        await staff.delete(`${entries}/${reversalOfF}`).expect(200);
        expect((await staff.get(invoicesPath(c.entityId, `/${invoice.id}`))).body).toMatchObject({ bookStatus: 'booked', ledgerEntryId: f });
        expect(await related(f)).toMatchObject({ status: 'active', relatedInvoices: [expect.objectContaining({ id: invoice.id })] });
        const back = await staff.delete(`${entries}/${reversalOfE}`).expect(200);
        expect(back.body.severedInvoices).toEqual([expect.objectContaining({ id: invoice.id, entryId: e })]);
        expect(await related(e)).toMatchObject({ status: 'active', relatedInvoices: [] });
        expect((await staff.get(invoicesPath(c.entityId, `/${invoice.id}`))).body).toMatchObject({ bookStatus: 'booked', ledgerEntryId: f });
      });

      it('unbooking F for good (its reversal along) leaves E restorable; deleting the invoice forgets every kept booking', async () => {
        const { c, invoice, entries, e, f, reversalOfE } = await chain();
        await staff.delete(`${entries}/${f}`).expect(200);
        await staff.delete(`${entries}/${reversalOfE}`).expect(200);
        expect((await staff.get(invoicesPath(c.entityId, `/${invoice.id}`))).body).toMatchObject({ bookStatus: 'booked', ledgerEntryId: e });
        expect(await t.sql(`SELECT entry_id FROM invoice_severed_bookings WHERE entity_id = $1 AND invoice_id = $2`, [c.entityId, invoice.id])).toEqual([]);
        const again = await chain();
        await staff.delete(invoicesPath(again.c.entityId, `/${again.invoice.id}`)).expect(204);
        expect(await t.sql(`SELECT entry_id FROM invoice_severed_bookings WHERE entity_id = $1`, [again.c.entityId])).toEqual([]);
        await staff.delete(`${again.entries}/${again.reversalOfE}`).expect(200);
        expect((await staff.get(`${again.entries}/${again.e}`).expect(200)).body).toMatchObject({ status: 'active', relatedInvoices: [] });
      });
    });

    describe('an invoice edited while unbooked (stop 17 review)', () => {
      /** Booked, reversed: the invoice is unbooked and its booking kept aside. */
      const severed = async () => {
        const c = await setup();
        const invoice = await createInvoice(c);
        const entryId = (await book(c, invoice.id, { counterAccountId: c.income, taxAccountId: c.vatDebit }).expect(200)).body.entry.id as string;
        const reversalId = randomUUID();
        await staff.post(`/api/entities/${c.entityId}/ledger/entries/${entryId}/reverse`).send({ id: reversalId, reversalDate: '2026-06-20' }).expect(201);
        const edit = (change: Record<string, unknown>) => staff.patch(invoicesPath(c.entityId, `/${invoice.id}`)).send(change).expect(200);
        const unbookReversal = () => staff.delete(`/api/entities/${c.entityId}/ledger/entries/${reversalId}`);
        return { c, invoice, entryId, edit, unbookReversal };
      };

      it('amounts changed since: the entry comes back unlinked, the invoice stays unbooked with its new amounts (listed as severed from the entry)', async () => {
        const { c, invoice, entryId, edit, unbookReversal } = await severed();
        await edit({ netAmount: 200000, taxAmount: 38000, totalAmount: 238000 });
        const res = await unbookReversal().expect(200);
        expect(res.body.settledChainEntries).toEqual([expect.objectContaining({ id: entryId, status: 'active' })]);
        expect(res.body.severedInvoices).toEqual([expect.objectContaining({ id: invoice.id, entryId })]);
        expect((await staff.get(`/api/entities/${c.entityId}/ledger/entries/${entryId}`)).body).toMatchObject({ status: 'active', relatedInvoices: [] });
        expect((await staff.get(invoicesPath(c.entityId, `/${invoice.id}`))).body).toMatchObject({ bookStatus: 'unbooked', ledgerEntryId: null, totalAmount: 238000 });
        expect(await t.sql(`SELECT entry_id FROM invoice_severed_bookings WHERE entity_id = $1`, [c.entityId])).toEqual([]);
      });

      it('the partner changed since: likewise unlinked; only the description and due date changed: booked by the entry again', async () => {
        const first = await severed();
        const other = randomUUID();
        await staff.post(`/api/entities/${first.c.entityId}/partners`).send({ id: other, name: 'Otro Cliente SpA', type: 'company', country: 'CL', taxId: '12345678-5' }).expect(201);
        await first.edit({ partnerId: other });
        expect((await first.unbookReversal().expect(200)).body.severedInvoices).toEqual([expect.objectContaining({ id: first.invoice.id, entryId: first.entryId })]);
        expect((await staff.get(invoicesPath(first.c.entityId, `/${first.invoice.id}`))).body).toMatchObject({ bookStatus: 'unbooked', ledgerEntryId: null });
        const second = await severed();
        await second.edit({ description: 'Otra', dueDate: '2026-07-31' });
        expect((await second.unbookReversal().expect(200)).body.severedInvoices).toEqual([]);
        expect((await staff.get(invoicesPath(second.c.entityId, `/${second.invoice.id}`))).body).toMatchObject({
          bookStatus: 'booked',
          ledgerEntryId: second.entryId,
          description: 'Otra',
          dueDate: '2026-07-31',
        });
      });

      it('edited and put back before the unbooking: booked by the entry again', async () => {
        const { c, invoice, entryId, edit, unbookReversal } = await severed();
        await edit({ netAmount: 200000, taxAmount: 38000, totalAmount: 238000 });
        await edit({ netAmount: 100000, taxAmount: 19000, totalAmount: 119000 });
        await unbookReversal().expect(200);
        expect((await staff.get(invoicesPath(c.entityId, `/${invoice.id}`))).body).toMatchObject({ bookStatus: 'booked', ledgerEntryId: entryId });
      });
    });

    it('unbooking a reversed original (its reversal goes along) leaves the invoice unbooked for good', async () => {
      const c = await setup();
      const invoice = await createInvoice(c);
      const body = { counterAccountId: c.income, taxAccountId: c.vatDebit };
      const entryId = (await book(c, invoice.id, body).expect(200)).body.entry.id;
      await staff.post(`/api/entities/${c.entityId}/ledger/entries/${entryId}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-20' }).expect(201);
      await staff.delete(`/api/entities/${c.entityId}/ledger/entries/${entryId}`).expect(200);
      expect((await staff.get(invoicesPath(c.entityId, `/${invoice.id}`))).body).toMatchObject({ bookStatus: 'unbooked', ledgerEntryId: null });
      expect(await t.sql(`SELECT entry_id FROM invoice_severed_bookings WHERE entity_id = $1 AND invoice_id = $2`, [c.entityId, invoice.id])).toEqual([]);
      await book(c, invoice.id, body).expect(200);
    });

    it("keeps the account of the invoice's receivable line (409 LEDGER_LINE_DOCUMENT_LINKED_ERROR); the income line may move", async () => {
      const c = await setup();
      const invoice = await createInvoice(c);
      const entry = (await book(c, invoice.id, { counterAccountId: c.income, taxAccountId: c.vatDebit }).expect(200)).body.entry;
      const other = await createLedgerAccount(staff, c.entityId, { code: '1107', type: 'asset', tracking: 'open_item' });
      await refused(staff.patch(`/api/entities/${c.entityId}/ledger/lines/${entry.lines[0].id}/account`).send({ ledgerAccountId: other }), 409, 'LEDGER_LINE_DOCUMENT_LINKED_ERROR');
      const income2 = await createLedgerAccount(staff, c.entityId, { code: '4102', type: 'income', tracking: 'balance' });
      await staff.patch(`/api/entities/${c.entityId}/ledger/lines/${entry.lines[1].id}/account`).send({ ledgerAccountId: income2 }).expect(200);
    });

    it('a booked invoice cannot be deleted nor its amounts changed', async () => {
      const c = await setup();
      const invoice = await createInvoice(c);
      await book(c, invoice.id, { counterAccountId: c.income, taxAccountId: c.vatDebit }).expect(200);
      await refused(staff.delete(invoicesPath(c.entityId, `/${invoice.id}`)), 409, 'INVOICE_BOOKED_ERROR');
      await refused(staff.patch(invoicesPath(c.entityId, `/${invoice.id}`)).send({ netAmount: 1, taxAmount: 0, totalAmount: 1 }), 409, 'INVOICE_BOOKED_ERROR');
    });
  });

  describe("the invoice read unlocked, then checked under its row lock by the posting statement (the precondition)", () => {
    const body = (c: Chart) => ({ counterAccountId: c.income, taxAccountId: c.vatDebit });
    /** The booking reads the invoice, then its posting statement waits on the row held here; `meanwhile` runs in the holding transaction. */
    const whileInvoiceLocked = <T>(entityId: string, invoiceId: string, start: () => Promise<T>, meanwhile?: (blocker: Client) => Promise<unknown>, options?: { waiters?: number; end?: 'COMMIT' | 'ROLLBACK' }) =>
      whileRowLocked(t, 'SELECT 1 FROM invoices WHERE entity_id = $1 AND id = $2 FOR UPDATE', [entityId, invoiceId], start, meanwhile, options);
    const raise = (blocker: Client, entityId: string, invoiceId: string) =>
      blocker.query(`UPDATE invoices SET net_amount = 200000, tax_amount = 38000, total_amount = 238000 WHERE entity_id = $1 AND id = $2`, [entityId, invoiceId]);
    const count = async (sql: string, values: unknown[]) => (await t.sql<{ n: number }>(sql, values))[0].n;

    it('amounts changed and committed meanwhile: nothing posted on the stale read; booked on the new amounts, one entry, one audit row, the read models on the new amount', async () => {
      const c = await setup();
      const invoice = await createInvoice(c);
      const requestId = `req-${randomUUID()}`;
      const res = await whileInvoiceLocked(c.entityId, invoice.id, () => book(c, invoice.id, body(c)).set('x-request-id', requestId), (blocker) => raise(blocker, c.entityId, invoice.id));
      expect(res.status).toBe(200);
      expect(linesOf(res.body.entry)).toEqual([
        ['debit', c.receivable, 238000, null, c.partnerId],
        ['credit', c.income, 200000, null, c.partnerId],
        ['credit', c.vatDebit, 38000, null, c.partnerId],
      ]);
      expect(res.body.invoice).toMatchObject({ totalAmount: 238000, bookStatus: 'booked', ledgerEntryId: res.body.entry.id });
      expect(await count(`SELECT count(*)::int AS n FROM ledger_entries WHERE entity_id = $1`, [c.entityId])).toBe(1);
      expect(await count(`SELECT count(*)::int AS n FROM audit_trail WHERE request_id = $1`, [requestId])).toBe(1);
      expect(await t.sql(`SELECT receivable_amount::int AS a FROM report_booked_invoices WHERE entity_id = $1`, [c.entityId])).toEqual([{ a: 238000 }]);
      expect(await t.sql(`SELECT sum(open_amount)::int AS open FROM report_open_positions WHERE entity_id = $1`, [c.entityId])).toEqual([{ open: 238000 }]);
      await expectMonthlyTotalsMatchLines(t, c.entityId);
      await expectLineTotalsMatchLines(t, c.entityId);
    });

    it('deleted meanwhile: 404 INVOICE_NOT_FOUND_ERROR, nothing written, no audit row', async () => {
      const c = await setup();
      const invoice = await createInvoice(c);
      const requestId = `req-${randomUUID()}`;
      const res = await whileInvoiceLocked(c.entityId, invoice.id, () => book(c, invoice.id, body(c)).set('x-request-id', requestId), (blocker) => blocker.query(`DELETE FROM invoices WHERE entity_id = $1 AND id = $2`, [c.entityId, invoice.id]));
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'INVOICE_NOT_FOUND_ERROR' });
      expect(await count(`SELECT count(*)::int AS n FROM ledger_entries WHERE entity_id = $1`, [c.entityId])).toBe(0);
      expect(await count(`SELECT count(*)::int AS n FROM report_booked_invoices WHERE entity_id = $1`, [c.entityId])).toBe(0);
      expect(await count(`SELECT count(*)::int AS n FROM audit_trail WHERE request_id = $1`, [requestId])).toBe(0);
    });

    it('changed then rolled back, or only locked: booked on the amounts read, one entry, one audit row', async () => {
      for (const end of ['ROLLBACK', 'COMMIT'] as const) {
        const c = await setup();
        const invoice = await createInvoice(c);
        const requestId = `req-${randomUUID()}`;
        const res = await whileInvoiceLocked(c.entityId, invoice.id, () => book(c, invoice.id, body(c)).set('x-request-id', requestId), (blocker) => (end === 'ROLLBACK' ? raise(blocker, c.entityId, invoice.id) : Promise.resolve()), { end });
        expect(res.status).toBe(200);
        expect(linesOf(res.body.entry).map((line) => line[2])).toEqual([119000, 100000, 19000]);
        expect(await count(`SELECT count(*)::int AS n FROM ledger_entries WHERE entity_id = $1`, [c.entityId])).toBe(1);
        expect(await count(`SELECT count(*)::int AS n FROM audit_trail WHERE request_id = $1`, [requestId])).toBe(1);
      }
    });

    it('two bookings both past their read, both waiting on the row: one 200, one 409 INVOICE_ALREADY_BOOKED_ERROR, one entry, one audit row', async () => {
      const c = await setup();
      const invoice = await createInvoice(c);
      const ids = [`req-${randomUUID()}`, `req-${randomUUID()}`];
      const [a, b] = await whileInvoiceLocked(c.entityId, invoice.id, () => Promise.all(ids.map((id) => book(c, invoice.id, body(c)).set('x-request-id', id).then((r) => r))), undefined, { waiters: 2 });
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      expect([a, b].find((r) => r.status === 409)!.body.code).toBe('INVOICE_ALREADY_BOOKED_ERROR');
      expect(await count(`SELECT count(*)::int AS n FROM ledger_entries WHERE entity_id = $1`, [c.entityId])).toBe(1);
      expect(await count(`SELECT count(*)::int AS n FROM audit_trail WHERE request_id = ANY($1)`, [ids])).toBe(1);
      expect(await count(`SELECT count(*)::int AS n FROM report_booked_invoices WHERE entity_id = $1`, [c.entityId])).toBe(1);
      await expectMonthlyTotalsMatchLines(t, c.entityId);
    });

    it('a lock date moved over the entry date while the posting statement waits on the Entity: 409 LEDGER_PERIOD_LOCKED_ERROR, nothing written', async () => {
      const c = await setup();
      await book(c, (await createInvoice(c)).id, body(c)).expect(200); // the posting facts remembered
      const invoice = await createInvoice(c);
      const requestId = `req-${randomUUID()}`;
      const res = await whileRowLocked(t, entityRowLockSql('UPDATE'), [c.entityId], () => book(c, invoice.id, body(c)).set('x-request-id', requestId), (blocker) =>
        blocker.query(`UPDATE entities SET ledger_lock_date = '2026-06-30' WHERE id = $1`, [c.entityId]),
      );
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: 'LEDGER_PERIOD_LOCKED_ERROR' });
      expect(await count(`SELECT count(*)::int AS n FROM ledger_entries WHERE entity_id = $1`, [c.entityId])).toBe(1);
      expect(await t.sql(`SELECT book_status FROM invoices WHERE id = $1`, [invoice.id])).toEqual([{ book_status: 'unbooked' }]);
      expect(await count(`SELECT count(*)::int AS n FROM audit_trail WHERE request_id = $1`, [requestId])).toBe(0);
    });

    it('the row version read is the version checked after VACUUM (FREEZE): xmin keeps its value, the booking goes through', async () => {
      const c = await setup();
      const invoice = await createInvoice(c);
      const [before] = await t.sql<{ x: string }>(`SELECT xmin::text AS x FROM invoices WHERE id = $1`, [invoice.id]);
      await t.sql(`VACUUM (FREEZE) invoices`);
      expect(await t.sql(`SELECT xmin::text AS x FROM invoices WHERE id = $1`, [invoice.id])).toEqual([before]);
      await book(c, invoice.id, body(c)).expect(200);
    });
  });

  it("eight bookings at once sharing a due date each move their own row of home's open position (slots dealt in turn), summing to their total", async () => {
    const c = await setup();
    const invoices = [];
    for (let i = 0; i < 8; i++) invoices.push(await createInvoice(c, { dueDate: '2026-07-10' }));
    const body = { counterAccountId: c.income, taxAccountId: c.vatDebit };
    const answers = await Promise.all(invoices.map((invoice) => book(c, invoice.id, body).then((r) => r)));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    const rows = await t.sql<{ slot: number; open: number }>(
      `SELECT slot, open_amount::int AS open FROM report_open_positions WHERE entity_id = $1 AND direction = 'ar' AND due_on = '2026-07-10' ORDER BY slot`,
      [c.entityId],
    );
    // No two of the eight met on one row: none waited for another's commit there.
    expect(rows).toHaveLength(8);
    expect(rows.every((r) => r.open === 119000)).toBe(true);
  });

  it('books an invoice once when two bookings race: one 200, one 409 INVOICE_ALREADY_BOOKED_ERROR, one entry', async () => {
    const c = await setup();
    const invoice = await createInvoice(c);
    const body = { counterAccountId: c.income, taxAccountId: c.vatDebit };
    const [a, b] = await whileTableLocked(t, 'invoices', 2, () => Promise.all([book(c, invoice.id, body), book(c, invoice.id, body)]));
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect([a, b].find((r) => r.status === 409)!.body.code).toBe('INVOICE_ALREADY_BOOKED_ERROR');
    expect(await t.sql(`SELECT count(*)::int AS n FROM ledger_entries WHERE entity_id = $1 AND source = 'invoice'`, [c.entityId])).toEqual([{ n: 1 }]);
  });
});
