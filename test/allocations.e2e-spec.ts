import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import request from 'supertest';
import { FixedClock } from '../src/platform/clock/clock';
import { checkAccessMatrix } from './harness/access-matrix';
import { deadlocked, expectMonthlyTotalsMatchLines, expectRefused, lockWaiters, rowLockWaiters, sendNow, waitUntil, whileRowLocked, whileTableLocked } from './harness/db-checks';
import { createTestApp, TestApp } from './harness/test-app';
import { Agent, buildWorld, createEntity, createLedgerAccount, World } from './harness/world';

const clock = new FixedClock(new Date('2026-06-15T15:00:00Z'));
const TABLES = ['reconciliation_allocations', 'ledger_lines'] as const;

interface Books {
  entityId: string;
  receivable: string;
  payable: string;
  bank: string;
  sales: string;
}

describe('reconciliation: allocations, match and open items', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let books: Books;
  let cookie: string;

  const base = (entityId = books.entityId) => `/api/entities/${entityId}/ledger`;

  async function setUpBooks(entityId: string): Promise<Books> {
    const account = async (code: string, type: string, tracking: string, subtype: string | null) => {
      const id = randomUUID();
      await staff.post(`${base(entityId)}/accounts`).send({ id, name: code, code, type, tracking, subtype }).expect(201);
      return id;
    };
    return {
      entityId,
      receivable: await account('1105', 'asset', 'open_item', 'receivable'),
      payable: await account('2101', 'liability', 'open_item', 'payable'),
      bank: await account('1102', 'asset', 'balance', null),
      sales: await account('4101', 'income', 'balance', null),
    };
  }

  /** An invoice (receivable debit) or a payment (receivable credit); returns the receivable line id. */
  async function openItem(b: Books, side: 'debit' | 'credit', amount: number, entryDate = '2026-06-01', extra: Record<string, unknown> = {}): Promise<string> {
    const counter = side === 'debit' ? b.sales : b.bank;
    const res = await staff.post(`${base(b.entityId)}/entries`).send({
      id: randomUUID(),
      entryDate,
      memo: `${side} ${amount}`,
      newLedgerEntryLines: [
        { side, ledgerAccountId: b.receivable, amount, ...extra },
        { side: side === 'debit' ? 'credit' : 'debit', ledgerAccountId: counter, amount },
      ],
    });
    expect(res.status).toBe(201);
    return res.body.lines[0].id;
  }

  async function openAmounts(entityId: string): Promise<Array<{ id: string; amount: number; allocated: number; sum: number }>> {
    return t.sql(
      `SELECT l.id, l.amount, l.allocated_amount AS allocated,
              coalesce((SELECT sum(a.amount) FROM reconciliation_allocations a
                         WHERE a.entity_id = l.entity_id AND (a.debit_line_id = l.id OR a.credit_line_id = l.id)), 0)::bigint AS sum
         FROM ledger_lines l WHERE l.entity_id = $1 AND l.is_open_item`,
      [entityId],
    );
  }

  function expectInvariants(rows: Array<{ amount: number; allocated: number; sum: number }>) {
    for (const row of rows) {
      expect(row.allocated).toBeGreaterThanOrEqual(0);
      expect(row.allocated).toBeLessThanOrEqual(row.amount);
      expect(row.allocated).toBe(row.sum);
    }
  }

  beforeAll(async () => {
    t = await createTestApp({ clock });
    world = await buildWorld(t);
    staff = world.staff;
    books = await setUpBooks(world.entityId);
    cookie = (await staff.get('/api/auth/session')).request.cookies;
  });
  afterAll(() => t.close());

  describe('create, list and delete', () => {
    it('settles a debit against a credit 201, lowers both open amounts and lists it for either line', async () => {
      const debit = await openItem(books, 'debit', 1000);
      const credit = await openItem(books, 'credit', 600);
      const id = randomUUID();
      const res = await staff.post(`${base()}/allocations`).send({ id, debitLineId: debit, creditLineId: credit, amount: 600 });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id, entityId: books.entityId, debitLineId: debit, creditLineId: credit, accountId: books.receivable, amount: 600, createdAt: expect.any(String), updatedAt: expect.any(String) });
      for (const lineId of [debit, credit]) {
        const listed = await staff.get(`${base()}/allocations`).query({ lineId });
        expect(listed.body.map((a: { id: string }) => a.id)).toEqual([id]);
      }
      const lines = await staff.get(`${base()}/lines`).query({ accountId: books.receivable });
      const open = new Map(lines.body.map((l: { id: string; openAmount: number }) => [l.id, l.openAmount]));
      expect([open.get(debit), open.get(credit)]).toEqual([400, 0]);

      // DELETE takes no body: one naming a property is 400, and the allocation stays.
      await expectRefused(t, [...TABLES, 'audit_trail'], staff.delete(`${base()}/allocations/${id}`).send({ restore: true }), 400, 'VALIDATION_ERROR');
      const deleted = await staff.delete(`${base()}/allocations/${id}`);
      expect([deleted.status, deleted.body.id]).toEqual([200, id]);
      const after = await staff.get(`${base()}/lines`).query({ accountId: books.receivable });
      const reopened = new Map(after.body.map((l: { id: string; openAmount: number }) => [l.id, l.openAmount]));
      expect([reopened.get(debit), reopened.get(credit)]).toEqual([1000, 600]);
      const again = await staff.delete(`${base()}/allocations/${id}`);
      expect([again.status, again.body.code]).toEqual([404, 'RECONCILIATION_ALLOCATION_NOT_FOUND_ERROR']);
    });

    it('refuses every rule of the allocation table with its code, writing nothing', async () => {
      const b = await setUpBooks((await createEntity(staff, world.organizationId)).id);
      const debit = await openItem(b, 'debit', 100);
      const credit = await openItem(b, 'credit', 100);
      const small = await openItem(b, 'credit', 30);
      const payableCredit = (
        await staff.post(`${base(b.entityId)}/entries`).send({
          id: randomUUID(),
          entryDate: '2026-06-01',
          memo: 'compra',
          newLedgerEntryLines: [
            { side: 'debit', ledgerAccountId: b.bank, amount: 50 },
            { side: 'credit', ledgerAccountId: b.payable, amount: 50 },
          ],
        })
      ).body.lines[1].id;
      const balanceLine = (await staff.get(`${base(b.entityId)}/lines`).query({ accountId: b.sales })).body[0].id;
      const used = randomUUID();
      await staff.post(`${base(b.entityId)}/allocations`).send({ id: used, debitLineId: debit, creditLineId: small, amount: 10 }).expect(201);
      const post = (body: Record<string, unknown>) => staff.post(`${base(b.entityId)}/allocations`).send({ id: randomUUID(), amount: 1, ...body });
      const cases: Array<[Record<string, unknown>, number, string]> = [
        [{ id: used, debitLineId: debit, creditLineId: credit }, 409, 'RECONCILIATION_ALLOCATION_ID_CONFLICT_ERROR'],
        [{ debitLineId: debit, creditLineId: debit }, 409, 'RECONCILIATION_ALLOCATION_DEBIT_AND_CREDIT_LINE_IDS_CANNOT_BE_THE_SAME_ERROR'],
        [{ debitLineId: randomUUID(), creditLineId: credit }, 404, 'RECONCILIATION_ALLOCATION_DEBIT_LINE_NOT_FOUND_ERROR'],
        [{ debitLineId: debit, creditLineId: randomUUID() }, 404, 'RECONCILIATION_ALLOCATION_CREDIT_LINE_NOT_FOUND_ERROR'],
        [{ debitLineId: credit, creditLineId: small }, 409, 'RECONCILIATION_ALLOCATION_DEBIT_LINE_MUST_BE_DEBIT_ERROR'],
        [{ debitLineId: debit, creditLineId: (await openItem(b, 'debit', 5)) }, 409, 'RECONCILIATION_ALLOCATION_CREDIT_LINE_MUST_BE_CREDIT_ERROR'],
        [{ debitLineId: debit, creditLineId: payableCredit }, 409, 'RECONCILIATION_ALLOCATION_LINES_ON_DIFFERENT_ACCOUNTS_ERROR'],
        [{ debitLineId: debit, creditLineId: credit, amount: 91 }, 409, 'RECONCILIATION_ALLOCATION_AMOUNT_EXCEEDS_OPEN_AMOUNT_ERROR'],
        [{ debitLineId: debit, creditLineId: small, amount: 21 }, 409, 'RECONCILIATION_ALLOCATION_AMOUNT_EXCEEDS_OPEN_AMOUNT_ERROR'],
        [{ debitLineId: debit, creditLineId: credit, amount: 0 }, 400, 'VALIDATION_ERROR'],
        [{ debitLineId: 'nope', creditLineId: credit }, 400, 'VALIDATION_ERROR'],
      ];
      for (const [body, status, code] of cases) await expectRefused(t, TABLES, post(body), status, code);
      // Two lines of a balance account: not open-item.
      const transfer = await staff.post(`${base(b.entityId)}/entries`).send({
        id: randomUUID(),
        entryDate: '2026-06-01',
        memo: 'traspaso',
        newLedgerEntryLines: [
          { side: 'debit', ledgerAccountId: b.bank, amount: 5 },
          { side: 'credit', ledgerAccountId: b.bank, amount: 5 },
        ],
      });
      const [bankDebit, bankCredit] = transfer.body.lines.map((l: { id: string }) => l.id);
      await expectRefused(t, TABLES, post({ debitLineId: bankDebit, creditLineId: bankCredit }), 409, 'RECONCILIATION_ALLOCATION_ACCOUNT_MUST_BE_OPEN_ITEM_ERROR');
      expect(balanceLine).toBeDefined();
    });

    it('refuses lines of two Books, lines of an unbooked entry and netting a reversal by hand', async () => {
      const b = await setUpBooks((await createEntity(staff, world.organizationId)).id);
      const debit = await openItem(b, 'debit', 100);
      const credit = await openItem(b, 'credit', 100);
      const bookId = randomUUID();
      await staff.post(`/api/entities/${b.entityId}/books`).send({ id: bookId, name: 'IFRS' }).expect(201);
      const bookLine = (
        await staff.post(`${base(b.entityId)}/entries`).send({
          id: randomUUID(),
          entryDate: '2026-06-02',
          memo: 'book',
          bookId,
          newLedgerEntryLines: [
            { side: 'credit', ledgerAccountId: b.receivable, amount: 100 },
            { side: 'debit', ledgerAccountId: b.bank, amount: 100 },
          ],
        })
      ).body.lines[0].id;
      await expectRefused(t, TABLES, staff.post(`${base(b.entityId)}/allocations`).send({ id: randomUUID(), debitLineId: debit, creditLineId: bookLine, amount: 1 }), 409, 'RECONCILIATION_ALLOCATION_LINES_IN_DIFFERENT_BOOKS_ERROR');

      const entryOfCredit = (await staff.get(`${base(b.entityId)}/lines`).query({ accountId: b.receivable })).body.find((l: { id: string }) => l.id === credit).entryId;
      await staff.delete(`${base(b.entityId)}/entries/${entryOfCredit}`).expect(200);
      await expectRefused(t, TABLES, staff.post(`${base(b.entityId)}/allocations`).send({ id: randomUUID(), debitLineId: debit, creditLineId: credit, amount: 1 }), 409, 'LEDGER_ENTRY_NOT_LIVE_ERROR');

      const entryOfDebit = (await staff.get(`${base(b.entityId)}/lines`).query({ accountId: b.receivable })).body.find((l: { id: string }) => l.id === debit).entryId;
      const reversal = (await staff.post(`${base(b.entityId)}/entries/${entryOfDebit}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-10' }).expect(201)).body;
      const mirrorLine = reversal.reversalEntry.lines[0].id;
      const netting = await staff.get(`${base(b.entityId)}/allocations`).query({ lineId: debit });
      expect(netting.body).toEqual([expect.objectContaining({ debitLineId: debit, creditLineId: mirrorLine, amount: 100 })]);
      await expectRefused(t, TABLES, staff.delete(`${base(b.entityId)}/allocations/${netting.body[0].id}`), 409, 'RECONCILIATION_ALLOCATION_NETS_REVERSAL_ERROR');
      // Netting the original with its mirror by hand is the service's job.
      await expectRefused(
        t,
        TABLES,
        staff.post(`${base(b.entityId)}/allocations`).send({ id: randomUUID(), debitLineId: debit, creditLineId: mirrorLine, amount: 1 }),
        409,
        'RECONCILIATION_ALLOCATION_NETS_REVERSAL_ERROR',
      );
    });

    it('answers 404 LEDGER_LINE_NOT_FOUND_ERROR when listing for an unknown line', async () => {
      const lineId = randomUUID();
      const res = await staff.get(`${base()}/allocations`).query({ lineId });
      expect(res.body).toEqual({ requestId: res.headers['x-request-id'], statusCode: 404, code: 'LEDGER_LINE_NOT_FOUND_ERROR', message: expect.any(String), params: { lineId } });
      expect((await staff.get(`${base()}/allocations`)).status).toBe(400);
    });
  });

  describe('match (D39)', () => {
    it('pairs oldest debit with oldest credit, settles lines and reports the open total', async () => {
      const b = await setUpBooks((await createEntity(staff, world.organizationId)).id);
      const d1 = await openItem(b, 'debit', 300, '2026-05-01');
      const d2 = await openItem(b, 'debit', 200, '2026-05-02');
      const c1 = await openItem(b, 'credit', 250, '2026-05-03');
      const c2 = await openItem(b, 'credit', 100, '2026-05-04');
      const res = await staff.post(`${base(b.entityId)}/allocations/match`).send({ lineIds: [c2, d2, c1, d1] });
      expect(res.status).toBe(201);
      expect(res.body.allocations.map((a: { debitLineId: string; creditLineId: string; amount: number }) => [a.debitLineId, a.creditLineId, a.amount])).toEqual([
        [d1, c1, 250],
        [d1, c2, 50],
        [d2, c2, 50],
      ]);
      // In the order the pairs settled them: c1 by the first pair, d1 by the second, c2 by the third.
      expect(res.body.settledLines).toEqual([c1, d1, c2]);
      expect(res.body.openTotal).toBe(150);
      expect(res.body.allocations[0]).toEqual({
        id: expect.any(String),
        entityId: b.entityId,
        debitLineId: d1,
        creditLineId: c1,
        accountId: b.receivable,
        amount: 250,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      // Each made allocation is listed for its lines, as one made by POST.
      const listed = await staff.get(`${base(b.entityId)}/allocations`).query({ lineId: c2 });
      expect(listed.body.map((a: { id: string }) => a.id)).toEqual([res.body.allocations[1].id, res.body.allocations[2].id].sort((x, y) => (x < y ? -1 : 1)));
    });

    it('takes an id sent twice as one line', async () => {
      const b = await setUpBooks((await createEntity(staff, world.organizationId)).id);
      const d = await openItem(b, 'debit', 30);
      const c = await openItem(b, 'credit', 20);
      const res = await staff.post(`${base(b.entityId)}/allocations/match`).send({ lineIds: [d, c, d, c] });
      expect(res.status).toBe(201);
      expect(res.body.allocations.map((a: { debitLineId: string; creditLineId: string; amount: number }) => [a.debitLineId, a.creditLineId, a.amount])).toEqual([[d, c, 20]]);
      expect(res.body.settledLines).toEqual([c]);
      expect(res.body.openTotal).toBe(10);
    });

    it('refuses each match rule with its code', async () => {
      const b = await setUpBooks((await createEntity(staff, world.organizationId)).id);
      const d = await openItem(b, 'debit', 10);
      const d2 = await openItem(b, 'debit', 10);
      const c = await openItem(b, 'credit', 10);
      const bankLine = (await staff.get(`${base(b.entityId)}/lines`).query({ accountId: b.bank })).body[0].id;
      const match = (lineIds: unknown) => staff.post(`${base(b.entityId)}/allocations/match`).send({ lineIds });
      await expectRefused(t, TABLES, match([d]), 400, 'VALIDATION_ERROR');
      await expectRefused(t, TABLES, match([d, randomUUID()]), 404, 'RECONCILIATION_MATCH_LINE_NOT_FOUND_ERROR');
      await expectRefused(t, TABLES, match([d, bankLine]), 409, 'RECONCILIATION_MATCH_LINES_ON_DIFFERENT_ACCOUNTS_ERROR');
      await expectRefused(t, TABLES, match([d, d2]), 409, 'RECONCILIATION_MATCH_NOTHING_TO_MATCH_ERROR');
      // An id sent twice names one line.
      await expectRefused(t, TABLES, match([d, d]), 409, 'RECONCILIATION_MATCH_NOTHING_TO_MATCH_ERROR');
      const bookId = randomUUID();
      await staff.post(`/api/entities/${b.entityId}/books`).send({ id: bookId, name: 'Tax' }).expect(201);
      const bookCredit = (
        await staff.post(`${base(b.entityId)}/entries`).send({
          id: randomUUID(),
          entryDate: '2026-06-03',
          memo: 'book',
          bookId,
          newLedgerEntryLines: [
            { side: 'credit', ledgerAccountId: b.receivable, amount: 10 },
            { side: 'debit', ledgerAccountId: b.bank, amount: 10 },
          ],
        })
      ).body.lines[0].id;
      await expectRefused(t, TABLES, match([d, bookCredit]), 409, 'RECONCILIATION_MATCH_LINES_IN_DIFFERENT_BOOKS_ERROR');
      expect((await match([d, c])).status).toBe(201);
    });

    it('takes at most 500 line ids: 501 is 400 VALIDATION_ERROR on lineIds', async () => {
      const res = await expectRefused(t, TABLES, staff.post(`${base()}/allocations/match`).send({ lineIds: Array.from({ length: 501 }, () => randomUUID()) }), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors).toEqual([{ path: 'lineIds', message: expect.stringContaining('500') }]);
      // 500 unknown ids pass validation and are judged: the first missing one is named.
      const five = await staff.post(`${base()}/allocations/match`).send({ lineIds: Array.from({ length: 500 }, () => randomUUID()) });
      expect([five.status, five.body.code]).toEqual([404, 'RECONCILIATION_MATCH_LINE_NOT_FOUND_ERROR']);
    });

    it('refuses a line of an entry that is not live with 409 LEDGER_ENTRY_NOT_LIVE_ERROR, writing nothing', async () => {
      const b = await setUpBooks((await createEntity(staff, world.organizationId)).id);
      const d = await openItem(b, 'debit', 10);
      const c = await openItem(b, 'credit', 10);
      const entryOfCredit = (await staff.get(`${base(b.entityId)}/lines`).query({ accountId: b.receivable })).body.find((l: { id: string }) => l.id === c).entryId;
      await staff.delete(`${base(b.entityId)}/entries/${entryOfCredit}`).expect(200);
      const res = await expectRefused(t, TABLES, staff.post(`${base(b.entityId)}/allocations/match`).send({ lineIds: [d, c] }), 409, 'LEDGER_ENTRY_NOT_LIVE_ERROR');
      expect(res.body).toEqual({ requestId: res.headers['x-request-id'], statusCode: 409, code: 'LEDGER_ENTRY_NOT_LIVE_ERROR', message: expect.any(String), params: { lineId: c, status: 'deleted' } });
    });
  });

  describe('open-item lines (D38)', () => {
    it('lists unsettled lines oldest first with totals of the whole set, partner options and keyset pages', async () => {
      const b = await setUpBooks((await createEntity(staff, world.organizationId)).id);
      const partnerId = randomUUID();
      await staff.post(`/api/entities/${b.entityId}/partners`).send({ id: partnerId, name: 'Cliente Sur', type: 'company', country: 'CL', taxId: '12.345.678-5' }).expect(201);
      const lines = [
        await openItem(b, 'debit', 500, '2026-05-03', { partnerId }),
        await openItem(b, 'debit', 300, '2026-05-01'),
        await openItem(b, 'credit', 100, '2026-05-02', { partnerId }),
        await openItem(b, 'debit', 70, '2026-05-04'),
      ];
      const settledD = await openItem(b, 'debit', 40, '2026-04-01');
      const settledC = await openItem(b, 'credit', 40, '2026-04-02');
      await staff.post(`${base(b.entityId)}/allocations/match`).send({ lineIds: [settledD, settledC] }).expect(201);

      const url = `${base(b.entityId)}/open-item-lines`;
      const first = await staff.get(url).query({ accountId: b.receivable, limit: 2 });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ openTotal: 770, lineCount: 4 });
      expect(first.body.lines.map((l: { id: string }) => l.id)).toEqual([lines[1], lines[2]]);
      expect(first.body.partnerOptions).toEqual(
        expect.arrayContaining([
          { partnerId, partnerName: 'Cliente Sur', lineCount: 2, openTotal: 400 },
          { partnerId: null, partnerName: null, lineCount: 2, openTotal: 370 },
        ]),
      );
      const second = await staff.get(url).query({ accountId: b.receivable, limit: 2, cursor: first.body.nextCursor });
      expect(second.body.lines.map((l: { id: string }) => l.id)).toEqual([lines[0], lines[3]]);
      expect(second.body.nextCursor).toBeNull();
      for (const cursor of [Buffer.from(`2026-13-01|${lines[0]}`).toString('base64url'), Buffer.from('2026-05-01|not-a-uuid').toString('base64url'), 'bm9wZQ']) {
        const bad = await staff.get(url).query({ accountId: b.receivable, cursor });
        expect({ cursor, status: bad.status, code: bad.body.code, path: bad.body.params?.errors?.[0]?.path }).toEqual({ cursor, status: 400, code: 'VALIDATION_ERROR', path: 'cursor' });
      }
      const byPartner = await staff.get(url).query({ accountId: b.receivable, partnerId });
      expect(byPartner.body).toMatchObject({ openTotal: 400, lineCount: 2 });
      const withSettled = await staff.get(url).query({ accountId: b.receivable, includeSettled: 'true' });
      expect(withSettled.body.lineCount).toBe(6);
      expect((await staff.get(url)).status).toBe(400);
      // Forged cursors whose date or id PostgreSQL refuses (were 500s).
      for (const key of [`2026-02-30|${randomUUID()}`, `0000-01-01|${randomUUID()}`, `2026-06-01|${'-'.repeat(36)}`]) {
        const forged = await staff.get(url).query({ accountId: b.receivable, cursor: Buffer.from(key).toString('base64url') });
        expect({ key, status: forged.status, path: forged.body.params?.errors?.[0]?.path }).toEqual({ key, status: 400, path: 'cursor' });
      }
      const unknown = await staff.get(url).query({ accountId: randomUUID() });
      expect([unknown.status, unknown.body.code]).toEqual([404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR']);
      const balance = await staff.get(url).query({ accountId: b.bank });
      expect([balance.status, balance.body.code, balance.body.params.errors[0].path]).toEqual([400, 'VALIDATION_ERROR', 'accountId']);
      const bookId = randomUUID();
      await staff.post(`/api/entities/${b.entityId}/books`).send({ id: bookId, name: 'IFRS' }).expect(201);
      const required = await staff.get(url).query({ accountId: b.receivable });
      expect([required.status, required.body.code]).toEqual([409, 'BOOK_REQUIRED_ERROR']);
      expect((await staff.get(url).query({ accountId: b.receivable, bookId })).body.lineCount).toBe(4);
    });
  });

  describe('open-item lines: the query is judged before what it names', () => {
    it('refuses a forged cursor with 400 VALIDATION_ERROR on cursor before an unknown account (404) or a missing bookId (409)', async () => {
      const b = await setUpBooks((await createEntity(staff, world.organizationId)).id);
      await staff.post(`/api/entities/${b.entityId}/books`).send({ id: randomUUID(), name: 'IFRS' }).expect(201);
      const url = `${base(b.entityId)}/open-item-lines`;
      const cursor = Buffer.from('garbage').toString('base64url');
      for (const query of [{ accountId: b.receivable, cursor }, { accountId: randomUUID(), cursor }, { accountId: b.bank, cursor }]) {
        const res = await staff.get(url).query(query);
        expect({ query, status: res.status, code: res.body.code, path: res.body.params?.errors?.[0]?.path }).toEqual({ query, status: 400, code: 'VALIDATION_ERROR', path: 'cursor' });
      }
    });
  });

  describe('open-item lines: pages and partner options', () => {
    it('visits every open line exactly once in (entry date, line id) order, with partner options by name, then id, the unassigned last', async () => {
      const b = await setUpBooks((await createEntity(staff, world.organizationId)).id);
      const partner = async (name: string, taxId: string) => {
        const id = randomUUID();
        await staff.post(`/api/entities/${b.entityId}/partners`).send({ id, name, type: 'company', country: 'US', taxId }).expect(201);
        return id;
      };
      const beta = await partner('Beta', 'T-1');
      const [alfa1, alfa2] = [await partner('Alfa', 'T-2'), await partner('Alfa', 'T-3')].sort();
      const made: Array<{ id: string; date: string }> = [];
      const dates = ['2026-05-02', '2026-05-01', '2026-05-02', '2026-05-02', '2026-05-03', '2026-05-01', '2026-05-02'];
      const partners = [alfa2, beta, null, alfa1, alfa2, null, beta];
      for (const [i, date] of dates.entries()) {
        const extra = partners[i] ? { partnerId: partners[i] } : {};
        made.push({ id: await openItem(b, i % 3 === 0 ? 'credit' : 'debit', 10 + i, date, extra), date });
      }
      const expected = [...made].sort((x, y) => x.date.localeCompare(y.date) || (x.id < y.id ? -1 : 1)).map((l) => l.id);
      const url = `${base(b.entityId)}/open-item-lines`;
      const seen: string[] = [];
      let cursor: string | null | undefined;
      do {
        const page = await staff.get(url).query({ accountId: b.receivable, limit: 3, ...(cursor ? { cursor } : {}) });
        expect(page.status).toBe(200);
        expect(page.body).toMatchObject({ lineCount: 7 });
        seen.push(...page.body.lines.map((l: { id: string }) => l.id));
        cursor = page.body.nextCursor;
      } while (cursor);
      expect(seen).toEqual(expected);
      const first = await staff.get(url).query({ accountId: b.receivable, partnerId: beta });
      // Debit positive: credits of 10 (line 0), 13 (line 3) and 16 (line 6).
      expect(first.body).toMatchObject({ lineCount: 2, openTotal: 11 - 16 });
      expect(first.body.partnerOptions).toEqual([
        { partnerId: alfa1, partnerName: 'Alfa', lineCount: 1, openTotal: -13 },
        { partnerId: alfa2, partnerName: 'Alfa', lineCount: 2, openTotal: -10 + 14 },
        { partnerId: beta, partnerName: 'Beta', lineCount: 2, openTotal: 11 - 16 },
        { partnerId: null, partnerName: null, lineCount: 2, openTotal: 12 + 15 },
      ]);
    });
  });

  describe('concurrency', () => {
    it('never over-settles a line when 20 allocations and 5 matches race over the same lines', async () => {
      const b = await setUpBooks((await createEntity(staff, world.organizationId)).id);
      const debits = [await openItem(b, 'debit', 1000), await openItem(b, 'debit', 700)];
      const credits = [await openItem(b, 'credit', 600), await openItem(b, 'credit', 500), await openItem(b, 'credit', 400)];
      const server = t.app.getHttpServer();
      const allocations = Array.from({ length: 20 }, (_, i) =>
        request(server)
          .post(`${base(b.entityId)}/allocations`)
          .set('cookie', cookie)
          .send({ id: randomUUID(), debitLineId: debits[i % 2], creditLineId: credits[i % 3], amount: 150 }),
      );
      const matches = Array.from({ length: 5 }, (_, i) =>
        request(server)
          .post(`${base(b.entityId)}/allocations/match`)
          .set('cookie', cookie)
          .send({ lineIds: i % 2 ? [...credits, ...debits] : [...debits, ...credits] }),
      );
      const answers = await Promise.all([...allocations, ...matches]);
      for (const res of answers) {
        expect(res.status).not.toBe(500);
        expect([201, 409]).toContain(res.status);
        if (res.status === 409) {
          expect(['RECONCILIATION_ALLOCATION_AMOUNT_EXCEEDS_OPEN_AMOUNT_ERROR', 'RECONCILIATION_MATCH_NOTHING_TO_MATCH_ERROR']).toContain(res.body.code);
        }
      }
      const rows = await openAmounts(b.entityId);
      expectInvariants(rows);
      // Everything that could be settled was: the credits (1,500) are fully allocated.
      const settled = rows.filter((r) => credits.includes(r.id)).reduce((sum, r) => sum + r.allocated, 0);
      expect(settled).toBe(1500);
    });

    /**
     * `first` is held before its commit (its audit row waits on a lock of audit_trail) once it has
     * written; `second` is sent then and waits on the lines `first` holds; both then go on.
     */
    async function raceAfterWrite(first: () => request.Test, second: () => request.Test): Promise<[request.Response, request.Response]> {
      let later: Promise<request.Response> | undefined;
      const earlier = await whileTableLocked(t, 'audit_trail', 1, first, async () => {
        later = Promise.resolve(second());
        await waitUntil(async () => (await rowLockWaiters(t)) >= 1);
      });
      return [earlier, await later!];
    }

    const send = (method: 'post' | 'delete', path: string, body?: object) => () => {
      const req = request(t.app.getHttpServer())[method](path).set('cookie', cookie);
      return body ? req.send(body) : req;
    };

    async function entryOf(b: Books, lineId: string): Promise<string> {
      return (await staff.get(`${base(b.entityId)}/lines`).query({ accountId: b.receivable, status: 'all' })).body.find((l: { id: string }) => l.id === lineId).entryId;
    }

    it('leaves no allocation on a line whose entry is unbooked while the allocation is being made', async () => {
      const b = await setUpBooks((await createEntity(staff, world.organizationId)).id);
      const debit = await openItem(b, 'debit', 100);
      const credit = await openItem(b, 'credit', 100);
      const [made, unbooked] = await raceAfterWrite(
        send('post', `${base(b.entityId)}/allocations`, { id: randomUUID(), debitLineId: debit, creditLineId: credit, amount: 100 }),
        send('delete', `${base(b.entityId)}/entries/${await entryOf(b, debit)}`),
      );
      expect([made.status, unbooked.status]).toEqual([201, 200]);
      // The unbooking waited for the allocation and severed it: the payment is open again.
      expect(await t.sql(`SELECT count(*)::int AS n FROM reconciliation_allocations WHERE entity_id = $1`, [b.entityId])).toEqual([{ n: 0 }]);
      const open = await staff.get(`${base(b.entityId)}/open-item-lines`).query({ accountId: b.receivable });
      expect(open.body.lines.map((l: { id: string; openAmount: number }) => [l.id, l.openAmount])).toEqual([[credit, 100]]);
      expectInvariants(await openAmounts(b.entityId));
    });

    it('refuses with 409 LEDGER_ENTRY_NOT_LIVE_ERROR an allocation sent while its entry is being unbooked', async () => {
      const b = await setUpBooks((await createEntity(staff, world.organizationId)).id);
      const debit = await openItem(b, 'debit', 100);
      const credit = await openItem(b, 'credit', 100);
      const other = await openItem(b, 'credit', 40);
      await staff.post(`${base(b.entityId)}/allocations`).send({ id: randomUUID(), debitLineId: debit, creditLineId: other, amount: 40 }).expect(201);
      const [unbooked, made] = await raceAfterWrite(
        send('delete', `${base(b.entityId)}/entries/${await entryOf(b, debit)}`),
        send('post', `${base(b.entityId)}/allocations`, { id: randomUUID(), debitLineId: debit, creditLineId: credit, amount: 10 }),
      );
      expect([unbooked.status, made.status, made.body.code]).toEqual([200, 409, 'LEDGER_ENTRY_NOT_LIVE_ERROR']);
      expect(await t.sql(`SELECT count(*)::int AS n FROM reconciliation_allocations WHERE entity_id = $1`, [b.entityId])).toEqual([{ n: 0 }]);
      expectInvariants(await openAmounts(b.entityId));
    });

    it('gives an allocation back once when both its lines are unbooked at the same time (was a 500)', async () => {
      const b = await setUpBooks((await createEntity(staff, world.organizationId)).id);
      const debit = await openItem(b, 'debit', 100);
      const credit = await openItem(b, 'credit', 100);
      await staff.post(`${base(b.entityId)}/allocations`).send({ id: randomUUID(), debitLineId: debit, creditLineId: credit, amount: 100 }).expect(201);
      const answers = await raceAfterWrite(
        send('delete', `${base(b.entityId)}/entries/${await entryOf(b, debit)}`),
        send('delete', `${base(b.entityId)}/entries/${await entryOf(b, credit)}`),
      );
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      expect(await t.sql(`SELECT allocated_amount::int AS allocated FROM ledger_lines WHERE entity_id = $1 AND is_open_item`, [b.entityId])).toEqual([{ allocated: 0 }, { allocated: 0 }]);
      expectInvariants(await openAmounts(b.entityId));
    });

    it('gives an allocation back once when it is deleted while one of its lines is unbooked (was a 500)', async () => {
      const b = await setUpBooks((await createEntity(staff, world.organizationId)).id);
      const debit = await openItem(b, 'debit', 100);
      const credit = await openItem(b, 'credit', 100);
      const id = randomUUID();
      await staff.post(`${base(b.entityId)}/allocations`).send({ id, debitLineId: debit, creditLineId: credit, amount: 100 }).expect(201);
      const [deleted, unbooked] = await raceAfterWrite(
        send('delete', `${base(b.entityId)}/allocations/${id}`),
        send('delete', `${base(b.entityId)}/entries/${await entryOf(b, debit)}`),
      );
      expect([deleted.status, unbooked.status]).toEqual([200, 200]);
      const open = await staff.get(`${base(b.entityId)}/open-item-lines`).query({ accountId: b.receivable });
      expect(open.body.lines.map((l: { id: string; openAmount: number }) => [l.id, l.openAmount])).toEqual([[credit, 100]]);
      expectInvariants(await openAmounts(b.entityId));
    });

    it('holds a reversal pair original first, as unbooking does: an allocation on both halves never deadlocks against unbooking the original', async () => {
      const b = await setUpBooks((await createEntity(staff, world.organizationId)).id);
      // The reversal's id sorts before its original's: an order by id alone takes the reversal first.
      const originalId = `f${randomUUID().slice(1)}`;
      const reversalId = `0${randomUUID().slice(1)}`;
      const posted = await staff.post(`${base(b.entityId)}/entries`).send({
        id: originalId,
        entryDate: '2026-06-01',
        memo: 'invoice',
        newLedgerEntryLines: [
          { side: 'debit', ledgerAccountId: b.receivable, amount: 100 },
          { side: 'credit', ledgerAccountId: b.sales, amount: 100 },
        ],
      });
      expect(posted.status).toBe(201);
      const reversed = await staff.post(`${base(b.entityId)}/entries/${originalId}/reverse`).send({ id: reversalId, reversalDate: '2026-06-10' });
      expect(reversed.status).toBe(201);
      const debitLineId = posted.body.lines[0].id;
      const creditLineId = reversed.body.reversalEntry.lines.find((l: { ledgerAccountId: string }) => l.ledgerAccountId === b.receivable).id;

      // The unbooking holds the original and waits for the reversal (key-share-locked here); the
      // allocation is sent meanwhile; then both go on.
      let allocating: ReturnType<typeof sendNow> | undefined;
      let unbooking: ReturnType<typeof sendNow> | undefined;
      let cycle = false;
      let watching: Promise<void> | undefined;
      await whileRowLocked(
        t,
        'SELECT 1 FROM ledger_entries WHERE entity_id = $1 AND id = $2 FOR KEY SHARE',
        [b.entityId, reversalId],
        () => {
          unbooking = sendNow(send('delete', `${base(b.entityId)}/entries/${originalId}`)());
          return unbooking.response;
        },
        async () => {
          allocating = sendNow(send('post', `${base(b.entityId)}/allocations`, { id: randomUUID(), debitLineId, creditLineId, amount: 1 })());
          await waitUntil(async () => allocating!.answered() || (await lockWaiters(t)) >= 2);
          watching = waitUntil(async () => {
            if (await deadlocked(t)) cycle = true;
            return allocating!.answered() && unbooking!.answered();
          });
        },
      );
      await watching;
      expect(cycle).toBe(false);
      const [unbooked, made] = [await unbooking!.response, await allocating!.response];
      expect([unbooked.status, made.status, made.body.code]).toEqual([200, 409, 'LEDGER_ENTRY_NOT_LIVE_ERROR']);
      expectInvariants(await openAmounts(b.entityId));
    });

    it('locks the lines before the allocation it deletes, as unbooking does: a delete never deadlocks against unbooking one of its lines', async () => {
      const b = await setUpBooks((await createEntity(staff, world.organizationId)).id);
      const debit = await openItem(b, 'debit', 100);
      const credit = await openItem(b, 'credit', 100);
      const id = randomUUID();
      await staff.post(`${base(b.entityId)}/allocations`).send({ id, debitLineId: debit, creditLineId: credit, amount: 100 }).expect(201);
      const entryId = await entryOf(b, debit);
      const firstLine = [debit, credit].sort()[0];

      // The unbooking waits at the lines (the first of them key-share-locked here), having read the
      // allocation; the delete is sent meanwhile and queues behind it; then both go on.
      let deleting: ReturnType<typeof sendNow> | undefined;
      let unbooking: ReturnType<typeof sendNow> | undefined;
      let cycle = false;
      let watching: Promise<void> | undefined;
      await whileRowLocked(
        t,
        'SELECT 1 FROM ledger_lines WHERE entity_id = $1 AND id = $2 FOR KEY SHARE',
        [b.entityId, firstLine],
        () => {
          unbooking = sendNow(send('delete', `${base(b.entityId)}/entries/${entryId}`)());
          return unbooking.response;
        },
        async () => {
          deleting = sendNow(send('delete', `${base(b.entityId)}/allocations/${id}`)());
          await waitUntil(async () => deleting!.answered() || (await lockWaiters(t)) >= 2);
          watching = waitUntil(async () => {
            if (await deadlocked(t)) cycle = true;
            return deleting!.answered() && unbooking!.answered();
          });
        },
      );
      await watching;
      expect(cycle).toBe(false);
      const [unbooked, deleted] = [await unbooking!.response, await deleting!.response];
      // The unbooking came first and severed the allocation: the delete finds none.
      expect([unbooked.status, deleted.status, deleted.body.code]).toEqual([200, 404, 'RECONCILIATION_ALLOCATION_NOT_FOUND_ERROR']);
      const open = await staff.get(`${base(b.entityId)}/open-item-lines`).query({ accountId: b.receivable });
      expect(open.body.lines.map((l: { id: string; openAmount: number }) => [l.id, l.openAmount])).toEqual([[credit, 100]]);
      expectInvariants(await openAmounts(b.entityId));
    });
  });

  describe('property: random create, delete, match and unbook', () => {
    it('keeps every open amount in [0, amount] and equal to amount minus its allocations', async () => {
      const b = await setUpBooks((await createEntity(staff, world.organizationId)).id);
      const op = fc.oneof(
        fc.record({ kind: fc.constant('create' as const), debit: fc.nat(), credit: fc.nat(), amount: fc.integer({ min: 1, max: 400 }) }),
        fc.record({ kind: fc.constant('delete' as const), which: fc.nat() }),
        fc.record({ kind: fc.constant('match' as const), picks: fc.array(fc.nat(), { minLength: 2, maxLength: 4 }) }),
        fc.record({ kind: fc.constant('unbook' as const), which: fc.nat() }),
        fc.record({ kind: fc.constant('post' as const), side: fc.constantFrom('debit' as const, 'credit' as const), amount: fc.integer({ min: 1, max: 500 }) }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 10 }), async (ops) => {
          const debits = [await openItem(b, 'debit', 300), await openItem(b, 'debit', 200)];
          const credits = [await openItem(b, 'credit', 250), await openItem(b, 'credit', 100)];
          const made: string[] = [];
          for (const o of ops) {
            let res;
            if (o.kind === 'post') {
              const line = await openItem(b, o.side, o.amount);
              (o.side === 'debit' ? debits : credits).push(line);
              continue;
            }
            if (o.kind === 'create') {
              const id = randomUUID();
              res = await staff
                .post(`${base(b.entityId)}/allocations`)
                .send({ id, debitLineId: debits[o.debit % debits.length], creditLineId: credits[o.credit % credits.length], amount: o.amount });
              if (res.status === 201) made.push(id);
            } else if (o.kind === 'delete') {
              if (made.length === 0) continue;
              res = await staff.delete(`${base(b.entityId)}/allocations/${made[o.which % made.length]}`);
            } else if (o.kind === 'match') {
              const all = [...debits, ...credits];
              res = await staff.post(`${base(b.entityId)}/allocations/match`).send({ lineIds: o.picks.map((p) => all[p % all.length]) });
            } else {
              const all = [...debits, ...credits];
              const lineId = all[o.which % all.length];
              const line = (await staff.get(`${base(b.entityId)}/lines`).query({ accountId: b.receivable, status: 'all' })).body.find((l: { id: string }) => l.id === lineId);
              res = await staff.delete(`${base(b.entityId)}/entries/${line.entryId}`);
            }
            expect(res.status).toBeLessThan(500);
            expectInvariants(await openAmounts(b.entityId));
          }
        }),
        { numRuns: 8 },
      );
    });
  });

  describe('property: maintained open-item figures (issue 25)', () => {
    it('equal, after random postings, reversals, allocations, matches and unbookings, the figures computed from the lines', async () => {
      const b = await setUpBooks((await createEntity(staff, world.organizationId)).id);
      const partners: string[] = [];
      for (let i = 0; i < 3; i++) {
        const id = randomUUID();
        await staff.post(`/api/entities/${b.entityId}/partners`).send({ id, name: `Partner ${i}`, type: 'company', country: 'AR', taxId: randomUUID().slice(0, 12) }).expect(201);
        partners.push(id);
      }
      /** openTotal, lineCount and partnerOptions computed from the lines, as the summary read did before issue 25. */
      const fromLines = async (partnerId: string | undefined, includeSettled: boolean) => {
        const rows = await t.sql<{ partner_id: string | null; line_count: number; open_total: string }>(
          `SELECT l.partner_id, count(*)::int AS line_count,
                  sum(CASE l.side WHEN 'debit' THEN l.amount - l.allocated_amount ELSE l.allocated_amount - l.amount END)::text AS open_total
             FROM ledger_lines l LEFT JOIN partners p ON p.entity_id = l.entity_id AND p.id = l.partner_id
            WHERE l.entity_id = $1 AND l.account_id = $2 AND l.is_open_item AND l.status IN ('active', 'reversed') AND l.book_id IS NULL
              AND ($3 OR l.allocated_amount < l.amount)
            GROUP BY l.partner_id, p.name ORDER BY p.name NULLS LAST, l.partner_id`,
          [b.entityId, b.receivable, includeSettled],
        );
        const selected = partnerId ? rows.filter((r) => r.partner_id === partnerId) : rows;
        return {
          openTotal: selected.reduce((sum, r) => sum + Number(r.open_total), 0),
          lineCount: selected.reduce((sum, r) => sum + r.line_count, 0),
          partnerOptions: rows.map((r) => ({ partnerId: r.partner_id, lineCount: r.line_count, openTotal: Number(r.open_total) })),
        };
      };
      const expectSummaryFromLines = async () => {
        for (const partnerId of [undefined, partners[0]]) {
          for (const includeSettled of [false, true]) {
            const res = await staff.get(`${base(b.entityId)}/open-item-lines`).query({ accountId: b.receivable, includeSettled, limit: 1, ...(partnerId ? { partnerId } : {}) });
            expect(res.status).toBe(200);
            const { openTotal, lineCount, partnerOptions } = res.body;
            expect({ openTotal, lineCount, partnerOptions: partnerOptions.map(({ partnerId: p, lineCount: n, openTotal: o }: Record<string, unknown>) => ({ partnerId: p, lineCount: n, openTotal: o })) }).toEqual(
              await fromLines(partnerId, includeSettled),
            );
          }
        }
      };
      const op = fc.oneof(
        fc.record({ kind: fc.constant('post' as const), side: fc.constantFrom('debit' as const, 'credit' as const), amount: fc.integer({ min: 1, max: 500 }), partner: fc.nat(3) }),
        fc.record({ kind: fc.constant('create' as const), debit: fc.nat(), credit: fc.nat(), amount: fc.integer({ min: 1, max: 400 }) }),
        fc.record({ kind: fc.constant('delete' as const), which: fc.nat() }),
        fc.record({ kind: fc.constant('match' as const), picks: fc.array(fc.nat(), { minLength: 2, maxLength: 4 }) }),
        fc.record({ kind: fc.constant('unbook' as const), which: fc.nat() }),
        fc.record({ kind: fc.constant('reverse' as const), which: fc.nat() }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 10 }), async (ops) => {
          const debits = [await openItem(b, 'debit', 300, '2026-05-20', { partnerId: partners[0] }), await openItem(b, 'debit', 200)];
          const credits = [await openItem(b, 'credit', 250, '2026-06-01', { partnerId: partners[0] }), await openItem(b, 'credit', 100)];
          const made: string[] = [];
          const entryOf = async (lineId: string) =>
            (await t.sql<{ entry_id: string }>('SELECT entry_id FROM ledger_lines WHERE entity_id = $1 AND id = $2', [b.entityId, lineId]))[0].entry_id;
          for (const o of ops) {
            let res;
            const all = [...debits, ...credits];
            if (o.kind === 'post') {
              const line = await openItem(b, o.side, o.amount, '2026-06-01', o.partner < partners.length ? { partnerId: partners[o.partner] } : {});
              (o.side === 'debit' ? debits : credits).push(line);
              continue;
            }
            if (o.kind === 'create') {
              const id = randomUUID();
              res = await staff
                .post(`${base(b.entityId)}/allocations`)
                .send({ id, debitLineId: debits[o.debit % debits.length], creditLineId: credits[o.credit % credits.length], amount: o.amount });
              if (res.status === 201) made.push(id);
            } else if (o.kind === 'delete') {
              if (made.length === 0) continue;
              res = await staff.delete(`${base(b.entityId)}/allocations/${made[o.which % made.length]}`);
            } else if (o.kind === 'match') {
              res = await staff.post(`${base(b.entityId)}/allocations/match`).send({ lineIds: o.picks.map((p) => all[p % all.length]) });
            } else if (o.kind === 'unbook') {
              res = await staff.delete(`${base(b.entityId)}/entries/${await entryOf(all[o.which % all.length])}`);
            } else {
              res = await staff.post(`${base(b.entityId)}/entries/${await entryOf(all[o.which % all.length])}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-10' });
            }
            expect(res.status).toBeLessThan(500);
          }
          await expectSummaryFromLines();
          await expectMonthlyTotalsMatchLines(t, b.entityId);
        }),
        { numRuns: 8 },
      );
    });
  });

  describe('monthly totals', () => {
    it('equal the sums of live lines of every Entity', async () => {
      for (const { entity_id } of await t.sql<{ entity_id: string }>('SELECT DISTINCT entity_id FROM ledger_lines')) {
        await expectMonthlyTotalsMatchLines(t, entity_id);
      }
    });
  });

  describe('access', () => {
    it.each([
      ['GET open-item-lines', { method: 'get' as const, path: (id: string) => `/api/entities/${id}/ledger/open-item-lines?accountId=${randomUUID()}` }],
      ['GET allocations', { method: 'get' as const, path: (id: string) => `/api/entities/${id}/ledger/allocations?lineId=${randomUUID()}` }],
      [
        'POST allocations',
        {
          method: 'post' as const,
          path: (id: string) => `/api/entities/${id}/ledger/allocations`,
          body: () => ({ id: randomUUID(), debitLineId: randomUUID(), creditLineId: randomUUID(), amount: 1 }),
        },
      ],
      ['DELETE allocations/:allocationId', { method: 'delete' as const, path: (id: string) => `/api/entities/${id}/ledger/allocations/${randomUUID()}` }],
      [
        'POST allocations/match',
        { method: 'post' as const, path: (id: string) => `/api/entities/${id}/ledger/allocations/match`, body: () => ({ lineIds: [randomUUID(), randomUUID()] }) },
      ],
    ])('%s', async (_label, route) => {
      await checkAccessMatrix(t, world, route);
    });
  });
});

describe('partner pages with open balances (D45)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ clock });
  });
  afterAll(() => t.close());

  it('shows each partner open receivable and payable balance, lowered by allocations', async () => {
    const world = await buildWorld(t);
    const staff = world.staff;
    const entityId = world.entityId;
    const account = (code: string, type: string, tracking: string, subtype: string | null) => createLedgerAccount(staff, entityId, { code, type, tracking, subtype });
    const receivable = await account('1105', 'asset', 'open_item', 'receivable');
    const payable = await account('2101', 'liability', 'open_item', 'payable');
    const bank = await account('1102', 'asset', 'balance', null);
    const partnerId = randomUUID();
    await staff.post(`/api/entities/${entityId}/partners`).send({ id: partnerId, name: 'Mixto Ltda', type: 'company', country: 'CL', taxId: '11.111.111-1' }).expect(201);
    const post = async (lines: Array<Record<string, unknown>>) =>
      (await staff.post(`/api/entities/${entityId}/ledger/entries`).send({ id: randomUUID(), entryDate: '2026-06-01', memo: 'x', newLedgerEntryLines: lines }).expect(201)).body;
    const invoice = await post([{ side: 'debit', ledgerAccountId: receivable, amount: 500, partnerId }, { side: 'credit', ledgerAccountId: bank, amount: 500 }]);
    const payment = await post([{ side: 'credit', ledgerAccountId: receivable, amount: 200, partnerId }, { side: 'debit', ledgerAccountId: bank, amount: 200 }]);
    await post([{ side: 'credit', ledgerAccountId: payable, amount: 70, partnerId }, { side: 'debit', ledgerAccountId: bank, amount: 70 }]);
    const before = await staff.get(`/api/entities/${entityId}/partners/pages`);
    expect(before.body.rows.find((r: { id: string }) => r.id === partnerId)).toMatchObject({ receivableOpenBalance: 300, payableOpenBalance: 70 });
    await staff.post(`/api/entities/${entityId}/ledger/allocations/match`).send({ lineIds: [invoice.lines[0].id, payment.lines[0].id] }).expect(201);
    const after = await staff.get(`/api/entities/${entityId}/partners/pages`);
    expect(after.body.rows.find((r: { id: string }) => r.id === partnerId)).toMatchObject({ receivableOpenBalance: 300, payableOpenBalance: 70 });
    const lines = await staff.get(`/api/entities/${entityId}/ledger/open-item-lines`).query({ accountId: receivable });
    expect(lines.body.openTotal).toBe(300);
  });
});
