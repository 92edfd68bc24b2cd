import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { RecordingLedgerListener, RecordingLedgerListenerModule } from './harness/recording-ledger-listener';
import { entityRowLockSql } from '../src/modules/entities';
import { FixedClock } from '../src/platform/clock/clock';
import { checkAccessMatrix } from './harness/access-matrix';
import { expectMonthlyTotalsMatchLines } from './harness/db-checks';
import { countRows, expectAudited, expectRefused, lockWaiters, sendNow, waitUntil, whileRowLocked, whileTableLocked } from './harness/db-checks';
import type { TestApp } from './harness/test-app';
import { Agent, bootstrapStaffId, createWorldApp, freshEntity, mintKey, World } from './harness/world';

/** 15:00 UTC on 15 June 2026 is 15 June in Santiago: "today" is 2026-06-15. */
const clock = new FixedClock(new Date('2026-06-15T15:00:00Z'));

interface Books {
  entityId: string;
  bank: string;
  receivable: string;
  sales: string;
  rent: string;
  vat: string;
}

describe('ledger entries and lines', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let ledger: Books;

  const base = (entityId = ledger.entityId) => `/api/entities/${entityId}/ledger`;

  async function setUpBooks(entityId: string): Promise<Books> {
    const account = async (name: string, code: string, type: string, tracking = 'balance', subtype: string | null = null) => {
      const id = randomUUID();
      await staff.post(`${base(entityId)}/accounts`).send({ id, name, code, type, tracking, subtype }).expect(201);
      return id;
    };
    return {
      entityId,
      bank: await account('Banco', '1102', 'asset'),
      receivable: await account('Clientes', '1105', 'asset', 'open_item', 'receivable'),
      sales: await account('Ventas', '4101', 'income'),
      rent: await account('Arriendos', '5101', 'operating_expense'),
      vat: await account('IVA débito fiscal', '2105', 'liability'),
    };
  }

  const sale = (b: Books, amount: number, extra: Record<string, unknown> = {}) => ({
    id: randomUUID(),
    entryDate: '2026-06-10',
    memo: 'Venta factura 1001',
    newLedgerEntryLines: [
      { side: 'debit', ledgerAccountId: b.receivable, amount },
      { side: 'credit', ledgerAccountId: b.sales, amount },
    ],
    ...extra,
  });

  async function post(body: Record<string, unknown>, b = ledger) {
    const res = await staff.post(`${base(b.entityId)}/entries`).send(body);
    expect({ status: res.status, body: res.status === 201 ? 'ok' : res.body }).toEqual({ status: 201, body: 'ok' });
    return res.body;
  }

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock, extraModules: [RecordingLedgerListenerModule] }));
    ledger = await setUpBooks(world.entityId);
  });
  afterAll(() => t.close());

  describe('posting (D33, D34)', () => {
    it('refuses with 409 AMOUNT_OUT_OF_RANGE_ERROR (D6a), writing nothing, a posting whose account totals would pass what the books hold', async () => {
      const b = await setUpBooks(await freshEntity(world));
      // Every slot of the receivable's June totals a little below bigint's limit: no entry of
      // valid amounts could reach it in a test, but the rule is that it is never a 500.
      await t.sql(
        `INSERT INTO ledger_account_monthly_totals (entity_id, account_id, book_key, month, slot, debit, credit, line_count)
         SELECT $1, $2, '00000000-0000-0000-0000-000000000000', '2026-06-01', s, 9223372036854775000, 0, 1 FROM generate_series(0, 31) AS s`,
        [b.entityId, b.receivable],
      );
      const res = await expectRefused(t, ['ledger_entries', 'ledger_lines', 'audit_trail'], staff.post(`${base(b.entityId)}/entries`).send(sale(b, 1000)), 409, 'AMOUNT_OUT_OF_RANGE_ERROR');
      expect(res.body.message).toMatch(/largest amount/);
      expect(res.body.params).toEqual({ field: 'accountTotal' });
    });

    it('posts a balanced entry 201 in the D34 shape, with open amounts on open-item lines', async () => {
      const body = sale(ledger, 119000);
      const res = await staff.post(`${base()}/entries`).send(body);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: body.id,
        entityId: ledger.entityId,
        bookId: null,
        entryDate: '2026-06-10',
        memo: 'Venta factura 1001',
        notes: null,
        status: 'active',
        source: 'manual',
        reversalOfEntryId: null,
        reversedByEntryId: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        lines: [
          expect.objectContaining({ side: 'debit', ledgerAccountId: ledger.receivable, amount: 119000, openAmount: 119000, dimensionValues: [] }),
          expect.objectContaining({ side: 'credit', ledgerAccountId: ledger.sales, amount: 119000, openAmount: null }),
        ],
      });
      const detail = await staff.get(`${base()}/entries/${body.id}`);
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({ id: body.id, relatedInvoices: [], relatedBankMovements: [], allocations: [] });
    });

    it('refuses a reused id with 409 LEDGER_ENTRY_ALREADY_EXISTS_ERROR', async () => {
      const body = sale(ledger, 1000);
      await post(body);
      const again = await staff.post(`${base()}/entries`).send(body);
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('LEDGER_ENTRY_ALREADY_EXISTS_ERROR');
    });

    it('answers a replayed id with 409 LEDGER_ENTRY_ALREADY_EXISTS_ERROR even when its content would now be refused (lock date moved, the scheduled date reached), writing nothing', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const tables = ['ledger_entries', 'ledger_lines', 'ledger_account_monthly_totals', 'audit_trail'];
      const booked = sale(b, 10);
      await post(booked, b);
      const scheduled = { ...sale(b, 11), entryDate: '2026-06-20' };
      await staff.post(`${base(b.entityId)}/scheduled-entries`).send(scheduled).expect(201);
      await staff.patch(`/api/entities/${b.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-06-12' }).expect(200);
      await staff.post(`/api/entities/${b.entityId}/books`).send({ id: randomUUID(), name: 'IFRS' }).expect(201);
      const replay = (body: Record<string, unknown>, path = 'entries') => staff.post(`${base(b.entityId)}/${path}`).send(body);
      const res = await expectRefused(t, tables, replay(booked), 409, 'LEDGER_ENTRY_ALREADY_EXISTS_ERROR');
      expect(res.body.params).toEqual({ entryId: booked.id });
      await expectRefused(t, tables, replay({ ...booked, bookId: null }), 409, 'LEDGER_ENTRY_ALREADY_EXISTS_ERROR');
      // A fresh id with the same content gets the refusal itself.
      await expectRefused(t, tables, replay({ ...booked, id: randomUUID() }), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
      // What the body alone shows still comes first (400).
      const unbalanced = [{ side: 'debit', ledgerAccountId: b.bank, amount: 2 }, { side: 'credit', ledgerAccountId: b.sales, amount: 1 }];
      await expectRefused(t, tables, replay({ ...booked, newLedgerEntryLines: unbalanced }), 400, 'LEDGER_ENTRY_UNBALANCED_ERROR');
      clock.set(new Date('2026-06-20T15:00:00Z'));
      try {
        await expectRefused(t, tables, replay({ ...scheduled, bookId: null }, 'scheduled-entries'), 409, 'LEDGER_ENTRY_ALREADY_EXISTS_ERROR');
        await expectRefused(t, tables, replay({ ...scheduled, id: randomUUID(), bookId: null }, 'scheduled-entries'), 409, 'LEDGER_SCHEDULED_ENTRY_DATE_NOT_FUTURE_ERROR');
      } finally {
        clock.set(new Date('2026-06-15T15:00:00Z'));
      }
    });

    type Refusal = [string, (b: Books) => Record<string, unknown>, number, string];
    it.each<Refusal>([
      ['unbalanced', (b: Books) => ({ newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: b.bank, amount: 10 }, { side: 'credit', ledgerAccountId: b.sales, amount: 9 }] }), 400, 'LEDGER_ENTRY_UNBALANCED_ERROR'],
      // Debits MAX + 2, credits MAX + 1: equal as floating-point sums, and this was posted.
      [
        'totals above the largest amount (D6)',
        (b: Books) => ({
          newLedgerEntryLines: [
            { side: 'debit', ledgerAccountId: b.bank, amount: Number.MAX_SAFE_INTEGER },
            { side: 'debit', ledgerAccountId: b.bank, amount: 2 },
            { side: 'credit', ledgerAccountId: b.sales, amount: Number.MAX_SAFE_INTEGER },
            { side: 'credit', ledgerAccountId: b.sales, amount: 1 },
          ],
        }),
        400,
        'VALIDATION_ERROR',
      ],
      ['one line', (b: Books) => ({ newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: b.bank, amount: 10 }] }), 400, 'LEDGER_ENTRY_LINE_COUNT_ERROR'],
      ['no line', () => ({ newLedgerEntryLines: [] }), 400, 'LEDGER_ENTRY_LINE_COUNT_ERROR'],
      ['zero amount', (b: Books) => ({ newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: b.bank, amount: 0 }, { side: 'credit', ledgerAccountId: b.sales, amount: 0 }] }), 400, 'VALIDATION_ERROR'],
      ['fractional amount', (b: Books) => ({ newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: b.bank, amount: 1.5 }, { side: 'credit', ledgerAccountId: b.sales, amount: 1.5 }] }), 400, 'VALIDATION_ERROR'],
      ['unknown account', (b: Books) => ({ newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: randomUUID(), amount: 1 }, { side: 'credit', ledgerAccountId: b.sales, amount: 1 }] }), 404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR'],
      ['unknown partner', (b: Books) => ({ newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: b.bank, amount: 1, partnerId: randomUUID() }, { side: 'credit', ledgerAccountId: b.sales, amount: 1 }] }), 404, 'PARTNER_NOT_FOUND_ERROR'],
      ['unknown dimension value', (b: Books) => ({ newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: b.rent, amount: 1, dimensionValueIds: [randomUUID()] }, { side: 'credit', ledgerAccountId: b.bank, amount: 1 }] }), 404, 'DIMENSION_VALUE_NOT_FOUND_ERROR'],
      ['half a transaction trio', (b: Books) => ({ newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: b.bank, amount: 1, transactionCurrency: 'USD' }, { side: 'credit', ledgerAccountId: b.sales, amount: 1 }] }), 400, 'VALIDATION_ERROR'],
      ['a trio that does not convert to the amount', (b: Books) => ({ newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: b.bank, amount: 95051, transactionCurrency: 'USD', transactionAmount: 10000, exchangeRate: '950.5' }, { side: 'credit', ledgerAccountId: b.sales, amount: 95051 }] }), 400, 'LEDGER_LINE_TRANSACTION_AMOUNT_MISMATCH_ERROR'],
      ['a float exchange rate', (b: Books) => ({ newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: b.bank, amount: 95050, transactionCurrency: 'USD', transactionAmount: 10000, exchangeRate: 950.5 }, { side: 'credit', ledgerAccountId: b.sales, amount: 95050 }] }), 400, 'VALIDATION_ERROR'],
      ...['0', '0.000', '-950.5', ' 950.5', '9.5e2'].map((exchangeRate): Refusal => [
        `the exchange rate ${JSON.stringify(exchangeRate)} (D7: a decimal string greater than zero)`,
        (b: Books) => ({ newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: b.bank, amount: 1, transactionCurrency: 'USD', transactionAmount: 100, exchangeRate }, { side: 'credit', ledgerAccountId: b.sales, amount: 1 }] }),
        400,
        'VALIDATION_ERROR',
      ]),
      ['a date after today', () => ({ entryDate: '2026-06-16' }), 409, 'LEDGER_ENTRY_DATE_IN_FUTURE_ERROR'],
      ['an impossible date', () => ({ entryDate: '2026-02-30' }), 400, 'VALIDATION_ERROR'],
      ['a bookId on an Entity without Books', () => ({ bookId: randomUUID() }), 404, 'BOOK_NOT_FOUND_ERROR'],
      ['normalSide or any unknown field', () => ({ currency: 'CLP' }), 400, 'VALIDATION_ERROR'],
    ])('refuses %s and writes nothing', async (_label, change, status, code) => {
      const before = await countRows(t, 'ledger_entries', 'entity_id = $1', [ledger.entityId]);
      const res = await staff.post(`${base()}/entries`).send({ ...sale(ledger, 1), ...change(ledger) });
      expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
      expect(await countRows(t, 'ledger_entries', 'entity_id = $1', [ledger.entityId])).toBe(before);
    });

    it('names a value of the wrong type once, by its type, and a value out of range by its range (D2 params.errors)', async () => {
      const before = await countRows(t, 'ledger_entries', 'entity_id = $1', [ledger.entityId]);
      const lines = (debit: unknown) => [{ side: 'debit', ledgerAccountId: ledger.bank, amount: debit }, { side: 'credit', ledgerAccountId: ledger.sales, amount: 1 }];
      const wrongTypes = await staff.post(`${base()}/entries`).send({ ...sale(ledger, 1), memo: 5, newLedgerEntryLines: lines('x') });
      expect([wrongTypes.status, wrongTypes.body.code, wrongTypes.body.params.errors]).toEqual([
        400,
        'VALIDATION_ERROR',
        [
          { path: 'memo', message: 'memo must be a string' },
          { path: 'newLedgerEntryLines[0].amount', message: 'amount must be an integer number' },
        ],
      ]);
      const outOfRange = await staff.post(`${base()}/entries`).send({ ...sale(ledger, 1), newLedgerEntryLines: lines(0) });
      expect([outOfRange.status, outOfRange.body.params.errors]).toEqual([400, [{ path: 'newLedgerEntryLines[0].amount', message: 'amount must not be less than 1' }]]);
      expect(await countRows(t, 'ledger_entries', 'entity_id = $1', [ledger.entityId])).toBe(before);
    });

    it('judges what the body alone shows (400) before what it names (404), and both before tags and dates (409), writing nothing', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const dimension = randomUUID();
      const value = randomUUID();
      await staff.post(`/api/entities/${b.entityId}/dimensions`).send({ id: dimension, name: 'CC' }).expect(201);
      await staff.post(`/api/entities/${b.entityId}/dimensions/${dimension}/values`).send({ id: value, code: 'SCL', name: 'Santiago' }).expect(201);
      const tables = ['ledger_entries', 'ledger_lines', 'ledger_line_dimension_values', 'ledger_account_monthly_totals', 'audit_trail'];
      const unbalanced = [{ side: 'debit', ledgerAccountId: randomUUID(), amount: 2 }, { side: 'credit', ledgerAccountId: b.sales, amount: 1 }];
      const unknownAccount = [{ side: 'debit', ledgerAccountId: randomUUID(), amount: 1 }, { side: 'credit', ledgerAccountId: b.sales, amount: 1 }];
      const tagOnBalance = (valueId: string) => [{ side: 'debit', ledgerAccountId: b.bank, amount: 1, dimensionValueIds: [valueId] }, { side: 'credit', ledgerAccountId: b.sales, amount: 1 }];
      const cases: Array<[Record<string, unknown>, number, string]> = [
        // Unbalanced (400) with an unknown account (404), in the future (409) and naming an unknown Book (404).
        [{ entryDate: '2026-06-16', bookId: randomUUID(), newLedgerEntryLines: unbalanced }, 400, 'LEDGER_ENTRY_UNBALANCED_ERROR'],
        [{ entryDate: '2026-06-16', newLedgerEntryLines: [unbalanced[0]] }, 400, 'LEDGER_ENTRY_LINE_COUNT_ERROR'],
        [{ entryDate: '2026-06-16', newLedgerEntryLines: unknownAccount }, 404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR'],
        [{ entryDate: '2026-06-16', bookId: randomUUID() }, 404, 'BOOK_NOT_FOUND_ERROR'],
        [{ newLedgerEntryLines: tagOnBalance(randomUUID()) }, 404, 'DIMENSION_VALUE_NOT_FOUND_ERROR'],
        [{ entryDate: '2026-06-16', newLedgerEntryLines: tagOnBalance(value) }, 409, 'LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR'],
      ];
      for (const [change, status, code] of cases) {
        await expectRefused(t, tables, staff.post(`${base(b.entityId)}/entries`).send({ ...sale(b, 1), ...change }), status, code);
      }
      // The same order on scheduled entries, created and replaced.
      const scheduled = { ...sale(b, 1), entryDate: '2026-07-01' };
      await staff.post(`${base(b.entityId)}/scheduled-entries`).send(scheduled).expect(201);
      await expectRefused(t, tables, staff.post(`${base(b.entityId)}/scheduled-entries`).send({ ...sale(b, 1), entryDate: '2026-06-15', newLedgerEntryLines: unbalanced }), 400, 'LEDGER_ENTRY_UNBALANCED_ERROR');
      await expectRefused(t, tables, staff.post(`${base(b.entityId)}/scheduled-entries`).send({ ...sale(b, 1), entryDate: '2026-06-15', newLedgerEntryLines: unknownAccount }), 404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR');
      const replace = (body: Record<string, unknown>) => staff.patch(`${base(b.entityId)}/scheduled-entries/${scheduled.id}`).send({ entryDate: '2026-06-15', memo: 'x', ...body });
      await expectRefused(t, tables, replace({ newLedgerEntryLines: unbalanced }), 400, 'LEDGER_ENTRY_UNBALANCED_ERROR');
      await expectRefused(t, tables, replace({ newLedgerEntryLines: unknownAccount }), 404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR');
      await expectRefused(t, tables, replace({ newLedgerEntryLines: scheduled.newLedgerEntryLines }), 409, 'LEDGER_SCHEDULED_ENTRY_DATE_NOT_FUTURE_ERROR');
    });

    it('refuses a line id in use with 409 LEDGER_LINE_ALREADY_EXISTS_ERROR, a replay with LEDGER_ENTRY_ALREADY_EXISTS_ERROR, and a line id repeated in the body with 400', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const tables = ['ledger_entries', 'ledger_lines', 'ledger_account_monthly_totals', 'audit_trail'];
      const withLineIds = (ids: string[]) => ({
        ...sale(b, 10),
        newLedgerEntryLines: [
          { id: ids[0], side: 'debit', ledgerAccountId: b.receivable, amount: 10 },
          { id: ids[1], side: 'credit', ledgerAccountId: b.sales, amount: 10 },
        ],
      });
      const first = withLineIds([randomUUID(), randomUUID()]);
      await post(first, b);
      const taken = first.newLedgerEntryLines[1].id;
      const res = await expectRefused(t, tables, staff.post(`${base(b.entityId)}/entries`).send(withLineIds([randomUUID(), taken])), 409, 'LEDGER_LINE_ALREADY_EXISTS_ERROR');
      expect(res.body.params).toEqual({ lineId: taken });
      await expectRefused(t, tables, staff.post(`${base(b.entityId)}/entries`).send(first), 409, 'LEDGER_ENTRY_ALREADY_EXISTS_ERROR');
      const twice = randomUUID();
      const repeated = await expectRefused(t, tables, staff.post(`${base(b.entityId)}/entries`).send(withLineIds([twice, twice])), 400, 'VALIDATION_ERROR');
      expect(repeated.body.params.errors).toEqual([{ path: 'newLedgerEntryLines[1].id', message: 'repeats the id of line 0' }]);
      // Ids are per Entity (D4, D40): another Entity may use the same line id.
      const other = await setUpBooks(await freshEntity(world));
      const elsewhere = [
        { side: 'debit', ledgerAccountId: other.receivable, amount: 10 },
        { id: taken, side: 'credit', ledgerAccountId: other.sales, amount: 10 },
      ];
      await post({ ...sale(other, 10), newLedgerEntryLines: elsewhere }, other);

      // A scheduled entry's new line set: its own old line ids are free again, another entry's are not.
      const scheduled = { ...withLineIds([randomUUID(), randomUUID()]), entryDate: '2026-07-01' };
      await staff.post(`${base(b.entityId)}/scheduled-entries`).send(scheduled).expect(201);
      const replace = (ids: string[]) => ({ entryDate: '2026-07-02', memo: 'otra', newLedgerEntryLines: withLineIds(ids).newLedgerEntryLines });
      await expectRefused(t, tables, staff.patch(`${base(b.entityId)}/scheduled-entries/${scheduled.id}`).send(replace([randomUUID(), taken])), 409, 'LEDGER_LINE_ALREADY_EXISTS_ERROR');
      const own = scheduled.newLedgerEntryLines.map((l) => l.id).reverse();
      const replaced = await staff.patch(`${base(b.entityId)}/scheduled-entries/${scheduled.id}`).send(replace(own));
      expect([replaced.status, replaced.body.lines.map((l: { id: string }) => l.id)]).toEqual([200, own]);
    });

    it('converts a transaction trio exactly (D7) and keeps the rate as a string', async () => {
      const entry = await post({
        ...sale(ledger, 95050),
        newLedgerEntryLines: [
          { side: 'debit', ledgerAccountId: ledger.bank, amount: 95050, transactionCurrency: 'USD', transactionAmount: 10000, exchangeRate: '950.5' },
          { side: 'credit', ledgerAccountId: ledger.sales, amount: 95050 },
        ],
      });
      expect(entry.lines[0]).toMatchObject({ transactionCurrency: 'USD', transactionAmount: 10000, exchangeRate: '950.5' });
    });

    it('accepts in bodies and queries every hex UUID a path accepts (any version and variant), and refuses malformed ones', async () => {
      const b = await setUpBooks(await freshEntity(world));
      // Version nibble 0 and variant nibble 0: not RFC 4122 versions 1-8, but the shape every path takes.
      const oddId = () => randomUUID().replace(/^(.{14})./, '$10').replace(/^(.{19})./, '$10');
      const accountId = oddId();
      await staff.post(`${base(b.entityId)}/accounts`).send({ id: accountId, name: 'Caja chica', code: '1101', type: 'asset', tracking: 'balance' }).expect(201);
      const body = {
        id: oddId(),
        entryDate: '2026-06-10',
        memo: 'Ids of any version',
        newLedgerEntryLines: [
          { id: oddId(), side: 'debit', ledgerAccountId: accountId, amount: 10 },
          { id: oddId(), side: 'credit', ledgerAccountId: b.sales, amount: 10 },
        ],
      };
      const entry = await post(body, b);
      expect(entry.lines.map((l: { id: string }) => l.id)).toEqual(body.newLedgerEntryLines.map((l) => l.id));
      expect((await staff.get(`${base(b.entityId)}/entries/${body.id}`)).status).toBe(200);
      expect((await staff.get(`${base(b.entityId)}/lines`).query({ accountId })).body).toHaveLength(1);
      expect((await staff.get(`${base(b.entityId)}/entries`).query({ accountId })).body.entries).toHaveLength(1);
      const reversalId = oddId();
      await staff.post(`${base(b.entityId)}/entries/${body.id}/reverse`).send({ id: reversalId, reversalDate: '2026-06-11' }).expect(201);
      expect((await staff.get(`${base(b.entityId)}/entries/${reversalId}`)).status).toBe(200);
      for (const bad of ['not-a-uuid', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', `${randomUUID()}0`]) {
        const res = await staff.post(`${base(b.entityId)}/entries`).send({ ...sale(b, 1), id: bad });
        expect({ bad, status: res.status, code: res.body.code, path: res.body.params?.errors?.[0]?.path }).toEqual({ bad, status: 400, code: 'VALIDATION_ERROR', path: 'id' });
        const query = await staff.get(`${base(b.entityId)}/lines`).query({ accountId: bad });
        expect({ bad, status: query.status, code: query.body.code }).toEqual({ bad, status: 400, code: 'VALIDATION_ERROR' });
      }
    });

    it('answers the exchange rate in one canonical form, the same on POST, GET and the lines list', async () => {
      const b = await setUpBooks(await freshEntity(world));
      // [sent, canonical, CLP amount of USD 100.00 at that rate]
      const rates: Array<[string, string, number]> = [
        ['950.50', '950.5', 95050],
        ['0950.500000', '950.5', 95050],
        ['950.000', '950', 95000],
        ['0.500000000001', '0.500000000001', 50],
      ];
      for (const [sent, canonical, amount] of rates) {
        const entry = await post(
          {
            ...sale(b, amount),
            newLedgerEntryLines: [
              { side: 'debit', ledgerAccountId: b.bank, amount, transactionCurrency: 'USD', transactionAmount: 10000, exchangeRate: sent },
              { side: 'credit', ledgerAccountId: b.sales, amount },
            ],
          },
          b,
        );
        expect({ sent, posted: entry.lines[0].exchangeRate }).toEqual({ sent, posted: canonical });
        expect((await staff.get(`${base(b.entityId)}/entries/${entry.id}`)).body.lines[0].exchangeRate).toBe(canonical);
        const listed = (await staff.get(`${base(b.entityId)}/lines`).query({ accountId: b.bank })).body as Array<{ entryId: string; exchangeRate: string }>;
        expect(listed.find((l) => l.entryId === entry.id)?.exchangeRate).toBe(canonical);
      }
    });

    it('tags Dimension Values only on Result Accounts, one per Dimension', async () => {
      const dimension = randomUUID();
      const other = randomUUID();
      await staff.post(`/api/entities/${ledger.entityId}/dimensions`).send({ id: dimension, name: `CC ${dimension}` }).expect(201);
      await staff.post(`/api/entities/${ledger.entityId}/dimensions`).send({ id: other, name: `P ${other}` }).expect(201);
      const [v1, v2, p1] = [randomUUID(), randomUUID(), randomUUID()];
      await staff.post(`/api/entities/${ledger.entityId}/dimensions/${dimension}/values`).send({ id: v1, code: 'SCL', name: 'Santiago' }).expect(201);
      await staff.post(`/api/entities/${ledger.entityId}/dimensions/${dimension}/values`).send({ id: v2, code: 'VAP', name: 'Valparaíso' }).expect(201);
      await staff.post(`/api/entities/${ledger.entityId}/dimensions/${other}/values`).send({ id: p1, code: 'P1', name: 'Proyecto 1' }).expect(201);
      const lines = (ids: string[], account = ledger.rent) => [
        { side: 'debit', ledgerAccountId: account, amount: 500, dimensionValueIds: ids },
        { side: 'credit', ledgerAccountId: ledger.bank, amount: 500 },
      ];
      const duplicate = await staff.post(`${base()}/entries`).send({ ...sale(ledger, 1), newLedgerEntryLines: lines([v1, v2]) });
      expect([duplicate.status, duplicate.body.code]).toEqual([400, 'LEDGER_LINE_DUPLICATE_DIMENSION_ERROR']);
      const onBalance = await staff.post(`${base()}/entries`).send({ ...sale(ledger, 1), newLedgerEntryLines: lines([v1], ledger.bank) });
      expect([onBalance.status, onBalance.body.code]).toEqual([409, 'LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR']);
      const entry = await post({ ...sale(ledger, 1), newLedgerEntryLines: lines([v1, p1]) });
      expect(entry.lines[0].dimensionValues).toEqual(
        expect.arrayContaining([
          { id: v1, dimensionId: dimension, code: 'SCL', name: 'Santiago' },
          { id: p1, dimensionId: other, code: 'P1', name: 'Proyecto 1' },
        ]),
      );
      const inUse = await staff.delete(`/api/entities/${ledger.entityId}/dimensions/${dimension}/values/${v1}`);
      expect([inUse.status, inUse.body.code]).toEqual([409, 'DIMENSION_VALUE_IN_USE_ERROR']);
    });

    it('refuses dates on or before the lock date (D24) and locks identity fields (D22)', async () => {
      const b = await setUpBooks(await freshEntity(world));
      expect((await staff.get(`/api/entities/${b.entityId}/editability`)).body).toEqual({ identityFieldsEditable: true });
      await post({ ...sale(b, 10), entryDate: '2026-05-31' }, b);
      expect((await staff.get(`/api/entities/${b.entityId}/editability`)).body).toEqual({ identityFieldsEditable: false });
      const locked = await staff.patch(`/api/entities/${b.entityId}`).send({ currency: 'USD' });
      expect([locked.status, locked.body.code]).toEqual([409, 'ENTITY_IDENTITY_FIELDS_LOCKED_ERROR']);
      await staff.patch(`/api/entities/${b.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-05-31' }).expect(200);
      const res = await staff.post(`${base(b.entityId)}/entries`).send({ ...sale(b, 10), entryDate: '2026-05-31' });
      expect([res.status, res.body.code]).toEqual([409, 'LEDGER_PERIOD_LOCKED_ERROR']);
      await post({ ...sale(b, 10), entryDate: '2026-06-01' }, b);
    });

    it('applies the Book rules on writes: without bookId (absent or null) a Common Entry, also once the Entity keeps Books', async () => {
      const b = await setUpBooks(await freshEntity(world));
      expect((await post({ ...sale(b, 5), bookId: null }, b)).bookId).toBeNull();
      const bookId = randomUUID();
      await staff.post(`/api/entities/${b.entityId}/books`).send({ id: bookId, name: 'IFRS' }).expect(201);
      for (const change of [{}, { bookId: null }]) {
        const common = await post({ ...sale(b, 5), ...change }, b);
        expect(common.bookId).toBeNull();
        expect((await staff.get(`${base(b.entityId)}/entries/${common.id}`)).body.bookId).toBeNull();
      }
      const scheduled = await staff.post(`${base(b.entityId)}/scheduled-entries`).send({ ...sale(b, 5), entryDate: '2026-07-01' });
      expect([scheduled.status, scheduled.body.bookId]).toEqual([201, null]);
      // A Common Entry counts in every Book (spec "Book" rule 2).
      const lines = await staff.get(`${base(b.entityId)}/lines`).query({ accountId: b.sales, bookId });
      expect(lines.body).toHaveLength(3);
      const foreignBook = randomUUID();
      const other = await freshEntity(world);
      await staff.post(`/api/entities/${other}/books`).send({ id: foreignBook, name: 'Tax' }).expect(201);
      const foreign = await staff.post(`${base(b.entityId)}/entries`).send({ ...sale(b, 5), bookId: foreignBook });
      expect([foreign.status, foreign.body.code]).toEqual([404, 'BOOK_NOT_FOUND_ERROR']);
      const entry = await post({ ...sale(b, 5), bookId }, b);
      expect(entry.bookId).toBe(bookId);
    });
    it('keeps a reversal in the Book of its original (no bookId on reverse), and lists one Book as its entries plus the common ones', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const [ifrs, tax] = [randomUUID(), randomUUID()];
      await staff.post(`/api/entities/${b.entityId}/books`).send({ id: ifrs, name: 'IFRS' }).expect(201);
      await staff.post(`/api/entities/${b.entityId}/books`).send({ id: tax, name: 'Tax' }).expect(201);
      const inIfrs = await post({ ...sale(b, 5), bookId: ifrs }, b);
      const common = await post(sale(b, 6), b);
      const inTax = await post({ ...sale(b, 7), bookId: tax }, b);
      const withBook = await staff.post(`${base(b.entityId)}/entries/${inIfrs.id}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-11', bookId: tax });
      expect([withBook.status, withBook.body.code]).toEqual([400, 'VALIDATION_ERROR']);
      const reversed = await staff.post(`${base(b.entityId)}/entries/${inIfrs.id}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-11' }).expect(201);
      expect(reversed.body.reversalEntry.bookId).toBe(ifrs);
      const commonReversal = await staff.post(`${base(b.entityId)}/entries/${common.id}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-11' }).expect(201);
      expect(commonReversal.body.reversalEntry.bookId).toBeNull();
      const ids = async (query: Record<string, string>) => ((await staff.get(`${base(b.entityId)}/entries`).query(query)).body.entries as Array<{ id: string }>).map((e) => e.id).sort();
      expect(await ids({ bookId: ifrs })).toEqual([inIfrs.id, reversed.body.reversalEntry.id, common.id, commonReversal.body.reversalEntry.id].sort());
      expect(await ids({ bookId: tax })).toEqual([inTax.id, common.id, commonReversal.body.reversalEntry.id].sort());
      expect(await ids({})).toHaveLength(5);
      const unknown = await staff.get(`${base(b.entityId)}/entries`).query({ bookId: randomUUID() });
      expect([unknown.status, unknown.body.code]).toEqual([404, 'BOOK_NOT_FOUND_ERROR']);
    });
  });

  describe('listing (D37, D38)', () => {
    it('pages newest first and visits every entry exactly once while entries are being added', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const dates = ['2026-06-01', '2026-06-02', '2026-06-03', '2026-06-04', '2026-06-05'];
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push((await post({ ...sale(b, 100 + i), entryDate: dates[i % dates.length] }, b)).id);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await staff.get(`${base(b.entityId)}/entries`).query({ limit: 5, ...(cursor ? { cursor } : {}) });
        expect(res.status).toBe(200);
        const keys = res.body.entries.map((e: { entryDate: string; id: string }) => `${e.entryDate}|${e.id}`);
        expect(keys).toEqual([...keys].sort().reverse());
        seen.push(...res.body.entries.map((e: { id: string }) => e.id));
        cursor = res.body.nextCursor;
        // A newer entry arrives while paging: it sorts before the cursor and is not repeated.
        if (pages++ === 0) await post({ ...sale(b, 999), entryDate: '2026-06-15' }, b);
      } while (cursor);
      expect(seen.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
      expect(new Set(seen).size).toBe(seen.length);
    });

    it('searches memo and notes ignoring the case of every letter, not only A to Z', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const kept = await post({ ...sale(b, 7), memo: 'Élan del Ñandú', notes: 'CAFÉ' }, b);
      for (const search of ['élan', 'ÑANDÚ', 'café']) {
        const res = await staff.get(`${base(b.entityId)}/entries`).query({ search });
        expect({ search, ids: res.body.entries.map((e: { id: string }) => e.id) }).toEqual({ search, ids: [kept.id] });
      }
    });

    it('filters by status, search and account; refuses a bad cursor or limit', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const kept = await post({ ...sale(b, 7), memo: 'Arriendo oficina junio' }, b);
      const gone = await post({ ...sale(b, 8), memo: 'Error de digitación' }, b);
      await staff.delete(`${base(b.entityId)}/entries/${gone.id}`).expect(200);
      const live = await staff.get(`${base(b.entityId)}/entries`);
      expect(live.body.entries.map((e: { id: string }) => e.id)).toEqual([kept.id]);
      const all = await staff.get(`${base(b.entityId)}/entries`).query({ status: 'all' });
      expect(all.body.entries).toHaveLength(2);
      expect((await staff.get(`${base(b.entityId)}/entries`).query({ status: 'deleted' })).body.entries.map((e: { id: string }) => e.id)).toEqual([gone.id]);
      expect((await staff.get(`${base(b.entityId)}/entries`).query({ search: 'OFICINA' })).body.entries).toHaveLength(1);
      expect((await staff.get(`${base(b.entityId)}/entries`).query({ accountId: b.rent })).body.entries).toHaveLength(0);
      // Forged cursors whose date or id PostgreSQL refuses (were 500s).
      const forged = [`2026-02-30|${randomUUID()}`, `0000-01-01|${randomUUID()}`, `2026-06-01|${'-'.repeat(36)}`].map((key) => ({ cursor: Buffer.from(key).toString('base64url') }));
      for (const query of [{ cursor: 'bm9wZQ' }, { limit: 0 }, { limit: 101 }, { status: 'gone' }, { acountId: b.rent }, ...forged]) {
        const res = await staff.get(`${base(b.entityId)}/entries`).query(query);
        expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'VALIDATION_ERROR' });
      }
      // A cursor this service did not make is 400, down to a date that does not exist or an id that is no UUID.
      const crafted = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
      for (const cursor of [crafted(`2026-02-30|${kept.id}`), crafted('2026-06-10|------------------------------------'), crafted(`2026-06-10|${kept.id}|x`)]) {
        const res = await staff.get(`${base(b.entityId)}/entries`).query({ cursor });
        expect({ cursor, status: res.status, code: res.body.code, path: res.body.params?.errors?.[0]?.path }).toEqual({ cursor, status: 400, code: 'VALIDATION_ERROR', path: 'cursor' });
      }
      // A range that ends before it starts is a mistake, not an empty list (as D58 for reports).
      for (const path of ['entries', 'lines']) {
        const reversed = await staff.get(`${base(b.entityId)}/${path}`).query({ from: '2026-06-10', to: '2026-06-09' });
        expect({ path, status: reversed.status, code: reversed.body.code, errors: reversed.body.params?.errors }).toEqual({ path, status: 400, code: 'VALIDATION_ERROR', errors: [{ path: 'to', message: 'must be on or after from' }] });
        expect((await staff.get(`${base(b.entityId)}/${path}`).query({ from: '2026-06-10', to: '2026-06-10' })).status).toBe(200);
      }
      const misspelt = await staff.get(`${base(b.entityId)}/lines`).query({ acountId: b.rent });
      expect([misspelt.status, misspelt.body.code, misspelt.body.params.errors[0].path]).toEqual([400, 'VALIDATION_ERROR', 'acountId']);
      const lines = await staff.get(`${base(b.entityId)}/lines`).query({ accountId: b.receivable });
      expect(lines.status).toBe(200);
      expect(lines.body).toEqual([expect.objectContaining({ entryId: kept.id, entryDate: '2026-06-10', memo: 'Arriendo oficina junio', status: 'active', bookId: null, openAmount: 7 })]);
    });
  });

  describe('listing: the query is judged before what it names', () => {
    it('refuses a forged cursor with 400 VALIDATION_ERROR on cursor before the Book it names (404 BOOK_NOT_FOUND_ERROR)', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const cursor = Buffer.from('garbage').toString('base64url');
      const withoutBooks = await staff.get(`${base(b.entityId)}/entries`).query({ cursor, bookId: randomUUID() });
      expect([withoutBooks.status, withoutBooks.body.code, withoutBooks.body.params?.errors?.[0]?.path]).toEqual([400, 'VALIDATION_ERROR', 'cursor']);
      await staff.post(`/api/entities/${b.entityId}/books`).send({ id: randomUUID(), name: 'IFRS' }).expect(201);
      const unknownBook = await staff.get(`${base(b.entityId)}/entries`).query({ cursor, bookId: randomUUID() });
      expect([unknownBook.status, unknownBook.body.code, unknownBook.body.params?.errors?.[0]?.path]).toEqual([400, 'VALIDATION_ERROR', 'cursor']);
    });
  });

  describe('editing the header', () => {
    it('changes memo, notes and date of a live entry', async () => {
      const entry = await post(sale(ledger, 3));
      const res = await staff.patch(`${base()}/entries/${entry.id}`).send({ memo: 'Corregida', notes: 'ver respaldo', entryDate: '2026-06-11' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ memo: 'Corregida', notes: 'ver respaldo', entryDate: '2026-06-11' });
      const lines = await t.sql(`SELECT DISTINCT entry_date::text AS d FROM ledger_lines WHERE entity_id = $1 AND entry_id = $2`, [ledger.entityId, entry.id]);
      expect(lines).toEqual([{ d: '2026-06-11' }]);
    });

    it('refuses an empty body, a future date and a deleted entry', async () => {
      const entry = await post(sale(ledger, 3));
      expect((await staff.patch(`${base()}/entries/${entry.id}`).send({})).status).toBe(400);
      const future = await staff.patch(`${base()}/entries/${entry.id}`).send({ entryDate: '2026-07-01' });
      expect([future.status, future.body.code]).toEqual([409, 'LEDGER_ENTRY_DATE_IN_FUTURE_ERROR']);
      await staff.delete(`${base()}/entries/${entry.id}`).expect(200);
      const dead = await staff.patch(`${base()}/entries/${entry.id}`).send({ memo: 'x' });
      expect([dead.status, dead.body.code]).toEqual([409, 'LEDGER_ENTRY_NOT_LIVE_ERROR']);
      const missing = await staff.patch(`${base()}/entries/${randomUUID()}`).send({ memo: 'x' });
      expect([missing.status, missing.body.code]).toEqual([404, 'LEDGER_ENTRY_NOT_FOUND_ERROR']);
    });
  });

  describe('reversal (D36) and unbooking (D35)', () => {
    it('posts the mirror, marks the original reversed and nets open-item lines against their mirrors', async () => {
      const entry = await post(sale(ledger, 5000));
      const reversalId = randomUUID();
      const res = await staff.post(`${base()}/entries/${entry.id}/reverse`).send({ id: reversalId, reversalDate: '2026-06-12' });
      expect(res.status).toBe(201);
      expect(res.body.reversedEntry).toMatchObject({ id: entry.id, status: 'reversed', reversedByEntryId: reversalId });
      expect(res.body.reversalEntry).toMatchObject({ id: reversalId, status: 'active', source: 'reversal', reversalOfEntryId: entry.id, entryDate: '2026-06-12' });
      expect(res.body.reversalEntry.lines.map((l: { side: string; amount: number }) => [l.side, l.amount])).toEqual([['credit', 5000], ['debit', 5000]]);
      expect(res.body).toMatchObject({ severedInvoices: [], severedMovements: [], settledChainEntries: [] });
      const original = await staff.get(`${base()}/entries/${entry.id}`);
      expect(original.body.lines[0].openAmount).toBe(0);
      expect(original.body.allocations).toEqual([expect.objectContaining({ debitLineId: entry.lines[0].id, amount: 5000 })]);
      // Every account nets to zero over the pair.
      const net = await t.sql<{ account_id: string; net: string }>(
        `SELECT account_id, sum(CASE side WHEN 'debit' THEN amount ELSE -amount END)::text AS net FROM ledger_lines
          WHERE entity_id = $1 AND entry_id = ANY($2::uuid[]) GROUP BY account_id`,
        [ledger.entityId, [entry.id, reversalId]],
      );
      expect(net.every((row) => row.net === '0')).toBe(true);
    });

    it('refuses to reverse twice, to reverse a reversal, to date it on or before the original, and into a locked period', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const entry = await post(sale(b, 10), b);
      const early = await staff.post(`${base(b.entityId)}/entries/${entry.id}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-10' });
      expect([early.status, early.body.code]).toEqual([409, 'LEDGER_REVERSAL_DATE_INVALID_ERROR']);
      const reversal = (await staff.post(`${base(b.entityId)}/entries/${entry.id}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-11' }).expect(201)).body.reversalEntry;
      const twice = await staff.post(`${base(b.entityId)}/entries/${entry.id}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-12' });
      expect([twice.status, twice.body.code]).toEqual([409, 'LEDGER_ENTRY_NOT_REVERSIBLE_ERROR']);
      const ofReversal = await staff.post(`${base(b.entityId)}/entries/${reversal.id}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-12' });
      expect([ofReversal.status, ofReversal.body.code]).toEqual([409, 'LEDGER_ENTRY_NOT_REVERSIBLE_ERROR']);
      const other = await post(sale(b, 11), b);
      await staff.patch(`/api/entities/${b.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-06-12' }).expect(200);
      const locked = await staff.post(`${base(b.entityId)}/entries/${other.id}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-12' });
      expect([locked.status, locked.body.code]).toEqual([409, 'LEDGER_PERIOD_LOCKED_ERROR']);
    });

    it('posts a reversal dated after today (D36 names no such refusal): the mirror is active on its date', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const entry = await post(sale(b, 120), b);
      const reversalId = randomUUID();
      const res = await staff.post(`${base(b.entityId)}/entries/${entry.id}/reverse`).send({ id: reversalId, reversalDate: '2026-07-01' });
      expect(res.status).toBe(201);
      expect(res.body.reversalEntry).toMatchObject({ id: reversalId, status: 'active', source: 'reversal', entryDate: '2026-07-01' });
      expect(res.body.reversedEntry).toMatchObject({ id: entry.id, status: 'reversed', reversedByEntryId: reversalId });
      expect((await staff.get(`${base(b.entityId)}/entries/${reversalId}`)).body).toMatchObject({ status: 'active', entryDate: '2026-07-01' });
      await expectMonthlyTotalsMatchLines(t, b.entityId);
    });

    it('judges the state before the dates, and answers a replayed reversal id with LEDGER_ENTRY_ALREADY_EXISTS_ERROR, writing nothing', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const entry = await post(sale(b, 10), b);
      const body = { id: randomUUID(), reversalDate: '2026-06-12' };
      await staff.post(`${base(b.entityId)}/entries/${entry.id}/reverse`).send(body).expect(201);
      const tables = ['ledger_entries', 'ledger_lines', 'reconciliation_allocations', 'audit_trail'];
      await expectRefused(t, tables, staff.post(`${base(b.entityId)}/entries/${entry.id}/reverse`).send(body), 409, 'LEDGER_ENTRY_ALREADY_EXISTS_ERROR');
      // Any existing entry id is taken, not only the reversal's.
      const other = await post(sale(b, 12), b);
      await expectRefused(t, tables, staff.post(`${base(b.entityId)}/entries/${other.id}/reverse`).send({ id: entry.id, reversalDate: '2026-06-12' }), 409, 'LEDGER_ENTRY_ALREADY_EXISTS_ERROR');
      await staff.patch(`/api/entities/${b.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-06-13' }).expect(200);
      // Reversed already, and the date is both locked and not after the original: the state decides.
      await expectRefused(t, tables, staff.post(`${base(b.entityId)}/entries/${entry.id}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-01' }), 409, 'LEDGER_ENTRY_NOT_REVERSIBLE_ERROR');
      // Then the date against the original, then the lock date.
      await expectRefused(t, tables, staff.post(`${base(b.entityId)}/entries/${other.id}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-01' }), 409, 'LEDGER_REVERSAL_DATE_INVALID_ERROR');
      await expectRefused(t, tables, staff.post(`${base(b.entityId)}/entries/${other.id}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-13' }), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
      await expectRefused(t, tables, staff.post(`${base(b.entityId)}/entries/${randomUUID()}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-14' }), 404, 'LEDGER_ENTRY_NOT_FOUND_ERROR');
    });

    it('answers reverse and unbook with the entries as stored: open amounts after the netting and the released allocations equal a GET', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const detail = async (id: string) => {
        const res = await staff.get(`${base(b.entityId)}/entries/${id}`).expect(200);
        const { relatedInvoices: _i, relatedBankMovements: _m, allocations: _a, closingId: _c, ...entry } = res.body;
        return entry;
      };
      const entry = await post(sale(b, 500), b);
      const reversalId = randomUUID();
      const reversed = await staff.post(`${base(b.entityId)}/entries/${entry.id}/reverse`).send({ id: reversalId, reversalDate: '2026-06-12' }).expect(201);
      expect(reversed.body.reversedEntry.lines[0].openAmount).toBe(0);
      expect(reversed.body.reversalEntry.lines[0].openAmount).toBe(0);
      expect(reversed.body.reversedEntry).toEqual(await detail(entry.id));
      expect(reversed.body.reversalEntry).toEqual(await detail(reversalId));

      const unbookedReversal = await staff.delete(`${base(b.entityId)}/entries/${reversalId}`).expect(200);
      expect(unbookedReversal.body.unbookedEntry).toEqual(await detail(reversalId));
      expect(unbookedReversal.body.settledChainEntries).toEqual([await detail(entry.id)]);
      expect(unbookedReversal.body.settledChainEntries[0].lines[0].openAmount).toBe(500);

      // A sale partly settled by a payment: unbooking it gives the allocation back.
      const invoice = await post(sale(b, 300), b);
      const payment = await post(
        { ...sale(b, 100), newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: b.bank, amount: 100 }, { side: 'credit', ledgerAccountId: b.receivable, amount: 100 }] },
        b,
      );
      await staff
        .post(`${base(b.entityId)}/allocations`)
        .send({ id: randomUUID(), debitLineId: invoice.lines[0].id, creditLineId: payment.lines[1].id, amount: 100 })
        .expect(201);
      const unbooked = await staff.delete(`${base(b.entityId)}/entries/${invoice.id}`).expect(200);
      expect(unbooked.body.unbookedEntry.lines[0].openAmount).toBe(300);
      expect(unbooked.body.unbookedEntry).toEqual(await detail(invoice.id));
      expect((await detail(payment.id)).lines[1].openAmount).toBe(100);
    });

    it('unbooks a reversal: the original is active again, its allocations gone and open amounts restored', async () => {
      const entry = await post(sale(ledger, 700));
      const reversal = (await staff.post(`${base()}/entries/${entry.id}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-13' }).expect(201)).body.reversalEntry;
      const res = await staff.delete(`${base()}/entries/${reversal.id}`);
      expect(res.status).toBe(200);
      expect(res.body.unbookedEntry).toMatchObject({ id: reversal.id, status: 'deleted' });
      expect(res.body.settledChainEntries).toEqual([expect.objectContaining({ id: entry.id, status: 'active', reversedByEntryId: null })]);
      expect(res.body).toMatchObject({ severedInvoices: [], severedMovements: [] });
      const original = await staff.get(`${base()}/entries/${entry.id}`);
      expect(original.body.lines[0].openAmount).toBe(700);
      expect(original.body.allocations).toEqual([]);
      const again = await staff.delete(`${base()}/entries/${reversal.id}`);
      expect([again.status, again.body.code]).toEqual([409, 'LEDGER_ENTRY_NOT_LIVE_ERROR']);
    });

    it('unbooks an original that has been reversed (a live entry, spec state table) together with its reversal', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const entry = await post(sale(b, 900), b);
      const reversalId = randomUUID();
      await staff.post(`${base(b.entityId)}/entries/${entry.id}/reverse`).send({ id: reversalId, reversalDate: '2026-06-13' }).expect(201);
      const res = await expectAudited(t, staff.delete(`${base(b.entityId)}/entries/${entry.id}`), 200, {
        action: 'ledger_entry.unbook',
        resource_id: entry.id,
      });
      expect(res.body.unbookedEntry).toMatchObject({ id: entry.id, status: 'deleted', reversedByEntryId: reversalId });
      expect(res.body.settledChainEntries).toEqual([expect.objectContaining({ id: reversalId, status: 'deleted', reversalOfEntryId: entry.id })]);
      expect(res.body).toMatchObject({ severedInvoices: [], severedMovements: [] });
      // Nothing of the pair is left in the books: no live line, no allocation, totals back to zero.
      expect(await countRows(t, 'ledger_lines', "entity_id = $1 AND status <> 'deleted'", [b.entityId])).toBe(0);
      expect(await countRows(t, 'reconciliation_allocations', 'entity_id = $1', [b.entityId])).toBe(0);
      expect(res.body.unbookedEntry.lines[0].openAmount).toBe(900);
      await expectMonthlyTotalsMatchLines(t, b.entityId);
      expect((await staff.get(`${base(b.entityId)}/entries`)).body.entries).toEqual([]);
      const again = await staff.delete(`${base(b.entityId)}/entries/${reversalId}`);
      expect([again.status, again.body.code]).toEqual([409, 'LEDGER_ENTRY_NOT_LIVE_ERROR']);
    });

    it('unbooks an original and its reversal racing each other: either order ends with both deleted and the totals true', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const pairs: Array<{ original: string; reversal: string }> = [];
      for (let i = 0; i < 6; i++) {
        const entry = await post(sale(b, 100 + i), b);
        const reversal = randomUUID();
        await staff.post(`${base(b.entityId)}/entries/${entry.id}/reverse`).send({ id: reversal, reversalDate: '2026-06-13' }).expect(201);
        pairs.push({ original: entry.id, reversal });
      }
      const answers = await Promise.all(
        pairs.flatMap(({ original, reversal }) => [original, reversal].map(async (id) => (await staff.delete(`${base(b.entityId)}/entries/${id}`)).status)),
      );
      // The reversal first: both 200 (the original active again, then unbooked). The original
      // first: 200, and the reversal, gone with it, 409 LEDGER_ENTRY_NOT_LIVE_ERROR.
      for (let i = 0; i < pairs.length; i++) expect([[200, 200], [200, 409]]).toContainEqual(answers.slice(2 * i, 2 * i + 2));
      const statuses = await t.sql<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM ledger_entries WHERE entity_id = $1 GROUP BY status', [b.entityId]);
      expect(statuses).toEqual([{ status: 'deleted', n: 12 }]);
      await expectMonthlyTotalsMatchLines(t, b.entityId);
    });

    it.each([
      ['the original first', 'original'],
      ['the reversal first', 'reversal'],
    ] as const)('dates both halves of a reversal pair at once (%s): the second waits and is judged on the first, 409 LEDGER_REVERSAL_DATE_INVALID_ERROR', async (_label, first) => {
      const b = await setUpBooks(await freshEntity(world));
      const original = await post(sale(b, 10), b); // 2026-06-10
      const reversal = randomUUID();
      await staff.post(`${base(b.entityId)}/entries/${original.id}/reverse`).send({ id: reversal, reversalDate: '2026-06-13' }).expect(201);
      // Each date alone keeps the reversal after its original; both together would not.
      const moves = { original: [original.id, '2026-06-12'], reversal: [reversal, '2026-06-11'] } as const;
      const second = first === 'original' ? 'reversal' : 'original';
      const patch = (which: 'original' | 'reversal') => staff.patch(`${base(b.entityId)}/entries/${moves[which][0]}`).send({ entryDate: moves[which][1] });
      let patching: ReturnType<typeof sendNow> | undefined;
      // The first change has written and waits for its audit row; the second is sent then.
      const firstAnswer = await whileTableLocked(t, 'audit_trail', 1, () => patch(first), async () => {
        patching = sendNow(patch(second));
        await waitUntil(async () => patching!.answered() || (await lockWaiters(t)) >= 2);
      });
      const secondAnswer = await patching!.response;
      expect([firstAnswer.status, secondAnswer.status, secondAnswer.body.code]).toEqual([200, 409, 'LEDGER_REVERSAL_DATE_INVALID_ERROR']);
      const dates = await t.sql<{ id: string; d: string }>('SELECT id, entry_date::text AS d FROM ledger_entries WHERE id = ANY($1::uuid[])', [[original.id, reversal]]);
      const dateOf = Object.fromEntries(dates.map((r) => [r.id, r.d]));
      expect(dateOf[reversal] > dateOf[original.id]).toBe(true);
      expect(dateOf[moves[first][0]]).toBe(moves[first][1]);
      await expectMonthlyTotalsMatchLines(t, b.entityId);
    });

    it('refuses to unbook into a locked period', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const entry = await post({ ...sale(b, 10), entryDate: '2026-06-01' }, b);
      await staff.patch(`/api/entities/${b.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-06-05' }).expect(200);
      const res = await staff.delete(`${base(b.entityId)}/entries/${entry.id}`);
      expect([res.status, res.body.code]).toEqual([409, 'LEDGER_PERIOD_LOCKED_ERROR']);
      expect((await staff.get(`${base(b.entityId)}/entries/${entry.id}`)).body.status).toBe('active');
    });
    it('judges the state before the lock date on unbooking: an entry that is not live is 409 LEDGER_ENTRY_NOT_LIVE_ERROR, writing nothing', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const tables = ['ledger_entries', 'ledger_lines', 'reconciliation_allocations', 'ledger_account_monthly_totals', 'audit_trail'];
      const gone = await post({ ...sale(b, 10), entryDate: '2026-06-01' }, b);
      await staff.delete(`${base(b.entityId)}/entries/${gone.id}`).expect(200);
      const scheduled = { ...sale(b, 10), entryDate: '2026-07-01' };
      await staff.post(`${base(b.entityId)}/scheduled-entries`).send(scheduled).expect(201);
      const cancelled = { ...sale(b, 10), entryDate: '2026-07-02' };
      await staff.post(`${base(b.entityId)}/scheduled-entries`).send(cancelled).expect(201);
      await staff.delete(`${base(b.entityId)}/scheduled-entries/${cancelled.id}`).expect(200);
      await staff.patch(`/api/entities/${b.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-06-05' }).expect(200);
      for (const [entryId, status] of [[gone.id, 'deleted'], [scheduled.id, 'scheduled'], [cancelled.id, 'cancelled']]) {
        const res = await expectRefused(t, tables, staff.delete(`${base(b.entityId)}/entries/${entryId}`), 409, 'LEDGER_ENTRY_NOT_LIVE_ERROR');
        expect(res.body.params).toEqual({ entryId, status });
      }
    });

    it('refuses a body on the routes that take none (unbook, book, cancel) with 400 VALIDATION_ERROR, writing nothing', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const tables = ['ledger_entries', 'ledger_lines', 'ledger_account_monthly_totals', 'audit_trail'];
      const entry = await post(sale(b, 10), b);
      const scheduled = { ...sale(b, 10), entryDate: '2026-06-15' };
      clock.set(new Date('2026-06-14T15:00:00Z'));
      try {
        await staff.post(`${base(b.entityId)}/scheduled-entries`).send(scheduled).expect(201);
      } finally {
        clock.set(new Date('2026-06-15T15:00:00Z'));
      }
      const refusals = [
        staff.delete(`${base(b.entityId)}/entries/${entry.id}`).send({ reason: 'x' }),
        staff.post(`${base(b.entityId)}/scheduled-entries/${scheduled.id}/book`).send({ entryDate: '2026-06-15' }),
        staff.delete(`${base(b.entityId)}/scheduled-entries/${scheduled.id}`).send({ force: true }),
      ];
      for (const request of refusals) {
        const res = await expectRefused(t, tables, request, 400, 'VALIDATION_ERROR');
        expect(res.body.params.errors).toHaveLength(1);
      }
      // No body, or an empty object, is fine.
      expect((await staff.post(`${base(b.entityId)}/scheduled-entries/${scheduled.id}/book`).send({})).status).toBe(200);
      expect((await staff.delete(`${base(b.entityId)}/entries/${entry.id}`)).status).toBe(200);
    });
  });

  describe('the state table, cell by cell (spec "States and transitions / Ledger entry", D33a, D35, D36)', () => {
    const TABLES = ['ledger_entries', 'ledger_lines', 'ledger_line_dimension_values', 'reconciliation_allocations', 'ledger_account_monthly_totals', 'audit_trail'];
    type State = 'active' | 'reversed' | 'reversal' | 'deleted' | 'scheduled' | 'cancelled';
    const STATES: State[] = ['active', 'reversed', 'reversal', 'deleted', 'scheduled', 'cancelled'];

    /** One entry in each state, in a fresh Entity ("reversal" is the active mirror of "reversed"). */
    async function entriesInEveryState(b: Books): Promise<Record<State, string>> {
      const active = (await post(sale(b, 10), b)).id;
      const reversed = (await post(sale(b, 11), b)).id;
      const reversal = randomUUID();
      await staff.post(`${base(b.entityId)}/entries/${reversed}/reverse`).send({ id: reversal, reversalDate: '2026-06-12' }).expect(201);
      const deleted = (await post(sale(b, 12), b)).id;
      await staff.delete(`${base(b.entityId)}/entries/${deleted}`).expect(200);
      const scheduled = (await staff.post(`${base(b.entityId)}/scheduled-entries`).send({ ...sale(b, 13), entryDate: '2026-07-01' }).expect(201)).body.id;
      const cancelled = (await staff.post(`${base(b.entityId)}/scheduled-entries`).send({ ...sale(b, 14), entryDate: '2026-07-02' }).expect(201)).body.id;
      await staff.delete(`${base(b.entityId)}/scheduled-entries/${cancelled}`).expect(200);
      return { active, reversed, reversal, deleted, scheduled, cancelled };
    }

    type Operation = { label: string; send: (b: Books, entryId: string) => request.Test; allowed: Partial<Record<State, number>>; refusal: [number, string] };
    const operations = (): Operation[] => [
      { label: 'PATCH entries/:entryId', send: (b, id) => staff.patch(`${base(b.entityId)}/entries/${id}`).send({ memo: 'Corregida' }), allowed: { active: 200, reversed: 200, reversal: 200 }, refusal: [409, 'LEDGER_ENTRY_NOT_LIVE_ERROR'] },
      {
        label: 'POST entries/:entryId/reverse',
        send: (b, id) => staff.post(`${base(b.entityId)}/entries/${id}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-14' }),
        allowed: { active: 201 },
        refusal: [409, 'LEDGER_ENTRY_NOT_REVERSIBLE_ERROR'],
      },
      { label: 'DELETE entries/:entryId', send: (b, id) => staff.delete(`${base(b.entityId)}/entries/${id}`), allowed: { active: 200, reversed: 200, reversal: 200 }, refusal: [409, 'LEDGER_ENTRY_NOT_LIVE_ERROR'] },
      {
        label: 'POST scheduled-entries/:entryId/book',
        send: (b, id) => staff.post(`${base(b.entityId)}/scheduled-entries/${id}/book`),
        allowed: {}, // the scheduled entry is not due: LEDGER_SCHEDULED_ENTRY_NOT_DUE_ERROR, below
        refusal: [409, 'LEDGER_ENTRY_NOT_SCHEDULED_ERROR'],
      },
      {
        label: 'PATCH scheduled-entries/:entryId',
        send: (b, id) => staff.patch(`${base(b.entityId)}/scheduled-entries/${id}`).send({ entryDate: '2026-07-03', memo: 'Reprogramada', newLedgerEntryLines: sale(b, 15).newLedgerEntryLines }),
        allowed: { scheduled: 200 },
        refusal: [409, 'LEDGER_ENTRY_NOT_SCHEDULED_ERROR'],
      },
      { label: 'DELETE scheduled-entries/:entryId', send: (b, id) => staff.delete(`${base(b.entityId)}/scheduled-entries/${id}`), allowed: { scheduled: 200 }, refusal: [409, 'LEDGER_ENTRY_NOT_SCHEDULED_ERROR'] },
    ];

    it('refuses every operation the table does not allow in a state with its code, naming the entry and its status, and writes nothing', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const entries = await entriesInEveryState(b);
      const status: Record<State, string> = { active: 'active', reversed: 'reversed', reversal: 'active', deleted: 'deleted', scheduled: 'scheduled', cancelled: 'cancelled' };
      for (const op of operations()) {
        for (const state of STATES.filter((s) => op.allowed[s] === undefined && !(op.label.endsWith('/book') && s === 'scheduled'))) {
          const res = await expectRefused(t, TABLES, op.send(b, entries[state]), op.refusal[0], op.refusal[1]);
          expect({ op: op.label, state, params: res.body.params }).toEqual({ op: op.label, state, params: { entryId: entries[state], status: status[state] } });
        }
      }
      const notDue = await expectRefused(t, TABLES, staff.post(`${base(b.entityId)}/scheduled-entries/${entries.scheduled}/book`), 409, 'LEDGER_SCHEDULED_ENTRY_NOT_DUE_ERROR');
      expect(notDue.body.params).toEqual({ entryDate: '2026-07-01', today: '2026-06-15' });
      // Every operation on an entry id the Entity does not have: 404, nothing written.
      for (const op of operations()) await expectRefused(t, TABLES, op.send(b, randomUUID()), 404, 'LEDGER_ENTRY_NOT_FOUND_ERROR');
    });

    it('allows every operation the table allows in a state, with its status, and the entry reads its new state', async () => {
      const after: Record<string, Partial<Record<State, string>>> = {
        'PATCH entries/:entryId': { active: 'active', reversed: 'reversed', reversal: 'active' },
        'POST entries/:entryId/reverse': { active: 'reversed' },
        'DELETE entries/:entryId': { active: 'deleted', reversed: 'deleted', reversal: 'deleted' },
        'PATCH scheduled-entries/:entryId': { scheduled: 'scheduled' },
        'DELETE scheduled-entries/:entryId': { scheduled: 'cancelled' },
      };
      for (const op of operations()) {
        for (const [state, expected] of Object.entries(op.allowed) as Array<[State, number]>) {
          const b = await setUpBooks(await freshEntity(world));
          const entryId = (await entriesInEveryState(b))[state];
          const res = await op.send(b, entryId);
          expect({ op: op.label, state, status: res.status }).toEqual({ op: op.label, state, status: expected });
          const read = await staff.get(`${base(b.entityId)}/entries/${entryId}`).expect(200);
          expect({ op: op.label, state, status: read.body.status }).toEqual({ op: op.label, state, status: after[op.label][state] });
          await expectMonthlyTotalsMatchLines(t, b.entityId);
        }
      }
    });

    it('keeps a reversal dated after its original when a PATCH moves either date (409 LEDGER_REVERSAL_DATE_INVALID_ERROR), writing nothing', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const { reversed, reversal } = await entriesInEveryState(b);
      const move = (id: string, entryDate: string) => staff.patch(`${base(b.entityId)}/entries/${id}`).send({ entryDate });
      await expectRefused(t, TABLES, move(reversed, '2026-06-12'), 409, 'LEDGER_REVERSAL_DATE_INVALID_ERROR');
      await expectRefused(t, TABLES, move(reversal, '2026-06-10'), 409, 'LEDGER_REVERSAL_DATE_INVALID_ERROR');
      expect((await move(reversed, '2026-06-11')).body).toMatchObject({ entryDate: '2026-06-11', status: 'reversed' });
      expect((await move(reversal, '2026-06-14')).body).toMatchObject({ entryDate: '2026-06-14', status: 'active' });
      await expectMonthlyTotalsMatchLines(t, b.entityId);
    });

    it('refuses every change of an entry dated on or before the lock date (D24) with 409 LEDGER_PERIOD_LOCKED_ERROR, writing nothing; a reversal dated after it is allowed', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const partnerId = randomUUID();
      await staff.post(`/api/entities/${b.entityId}/partners`).send({ id: partnerId, name: 'Cliente Tres', type: 'company', country: 'CL', taxId: '11.111.111-1' }).expect(201);
      const dimension = randomUUID();
      const value = randomUUID();
      await staff.post(`/api/entities/${b.entityId}/dimensions`).send({ id: dimension, name: 'CC' }).expect(201);
      await staff.post(`/api/entities/${b.entityId}/dimensions/${dimension}/values`).send({ id: value, code: 'SCL', name: 'Santiago' }).expect(201);
      const old = await post({ ...sale(b, 20), entryDate: '2026-06-01', newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: b.rent, amount: 20 }, { side: 'credit', ledgerAccountId: b.bank, amount: 20 }] }, b);
      const open = await post({ ...sale(b, 21), entryDate: '2026-06-10' }, b);
      await staff.patch(`/api/entities/${b.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-06-05' }).expect(200);
      const line = old.lines[0].id;
      const refusals = [
        staff.patch(`${base(b.entityId)}/entries/${old.id}`).send({ memo: 'Corregida' }),
        staff.patch(`${base(b.entityId)}/entries/${old.id}`).send({ entryDate: '2026-06-10' }),
        staff.patch(`${base(b.entityId)}/entries/${open.id}`).send({ entryDate: '2026-06-05' }),
        staff.delete(`${base(b.entityId)}/entries/${old.id}`),
        staff.post(`${base(b.entityId)}/entries/${old.id}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-05' }),
        staff.post(`${base(b.entityId)}/entries`).send({ ...sale(b, 22), entryDate: '2026-06-05' }),
        staff.post(`${base(b.entityId)}/scheduled-entries`).send({ ...sale(b, 22), entryDate: '2026-06-05' }),
        staff.patch(`${base(b.entityId)}/lines/${line}/partner`).send({ partnerId }),
        staff.patch(`${base(b.entityId)}/lines/${line}/account`).send({ ledgerAccountId: b.sales }),
        staff.put(`${base(b.entityId)}/lines/${line}/dimension-values`).send({ dimensionValueIds: [value] }),
      ];
      for (const refused of refusals) {
        const res = await expectRefused(t, TABLES, refused, 409, 'LEDGER_PERIOD_LOCKED_ERROR');
        expect(res.body.params).toEqual({ date: expect.any(String), ledgerLockDate: '2026-06-05' });
      }
      // An entry of a locked period is reversed by a mirror dated after the lock date.
      const reversed = await staff.post(`${base(b.entityId)}/entries/${old.id}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-06' });
      expect([reversed.status, reversed.body.reversedEntry.status, reversed.body.reversalEntry.entryDate]).toEqual([201, 'reversed', '2026-06-06']);
    });
  });

  describe('scheduled entries', () => {
    it('schedules, replaces, books when due and cancels', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const body = { ...sale(b, 40), entryDate: '2026-06-20' };
      const created = await staff.post(`${base(b.entityId)}/scheduled-entries`).send(body);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ status: 'scheduled', source: 'scheduled', entryDate: '2026-06-20' });
      const notDue = await staff.post(`${base(b.entityId)}/scheduled-entries/${body.id}/book`);
      expect([notDue.status, notDue.body.code]).toEqual([409, 'LEDGER_SCHEDULED_ENTRY_NOT_DUE_ERROR']);
      const lockOver = await staff.patch(`/api/entities/${b.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-06-20' });
      expect([lockOver.status, lockOver.body.code]).toEqual([409, 'ENTITY_LOCK_DATE_OVER_SCHEDULED_ENTRY_ERROR']);
      const replaced = await staff.patch(`${base(b.entityId)}/scheduled-entries/${body.id}`).send({
        entryDate: '2026-06-18',
        memo: 'Arriendo julio',
        newLedgerEntryLines: [
          { side: 'debit', ledgerAccountId: b.rent, amount: 300 },
          { side: 'credit', ledgerAccountId: b.bank, amount: 300 },
        ],
      });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({ entryDate: '2026-06-18', memo: 'Arriendo julio', status: 'scheduled' });
      expect(replaced.body.lines.map((l: { amount: number }) => l.amount)).toEqual([300, 300]);
      expect(await countRows(t, 'ledger_lines', 'entity_id = $1 AND entry_id = $2', [b.entityId, body.id])).toBe(2);
      const live = await staff.get(`${base(b.entityId)}/entries`);
      expect(live.body.entries).toEqual([]);

      clock.set(new Date('2026-06-18T15:00:00Z'));
      try {
        const booked = await staff.post(`${base(b.entityId)}/scheduled-entries/${body.id}/book`);
        expect(booked.status).toBe(200);
        expect(booked.body).toMatchObject({ status: 'active', source: 'scheduled' });
      } finally {
        clock.set(new Date('2026-06-15T15:00:00Z'));
      }
      const second = { ...sale(b, 41), entryDate: '2026-07-01' };
      await staff.post(`${base(b.entityId)}/scheduled-entries`).send(second).expect(201);
      const cancelled = await staff.delete(`${base(b.entityId)}/scheduled-entries/${second.id}`);
      expect([cancelled.status, cancelled.body.status]).toEqual([200, 'cancelled']);
      const bookCancelled = await staff.post(`${base(b.entityId)}/scheduled-entries/${second.id}/book`);
      expect([bookCancelled.status, bookCancelled.body.code]).toEqual([409, 'LEDGER_ENTRY_NOT_SCHEDULED_ERROR']);
    });

    it('judges the body shape first (400), then the entry (404, 409 LEDGER_ENTRY_NOT_SCHEDULED_ERROR), then the new content', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const booked = await post(sale(b, 10), b);
      const scheduled = { ...sale(b, 10), entryDate: '2026-07-01' };
      await staff.post(`${base(b.entityId)}/scheduled-entries`).send(scheduled).expect(201);
      const tables = ['ledger_entries', 'ledger_lines', 'audit_trail'];
      const replace = (entryId: string, body: Record<string, unknown>) => staff.patch(`${base(b.entityId)}/scheduled-entries/${entryId}`).send(body);
      const good = { entryDate: '2026-07-02', memo: 'Arriendo', newLedgerEntryLines: scheduled.newLedgerEntryLines };
      const unbalanced = { ...good, newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: b.rent, amount: 2 }, { side: 'credit', ledgerAccountId: b.bank, amount: 1 }] };
      const notFuture = { ...good, entryDate: '2026-06-15' };
      const trio = { ...good, newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: b.bank, amount: 95050, transactionCurrency: 'USD', transactionAmount: 10000, exchangeRate: '950.5' }, { side: 'credit', ledgerAccountId: b.sales, amount: 95050 }] };
      const unknownAccount = { ...good, newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: randomUUID(), amount: 1 }, { side: 'credit', ledgerAccountId: b.bank, amount: 1 }] };
      await expectRefused(t, tables, replace(booked.id, { ...good, memo: undefined }), 400, 'VALIDATION_ERROR');
      await expectRefused(t, tables, replace(randomUUID(), unbalanced), 404, 'LEDGER_ENTRY_NOT_FOUND_ERROR');
      for (const body of [good, unbalanced, notFuture, trio, unknownAccount]) {
        await expectRefused(t, tables, replace(booked.id, body), 409, 'LEDGER_ENTRY_NOT_SCHEDULED_ERROR');
      }
      await expectRefused(t, tables, replace(scheduled.id, unbalanced), 400, 'LEDGER_ENTRY_UNBALANCED_ERROR');
      await expectRefused(t, tables, replace(scheduled.id, notFuture), 409, 'LEDGER_SCHEDULED_ENTRY_DATE_NOT_FUTURE_ERROR');
      await expectRefused(t, tables, replace(scheduled.id, trio), 400, 'VALIDATION_ERROR');
      await expectRefused(t, tables, replace(scheduled.id, unknownAccount), 404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR');
    });

    it('keeps scheduled entries after the lock date (D24): a future lock date refuses scheduling on or before it, and cannot reach a scheduled entry until it is cancelled', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const tables = ['ledger_entries', 'ledger_lines', 'audit_trail'];
      const scheduled = { ...sale(b, 10), entryDate: '2026-07-01' };
      await staff.post(`${base(b.entityId)}/scheduled-entries`).send(scheduled).expect(201);
      const over = await expectRefused(t, ['entities', 'audit_trail'], staff.patch(`/api/entities/${b.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-07-01' }), 409, 'ENTITY_LOCK_DATE_OVER_SCHEDULED_ENTRY_ERROR');
      expect(over.body.params).toEqual({ ledgerLockDate: '2026-07-01', scheduledEntryDate: '2026-07-01' });
      await staff.patch(`/api/entities/${b.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-06-25' }).expect(200);
      await expectRefused(t, tables, staff.post(`${base(b.entityId)}/scheduled-entries`).send({ ...sale(b, 10), entryDate: '2026-06-25' }), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
      const replace = (entryDate: string) => staff.patch(`${base(b.entityId)}/scheduled-entries/${scheduled.id}`).send({ entryDate, memo: 'x', newLedgerEntryLines: scheduled.newLedgerEntryLines });
      await expectRefused(t, tables, replace('2026-06-20'), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
      expect((await replace('2026-06-26')).status).toBe(200);
      await expectRefused(t, ['entities', 'audit_trail'], staff.patch(`/api/entities/${b.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-06-26' }), 409, 'ENTITY_LOCK_DATE_OVER_SCHEDULED_ENTRY_ERROR');
      await staff.delete(`${base(b.entityId)}/scheduled-entries/${scheduled.id}`).expect(200);
      await staff.patch(`/api/entities/${b.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-07-31' }).expect(200);
    });

    it('keeps the lock date off a scheduled entry whose date has come but that is not booked yet (still a Scheduled Entry); booked, it no longer holds it', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const scheduled = { ...sale(b, 10), entryDate: '2026-06-20' };
      await staff.post(`${base(b.entityId)}/scheduled-entries`).send(scheduled).expect(201);
      clock.set(new Date('2026-06-25T15:00:00Z'));
      try {
        const due = await staff.get(`${base(b.entityId)}/entries/${scheduled.id}`).expect(200);
        expect(due.body).toMatchObject({ status: 'scheduled', entryDate: '2026-06-20' });
        for (const ledgerLockDate of ['2026-06-20', '2026-06-24']) {
          const res = await expectRefused(t, ['entities', 'audit_trail'], staff.patch(`/api/entities/${b.entityId}/ledger-lock-date`).send({ ledgerLockDate }), 409, 'ENTITY_LOCK_DATE_OVER_SCHEDULED_ENTRY_ERROR');
          expect(res.body.params).toEqual({ ledgerLockDate, scheduledEntryDate: '2026-06-20' });
        }
        await staff.patch(`/api/entities/${b.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-06-19' }).expect(200);
        const booked = await staff.post(`${base(b.entityId)}/scheduled-entries/${scheduled.id}/book`).expect(200);
        expect(booked.body).toMatchObject({ status: 'active', source: 'scheduled', entryDate: '2026-06-20' });
        await staff.patch(`/api/entities/${b.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-06-20' }).expect(200);
        await expectMonthlyTotalsMatchLines(t, b.entityId);
      } finally {
        clock.set(new Date('2026-06-15T15:00:00Z'));
      }
    });

    it('refuses a date not after today and transaction-currency lines', async () => {
      const today = await staff.post(`${base()}/scheduled-entries`).send({ ...sale(ledger, 1), entryDate: '2026-06-15' });
      expect([today.status, today.body.code]).toEqual([409, 'LEDGER_SCHEDULED_ENTRY_DATE_NOT_FUTURE_ERROR']);
      const trio = await staff.post(`${base()}/scheduled-entries`).send({
        ...sale(ledger, 95050),
        entryDate: '2026-07-01',
        newLedgerEntryLines: [
          { side: 'debit', ledgerAccountId: ledger.bank, amount: 95050, transactionCurrency: 'USD', transactionAmount: 10000, exchangeRate: '950.5' },
          { side: 'credit', ledgerAccountId: ledger.sales, amount: 95050 },
        ],
      });
      expect([trio.status, trio.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    });
  });

  describe('lines', () => {
    it('sets and clears a partner, moves a line to another account and tags it', async () => {
      const partnerId = randomUUID();
      await staff.post(`/api/entities/${ledger.entityId}/partners`).send({ id: partnerId, name: 'Cliente Uno', type: 'company', country: 'CL', taxId: '11.111.111-1' }).expect(201);
      const entry = await post({
        ...sale(ledger, 90),
        newLedgerEntryLines: [
          { side: 'debit', ledgerAccountId: ledger.rent, amount: 90 },
          { side: 'credit', ledgerAccountId: ledger.bank, amount: 90 },
        ],
      });
      const lineId = entry.lines[0].id;
      const withPartner = await staff.patch(`${base()}/lines/${lineId}/partner`).send({ partnerId });
      expect([withPartner.status, withPartner.body.partnerId, withPartner.body.entryId]).toEqual([200, partnerId, entry.id]);
      const inUse = await staff.delete(`/api/entities/${ledger.entityId}/partners/${partnerId}`);
      expect([inUse.status, inUse.body.code]).toEqual([409, 'PARTNER_IN_USE_ERROR']);
      expect((await staff.patch(`${base()}/lines/${lineId}/partner`).send({ partnerId: null })).body.partnerId).toBeNull();
      const unknownPartner = await staff.patch(`${base()}/lines/${lineId}/partner`).send({ partnerId: randomUUID() });
      expect([unknownPartner.status, unknownPartner.body.code]).toEqual([404, 'PARTNER_NOT_FOUND_ERROR']);
      const moved = await staff.patch(`${base()}/lines/${lineId}/account`).send({ ledgerAccountId: ledger.sales });
      expect([moved.status, moved.body.ledgerAccountId]).toEqual([200, ledger.sales]);
      const untagged = await staff.put(`${base()}/lines/${lineId}/dimension-values`).send({ dimensionValueIds: [] });
      expect([untagged.status, untagged.body.dimensionValues]).toEqual([200, []]);
      const missing = await staff.patch(`${base()}/lines/${randomUUID()}/partner`).send({ partnerId: null });
      expect([missing.status, missing.body.code]).toEqual([404, 'LEDGER_LINE_NOT_FOUND_ERROR']);
    });

    it('refuses to change lines of an entry that is not live (scheduled, cancelled, unbooked) with 409 LEDGER_ENTRY_NOT_LIVE_ERROR, writing nothing', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const partnerId = randomUUID();
      await staff.post(`/api/entities/${b.entityId}/partners`).send({ id: partnerId, name: 'Cliente Dos', type: 'company', country: 'CL', taxId: '11.111.111-1' }).expect(201);
      const dimension = randomUUID();
      const value = randomUUID();
      await staff.post(`/api/entities/${b.entityId}/dimensions`).send({ id: dimension, name: 'CC' }).expect(201);
      await staff.post(`/api/entities/${b.entityId}/dimensions/${dimension}/values`).send({ id: value, code: 'SCL', name: 'Santiago' }).expect(201);
      const rentLines = [
        { side: 'debit', ledgerAccountId: b.rent, amount: 90 },
        { side: 'credit', ledgerAccountId: b.bank, amount: 90 },
      ];
      const scheduled = (await staff.post(`${base(b.entityId)}/scheduled-entries`).send({ ...sale(b, 90), entryDate: '2026-07-01', newLedgerEntryLines: rentLines }).expect(201)).body;
      const cancelled = (await staff.post(`${base(b.entityId)}/scheduled-entries`).send({ ...sale(b, 90), entryDate: '2026-07-02', newLedgerEntryLines: rentLines }).expect(201)).body;
      await staff.delete(`${base(b.entityId)}/scheduled-entries/${cancelled.id}`).expect(200);
      const unbooked = await post({ ...sale(b, 90), newLedgerEntryLines: rentLines }, b);
      await staff.delete(`${base(b.entityId)}/entries/${unbooked.id}`).expect(200);
      const tables = ['ledger_entries', 'ledger_lines', 'ledger_line_dimension_values', 'ledger_account_monthly_totals', 'audit_trail'];
      for (const [entry, status] of [[scheduled, 'scheduled'], [cancelled, 'cancelled'], [unbooked, 'deleted']] as const) {
        const lineId = entry.lines[0].id;
        for (const request of [
          staff.patch(`${base(b.entityId)}/lines/${lineId}/partner`).send({ partnerId }),
          staff.patch(`${base(b.entityId)}/lines/${lineId}/account`).send({ ledgerAccountId: b.sales }),
          staff.put(`${base(b.entityId)}/lines/${lineId}/dimension-values`).send({ dimensionValueIds: [value] }),
        ]) {
          const res = await expectRefused(t, tables, request, 409, 'LEDGER_ENTRY_NOT_LIVE_ERROR');
          expect(res.body.params).toEqual({ entryId: entry.id, status });
        }
      }
      // A scheduled entry's lines change with the entry, by PATCH scheduled-entries.
      const replaced = await staff.patch(`${base(b.entityId)}/scheduled-entries/${scheduled.id}`).send({
        entryDate: '2026-07-01',
        memo: 'Arriendo',
        newLedgerEntryLines: [{ ...rentLines[0], partnerId, dimensionValueIds: [value] }, rentLines[1]],
      });
      expect([replaced.status, replaced.body.lines[0].partnerId, replaced.body.lines[0].dimensionValues]).toEqual([200, partnerId, [{ id: value, dimensionId: dimension, code: 'SCL', name: 'Santiago' }]]);
    });

    it('judges the tags of a line on their own route: unknown value 404, two of one Dimension 400, off a Result Account 409, naming the line', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const dimension = randomUUID();
      const [v1, v2] = [randomUUID(), randomUUID()];
      await staff.post(`/api/entities/${b.entityId}/dimensions`).send({ id: dimension, name: 'CC' }).expect(201);
      await staff.post(`/api/entities/${b.entityId}/dimensions/${dimension}/values`).send({ id: v1, code: 'SCL', name: 'Santiago' }).expect(201);
      await staff.post(`/api/entities/${b.entityId}/dimensions/${dimension}/values`).send({ id: v2, code: 'VAP', name: 'Valparaíso' }).expect(201);
      const entry = await post({ ...sale(b, 5), newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: b.rent, amount: 5 }, { side: 'credit', ledgerAccountId: b.bank, amount: 5 }] }, b);
      const [rentLine, bankLine] = entry.lines.map((l: { id: string }) => l.id);
      const tables = ['ledger_line_dimension_values', 'audit_trail'];
      const tag = (lineId: string, dimensionValueIds: string[]) => staff.put(`${base(b.entityId)}/lines/${lineId}/dimension-values`).send({ dimensionValueIds });
      const ghost = randomUUID();
      expect((await expectRefused(t, tables, tag(bankLine, [ghost]), 404, 'DIMENSION_VALUE_NOT_FOUND_ERROR')).body.params).toEqual({ lineId: bankLine, dimensionValueId: ghost });
      expect((await expectRefused(t, tables, tag(rentLine, [v1, v2]), 400, 'LEDGER_LINE_DUPLICATE_DIMENSION_ERROR')).body.params).toEqual({ lineId: rentLine, dimensionId: dimension });
      expect((await expectRefused(t, tables, tag(bankLine, [v1]), 409, 'LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR')).body.params).toEqual({ lineId: bankLine });
      const tagged = await tag(rentLine, [v2]);
      expect([tagged.status, tagged.body.dimensionValues]).toEqual([200, [{ id: v2, dimensionId: dimension, code: 'VAP', name: 'Valparaíso' }]]);
    });

    it('refuses to move a settled line (LEDGER_LINE_HAS_ALLOCATIONS_ERROR)', async () => {
      const entry = await post(sale(ledger, 64));
      await staff.post(`${base()}/entries/${entry.id}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-14' }).expect(201);
      const res = await staff.patch(`${base()}/lines/${entry.lines[0].id}/account`).send({ ledgerAccountId: ledger.bank });
      expect([res.status, res.body.code]).toEqual([409, 'LEDGER_LINE_HAS_ALLOCATIONS_ERROR']);
    });

    it('refuses to move a line a document is linked to (LEDGER_LINE_DOCUMENT_LINKED_ERROR, through the documents port)', async () => {
      const entry = await post(sale(ledger, 65));
      const linked = entry.lines[1].id;
      t.app.get(RecordingLedgerListener).linkedLines.add(linked);
      const res = await expectRefused(
        t,
        ['ledger_lines', 'ledger_account_monthly_totals', 'audit_trail'],
        staff.patch(`${base()}/lines/${linked}/account`).send({ ledgerAccountId: ledger.rent }),
        409,
        'LEDGER_LINE_DOCUMENT_LINKED_ERROR',
      );
      expect(res.body.params).toEqual({ lineId: linked });
    });

    it('marks accounts with entries: hasEntries, deleteBlockedBy and the type lock (D31)', async () => {
      const accounts = (await staff.get(`${base()}/accounts`)).body as Array<{ id: string; hasEntries: boolean; deleteBlockedBy: string | null }>;
      expect(accounts.find((a) => a.id === ledger.sales)).toMatchObject({ hasEntries: true, deleteBlockedBy: 'entries' });
      const locked = await staff.patch(`${base()}/accounts/${ledger.sales}`).send({ type: 'liability' });
      expect([locked.status, locked.body.code]).toEqual([409, 'LEDGER_ACCOUNT_TYPE_LOCKED_ERROR']);
      expect((await staff.patch(`${base()}/accounts/${ledger.sales}`).send({ type: 'other_income' })).status).toBe(200);
      const tracking = await staff.patch(`${base()}/accounts/${ledger.sales}`).send({ tracking: 'open_item' });
      expect([tracking.status, tracking.body.code]).toEqual([409, 'LEDGER_ACCOUNT_TRACKING_LOCKED_ERROR']);
      const subtype = await staff.patch(`${base()}/accounts/${ledger.receivable}`).send({ subtype: 'unbilled_receivable' });
      expect([subtype.status, subtype.body.code]).toEqual([409, 'LEDGER_ACCOUNT_SUBTYPE_LOCKED_ERROR']);
      const remove = await staff.delete(`${base()}/accounts/${ledger.sales}`);
      expect([remove.status, remove.body.code, remove.body.params.blockedBy]).toEqual([409, 'LEDGER_ACCOUNT_IN_USE_ERROR', 'entries']);
    });
  });

  describe('the posting statement (facts read, then written only while they hold)', () => {
    it('writes the entry and its audit row in one statement, naming the key and its declared actor', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const { id: keyId, key } = await mintKey(staff);
      const body = sale(b, 700);
      const res = await expectAudited(t, t.http.post(`${base(b.entityId)}/entries`).set('x-api-key', key).set('x-audit-actor', 'erp-sync').send(body), 201, {
        action: 'ledger_entry.create',
        resource_type: 'ledger_entry',
        resource_id: body.id,
        entity_id: b.entityId,
        organization_id: world.organizationId,
        actor_user_id: await bootstrapStaffId(t),
        credential: 'api_key',
        api_key_id: keyId,
        declared_actor: 'erp-sync',
        method: 'POST',
        path: `${base(b.entityId)}/entries`,
      });
      expect(res.body.id).toBe(body.id);
    });

    it('writes no audit row for a refused posting', async () => {
      const before = await countRows(t, 'audit_trail');
      const res = await staff.post(`${base()}/entries`).send({ ...sale(ledger, 1), entryDate: '2026-06-16' });
      expect([res.status, res.body.code]).toEqual([409, 'LEDGER_ENTRY_DATE_IN_FUTURE_ERROR']);
      expect(await countRows(t, 'audit_trail')).toBe(before);
    });

    it('judges a posting again when the lock date moves over it between its read and its write, and refuses it', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const before = await countRows(t, 'audit_trail');
      const res = await whileTableLocked(
        t,
        'ledger_entries',
        1,
        () => staff.post(`${base(b.entityId)}/entries`).send(sale(b, 10)),
        () => staff.patch(`/api/entities/${b.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-06-10' }).expect(200),
      );
      expect([res.status, res.body.code]).toEqual([409, 'LEDGER_PERIOD_LOCKED_ERROR']);
      expect(await countRows(t, 'ledger_entries', 'entity_id = $1', [b.entityId])).toBe(0);
      expect(await countRows(t, 'ledger_account_monthly_totals', 'entity_id = $1', [b.entityId])).toBe(0);
      expect(await countRows(t, 'audit_trail')).toBe(before + 1); // the lock-date change only
    });

    it('judges a posting again when a Book is added between its read and its write, and writes it once as a Common Entry', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const body = sale(b, 10);
      const res = await whileTableLocked(
        t,
        'ledger_entries',
        1,
        () => staff.post(`${base(b.entityId)}/entries`).send(body),
        () => staff.post(`/api/entities/${b.entityId}/books`).send({ id: randomUUID(), name: 'IFRS' }).expect(201),
      );
      expect([res.status, res.body.bookId]).toEqual([201, null]);
      expect(await countRows(t, 'ledger_entries', 'entity_id = $1', [b.entityId])).toBe(1);
      expect(await countRows(t, 'audit_trail', 'resource_id = $1', [body.id])).toBe(1);
    });

    it('writes a posting whose facts changed in a way that does not touch it, once, with one audit row', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const body = sale(b, 10);
      const before = await countRows(t, 'audit_trail', 'resource_id = $1', [body.id]);
      const res = await whileTableLocked(
        t,
        'ledger_entries',
        1,
        () => staff.post(`${base(b.entityId)}/entries`).send(body),
        () => staff.patch(`/api/entities/${b.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-06-01' }).expect(200),
      );
      expect(res.status).toBe(201);
      expect(await countRows(t, 'ledger_lines', 'entry_id = $1', [body.id])).toBe(2);
      expect(await countRows(t, 'audit_trail', 'resource_id = $1', [body.id])).toBe(before + 1);
      await expectMonthlyTotalsMatchLines(t, b.entityId);
    });
  });

  describe('posting facts remembered from earlier postings', () => {
    it('are checked by the posting statement: a lock date moved since makes the next posting LEDGER_PERIOD_LOCKED_ERROR', async () => {
      const b = await setUpBooks(await freshEntity(world));
      await post(sale(b, 10), b);
      await staff.patch(`/api/entities/${b.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-06-10' }).expect(200);
      const before = await countRows(t, 'audit_trail');
      const res = await staff.post(`${base(b.entityId)}/entries`).send(sale(b, 10));
      expect([res.status, res.body.code]).toEqual([409, 'LEDGER_PERIOD_LOCKED_ERROR']);
      expect(await countRows(t, 'ledger_entries', 'entity_id = $1', [b.entityId])).toBe(1);
      expect(await countRows(t, 'audit_trail')).toBe(before);
    });

    it('never refuse by themselves: a Book added since is found by the next posting naming it', async () => {
      const b = await setUpBooks(await freshEntity(world));
      await post(sale(b, 10), b);
      const bookId = randomUUID();
      await staff.post(`/api/entities/${b.entityId}/books`).send({ id: bookId, name: 'IFRS' }).expect(201);
      expect((await post({ ...sale(b, 10), bookId }, b)).bookId).toBe(bookId);
      expect((await post(sale(b, 10), b)).bookId).toBeNull();
    });

    it('never refuse by themselves: a partner created after a PARTNER_NOT_FOUND_ERROR is found on the next posting', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const partnerId = randomUUID();
      const withPartner = () => {
        const body = sale(b, 10);
        (body.newLedgerEntryLines[0] as Record<string, unknown>).partnerId = partnerId;
        return body;
      };
      const missing = await staff.post(`${base(b.entityId)}/entries`).send(withPartner());
      expect([missing.status, missing.body.code]).toEqual([404, 'PARTNER_NOT_FOUND_ERROR']);
      await staff.post(`/api/entities/${b.entityId}/partners`).send({ id: partnerId, name: 'Cliente Norte', type: 'company', country: 'CL', taxId: '11.111.111-1' }).expect(201);
      const entry = await post(withPartner(), b);
      expect(entry.lines[0].partnerId).toBe(partnerId);
    });
  });

  /**
   * A posting (and a line or scheduled-entry change) and a write of a record it names (a delete,
   * an account's type or tracking) queue on that record's row: the one sent second waits, then is
   * judged on what the first committed. The posting is held mid-statement by a row lock of the
   * test's own: at the Entity row (before it reads what it names under lock) or at a monthly total
   * (after it has, with its lines written).
   */
  describe('postings and the writes of the records they name, at the same time', () => {
    interface Named {
      b: Books;
      spare: string;
      partnerId: string;
      dimensionId: string;
      valueId: string;
    }

    async function setUpNamed(): Promise<Named> {
      const b = await setUpBooks(await freshEntity(world));
      const spare = randomUUID();
      await staff.post(`${base(b.entityId)}/accounts`).send({ id: spare, name: 'Gastos varios', code: '5109', type: 'operating_expense', tracking: 'balance', subtype: null }).expect(201);
      const partnerId = randomUUID();
      await staff.post(`/api/entities/${b.entityId}/partners`).send({ id: partnerId, name: 'Proveedor Sur', type: 'company', country: 'CL', taxId: '11.111.111-1' }).expect(201);
      const [dimensionId, valueId] = [randomUUID(), randomUUID()];
      await staff.post(`/api/entities/${b.entityId}/dimensions`).send({ id: dimensionId, name: 'CC' }).expect(201);
      await staff.post(`/api/entities/${b.entityId}/dimensions/${dimensionId}/values`).send({ id: valueId, code: 'SCL', name: 'Santiago' }).expect(201);
      return { b, spare, partnerId, dimensionId, valueId };
    }

    /** Lines naming the spare account, the partner and the Dimension Value (none of them named before). */
    const namingLines = (n: Named, amount = 10) => [
      { side: 'debit', ledgerAccountId: n.spare, amount, partnerId: n.partnerId, dimensionValueIds: [n.valueId] },
      { side: 'credit', ledgerAccountId: n.b.bank, amount },
    ];
    const naming = (n: Named, entryDate = '2026-06-10') => ({ id: randomUUID(), entryDate, memo: 'Gasto', newLedgerEntryLines: namingLines(n) });

    const RECORDS = [
      {
        kind: 'ledger account',
        path: (n: Named) => `${base(n.b.entityId)}/accounts/${n.spare}`,
        exists: (n: Named) => countRows(t, 'ledger_accounts', 'id = $1', [n.spare]),
        notFound: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR',
        inUse: 'LEDGER_ACCOUNT_IN_USE_ERROR',
      },
      {
        kind: 'partner',
        path: (n: Named) => `/api/entities/${n.b.entityId}/partners/${n.partnerId}`,
        exists: (n: Named) => countRows(t, 'partners', 'id = $1', [n.partnerId]),
        notFound: 'PARTNER_NOT_FOUND_ERROR',
        inUse: 'PARTNER_IN_USE_ERROR',
      },
      {
        kind: 'Dimension Value',
        path: (n: Named) => `/api/entities/${n.b.entityId}/dimensions/${n.dimensionId}/values/${n.valueId}`,
        exists: (n: Named) => countRows(t, 'dimension_values', 'id = $1', [n.valueId]),
        notFound: 'DIMENSION_VALUE_NOT_FOUND_ERROR',
        inUse: 'DIMENSION_VALUE_IN_USE_ERROR',
      },
    ] as const;

    /** Holds the Entity row against its share lock: a posting stops there, before it reads what it names under lock. */
    const AT_THE_ENTITY = entityRowLockSql('NO KEY UPDATE'); // on Citus, the copy on the Entity's shard group

    /**
     * Holds the monthly total the posting of `entryId` will add its bank line to (its slot is the
     * last byte of the entry id): the posting stops there, its lines written.
     */
    async function atTheBankTotal(n: Named, entryId: string): Promise<[string, unknown[]]> {
      const key = [n.b.entityId, n.b.bank, '00000000-0000-0000-0000-000000000000', '2026-06-01', parseInt(entryId.slice(-2), 16) % 32];
      await t.sql(
        `INSERT INTO ledger_account_monthly_totals (entity_id, account_id, book_key, month, slot, debit, credit, line_count) VALUES ($1, $2, $3, $4, $5, 0, 0, 0)`,
        key,
      );
      return [`SELECT 1 FROM ledger_account_monthly_totals WHERE entity_id = $1 AND account_id = $2 AND book_key = $3 AND month = $4 AND slot = $5 FOR UPDATE`, key];
    }

    async function expectLedgerWhole(entityId: string): Promise<void> {
      const [sums] = await t.sql<{ debit: string | null; credit: string | null }>(
        `SELECT sum(amount) FILTER (WHERE side = 'debit')::text AS debit, sum(amount) FILTER (WHERE side = 'credit')::text AS credit FROM ledger_lines WHERE entity_id = $1`,
        [entityId],
      );
      expect(sums.debit).toBe(sums.credit);
      await expectMonthlyTotalsMatchLines(t, entityId);
    }

    async function expectNotWritten(entryId: string): Promise<void> {
      expect(await countRows(t, 'ledger_entries', 'id = $1', [entryId])).toBe(0);
      expect(await countRows(t, 'ledger_lines', 'entry_id = $1', [entryId])).toBe(0);
      expect(await countRows(t, 'audit_trail', 'resource_id = $1', [entryId])).toBe(0);
    }

    describe.each(RECORDS)('a $kind deleted', (record) => {
      it.each([
        ['entries', 'read afresh'],
        ['entries', 'remembered from a refused posting'],
        ['scheduled-entries', 'read afresh'],
      ])(
        `while a posting (POST %s, its facts %s) naming it waits: the delete commits, the posting is judged afresh, 404 ${record.notFound}, writing nothing`,
        async (route, facts) => {
          const n = await setUpNamed();
          if (facts !== 'read afresh') {
            const future = naming(n, '2026-06-20');
            await expectRefused(t, ['ledger_entries', 'audit_trail'], staff.post(`${base(n.b.entityId)}/entries`).send(future), 409, 'LEDGER_ENTRY_DATE_IN_FUTURE_ERROR');
          }
          const body = naming(n, route === 'entries' ? '2026-06-10' : '2026-07-01');
          let deleted: import('supertest').Response | undefined;
          const res = await whileRowLocked(t, AT_THE_ENTITY, [n.b.entityId], () => staff.post(`${base(n.b.entityId)}/${route}`).send(body), async () => {
            deleted = await staff.delete(record.path(n));
          });
          expect([deleted!.status, res.status, res.body.code]).toEqual([200, 404, record.notFound]);
          expect(await record.exists(n)).toBe(0);
          await expectNotWritten(body.id);
          await expectLedgerWhole(n.b.entityId);
        },
      );

      it(`after a posting naming it has read it: the delete waits for the posting, then is refused with 409 ${record.inUse}`, async () => {
        const n = await setUpNamed();
        const body = naming(n);
        const [lockSql, key] = await atTheBankTotal(n, body.id);
        let deleting: ReturnType<typeof sendNow> | undefined;
        const res = await whileRowLocked(t, lockSql, key, () => staff.post(`${base(n.b.entityId)}/entries`).send(body), async () => {
          deleting = sendNow(staff.delete(record.path(n)));
          await waitUntil(async () => deleting!.answered() || (await lockWaiters(t)) >= 2);
        });
        const deleted = await deleting!.response;
        expect([res.status, deleted.status, deleted.body.code]).toEqual([201, 409, record.inUse]);
        expect(await record.exists(n)).toBe(1);
        expect(await countRows(t, 'ledger_lines', 'entry_id = $1', [body.id])).toBe(2);
        expect(await countRows(t, 'ledger_line_dimension_values', 'dimension_value_id = $1', [n.valueId])).toBe(1);
        await expectLedgerWhole(n.b.entityId);
      });
    });

    /** The routes that change what existing lines name, each naming one record the racing delete removes. */
    const LINE_CHANGES = [
      {
        record: RECORDS[0],
        route: 'PATCH lines/:lineId/account',
        send: (n: Named, lineId: string) => staff.patch(`${base(n.b.entityId)}/lines/${lineId}/account`).send({ ledgerAccountId: n.spare }),
      },
      {
        record: RECORDS[1],
        route: 'PATCH lines/:lineId/partner',
        send: (n: Named, lineId: string) => staff.patch(`${base(n.b.entityId)}/lines/${lineId}/partner`).send({ partnerId: n.partnerId }),
      },
      {
        record: RECORDS[2],
        route: 'PUT lines/:lineId/dimension-values',
        send: (n: Named, lineId: string) => staff.put(`${base(n.b.entityId)}/lines/${lineId}/dimension-values`).send({ dimensionValueIds: [n.valueId] }),
      },
    ];

    async function rentEntry(n: Named): Promise<{ id: string; lineId: string }> {
      const entry = await post({ ...sale(n.b, 7), newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: n.b.rent, amount: 7 }, { side: 'credit', ledgerAccountId: n.b.bank, amount: 7 }] }, n.b);
      return { id: entry.id, lineId: entry.lines[0].id };
    }

    const lineState = (entityId: string, lineId: string) =>
      t.sql(
        `SELECT l.account_id, l.partner_id, l.is_open_item,
                array(SELECT d.dimension_value_id FROM ledger_line_dimension_values d WHERE d.entity_id = $1 AND d.line_id = l.id) AS tags
           FROM ledger_lines l WHERE l.entity_id = $1 AND l.id = $2`,
        [entityId, lineId],
      );

    it.each(LINE_CHANGES)(
      '$route that reads its $record.kind while a delete of it is committing: judged on the delete, 404, the line unchanged',
      async ({ record, send }) => {
        const n = await setUpNamed();
        const { lineId } = await rentEntry(n);
        const before = await lineState(n.b.entityId, lineId);
        const audited = await countRows(t, 'audit_trail');
        let changing: ReturnType<typeof sendNow> | undefined;
        // The delete has written and waits for its audit row; the line change is sent then.
        const deleted = await whileTableLocked(t, 'audit_trail', 1, () => staff.delete(record.path(n)), async () => {
          changing = sendNow(send(n, lineId));
          await waitUntil(async () => changing!.answered() || (await lockWaiters(t)) >= 2);
        });
        const changed = await changing!.response;
        expect([deleted.status, changed.status, changed.body.code]).toEqual([200, 404, record.notFound]);
        expect(await lineState(n.b.entityId, lineId)).toEqual(before);
        expect(await countRows(t, 'audit_trail')).toBe(audited + 1); // the delete's
        await expectLedgerWhole(n.b.entityId);
      },
    );

    it.each(LINE_CHANGES)('$route that has named its $record.kind before a delete of it: the delete waits, then is refused as in use', async ({ record, send }) => {
      const n = await setUpNamed();
      const { lineId } = await rentEntry(n);
      let deleting: ReturnType<typeof sendNow> | undefined;
      // The line change has written and waits for its audit row; the delete is sent then.
      const changed = await whileTableLocked(t, 'audit_trail', 1, () => send(n, lineId), async () => {
        deleting = sendNow(staff.delete(record.path(n)));
        await waitUntil(async () => deleting!.answered() || (await lockWaiters(t)) >= 2);
      });
      const deleted = await deleting!.response;
      expect([changed.status, deleted.status, deleted.body.code]).toEqual([200, 409, record.inUse]);
      expect(await record.exists(n)).toBe(1);
      await expectLedgerWhole(n.b.entityId);
    });

    it.each(RECORDS)('PATCH scheduled-entries/:entryId naming a $kind while a delete of it is committing: judged on the delete, 404, the lines unchanged', async (record) => {
      const n = await setUpNamed();
      const scheduled = (await staff.post(`${base(n.b.entityId)}/scheduled-entries`).send({ ...sale(n.b, 7), entryDate: '2026-07-01' }).expect(201)).body;
      const lines = () => t.sql('SELECT id, account_id, partner_id FROM ledger_lines WHERE entry_id = $1 ORDER BY line_no', [scheduled.id]);
      const before = await lines();
      let replacing: ReturnType<typeof sendNow> | undefined;
      const deleted = await whileTableLocked(t, 'audit_trail', 1, () => staff.delete(record.path(n)), async () => {
        replacing = sendNow(staff.patch(`${base(n.b.entityId)}/scheduled-entries/${scheduled.id}`).send({ entryDate: '2026-07-01', memo: 'Gasto', newLedgerEntryLines: namingLines(n) }));
        await waitUntil(async () => replacing!.answered() || (await lockWaiters(t)) >= 2);
      });
      const replaced = await replacing!.response;
      expect([deleted.status, replaced.status, replaced.body.code]).toEqual([200, 404, record.notFound]);
      expect(await lines()).toEqual(before);
    });

    it.each([
      {
        change: 'the lock date over the date of a scheduled entry',
        route: 'scheduled-entries',
        entryDate: '2026-07-01',
        path: '/ledger-lock-date',
        body: { ledgerLockDate: '2026-07-01' },
        column: 'ledger_lock_date',
        code: 'ENTITY_LOCK_DATE_OVER_SCHEDULED_ENTRY_ERROR',
      },
      {
        change: 'an identity field of an Entity without entries (D22)',
        route: 'entries',
        entryDate: '2026-06-10',
        path: '',
        body: { currency: 'USD' },
        column: 'currency',
        code: 'ENTITY_IDENTITY_FIELDS_LOCKED_ERROR',
      },
    ])('a change of $change sent while a posting (POST $route) holds the Entity row: it waits for the posting, then is refused with 409 $code', async ({ route, entryDate, path, body: change, column, code }) => {
      const n = await setUpNamed();
      const body = naming(n, entryDate);
      const entityColumn = () => t.sql(`SELECT ${column}::text AS v FROM entities WHERE id = $1`, [n.b.entityId]);
      const before = await entityColumn();
      let changing: ReturnType<typeof sendNow> | undefined;
      // The posting has share-locked the Entity row and waits at the account its line names.
      const res = await whileRowLocked(t, 'SELECT 1 FROM ledger_accounts WHERE entity_id = $1 AND id = $2 FOR UPDATE', [n.b.entityId, n.spare], () => staff.post(`${base(n.b.entityId)}/${route}`).send(body), async () => {
        changing = sendNow(staff.patch(`/api/entities/${n.b.entityId}${path}`).send(change));
        await waitUntil(async () => changing!.answered() || (await lockWaiters(t)) >= 2);
      });
      const changed = await changing!.response;
      expect([res.status, changed.status, changed.body.code]).toEqual([201, 409, code]);
      expect(await entityColumn()).toEqual(before);
      expect(await countRows(t, 'ledger_entries', 'id = $1', [body.id])).toBe(1);
    });

    describe('a ledger account changed', () => {
      it('to open-item while a posting naming it waits: the posting is judged on the new tracking (open amounts on its lines)', async () => {
        const n = await setUpNamed();
        const body = naming(n);
        let patched: import('supertest').Response | undefined;
        const res = await whileRowLocked(t, AT_THE_ENTITY, [n.b.entityId], () => staff.post(`${base(n.b.entityId)}/entries`).send(body), async () => {
          patched = await staff.patch(`${base(n.b.entityId)}/accounts/${n.spare}`).send({ tracking: 'open_item' });
        });
        expect([patched!.status, res.status]).toEqual([200, 201]);
        expect(res.body.lines[0]).toMatchObject({ ledgerAccountId: n.spare, amount: 10, openAmount: 10 });
        expect(await lineState(n.b.entityId, res.body.lines[0].id)).toEqual([expect.objectContaining({ account_id: n.spare, is_open_item: true })]);
        expect((await staff.get(`${base(n.b.entityId)}/entries/${body.id}`)).body.lines[0].openAmount).toBe(10);
        await expectLedgerWhole(n.b.entityId);
      });

      it('off the Result types while a posting tagging it waits: the posting is judged on the new type, 409 LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR, writing nothing', async () => {
        const n = await setUpNamed();
        const body = naming(n);
        let patched: import('supertest').Response | undefined;
        const res = await whileRowLocked(t, AT_THE_ENTITY, [n.b.entityId], () => staff.post(`${base(n.b.entityId)}/entries`).send(body), async () => {
          patched = await staff.patch(`${base(n.b.entityId)}/accounts/${n.spare}`).send({ type: 'asset' });
        });
        expect([patched!.status, res.status, res.body.code]).toEqual([200, 409, 'LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR']);
        await expectNotWritten(body.id);
        await expectLedgerWhole(n.b.entityId);
      });

      it.each([
        ['tracking', { tracking: 'open_item' }, 'LEDGER_ACCOUNT_TRACKING_LOCKED_ERROR'],
        ['type family', { type: 'asset' }, 'LEDGER_ACCOUNT_TYPE_LOCKED_ERROR'],
      ])('in its %s after a posting naming it has read it: the change waits for the posting, then is refused as for an account with entries (%s)', async (_label, change, code) => {
        const n = await setUpNamed();
        const body = naming(n);
        const [lockSql, key] = await atTheBankTotal(n, body.id);
        let patching: ReturnType<typeof sendNow> | undefined;
        const res = await whileRowLocked(t, lockSql, key, () => staff.post(`${base(n.b.entityId)}/entries`).send(body), async () => {
          patching = sendNow(staff.patch(`${base(n.b.entityId)}/accounts/${n.spare}`).send(change));
          await waitUntil(async () => patching!.answered() || (await lockWaiters(t)) >= 2);
        });
        const patched = await patching!.response;
        expect([res.status, patched.status, patched.body.code]).toEqual([201, 409, code]);
        expect(await t.sql('SELECT type, tracking FROM ledger_accounts WHERE id = $1', [n.spare])).toEqual([{ type: 'operating_expense', tracking: 'balance' }]);
        expect(await lineState(n.b.entityId, res.body.lines[0].id)).toEqual([expect.objectContaining({ is_open_item: false })]);
        await expectLedgerWhole(n.b.entityId);
      });
    });
  });

  describe('concurrency', () => {
    it('keeps every acknowledged entry and debits equal to credits under parallel posting', async () => {
      const b = await setUpBooks(await freshEntity(world));
      const cookie = (await staff.get('/api/auth/session')).request.cookies;
      const server = t.app.getHttpServer();
      const bodies = Array.from({ length: 30 }, (_, i) => sale(b, 1000 + i));
      const answers = await Promise.all(bodies.map((body) => request(server).post(`${base(b.entityId)}/entries`).set('cookie', cookie).send(body)));
      expect(answers.map((r) => r.status)).toEqual(bodies.map(() => 201));
      const [totals] = await t.sql<{ debit: string; credit: string; entries: number }>(
        `SELECT sum(amount) FILTER (WHERE side = 'debit')::text AS debit, sum(amount) FILTER (WHERE side = 'credit')::text AS credit,
                count(DISTINCT entry_id)::int AS entries FROM ledger_lines WHERE entity_id = $1`,
        [b.entityId],
      );
      expect(totals.entries).toBe(30);
      expect(totals.debit).toBe(totals.credit);
    });
  });

  describe('monthly totals', () => {
    it('equal the sums of live lines after posting, reversing, unbooking, booking, moving dates and accounts', async () => {
      const entities = await t.sql<{ entity_id: string }>('SELECT DISTINCT entity_id FROM ledger_lines');
      expect(entities.length).toBeGreaterThan(5);
      for (const { entity_id } of entities) await expectMonthlyTotalsMatchLines(t, entity_id);
    });
  });

  describe('access', () => {
    // Records of the world's Entity the routes below name (the matrix asks them of other Entities too).
    const ids = { entry: '', reversible: '', scheduled: '', line: '' };
    beforeAll(async () => {
      const entry = await post(sale(ledger, 1));
      ids.entry = entry.id;
      ids.line = entry.lines[1].id;
      ids.reversible = (await post(sale(ledger, 1))).id;
      ids.scheduled = (await staff.post(`${base()}/scheduled-entries`).send({ ...sale(ledger, 1), entryDate: '2026-07-01' }).expect(201)).body.id;
    });
    const at = (entityId: string, path: string) => `/api/entities/${entityId}/ledger${path}`;

    it.each([
      ['GET entries', { method: 'get' as const, path: (id: string) => at(id, '/entries') }],
      ['GET lines', { method: 'get' as const, path: (id: string) => at(id, '/lines') }],
      ['POST entries', { method: 'post' as const, path: (id: string) => at(id, '/entries'), body: () => ({ ...sale(ledger, 1) }) }],
      ['GET entries/:entryId', { method: 'get' as const, path: (id: string) => at(id, `/entries/${ids.entry}`) }],
      ['PATCH entries/:entryId', { method: 'patch' as const, path: (id: string) => at(id, `/entries/${ids.entry}`), body: () => ({ memo: 'Matrix' }) }],
      ['POST entries/:entryId/reverse', { method: 'post' as const, path: (id: string) => at(id, `/entries/${ids.reversible}/reverse`), body: () => ({ id: randomUUID(), reversalDate: '2026-06-15' }) }],
      ['DELETE entries/:entryId', { method: 'delete' as const, path: (id: string) => at(id, `/entries/${randomUUID()}`) }],
      ['POST scheduled-entries', { method: 'post' as const, path: (id: string) => at(id, '/scheduled-entries'), body: () => ({ ...sale(ledger, 1), entryDate: '2026-07-02' }) }],
      ['POST scheduled-entries/:entryId/book', { method: 'post' as const, path: (id: string) => at(id, `/scheduled-entries/${ids.scheduled}/book`) }],
      [
        'PATCH scheduled-entries/:entryId',
        { method: 'patch' as const, path: (id: string) => at(id, `/scheduled-entries/${ids.scheduled}`), body: () => ({ entryDate: '2026-07-03', memo: 'Matrix', newLedgerEntryLines: sale(ledger, 2).newLedgerEntryLines }) },
      ],
      ['DELETE scheduled-entries/:entryId', { method: 'delete' as const, path: (id: string) => at(id, `/scheduled-entries/${randomUUID()}`) }],
      ['PATCH lines/:lineId/partner', { method: 'patch' as const, path: (id: string) => at(id, `/lines/${ids.line}/partner`), body: () => ({ partnerId: null }) }],
      ['PATCH lines/:lineId/account', { method: 'patch' as const, path: (id: string) => at(id, `/lines/${ids.line}/account`), body: () => ({ ledgerAccountId: ledger.sales }) }],
      ['PUT lines/:lineId/dimension-values', { method: 'put' as const, path: (id: string) => at(id, `/lines/${ids.line}/dimension-values`), body: () => ({ dimensionValueIds: [] }) }],
    ])('%s', async (_label, route) => {
      await checkAccessMatrix(t, world, route);
    });
  });
});
