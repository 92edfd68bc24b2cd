import { randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import { BankAccountRepository } from '../src/modules/banking/application/banking-ports';
import { checkAccessMatrix } from './harness/access-matrix';
import type { Client } from 'pg';
import { expectAudited, expectRefused, waitingStatements, whileRowLocked } from './harness/db-checks';
import type { TestApp } from './harness/test-app';
import { Agent, createLedgerAccount, createWorldApp, freshEntity, World } from './harness/world';

/** Every table a booking or a match could write. */
const TABLES = ['bank_movements', 'bank_movement_severed_bookings', 'bank_accounts', 'ledger_entries', 'ledger_lines', 'reconciliation_allocations', 'ledger_account_monthly_totals', 'audit_trail'];

interface Line {
  id: string;
  side: 'debit' | 'credit';
  ledgerAccountId: string;
  amount: number;
  partnerId: string | null;
  openAmount: number | null;
}

describe('Booking and matching bank movements (D66)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp());
  });
  afterAll(() => t.close());

  const refused = (req: Test, status: number, code: string) => expectRefused(t, TABLES, req, status, code);

  const setUp = async (entityId?: string) => {
    entityId ??= await freshEntity(world);
    const code = () => String(Math.floor(Math.random() * 900_000) + 100_000);
    const cash = await createLedgerAccount(staff, entityId, { code: `1${code()}`, type: 'asset', tracking: 'balance' });
    const cardLiability = await createLedgerAccount(staff, entityId, { code: `2${code()}`, type: 'liability', tracking: 'balance' });
    const receivable = await createLedgerAccount(staff, entityId, { code: `1${code()}`, type: 'asset', tracking: 'open_item', subtype: 'receivable' });
    const otherReceivable = await createLedgerAccount(staff, entityId, { code: `1${code()}`, type: 'asset', tracking: 'open_item', subtype: 'receivable' });
    const income = await createLedgerAccount(staff, entityId, { code: `4${code()}`, type: 'income', tracking: 'balance' });
    const expense = await createLedgerAccount(staff, entityId, { code: `5${code()}`, type: 'operating_expense', tracking: 'balance' });
    const bank = randomUUID();
    const card = randomUUID();
    await staff.post(`/api/entities/${entityId}/bank-accounts`).send({ id: bank, name: 'Banco', kind: 'bank', ledgerAccountId: cash, currency: 'CLP' }).expect(201);
    await staff.post(`/api/entities/${entityId}/bank-accounts`).send({ id: card, name: 'Visa', kind: 'card', ledgerAccountId: cardLiability, currency: 'CLP' }).expect(201);
    return { entityId, cash, cardLiability, receivable, otherReceivable, income, expense, bank, card };
  };
  type Setup = Awaited<ReturnType<typeof setUp>>;

  const movement = async (s: Setup, overrides: Record<string, unknown> = {}, account: 'bank' | 'card' = 'bank') => {
    const body = { id: randomUUID(), movementDate: '2026-03-10', description: 'Transferencia', amount: 1000, side: 'debit', ...overrides };
    await staff.post(`/api/entities/${s.entityId}/bank-accounts/${s[account]}/movements`).send(body).expect(201);
    return body.id;
  };
  /** An invoice-like open item: receivable debit against income; answers the receivable line id. */
  const openItem = async (s: Setup, amount: number, entryDate: string, extra: { partnerId?: string; account?: string; bookId?: string; memo?: string } = {}) => {
    const res = await staff
      .post(`/api/entities/${s.entityId}/ledger/entries`)
      .send({
        id: randomUUID(),
        entryDate,
        memo: extra.memo ?? 'Factura',
        ...(extra.bookId ? { bookId: extra.bookId } : {}),
        newLedgerEntryLines: [
          { side: 'debit', ledgerAccountId: extra.account ?? s.receivable, amount, ...(extra.partnerId ? { partnerId: extra.partnerId } : {}) },
          { side: 'credit', ledgerAccountId: s.income, amount },
        ],
      })
      .expect(201);
    return res.body.lines[0].id as string;
  };
  const book = (s: Setup, movementId: string, body: Record<string, unknown>) => staff.post(`/api/entities/${s.entityId}/bank-movements/${movementId}/book`).send({ entryId: randomUUID(), ...body });
  const match = (s: Setup, movementId: string, body: Record<string, unknown>) => staff.post(`/api/entities/${s.entityId}/bank-movements/${movementId}/match`).send({ entryId: randomUUID(), ...body });
  const getMovement = async (s: Setup, id: string) => (await staff.get(`/api/entities/${s.entityId}/bank-movements/${id}`).expect(200)).body;
  const linesOf = (entry: { lines: Line[] }) => entry.lines.map((l) => [l.side, l.ledgerAccountId, l.amount]);

  describe('POST .../book', () => {
    it.each([
      ['bank, money in', 'bank', 'debit'],
      ['bank, money out', 'bank', 'credit'],
      ['card, payment to the card', 'card', 'debit'],
      ['card, a purchase', 'card', 'credit'],
    ] as const)('%s: posts the mapped account on the movement side against the counter account, 200 { movement, entry }, audited', async (_label, kind, side) => {
      const s = await setUp();
      const id = await movement(s, { side, amount: 12_345, movementDate: '2026-03-07' }, kind);
      const entryId = randomUUID();
      const counter = side === 'debit' ? s.income : s.expense;
      const res = await expectAudited(t, staff.post(`/api/entities/${s.entityId}/bank-movements/${id}/book`).send({ entryId, counterAccountId: counter }), 200, {
        action: 'bank_movement.book',
        resource_type: 'bank_movement',
        entity_id: s.entityId,
      });
      const mapped = kind === 'bank' ? s.cash : s.cardLiability;
      const other = side === 'debit' ? 'credit' : 'debit';
      expect(res.body.movement).toMatchObject({ id, ledgerEntryId: entryId });
      expect(res.body.entry).toMatchObject({ id: entryId, entryDate: '2026-03-07', memo: 'Transferencia', source: 'bank_movement', status: 'active', bookId: null });
      expect(linesOf(res.body.entry)).toEqual([
        [side, mapped, 12_345],
        [other, counter, 12_345],
      ]);
      const stored = await t.sql(`SELECT side, account_id, amount::int FROM ledger_lines WHERE entity_id = $1 AND entry_id = $2 ORDER BY line_no`, [s.entityId, entryId]);
      expect(stored).toEqual([
        { side, account_id: mapped, amount: 12_345 },
        { side: other, account_id: counter, amount: 12_345 },
      ]);
      expect((await getMovement(s, id)).ledgerEntryId).toBe(entryId);
      const accounts = (await staff.get(`/api/entities/${s.entityId}/bank-accounts`).expect(200)).body;
      const summary = accounts.find((a: { id: string }) => a.id === s[kind]);
      // Money in raises a bank's balance; a payment lowers what is owed on a card.
      expect(summary).toMatchObject({ unreconciledCount: 0, balance: kind === 'bank' ? (side === 'debit' ? 12_345 : -12_345) : side === 'debit' ? -12_345 : 12_345 });
    });

    it('takes the partner, Dimension Values and memo on the counter line', async () => {
      const s = await setUp();
      const partner = randomUUID();
      await staff.post(`/api/entities/${s.entityId}/partners`).send({ id: partner, name: 'Proveedor', type: 'company', country: 'CL', taxId: '76.086.428-5' }).expect(201);
      const dimension = randomUUID();
      const value = randomUUID();
      await staff.post(`/api/entities/${s.entityId}/dimensions`).send({ id: dimension, name: 'Centro' }).expect(201);
      await staff.post(`/api/entities/${s.entityId}/dimensions/${dimension}/values`).send({ id: value, code: 'A', name: 'Área A' }).expect(201);
      const id = await movement(s, { side: 'credit' });
      const res = await book(s, id, { counterAccountId: s.expense, partnerId: partner, dimensionValueIds: [value], memo: 'Arriendo marzo' }).expect(200);
      expect(res.body.entry.memo).toBe('Arriendo marzo');
      expect(res.body.entry.lines[1]).toMatchObject({ partnerId: partner, dimensionValues: [{ id: value, dimensionId: dimension, code: 'A', name: 'Área A' }] });
    });

    it('refuses a booked movement with 409 BANK_MOVEMENT_ALREADY_BOOKED_ERROR', async () => {
      const s = await setUp();
      const id = await movement(s);
      await book(s, id, { counterAccountId: s.income }).expect(200);
      await refused(book(s, id, { counterAccountId: s.income }), 409, 'BANK_MOVEMENT_ALREADY_BOOKED_ERROR');
    });

    it('two bookings of one movement at once: one 200, one 409 BANK_MOVEMENT_ALREADY_BOOKED_ERROR, one entry', async () => {
      const s = await setUp();
      const id = await movement(s);
      const answers = await Promise.all([book(s, id, { counterAccountId: s.income }), book(s, id, { counterAccountId: s.income })]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(answers.find((r) => r.status === 409)!.body.code).toBe('BANK_MOVEMENT_ALREADY_BOOKED_ERROR');
      const [{ n }] = await t.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_entries WHERE entity_id = $1 AND source = 'bank_movement'`, [s.entityId]);
      expect(n).toBe(1);
    });

    it('refuses a missing counter account (404 LEDGER_ACCOUNT_NOT_FOUND_ERROR), a missing movement or one of another Entity (404 BANK_MOVEMENT_NOT_FOUND_ERROR), writing nothing', async () => {
      const s = await setUp();
      const other = await setUp();
      const id = await movement(s);
      const foreign = await movement(other);
      await refused(book(s, id, { counterAccountId: randomUUID() }), 404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR');
      await refused(book(s, randomUUID(), { counterAccountId: s.income }), 404, 'BANK_MOVEMENT_NOT_FOUND_ERROR');
      await refused(book(s, foreign, { counterAccountId: s.income }), 404, 'BANK_MOVEMENT_NOT_FOUND_ERROR');
      await refused(book(s, id, { counterAccountId: other.income }), 404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR');
    });

    it.each([
      ['a missing entryId', { entryId: undefined }],
      ['a missing counterAccountId', { counterAccountId: undefined }],
      ['an unknown field', { amount: 5 }],
      ['a bookId as a number', { bookId: 5 }],
    ])('refuses %s with 400 VALIDATION_ERROR', async (_label, overrides) => {
      const s = await setUp();
      const id = await movement(s);
      await refused(book(s, id, { counterAccountId: s.income, ...overrides }), 400, 'VALIDATION_ERROR');
    });

    it('refuses a reused entry id with 409 LEDGER_ENTRY_ALREADY_EXISTS_ERROR', async () => {
      const s = await setUp();
      const first = await movement(s);
      const second = await movement(s);
      const entryId = randomUUID();
      await book(s, first, { entryId, counterAccountId: s.income }).expect(200);
      await refused(book(s, second, { entryId, counterAccountId: s.income }), 409, 'LEDGER_ENTRY_ALREADY_EXISTS_ERROR');
    });

    it('refuses a movement of a foreign-currency account while no exchange rate is available (404 FX_RATE_NOT_FOUND_ERROR), writing nothing', async () => {
      const s = await setUp();
      const usdCash = await createLedgerAccount(staff, s.entityId, { code: '1199', type: 'asset', tracking: 'balance' });
      const usd = randomUUID();
      await staff.post(`/api/entities/${s.entityId}/bank-accounts`).send({ id: usd, name: 'USD', kind: 'bank', ledgerAccountId: usdCash, currency: 'USD' }).expect(201);
      const id = randomUUID();
      await staff.post(`/api/entities/${s.entityId}/bank-accounts/${usd}/movements`).send({ id, movementDate: '2026-03-10', description: 'Wire', amount: 10_000, side: 'debit' }).expect(201);
      await refused(book(s, id, { counterAccountId: s.income }), 404, 'FX_RATE_NOT_FOUND_ERROR');
      const line = await openItem(s, 100, '2026-02-01');
      await refused(match(s, id, { lineIds: [line] }), 404, 'FX_RATE_NOT_FOUND_ERROR');
    });

    it('books a movement of a foreign-currency account at the FX module\'s rate of its date, with the trio on both lines', async () => {
      const s = await setUp();
      const usdCash = await createLedgerAccount(staff, s.entityId, { code: '1198', type: 'asset', tracking: 'balance' });
      const usd = randomUUID();
      await staff.post(`/api/entities/${s.entityId}/bank-accounts`).send({ id: usd, name: 'USD 2', kind: 'bank', ledgerAccountId: usdCash, currency: 'USD' }).expect(201);
      const id = randomUUID();
      await staff.post(`/api/entities/${s.entityId}/bank-accounts/${usd}/movements`).send({ id, movementDate: '2026-03-10', description: 'Wire', amount: 10_000, side: 'debit' }).expect(201);
      await staff.post('/api/fx-rates/sync').send({ from: '2026-03-01', to: '2026-03-10' }).expect(201);
      const effective = await staff.get('/api/fx-rates/effective').query({ currency: 'USD', date: '2026-03-10' }).expect(200);
      const rate = effective.body.rate as string;
      const res = await book(s, id, { counterAccountId: s.income }).expect(200);
      const expected = Math.round((10_000 / 100) * Number(rate));
      expect(res.body.entry.lines).toHaveLength(2);
      for (const line of res.body.entry.lines as Array<Record<string, unknown>>) {
        expect(line).toMatchObject({ amount: expected, transactionCurrency: 'USD', transactionAmount: 10_000, exchangeRate: rate });
      }
    });

    it("reads the Entity's currency once for a foreign-currency booking (stop 17 review: the rate port read it a second time)", async () => {
      const s = await setUp();
      const usdCash = await createLedgerAccount(staff, s.entityId, { code: '1197', type: 'asset', tracking: 'balance' });
      const usd = randomUUID();
      await staff.post(`/api/entities/${s.entityId}/bank-accounts`).send({ id: usd, name: 'USD 3', kind: 'bank', ledgerAccountId: usdCash, currency: 'USD' }).expect(201);
      const id = randomUUID();
      await staff.post(`/api/entities/${s.entityId}/bank-accounts/${usd}/movements`).send({ id, movementDate: '2026-03-10', description: 'Wire', amount: 10_000, side: 'debit' }).expect(201);
      await staff.post('/api/fx-rates/sync').send({ from: '2026-03-01', to: '2026-03-10' }).expect(201);
      const reads = jest.spyOn(t.app.get(BankAccountRepository), 'functionalCurrency');
      try {
        await book(s, id, { counterAccountId: s.income }).expect(200);
        expect(reads.mock.calls).toEqual([[s.entityId]]);
      } finally {
        reads.mockRestore();
      }
    });

    it('refuses deleting a booked movement with 409 BANK_MOVEMENT_BOOKED_ERROR', async () => {
      const s = await setUp();
      const id = await movement(s);
      await book(s, id, { counterAccountId: s.income }).expect(200);
      await refused(staff.delete(`/api/entities/${s.entityId}/bank-movements/${id}`), 409, 'BANK_MOVEMENT_BOOKED_ERROR');
    });
  });

  describe('issue 33: the movement read unlocked, then checked under its row lock by the posting statement (the precondition, as invoices)', () => {
    /** The booking reads the movement, then its posting statement waits on the row held here; `meanwhile` runs in the holding transaction. */
    const whileMovementLocked = <T>(entityId: string, movementId: string, start: () => Promise<T>, meanwhile?: (blocker: Client) => Promise<unknown>, options?: { waiters?: number; end?: 'COMMIT' | 'ROLLBACK' }) =>
      whileRowLocked(t, 'SELECT 1 FROM bank_movements WHERE entity_id = $1 AND id = $2 FOR UPDATE', [entityId, movementId], start, meanwhile, options);
    const count = async (sql: string, values: unknown[]) => (await t.sql<{ n: number }>(sql, values))[0].n;
    const bookAs = (s: Setup, movementId: string, requestId: string) => book(s, movementId, { counterAccountId: s.income }).set('x-request-id', requestId);
    /** D94: each bank account's stored unreconciled count is its unbooked movements, counted. */
    const expectUnreconciledCounts = async (s: Setup) =>
      expect(
        await t.sql(
          `SELECT a.unreconciled_count AS stored, (SELECT count(*)::int FROM bank_movements m WHERE m.entity_id = a.entity_id AND m.bank_account_id = a.id AND m.ledger_entry_id IS NULL) AS counted
             FROM bank_accounts a WHERE a.entity_id = $1 AND a.unreconciled_count <> (SELECT count(*)::int FROM bank_movements m WHERE m.entity_id = a.entity_id AND m.bank_account_id = a.id AND m.ledger_entry_id IS NULL)`,
          [s.entityId],
        ),
      ).toEqual([]);

    it('waits in its one posting statement, not on a locked read first; only locked meanwhile: booked on the amount read, one entry, one audit row', async () => {
      const s = await setUp();
      const id = await movement(s, { amount: 1000 });
      const requestId = `req-${randomUUID()}`;
      const res = await whileMovementLocked(s.entityId, id, () => bookAs(s, id, requestId), async () => {
        // What waits on the movement is the posting statement (its CTEs: the ledger's guard, the
        // precondition, the entry, the link, the audit row), not a locked read of the movement
        // made first (the old way: SELECT ... FOR UPDATE, then the posting).
        const waiting = (await waitingStatements(t)).map((query) => ({ posting: query.startsWith('WITH '), lockedRead: /^SELECT .*bank_movements.*FOR UPDATE/s.test(query) }));
        expect(waiting).toEqual([{ posting: true, lockedRead: false }]);
      });
      expect(res.status).toBe(200);
      expect(linesOf(res.body.entry).map((line) => line[2])).toEqual([1000, 1000]);
      expect(res.body.movement).toMatchObject({ id, ledgerEntryId: res.body.entry.id });
      expect(await count(`SELECT count(*)::int AS n FROM ledger_entries WHERE entity_id = $1`, [s.entityId])).toBe(1);
      expect(await count(`SELECT count(*)::int AS n FROM audit_trail WHERE request_id = $1 AND action = 'bank_movement.book' AND resource_id = $2`, [requestId, id])).toBe(1);
      expect(await t.sql(`SELECT ledger_entry_id FROM bank_movements WHERE id = $1`, [id])).toEqual([{ ledger_entry_id: res.body.entry.id }]);
      await expectUnreconciledCounts(s);
    });

    it('amount changed and committed meanwhile: nothing posted on the stale read; booked on the new amount, one entry, one audit row', async () => {
      const s = await setUp();
      const id = await movement(s, { amount: 1000 });
      const requestId = `req-${randomUUID()}`;
      const res = await whileMovementLocked(s.entityId, id, () => bookAs(s, id, requestId), (blocker) => blocker.query(`UPDATE bank_movements SET amount = 2500 WHERE entity_id = $1 AND id = $2`, [s.entityId, id]));
      expect(res.status).toBe(200);
      expect(linesOf(res.body.entry)).toEqual([
        ['debit', s.cash, 2500],
        ['credit', s.income, 2500],
      ]);
      expect(await count(`SELECT count(*)::int AS n FROM ledger_entries WHERE entity_id = $1`, [s.entityId])).toBe(1);
      expect(await count(`SELECT count(*)::int AS n FROM ledger_lines WHERE entity_id = $1`, [s.entityId])).toBe(2);
      expect(await count(`SELECT count(*)::int AS n FROM audit_trail WHERE request_id = $1`, [requestId])).toBe(1);
      await expectUnreconciledCounts(s);
    });

    it('changed then rolled back: booked on the amount read', async () => {
      const s = await setUp();
      const id = await movement(s, { amount: 1000 });
      const res = await whileMovementLocked(s.entityId, id, () => bookAs(s, id, `req-${randomUUID()}`), (blocker) => blocker.query(`UPDATE bank_movements SET amount = 2500 WHERE entity_id = $1 AND id = $2`, [s.entityId, id]), { end: 'ROLLBACK' });
      expect(res.status).toBe(200);
      expect(linesOf(res.body.entry).map((line) => line[2])).toEqual([1000, 1000]);
    });

    it('deleted meanwhile: 404 BANK_MOVEMENT_NOT_FOUND_ERROR, nothing written, no audit row', async () => {
      const s = await setUp();
      const id = await movement(s);
      const requestId = `req-${randomUUID()}`;
      const res = await whileMovementLocked(s.entityId, id, () => bookAs(s, id, requestId), (blocker) => blocker.query(`DELETE FROM bank_movements WHERE entity_id = $1 AND id = $2`, [s.entityId, id]));
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'BANK_MOVEMENT_NOT_FOUND_ERROR' });
      expect(await count(`SELECT count(*)::int AS n FROM ledger_entries WHERE entity_id = $1`, [s.entityId])).toBe(0);
      expect(await count(`SELECT count(*)::int AS n FROM audit_trail WHERE request_id = $1`, [requestId])).toBe(0);
    });

    it('two bookings both past their read, both waiting on the row: one 200, one 409 BANK_MOVEMENT_ALREADY_BOOKED_ERROR, one entry, one audit row', async () => {
      const s = await setUp();
      const id = await movement(s);
      const ids = [`req-${randomUUID()}`, `req-${randomUUID()}`];
      const [a, b] = await whileMovementLocked(s.entityId, id, () => Promise.all(ids.map((requestId) => bookAs(s, id, requestId).then((r) => r))), undefined, { waiters: 2 });
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const winner = [a, b].find((r) => r.status === 200)!;
      expect([a, b].find((r) => r.status === 409)!.body).toMatchObject({ code: 'BANK_MOVEMENT_ALREADY_BOOKED_ERROR', params: { ledgerEntryId: winner.body.entry.id } });
      expect(await count(`SELECT count(*)::int AS n FROM ledger_entries WHERE entity_id = $1`, [s.entityId])).toBe(1);
      expect(await count(`SELECT count(*)::int AS n FROM audit_trail WHERE request_id = ANY($1)`, [ids])).toBe(1);
      expect(await t.sql(`SELECT ledger_entry_id FROM bank_movements WHERE id = $1`, [id])).toEqual([{ ledger_entry_id: winner.body.entry.id }]);
      await expectUnreconciledCounts(s);
    });

    it('eight bookings of one movement at once: one 200, seven 409, one entry', async () => {
      const s = await setUp();
      const id = await movement(s);
      const answers = await Promise.all(Array.from({ length: 8 }, () => book(s, id, { counterAccountId: s.income }).then((r) => r)));
      expect(answers.map((r) => r.status).sort()).toEqual([200, ...Array(7).fill(409)]);
      expect(answers.filter((r) => r.status === 409).every((r) => r.body.code === 'BANK_MOVEMENT_ALREADY_BOOKED_ERROR')).toBe(true);
      expect(await count(`SELECT count(*)::int AS n FROM ledger_entries WHERE entity_id = $1`, [s.entityId])).toBe(1);
      await expectUnreconciledCounts(s);
    });

    it('a refused posting (unknown counter account) writes nothing, the movement stays unbooked: 404, no audit row', async () => {
      const s = await setUp();
      const id = await movement(s);
      await refused(book(s, id, { counterAccountId: randomUUID() }), 404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR');
      expect(await t.sql(`SELECT ledger_entry_id FROM bank_movements WHERE id = $1`, [id])).toEqual([{ ledger_entry_id: null }]);
      await expectUnreconciledCounts(s);
    });
  });

  describe('the entry side', () => {
    it('the entry detail lists the movement in relatedBankMovements', async () => {
      const s = await setUp();
      const id = await movement(s, { amount: 777 });
      const entryId = randomUUID();
      await book(s, id, { entryId, counterAccountId: s.income }).expect(200);
      const detail = await staff.get(`/api/entities/${s.entityId}/ledger/entries/${entryId}`).expect(200);
      expect(detail.body.relatedBankMovements).toEqual([{ id, bankAccountId: s.bank, movementDate: '2026-03-10', amount: 777, side: 'debit', bankAccountCurrency: 'CLP' }]);
    });

    it('unbooking the entry severs the movement (severedMovements), which is unreconciled again and may be booked again', async () => {
      const s = await setUp();
      const id = await movement(s, { amount: 500 });
      const entryId = randomUUID();
      await book(s, id, { entryId, counterAccountId: s.income }).expect(200);
      const res = await staff.delete(`/api/entities/${s.entityId}/ledger/entries/${entryId}`).expect(200);
      expect(res.body.severedMovements).toEqual([{ id, bankAccountId: s.bank, movementDate: '2026-03-10', amount: 500, side: 'debit', bankAccountCurrency: 'CLP', entryId }]);
      expect((await getMovement(s, id)).ledgerEntryId).toBeNull();
      const accounts = (await staff.get(`/api/entities/${s.entityId}/bank-accounts`).expect(200)).body;
      expect(accounts.find((a: { id: string }) => a.id === s.bank)).toMatchObject({ unreconciledCount: 1, balance: 0 });
      await book(s, id, { counterAccountId: s.income }).expect(200);
    });

    it('reversing the entry severs the movement too', async () => {
      const s = await setUp();
      const id = await movement(s, { amount: 500, movementDate: '2026-03-01' });
      const entryId = randomUUID();
      await book(s, id, { entryId, counterAccountId: s.income }).expect(200);
      const res = await staff.post(`/api/entities/${s.entityId}/ledger/entries/${entryId}/reverse`).send({ id: randomUUID(), reversalDate: '2026-03-05' }).expect(201);
      expect(res.body.severedMovements).toEqual([expect.objectContaining({ id, entryId })]);
      expect((await getMovement(s, id)).ledgerEntryId).toBeNull();
    });

    it('unbooking the reversal books the movement by its original entry again (D35: the chain settled back)', async () => {
      const s = await setUp();
      const id = await movement(s, { amount: 500, movementDate: '2026-03-01' });
      const entryId = randomUUID();
      const reversalId = randomUUID();
      await book(s, id, { entryId, counterAccountId: s.income }).expect(200);
      await staff.post(`/api/entities/${s.entityId}/ledger/entries/${entryId}/reverse`).send({ id: reversalId, reversalDate: '2026-03-05' }).expect(201);
      await staff.delete(`/api/entities/${s.entityId}/ledger/entries/${reversalId}`).expect(200);
      expect((await getMovement(s, id)).ledgerEntryId).toBe(entryId);
      expect((await staff.get(`/api/entities/${s.entityId}/ledger/entries/${entryId}`).expect(200)).body.relatedBankMovements).toEqual([expect.objectContaining({ id })]);
      await refused(book(s, id, { counterAccountId: s.income }), 409, 'BANK_MOVEMENT_ALREADY_BOOKED_ERROR');
    });

    it('unbooking the reversal of an entry whose movement is booked again since puts the entry back unlinked, the movement left as it is (never a 409: the spec state table)', async () => {
      const s = await setUp();
      const id = await movement(s, { amount: 500, movementDate: '2026-03-01' });
      const entryId = randomUUID();
      const reversalId = randomUUID();
      await book(s, id, { entryId, counterAccountId: s.income }).expect(200);
      await staff.post(`/api/entities/${s.entityId}/ledger/entries/${entryId}/reverse`).send({ id: reversalId, reversalDate: '2026-03-05' }).expect(201);
      const again = randomUUID();
      await book(s, id, { entryId: again, counterAccountId: s.income }).expect(200);
      const res = await staff.delete(`/api/entities/${s.entityId}/ledger/entries/${reversalId}`).expect(200);
      expect(res.body.settledChainEntries).toEqual([expect.objectContaining({ id: entryId, status: 'active' })]);
      expect(res.body.severedMovements).toEqual([{ id, bankAccountId: s.bank, movementDate: '2026-03-01', amount: 500, side: 'debit', bankAccountCurrency: 'CLP', entryId }]);
      expect((await getMovement(s, id)).ledgerEntryId).toBe(again);
      expect((await staff.get(`/api/entities/${s.entityId}/ledger/entries/${entryId}`).expect(200)).body).toMatchObject({ status: 'active', relatedBankMovements: [] });
    });

    it('unbooking the reversal while the movement is being booked anew, at once: the movement ends booked by exactly one entry, the other answered', async () => {
      const s = await setUp();
      const id = await movement(s, { amount: 500, movementDate: '2026-03-01' });
      const [entryId, reversalId, againId] = [randomUUID(), randomUUID(), randomUUID()];
      await book(s, id, { entryId, counterAccountId: s.income }).expect(200);
      await staff.post(`/api/entities/${s.entityId}/ledger/entries/${entryId}/reverse`).send({ id: reversalId, reversalDate: '2026-03-05' }).expect(201);
      const [unbooking, booking] = await Promise.all([
        staff.delete(`/api/entities/${s.entityId}/ledger/entries/${reversalId}`).then((r) => r),
        book(s, id, { entryId: againId, counterAccountId: s.income }).then((r) => r),
      ]);
      expect(unbooking.status).toBe(200);
      if (booking.status === 200) {
        expect((await getMovement(s, id)).ledgerEntryId).toBe(againId);
        expect(unbooking.body.severedMovements).toEqual([expect.objectContaining({ id, entryId })]);
      } else {
        expect({ status: booking.status, code: booking.body.code }).toEqual({ status: 409, code: 'BANK_MOVEMENT_ALREADY_BOOKED_ERROR' });
        expect((await getMovement(s, id)).ledgerEntryId).toBe(entryId);
        expect(unbooking.body.severedMovements).toEqual([]);
      }
    });

    describe('a chain of bookings: booked by E, reversed, booked by F, reversed (each entry finds its own booking)', () => {
      const chain = async () => {
        const s = await setUp();
        const id = await movement(s, { amount: 500, movementDate: '2026-03-01' });
        const entries = `/api/entities/${s.entityId}/ledger/entries`;
        const [e, reversalOfE, f, reversalOfF] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
        await book(s, id, { entryId: e, counterAccountId: s.income }).expect(200);
        const first = await staff.post(`${entries}/${e}/reverse`).send({ id: reversalOfE, reversalDate: '2026-03-05' }).expect(201);
        expect(first.body.severedMovements).toEqual([expect.objectContaining({ id, entryId: e })]);
        await book(s, id, { entryId: f, counterAccountId: s.income }).expect(200);
        const second = await staff.post(`${entries}/${f}/reverse`).send({ id: reversalOfF, reversalDate: '2026-03-06' }).expect(201);
        expect(second.body.severedMovements).toEqual([expect.objectContaining({ id, entryId: f })]);
        expect((await getMovement(s, id)).ledgerEntryId).toBeNull();
        const related = async (entryId: string) => (await staff.get(`${entries}/${entryId}`).expect(200)).body as { status: string; relatedBankMovements: Array<{ id: string }> };
        return { s, id, entries, e, f, reversalOfE, reversalOfF, related };
      };

      it("unbooking E's reversal books the movement by E again (it was not forgotten when F booked it); then F's puts F back unlinked, the movement staying E's", async () => {
        const { s, id, entries, e, f, reversalOfE, reversalOfF, related } = await chain();
        const res = await staff.delete(`${entries}/${reversalOfE}`).expect(200);
        expect(res.body.settledChainEntries).toEqual([expect.objectContaining({ id: e, status: 'active' })]);
        expect(res.body.severedMovements).toEqual([]);
        expect((await getMovement(s, id)).ledgerEntryId).toBe(e);
        expect(await related(e)).toMatchObject({ status: 'active', relatedBankMovements: [expect.objectContaining({ id })] });
        expect(await related(f)).toMatchObject({ status: 'reversed', relatedBankMovements: [] });
        await refused(book(s, id, { counterAccountId: s.income }), 409, 'BANK_MOVEMENT_ALREADY_BOOKED_ERROR');
        const back = await staff.delete(`${entries}/${reversalOfF}`).expect(200);
        expect(back.body.severedMovements).toEqual([expect.objectContaining({ id, entryId: f })]);
        expect(await related(f)).toMatchObject({ status: 'active', relatedBankMovements: [] });
        expect((await getMovement(s, id)).ledgerEntryId).toBe(e);
        const accounts = (await staff.get(`/api/entities/${s.entityId}/bank-accounts`).expect(200)).body;
        expect(accounts.find((a: { id: string }) => a.id === s.bank)).toMatchObject({ unreconciledCount: 0 });
        expect(await t.sql(`SELECT entry_id FROM bank_movement_severed_bookings WHERE entity_id = $1`, [s.entityId])).toEqual([]);
      });

      it("in the other order: F's reversal books the movement by F again, then E's puts E back unlinked", async () => {
        const { s, id, entries, e, f, reversalOfE, reversalOfF, related } = await chain();
        await staff.delete(`${entries}/${reversalOfF}`).expect(200);
        expect((await getMovement(s, id)).ledgerEntryId).toBe(f);
        const back = await staff.delete(`${entries}/${reversalOfE}`).expect(200);
        expect(back.body.severedMovements).toEqual([expect.objectContaining({ id, entryId: e })]);
        expect(await related(e)).toMatchObject({ status: 'active', relatedBankMovements: [] });
        expect((await getMovement(s, id)).ledgerEntryId).toBe(f);
      });

      it('unbooking F for good leaves E restorable, and nothing is kept after', async () => {
        const { s, id, entries, e, f, reversalOfE } = await chain();
        await staff.delete(`${entries}/${f}`).expect(200);
        await staff.delete(`${entries}/${reversalOfE}`).expect(200);
        expect((await getMovement(s, id)).ledgerEntryId).toBe(e);
        expect(await t.sql(`SELECT entry_id FROM bank_movement_severed_bookings WHERE entity_id = $1`, [s.entityId])).toEqual([]);
      });
    });

    it('unbooking a reversed original (its reversal goes along) leaves the movement unbooked for good', async () => {
      const s = await setUp();
      const id = await movement(s, { amount: 500, movementDate: '2026-03-01' });
      const entryId = randomUUID();
      await book(s, id, { entryId, counterAccountId: s.income }).expect(200);
      await staff.post(`/api/entities/${s.entityId}/ledger/entries/${entryId}/reverse`).send({ id: randomUUID(), reversalDate: '2026-03-05' }).expect(201);
      await staff.delete(`/api/entities/${s.entityId}/ledger/entries/${entryId}`).expect(200);
      expect((await getMovement(s, id)).ledgerEntryId).toBeNull();
      expect(await t.sql(`SELECT entry_id FROM bank_movement_severed_bookings WHERE entity_id = $1 AND bank_movement_id = $2`, [s.entityId, id])).toEqual([]);
      await book(s, id, { counterAccountId: s.income }).expect(200);
    });

    it('the bank line of a booking keeps its account (409 LEDGER_LINE_DOCUMENT_LINKED_ERROR); the counter line may move', async () => {
      const s = await setUp();
      const id = await movement(s, { side: 'credit' });
      const res = await book(s, id, { counterAccountId: s.expense }).expect(200);
      const [bankLine, counterLine] = res.body.entry.lines as Line[];
      const move = (lineId: string) => staff.patch(`/api/entities/${s.entityId}/ledger/lines/${lineId}/account`).send({ ledgerAccountId: s.income });
      const refusal = await move(bankLine.id);
      expect({ status: refusal.status, code: refusal.body.code }).toEqual({ status: 409, code: 'LEDGER_LINE_DOCUMENT_LINKED_ERROR' });
      expect((await move(counterLine.id)).status).toBe(200);
    });
  });

  it('refuses a Book not in the Entity on book and match with 404 BOOK_NOT_FOUND_ERROR, writing nothing', async () => {
    const s = await setUp();
    const id = await movement(s, { amount: 100 });
    await refused(book(s, id, { counterAccountId: s.income, bookId: randomUUID() }), 404, 'BOOK_NOT_FOUND_ERROR');
    const line = await openItem(s, 100, '2026-03-02');
    await refused(match(s, id, { lineIds: [line], bookId: randomUUID() }), 404, 'BOOK_NOT_FOUND_ERROR');
  });

  describe('POST .../match', () => {
    it('posts bank against the open-item account and allocates the amount to the lines oldest first: 201, audited', async () => {
      const s = await setUp();
      const older = await openItem(s, 600, '2026-02-01');
      const newer = await openItem(s, 500, '2026-02-15');
      const id = await movement(s, { amount: 1000 });
      const entryId = randomUUID();
      const res = await expectAudited(t, staff.post(`/api/entities/${s.entityId}/bank-movements/${id}/match`).send({ entryId, lineIds: [newer, older] }), 201, {
        action: 'bank_movement.match',
        entity_id: s.entityId,
      });
      expect(res.body.movement).toMatchObject({ id, ledgerEntryId: entryId });
      expect(linesOf(res.body.entry)).toEqual([
        ['debit', s.cash, 1000],
        ['credit', s.receivable, 1000],
      ]);
      const openLine = res.body.entry.lines[1] as Line;
      expect(openLine.openAmount).toBe(0);
      expect(res.body.allocations.map((a: { debitLineId: string; creditLineId: string; amount: number }) => [a.debitLineId, a.creditLineId, a.amount])).toEqual([
        [older, openLine.id, 600],
        [newer, openLine.id, 400],
      ]);
      const open = await t.sql(`SELECT id, (amount - allocated_amount)::int AS open FROM ledger_lines WHERE entity_id = $1 AND id = ANY($2::uuid[]) ORDER BY entry_date`, [s.entityId, [older, newer, openLine.id]]);
      expect(open).toEqual([
        { id: older, open: 0 },
        { id: newer, open: 100 },
        { id: openLine.id, open: 0 },
      ]);
    });

    it('matches money out of a bank against payable credits (debit on the open-item account)', async () => {
      const s = await setUp();
      const payable = await createLedgerAccount(staff, s.entityId, { code: '2199', type: 'liability', tracking: 'open_item', subtype: 'payable' });
      const bill = await staff
        .post(`/api/entities/${s.entityId}/ledger/entries`)
        .send({ id: randomUUID(), entryDate: '2026-02-01', memo: 'Factura proveedor', newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: s.expense, amount: 300 }, { side: 'credit', ledgerAccountId: payable, amount: 300 }] })
        .expect(201);
      const id = await movement(s, { amount: 300, side: 'credit' });
      const res = await match(s, id, { lineIds: [bill.body.lines[1].id] }).expect(201);
      expect(linesOf(res.body.entry)).toEqual([
        ['credit', s.cash, 300],
        ['debit', payable, 300],
      ]);
    });

    it('refuses lines whose open total does not cover the amount with 409 BANK_MOVEMENT_MATCH_AMOUNT_MISMATCH_ERROR, writing nothing', async () => {
      const s = await setUp();
      const line = await openItem(s, 999, '2026-02-01');
      const id = await movement(s, { amount: 1000 });
      await refused(match(s, id, { lineIds: [line] }), 409, 'BANK_MOVEMENT_MATCH_AMOUNT_MISMATCH_ERROR');
      // Lines on the other side do not cover it either.
      const wrongSide = await movement(s, { amount: 10, side: 'credit' });
      await refused(match(s, wrongSide, { lineIds: [line] }), 409, 'BANK_MOVEMENT_MATCH_AMOUNT_MISMATCH_ERROR');
    });

    it('refuses lines on two accounts (409 RECONCILIATION_MATCH_LINES_ON_DIFFERENT_ACCOUNTS_ERROR) and lines of two Books (409 RECONCILIATION_MATCH_LINES_IN_DIFFERENT_BOOKS_ERROR)', async () => {
      const s = await setUp();
      const a = await openItem(s, 600, '2026-02-01');
      const b = await openItem(s, 600, '2026-02-01', { account: s.otherReceivable });
      const id = await movement(s, { amount: 1000 });
      await refused(match(s, id, { lineIds: [a, b] }), 409, 'RECONCILIATION_MATCH_LINES_ON_DIFFERENT_ACCOUNTS_ERROR');
      const bookId = randomUUID();
      await staff.post(`/api/entities/${s.entityId}/books`).send({ id: bookId, name: 'IFRS' }).expect(201);
      const inBook = await openItem(s, 600, '2026-02-01', { bookId });
      await refused(match(s, id, { lineIds: [a, inBook], bookId }), 409, 'RECONCILIATION_MATCH_LINES_IN_DIFFERENT_BOOKS_ERROR');
      // Common lines matched into a Book Entry span Books too.
      await refused(match(s, id, { lineIds: [a], bookId }), 409, 'RECONCILIATION_MATCH_LINES_IN_DIFFERENT_BOOKS_ERROR');
    });

    it('refuses a missing line (404 RECONCILIATION_MATCH_LINE_NOT_FOUND_ERROR), a line of a balance account (409), an empty or repeated selection (400)', async () => {
      const s = await setUp();
      const id = await movement(s, { amount: 100 });
      await refused(match(s, id, { lineIds: [randomUUID()] }), 404, 'RECONCILIATION_MATCH_LINE_NOT_FOUND_ERROR');
      const res = await staff
        .post(`/api/entities/${s.entityId}/ledger/entries`)
        .send({ id: randomUUID(), entryDate: '2026-02-01', memo: 'x', newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: s.expense, amount: 100 }, { side: 'credit', ledgerAccountId: s.income, amount: 100 }] })
        .expect(201);
      await refused(match(s, id, { lineIds: [res.body.lines[0].id] }), 409, 'RECONCILIATION_ALLOCATION_ACCOUNT_MUST_BE_OPEN_ITEM_ERROR');
      await refused(match(s, id, { lineIds: [] }), 400, 'VALIDATION_ERROR');
      const line = await openItem(s, 100, '2026-02-01');
      await refused(match(s, id, { lineIds: [line, line] }), 400, 'VALIDATION_ERROR');
    });

    it('a match racing an allocation on the same line never over-allocates: one succeeds, the other is refused', async () => {
      for (let round = 0; round < 3; round++) {
        const s = await setUp();
        const line = await openItem(s, 1000, '2026-02-01');
        const credit = await staff
          .post(`/api/entities/${s.entityId}/ledger/entries`)
          .send({ id: randomUUID(), entryDate: '2026-02-02', memo: 'Nota de crédito', newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: s.income, amount: 600 }, { side: 'credit', ledgerAccountId: s.receivable, amount: 600 }] })
          .expect(201);
        const id = await movement(s, { amount: 1000 });
        const [matched, allocated] = await Promise.all([
          match(s, id, { lineIds: [line] }),
          staff.post(`/api/entities/${s.entityId}/ledger/allocations`).send({ id: randomUUID(), debitLineId: line, creditLineId: credit.body.lines[1].id, amount: 600 }),
        ]);
        expect([matched.status, allocated.status].sort()).toEqual([201, 409]);
        const [{ allocated: total }] = await t.sql<{ allocated: number }>(`SELECT allocated_amount::int AS allocated FROM ledger_lines WHERE entity_id = $1 AND id = $2`, [s.entityId, line]);
        expect(total).toBe(matched.status === 201 ? 1000 : 600);
        const [{ n }] = await t.sql<{ n: number }>(`SELECT coalesce(sum(amount), 0)::int AS n FROM reconciliation_allocations WHERE entity_id = $1 AND (debit_line_id = $2 OR credit_line_id = $2)`, [s.entityId, line]);
        expect(n).toBe(total);
        expect((await getMovement(s, id)).ledgerEntryId === null).toBe(matched.status !== 201);
      }
    });

    it('unbooking a match entry releases its allocations and severs the movement', async () => {
      const s = await setUp();
      const line = await openItem(s, 1000, '2026-02-01');
      const id = await movement(s, { amount: 1000 });
      const entryId = randomUUID();
      await match(s, id, { entryId, lineIds: [line] }).expect(201);
      const res = await staff.delete(`/api/entities/${s.entityId}/ledger/entries/${entryId}`).expect(200);
      expect(res.body.severedMovements).toEqual([expect.objectContaining({ id, entryId })]);
      const [{ open }] = await t.sql<{ open: number }>(`SELECT (amount - allocated_amount)::int AS open FROM ledger_lines WHERE entity_id = $1 AND id = $2`, [s.entityId, line]);
      expect(open).toBe(1000);
    });
  });

  describe('GET .../match-candidates', () => {
    const candidates = (s: Setup, id: string, query: Record<string, string> = {}) => staff.get(`/api/entities/${s.entityId}/bank-movements/${id}/match-candidates`).query(query);

    it('ranks equal amount, then partner RUT, then a reference in the description, then date proximity; only the movement side', async () => {
      const s = await setUp();
      const partner = randomUUID();
      await staff.post(`/api/entities/${s.entityId}/partners`).send({ id: partner, name: 'Cliente', type: 'company', country: 'CL', taxId: '76.086.428-5' }).expect(201);
      const near = await openItem(s, 10, '2026-03-09');
      const far = await openItem(s, 20, '2025-06-01');
      const byReference = await openItem(s, 30, '2025-01-01', { memo: 'Factura 4711' });
      const byPartner = await openItem(s, 40, '2025-01-01', { partnerId: partner });
      const byAmount = await openItem(s, 2500, '2024-01-01');
      // A credit (the other side) is never a candidate for money in.
      await staff
        .post(`/api/entities/${s.entityId}/ledger/entries`)
        .send({ id: randomUUID(), entryDate: '2026-03-10', memo: 'NC', newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: s.income, amount: 2500 }, { side: 'credit', ledgerAccountId: s.receivable, amount: 2500 }] })
        .expect(201);
      const id = await movement(s, { amount: 2500, description: 'Pago factura 4711 de 76.086.428-5' });
      const res = await candidates(s, id).expect(200);
      expect(res.body.map((c: { lineId: string }) => c.lineId)).toEqual([byAmount, byPartner, byReference, near, far]);
      expect(res.body[0]).toMatchObject({ id: byAmount, equalAmount: true, openAmount: 2500, side: 'debit', ledgerAccountId: s.receivable, bookId: null });
      expect(res.body[1]).toMatchObject({ equalAmount: false, partnerTaxIdMatch: true, partnerId: partner });
      expect(res.body[2]).toMatchObject({ partnerTaxIdMatch: false, folioOrReferenceMatch: true });
      expect(res.body[3]).toMatchObject({ folioOrReferenceMatch: false, daysApart: 1 });
      expect((await candidates(s, id, { limit: '2' }).expect(200)).body).toHaveLength(2);
    });

    it('is book-scoped: 409 BOOK_REQUIRED_ERROR without bookId once the Entity has Books; common lines plus that Book', async () => {
      const s = await setUp();
      const common = await openItem(s, 100, '2026-03-01');
      const ifrs = randomUUID();
      const tax = randomUUID();
      await staff.post(`/api/entities/${s.entityId}/books`).send({ id: ifrs, name: 'IFRS' }).expect(201);
      await staff.post(`/api/entities/${s.entityId}/books`).send({ id: tax, name: 'Tax' }).expect(201);
      const inIfrs = await openItem(s, 100, '2026-03-02', { bookId: ifrs });
      await openItem(s, 100, '2026-03-03', { bookId: tax });
      const id = await movement(s, { amount: 100 });
      const res = await candidates(s, id);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: 'BOOK_REQUIRED_ERROR' });
      expect((await candidates(s, id, { bookId: ifrs }).expect(200)).body.map((c: { lineId: string }) => c.lineId).sort()).toEqual([common, inIfrs].sort());
      const missingBook = await candidates(s, id, { bookId: randomUUID() });
      expect({ status: missingBook.status, code: missingBook.body.code }).toEqual({ status: 404, code: 'BOOK_NOT_FOUND_ERROR' });
    });

    it('answers 404 BANK_MOVEMENT_NOT_FOUND_ERROR for a missing movement', async () => {
      const s = await setUp();
      const res = await candidates(s, randomUUID());
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'BANK_MOVEMENT_NOT_FOUND_ERROR' });
    });
  });

  describe('access', () => {
    let s: Setup;
    beforeAll(async () => {
      s = await setUp(world.entityId);
    });

    it('POST .../book', async () => {
      const id = await movement(s);
      await checkAccessMatrix(t, world, { method: 'post', path: (e) => `/api/entities/${e}/bank-movements/${id}/book`, body: () => ({ entryId: randomUUID(), counterAccountId: s.income }) });
    });
    it('POST .../match', async () => {
      const id = await movement(s, { amount: 100 });
      const line = await openItem(s, 300, '2026-02-01');
      await checkAccessMatrix(t, world, { method: 'post', path: (e) => `/api/entities/${e}/bank-movements/${id}/match`, body: () => ({ entryId: randomUUID(), lineIds: [line] }) });
    });
    it('GET .../match-candidates', async () => {
      const id = await movement(s);
      await checkAccessMatrix(t, world, { method: 'get', path: (e) => `/api/entities/${e}/bank-movements/${id}/match-candidates` });
    });
  });
});
