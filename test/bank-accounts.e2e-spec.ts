import { randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import { checkAccessMatrix } from './harness/access-matrix';
import { countRows, expectAudited, expectRefused } from './harness/db-checks';
import type { TestApp } from './harness/test-app';
import { Agent, createLedgerAccount, createWorldApp, freshEntity, ISO_DATETIME, World } from './harness/world';

const TABLES = ['bank_accounts', 'bank_movements', 'audit_trail'];

describe('Bank accounts (spec "Bank accounts", D78)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp());
  });
  afterAll(() => t.close());

  const accountsPath = (entityId: string) => `/api/entities/${entityId}/bank-accounts`;
  const refused = (req: Test, status: number, code: string) => expectRefused(t, TABLES, req, status, code);

  /** An Entity with a bank (asset), a card (liability), an income and an expense ledger account. */
  const setUp = async () => {
    const entityId = await freshEntity(world);
    const cash = await createLedgerAccount(staff, entityId, { code: '1101', type: 'asset', tracking: 'balance' });
    const card = await createLedgerAccount(staff, entityId, { code: '2150', type: 'liability', tracking: 'balance' });
    const income = await createLedgerAccount(staff, entityId, { code: '4101', type: 'income', tracking: 'balance' });
    const expense = await createLedgerAccount(staff, entityId, { code: '5101', type: 'operating_expense', tracking: 'balance' });
    return { entityId, cash, card, income, expense };
  };
  const createAccount = async (entityId: string, body: Record<string, unknown>) => {
    const res = await staff.post(accountsPath(entityId)).send({ id: randomUUID(), name: 'Cuenta corriente', kind: 'bank', currency: 'CLP', ...body });
    expect(res.status).toBe(201);
    return res.body;
  };
  const post = (entityId: string, lines: Array<[side: 'debit' | 'credit', accountId: string, amount: number]>, extra: Record<string, unknown> = {}) =>
    staff
      .post(`/api/entities/${entityId}/ledger/entries`)
      .send({ id: randomUUID(), entryDate: '2026-01-10', memo: 'm', newLedgerEntryLines: lines.map(([side, ledgerAccountId, amount]) => ({ side, ledgerAccountId, amount })), ...extra })
      .expect(201);

  describe('POST /bank-accounts', () => {
    it('creates a bank account and answers 201 with BankAccountWithSummary, audited', async () => {
      const { entityId, cash } = await setUp();
      const id = randomUUID();
      const res = await expectAudited(
        t,
        staff.post(accountsPath(entityId)).send({ id, name: '  Banco de Chile  ', kind: 'bank', ledgerAccountId: cash, currency: 'CLP' }),
        201,
        { action: 'bank_account.create', resource_type: 'bank_account', resource_id: id, entity_id: entityId },
      );
      expect(res.body).toEqual({
        id,
        entityId,
        name: 'Banco de Chile',
        kind: 'bank',
        ledgerAccountId: cash,
        currency: 'CLP',
        feed: null,
        balance: 0,
        unreconciledCount: 0,
        createdAt: expect.stringMatching(ISO_DATETIME),
        updatedAt: expect.stringMatching(ISO_DATETIME),
      });
      expect(await countRows(t, 'bank_accounts', 'entity_id = $1', [entityId])).toBe(1);
    });

    it('accepts a card on a liability account and a foreign currency', async () => {
      const { entityId, card } = await setUp();
      expect(await createAccount(entityId, { kind: 'card', ledgerAccountId: card, currency: 'USD' })).toMatchObject({ kind: 'card', currency: 'USD' });
    });

    it('refuses a kind that does not fit the ledger account type with 400 BANK_ACCOUNT_KIND_LEDGER_TYPE_MISMATCH_ERROR', async () => {
      const { entityId, cash, card, income } = await setUp();
      const body = (kind: string, ledgerAccountId: string) => ({ id: randomUUID(), name: 'X', kind, ledgerAccountId, currency: 'CLP' });
      await refused(staff.post(accountsPath(entityId)).send(body('bank', card)), 400, 'BANK_ACCOUNT_KIND_LEDGER_TYPE_MISMATCH_ERROR');
      await refused(staff.post(accountsPath(entityId)).send(body('card', cash)), 400, 'BANK_ACCOUNT_KIND_LEDGER_TYPE_MISMATCH_ERROR');
      await refused(staff.post(accountsPath(entityId)).send(body('bank', income)), 400, 'BANK_ACCOUNT_KIND_LEDGER_TYPE_MISMATCH_ERROR');
    });

    it.each([
      ['a missing name', { name: undefined }],
      ['a blank name', { name: '  ' }],
      ['a bad kind', { kind: 'savings' }],
      ['an unknown currency', { currency: 'XYZ' }],
      ['a lower-case currency', { currency: 'clp' }],
      ['a malformed id', { id: 'nope' }],
      ['a malformed ledgerAccountId', { ledgerAccountId: 'nope' }],
      ['an unknown property', { feed: null }],
      ['a number as a string name', { name: 42 }],
    ])('refuses %s with 400 VALIDATION_ERROR and writes nothing', async (_label, overrides) => {
      const { entityId, cash } = await setUp();
      await refused(staff.post(accountsPath(entityId)).send({ id: randomUUID(), name: 'X', kind: 'bank', ledgerAccountId: cash, currency: 'CLP', ...overrides }), 400, 'VALIDATION_ERROR');
    });

    it('refuses a missing ledger account, or one of another Entity, with 404 LEDGER_ACCOUNT_NOT_FOUND_ERROR', async () => {
      const { entityId } = await setUp();
      const other = await setUp();
      for (const ledgerAccountId of [randomUUID(), other.cash]) {
        await refused(staff.post(accountsPath(entityId)).send({ id: randomUUID(), name: 'X', kind: 'bank', ledgerAccountId, currency: 'CLP' }), 404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR');
      }
    });

    it('refuses a reused id with 409 BANK_ACCOUNT_ALREADY_EXISTS_ERROR; the same id in another Entity is no conflict (D4)', async () => {
      const { entityId, cash } = await setUp();
      const account = await createAccount(entityId, { ledgerAccountId: cash });
      await refused(staff.post(accountsPath(entityId)).send({ id: account.id, name: 'Y', kind: 'bank', ledgerAccountId: cash, currency: 'CLP' }), 409, 'BANK_ACCOUNT_ALREADY_EXISTS_ERROR');
      // The id is the idempotency id: a reused one is 409 whatever else the body names.
      await refused(staff.post(accountsPath(entityId)).send({ id: account.id, name: 'Y', kind: 'card', ledgerAccountId: randomUUID(), currency: 'XYZ' }), 409, 'BANK_ACCOUNT_ALREADY_EXISTS_ERROR');
      const other = await setUp();
      await createAccount(other.entityId, { id: account.id, ledgerAccountId: other.cash });
    });

    it('two creates with one id at once: one 201, one 409, one row', async () => {
      const { entityId, cash } = await setUp();
      const id = randomUUID();
      const send = () => staff.post(accountsPath(entityId)).send({ id, name: 'X', kind: 'bank', ledgerAccountId: cash, currency: 'CLP' });
      const statuses = (await Promise.all([send(), send()])).map((r) => r.status).sort();
      expect(statuses).toEqual([201, 409]);
      expect(await countRows(t, 'bank_accounts', 'entity_id = $1', [entityId])).toBe(1);
    });
  });

  describe('GET /bank-accounts', () => {
    it('lists every account by name with the balance in its normal-side sign (live common entries) and the unreconciled count', async () => {
      const { entityId, cash, card, income, expense } = await setUp();
      const bank = await createAccount(entityId, { name: 'B bank', ledgerAccountId: cash });
      const visa = await createAccount(entityId, { name: 'A visa', kind: 'card', ledgerAccountId: card });
      await post(entityId, [['debit', cash, 10_000], ['credit', income, 10_000]]);
      await post(entityId, [['debit', expense, 2_500], ['credit', card, 2_500]]);
      await post(entityId, [['debit', expense, 700], ['credit', cash, 700]]);
      // An unbooked entry and a Book Entry do not count (D78: live common entries).
      const gone = await post(entityId, [['debit', cash, 99], ['credit', income, 99]]);
      await staff.delete(`/api/entities/${entityId}/ledger/entries/${gone.body.id}`).expect(200);
      const bookId = randomUUID();
      await staff.post(`/api/entities/${entityId}/books`).send({ id: bookId, name: 'IFRS' }).expect(201);
      await post(entityId, [['debit', cash, 55], ['credit', income, 55]], { bookId });
      await staff.post(`/api/entities/${entityId}/bank-accounts/${bank.id}/movements`).send({ id: randomUUID(), movementDate: '2026-01-10', description: 'x', amount: 5, side: 'debit' }).expect(201);
      await staff.post(`/api/entities/${entityId}/bank-accounts/${bank.id}/movements`).send({ id: randomUUID(), movementDate: '2026-01-11', description: 'y', amount: 6, side: 'credit' }).expect(201);

      const res = await staff.get(accountsPath(entityId));
      expect(res.status).toBe(200);
      expect(res.body.map((a: { id: string; balance: number; unreconciledCount: number }) => [a.id, a.balance, a.unreconciledCount])).toEqual([
        [visa.id, 2_500, 0],
        [bank.id, 9_300, 2],
      ]);
    });

    it('answers [] for an Entity with no bank account', async () => {
      const entityId = await freshEntity(world);
      expect((await staff.get(accountsPath(entityId)).expect(200)).body).toEqual([]);
    });
  });

  describe('PATCH /bank-accounts/:id', () => {
    it('renames, answers the BankAccount (no summary), audited', async () => {
      const { entityId, cash } = await setUp();
      const account = await createAccount(entityId, { ledgerAccountId: cash });
      const res = await expectAudited(t, staff.patch(`${accountsPath(entityId)}/${account.id}`).send({ name: 'Santander' }), 200, {
        action: 'bank_account.update',
        resource_id: account.id,
      });
      expect(res.body).toEqual({ ...account, name: 'Santander', updatedAt: expect.stringMatching(ISO_DATETIME), balance: undefined, unreconciledCount: undefined });
      expect(Object.keys(res.body)).not.toContain('balance');
    });

    it.each([
      ['no name', {}],
      ['an empty name', { name: '' }],
      ['another field', { name: 'X', kind: 'card' }],
      ['the ledger account', { ledgerAccountId: randomUUID() }],
    ])('refuses %s with 400 VALIDATION_ERROR', async (_label, body) => {
      const { entityId, cash } = await setUp();
      const account = await createAccount(entityId, { ledgerAccountId: cash });
      await refused(staff.patch(`${accountsPath(entityId)}/${account.id}`).send(body), 400, 'VALIDATION_ERROR');
    });

    it('refuses a missing account, or one of another Entity, with 404 BANK_ACCOUNT_NOT_FOUND_ERROR', async () => {
      const { entityId } = await setUp();
      const other = await setUp();
      const foreign = await createAccount(other.entityId, { ledgerAccountId: other.cash });
      for (const id of [randomUUID(), foreign.id]) await refused(staff.patch(`${accountsPath(entityId)}/${id}`).send({ name: 'X' }), 404, 'BANK_ACCOUNT_NOT_FOUND_ERROR');
    });
  });

  describe('DELETE /bank-accounts/:id', () => {
    it('deletes an account with no movements and no feed: 200 { deletedBankAccountId }, audited', async () => {
      const { entityId, cash } = await setUp();
      const account = await createAccount(entityId, { ledgerAccountId: cash });
      const res = await expectAudited(t, staff.delete(`${accountsPath(entityId)}/${account.id}`), 200, { action: 'bank_account.delete', resource_id: account.id });
      expect(res.body).toEqual({ deletedBankAccountId: account.id });
      expect(await countRows(t, 'bank_accounts', 'entity_id = $1', [entityId])).toBe(0);
    });

    it('refuses with movements: 409 BANK_ACCOUNT_HAS_MOVEMENTS_ERROR', async () => {
      const { entityId, cash } = await setUp();
      const account = await createAccount(entityId, { ledgerAccountId: cash });
      await staff.post(`${accountsPath(entityId)}/${account.id}/movements`).send({ id: randomUUID(), movementDate: '2026-01-10', description: 'x', amount: 5, side: 'debit' }).expect(201);
      await refused(staff.delete(`${accountsPath(entityId)}/${account.id}`), 409, 'BANK_ACCOUNT_HAS_MOVEMENTS_ERROR');
    });

    it('refuses with a feed: 409 BANK_ACCOUNT_HAS_FEED_ERROR', async () => {
      const { entityId, cash } = await setUp();
      const account = await createAccount(entityId, { ledgerAccountId: cash });
      // A sandbox connection feeds it (the feed's connection is a foreign key: it must exist).
      const intent = (await staff.post(`/api/entities/${entityId}/bank-connections/link-intents`).send({ provider: 'sandbox' }).expect(201)).body;
      const connectionId = randomUUID();
      await staff.post(`/api/entities/${entityId}/bank-connections`).send({ id: connectionId, provider: 'sandbox', exchangeToken: intent.widgetToken }).expect(201);
      const [clp] = (await staff.get(`/api/entities/${entityId}/bank-connections/${connectionId}/accounts`).expect(200)).body;
      await staff.post(`/api/entities/${entityId}/bank-connections/${connectionId}/feeds`).send({ bankAccountId: account.id, providerAccountId: clp.providerAccountId }).expect(201);
      const list = await staff.get(accountsPath(entityId)).expect(200);
      expect(list.body[0].feed).toEqual({ bankConnectionId: connectionId, providerAccountId: clp.providerAccountId, institutionName: 'Banco Sandbox', lastSyncedAt: null });
      await refused(staff.delete(`${accountsPath(entityId)}/${account.id}`), 409, 'BANK_ACCOUNT_HAS_FEED_ERROR');
    });

    it('refuses a missing account with 404 BANK_ACCOUNT_NOT_FOUND_ERROR', async () => {
      const { entityId } = await setUp();
      await refused(staff.delete(`${accountsPath(entityId)}/${randomUUID()}`), 404, 'BANK_ACCOUNT_NOT_FOUND_ERROR');
    });
  });

  describe('the chart', () => {
    it('reports deleteBlockedBy bank_account for a mapped account and refuses deleting it with 409 LEDGER_ACCOUNT_IN_USE_ERROR', async () => {
      const { entityId, cash, card } = await setUp();
      await createAccount(entityId, { ledgerAccountId: cash });
      const chart = await staff.get(`/api/entities/${entityId}/ledger/chart-of-accounts`).expect(200);
      const byId = (id: string) => chart.body.accounts.find((a: { id: string }) => a.id === id);
      expect(byId(cash).deleteBlockedBy).toBe('bank_account');
      expect(byId(card).deleteBlockedBy).toBeNull();
      await expectRefused(t, ['ledger_accounts', 'bank_accounts', 'audit_trail'], staff.delete(`/api/entities/${entityId}/ledger/accounts/${cash}`), 409, 'LEDGER_ACCOUNT_IN_USE_ERROR');
    });
  });

  describe('the chart, with a mapped account', () => {
    it('holds the mapped account like one with entries: a type change out of its family is 409 LEDGER_ACCOUNT_TYPE_LOCKED_ERROR', async () => {
      const { entityId, cash, card } = await setUp();
      await createAccount(entityId, { ledgerAccountId: cash });
      await expectRefused(t, ['ledger_accounts', 'bank_accounts', 'audit_trail'], staff.patch(`/api/entities/${entityId}/ledger/accounts/${cash}`).send({ type: 'liability' }), 409, 'LEDGER_ACCOUNT_TYPE_LOCKED_ERROR');
      await expectRefused(t, ['ledger_accounts', 'bank_accounts', 'audit_trail'], staff.patch(`/api/entities/${entityId}/ledger/accounts/${cash}`).send({ tracking: 'open_item' }), 409, 'LEDGER_ACCOUNT_TRACKING_LOCKED_ERROR');
      // Entries that left the books do not free it: it is still mapped.
      const entry = await post(entityId, [['debit', cash, 100], ['credit', card, 100]]);
      await staff.delete(`/api/entities/${entityId}/ledger/entries/${entry.body.id}`).expect(200);
      await expectRefused(t, ['ledger_accounts', 'bank_accounts', 'audit_trail'], staff.patch(`/api/entities/${entityId}/ledger/accounts/${cash}`).send({ type: 'liability' }), 409, 'LEDGER_ACCOUNT_TYPE_LOCKED_ERROR');
      // An account no bank account maps, with no live entries, still changes freely.
      await staff.patch(`/api/entities/${entityId}/ledger/accounts/${card}`).send({ type: 'asset' }).expect(200);
    });
  });

  describe('access', () => {
    let accountId: string;
    beforeAll(async () => {
      const cash = await createLedgerAccount(staff, world.entityId, { code: `11${Math.floor(Math.random() * 900) + 100}`, type: 'asset', tracking: 'balance' });
      accountId = (await createAccount(world.entityId, { ledgerAccountId: cash })).id;
      (world as World & { cash?: string }).cash = cash;
    });
    const cash = () => (world as World & { cash?: string }).cash!;

    it('GET /bank-accounts', () => checkAccessMatrix(t, world, { method: 'get', path: (e) => accountsPath(e) }));
    it('POST /bank-accounts', () =>
      checkAccessMatrix(t, world, { method: 'post', path: (e) => accountsPath(e), body: () => ({ id: randomUUID(), name: 'X', kind: 'bank', ledgerAccountId: cash(), currency: 'CLP' }) }));
    it('PATCH /bank-accounts/:id', () => checkAccessMatrix(t, world, { method: 'patch', path: (e) => `${accountsPath(e)}/${accountId}`, body: () => ({ name: 'Renamed' }) }));
    it('DELETE /bank-accounts/:id', async () => {
      const id = (await createAccount(world.entityId, { ledgerAccountId: cash() })).id;
      await checkAccessMatrix(t, world, { method: 'delete', path: (e) => `${accountsPath(e)}/${id}` });
    });
  });
});
