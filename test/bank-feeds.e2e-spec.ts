import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { AesGcmCipher } from '../src/modules/bank-feeds/infrastructure/aes-gcm-cipher';
import { PeriodicBankSync } from '../src/modules/bank-feeds/infrastructure/periodic-sync';
import { SandboxBank } from '../src/modules/bank-feeds/infrastructure/providers/sandbox-bank';
import { FixedClock } from '../src/platform/clock/clock';
import { encryptionKeyBytes } from '../src/platform/config/app-config';
import { checkAccessMatrix } from './harness/access-matrix';
import { countRows, expectAudited, expectRefused, lockWaiters, sendNow, waitUntil, whileRowLocked } from './harness/db-checks';
import type { TestApp } from './harness/test-app';
import { Agent, bootstrapStaffId, createLedgerAccount, createWorldApp, freshEntity, ISO_DATETIME, World } from './harness/world';

const TABLES = ['bank_connections', 'bank_accounts', 'bank_movements', 'audit_trail'];
const TODAY = '2026-06-15';

/** Business days (Monday to Friday) from `from` to `to`, inclusive. */
function businessDays(from: string, to: string): number {
  let n = 0;
  for (let d = new Date(`${from}T00:00:00Z`); d.toISOString().slice(0, 10) <= to; d = new Date(d.getTime() + 86_400_000)) {
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) n++;
  }
  return n;
}

describe('Bank connections and feeds (D67-D69, D77)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let sandbox: SandboxBank;
  const clock = new FixedClock(new Date(`${TODAY}T16:00:00Z`));
  /** Every answer of this file, to look for tokens in. */
  const answers: string[] = [];

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock }));
    sandbox = t.app.get(SandboxBank);
  });
  afterAll(() => t.close());
  afterEach(() => {
    clock.set(new Date(`${TODAY}T16:00:00Z`));
    sandbox.settings.dailyMovements = 5;
  });

  const record = (res: Response) => {
    answers.push(res.text);
    return res;
  };
  const connectionsPath = (entityId: string) => `/api/entities/${entityId}/bank-connections`;
  const feedPath = (entityId: string, bankAccountId: string) => `/api/entities/${entityId}/bank-accounts/${bankAccountId}/feed`;
  const refused = async (req: Promise<Response> | import('supertest').Test, status: number, code: string) =>
    record(await expectRefused(t, TABLES, req as import('supertest').Test, status, code));

  /** A provider failure writes the connection's status (and only that), outside the refused request's transaction. */
  const refusedByProvider = async (req: import('supertest').Test) =>
    record(await expectRefused(t, TABLES.filter((table) => table !== 'bank_connections'), req, 502, 'BANK_PROVIDER_ERROR'));

  const connect = async (entityId: string) => {
    const intent = record(await staff.post(`${connectionsPath(entityId)}/link-intents`).send({ provider: 'sandbox' }).expect(201));
    const id = randomUUID();
    const res = record(await staff.post(connectionsPath(entityId)).send({ id, provider: 'sandbox', exchangeToken: intent.body.widgetToken }).expect(201));
    return res.body as { id: string };
  };
  const setUp = async () => {
    const entityId = await freshEntity(world);
    const cash = await createLedgerAccount(staff, entityId, { code: '1101', type: 'asset', tracking: 'balance' });
    const card = await createLedgerAccount(staff, entityId, { code: '2150', type: 'liability', tracking: 'balance' });
    const connection = await connect(entityId);
    const panel = record(await staff.get(`${connectionsPath(entityId)}/${connection.id}/accounts`).expect(200)).body as Array<{ providerAccountId: string; currency: string }>;
    return { entityId, cash, card, connectionId: connection.id, clp: panel[0].providerAccountId, usd: panel[1].providerAccountId, creditCard: panel[2].providerAccountId };
  };
  const fedAccount = async (entityId: string, connectionId: string, ledgerAccountId: string, providerAccountId: string) => {
    const id = randomUUID();
    record(await staff.post(`${connectionsPath(entityId)}/${connectionId}/bank-accounts`).send({ id, name: 'Cuenta feed', ledgerAccountId, providerAccountId }).expect(201));
    return id;
  };
  const sync = (entityId: string, bankAccountId: string) => staff.post(`${feedPath(entityId, bankAccountId)}/sync`);
  const movementCount = (entityId: string, bankAccountId: string) => countRows(t, 'bank_movements', 'entity_id = $1 AND bank_account_id = $2', [entityId, bankAccountId]);
  const connectionRow = async (entityId: string, id: string) =>
    (await t.sql<{ status: string; last_error: string | null }>('SELECT status, last_error FROM bank_connections WHERE entity_id = $1 AND id = $2', [entityId, id]))[0];
  const firstWindowCount = () => businessDays('2026-03-17', TODAY) * 5;

  describe('link intents and finalize', () => {
    it('starts a sandbox connect flow: 201 { provider, widgetToken, publicKey, expiresAt }, audited', async () => {
      const entityId = await freshEntity(world);
      const res = record(
        await expectAudited(t, staff.post(`${connectionsPath(entityId)}/link-intents`).send({ provider: 'sandbox', holderType: 'individual' }), 201, {
          action: 'bank_connection.link_intent',
          entity_id: entityId,
        }),
      );
      expect(res.body).toEqual({ provider: 'sandbox', widgetToken: expect.stringMatching(/^sandbox_wt_/), publicKey: expect.any(String), expiresAt: expect.stringMatching(ISO_DATETIME) });
      expect(res.body.publicKey.length).toBeGreaterThan(0);
    });

    it('refuses a provider that is not enabled (fintoc without its secret key) with 400 VALIDATION_ERROR', async () => {
      const entityId = await freshEntity(world);
      await refused(staff.post(`${connectionsPath(entityId)}/link-intents`).send({ provider: 'fintoc' }), 400, 'VALIDATION_ERROR');
      await refused(staff.post(`${connectionsPath(entityId)}/link-intents`).send({ provider: 'plaid' }), 400, 'VALIDATION_ERROR');
    });

    it('finalizes with the widget token: 201 with no fed accounts; the link token is stored only encrypted', async () => {
      const entityId = await freshEntity(world);
      const intent = record(await staff.post(`${connectionsPath(entityId)}/link-intents`).send({ provider: 'sandbox' }).expect(201));
      const id = randomUUID();
      const res = record(
        await expectAudited(t, staff.post(connectionsPath(entityId)).send({ id, provider: 'sandbox', exchangeToken: intent.body.widgetToken }), 201, {
          action: 'bank_connection.create',
          resource_type: 'bank_connection',
          resource_id: id,
          entity_id: entityId,
        }),
      );
      expect(res.body).toEqual({
        id,
        entityId,
        provider: 'sandbox',
        institutionName: 'Banco Sandbox',
        holderName: expect.any(String),
        status: 'active',
        lastError: null,
        createdAt: expect.stringMatching(ISO_DATETIME),
        updatedAt: expect.stringMatching(ISO_DATETIME),
        fedBankAccounts: [],
      });
      const [row] = await t.sql<{ link_token_ciphertext: string }>('SELECT link_token_ciphertext FROM bank_connections WHERE id = $1', [id]);
      expect(row.link_token_ciphertext).toMatch(/^v1\./);
      expect(row.link_token_ciphertext).not.toContain('sandbox_lt_');
      const cipher = new AesGcmCipher(encryptionKeyBytes(t.config.bankFeeds.credentialsEncryptionKey!)!);
      expect(cipher.decrypt(row.link_token_ciphertext)).toMatch(/^sandbox_lt_[0-9a-f]{48}$/);
    });

    it('refuses a reused id with 409 BANK_CONNECTION_ALREADY_EXISTS_ERROR and an exchange token the provider refuses with 400 VALIDATION_ERROR', async () => {
      const entityId = await freshEntity(world);
      const { id } = await connect(entityId);
      const intent = record(await staff.post(`${connectionsPath(entityId)}/link-intents`).send({ provider: 'sandbox' }).expect(201));
      await refused(staff.post(connectionsPath(entityId)).send({ id, provider: 'sandbox', exchangeToken: intent.body.widgetToken }), 409, 'BANK_CONNECTION_ALREADY_EXISTS_ERROR');
      // A token the provider does not know is the caller's error, not the provider failing.
      await refused(staff.post(connectionsPath(entityId)).send({ id: randomUUID(), provider: 'sandbox', exchangeToken: 'not-a-token' }), 400, 'VALIDATION_ERROR');
      await refused(staff.post(connectionsPath(entityId)).send({ id: randomUUID(), provider: 'sandbox' }), 400, 'VALIDATION_ERROR');
    });
  });

  describe('live panel, publication, list', () => {
    it('lists the three sandbox accounts in order with balances, observed, and the fed Bank Account once fed', async () => {
      const { entityId, connectionId, cash, clp } = await setUp();
      const bankAccountId = await fedAccount(entityId, connectionId, cash, clp);
      const res = record(await staff.get(`${connectionsPath(entityId)}/${connectionId}/accounts`).expect(200));
      expect(res.body.map((a: { currency: string; type: string }) => [a.currency, a.type])).toEqual([
        ['CLP', 'checking_account'],
        ['USD', 'checking_account'],
        ['CLP', 'credit_card'],
      ]);
      expect(res.body[0]).toEqual({
        providerAccountId: clp,
        name: expect.any(String),
        number: expect.any(String),
        type: 'checking_account',
        currency: 'CLP',
        balances: { available: expect.any(Number), current: expect.any(Number) },
        refreshedAt: expect.stringMatching(ISO_DATETIME),
        observed: true,
        fedBankAccount: expect.objectContaining({ id: bankAccountId, feed: expect.objectContaining({ bankConnectionId: connectionId, providerAccountId: clp }) }),
      });
      expect(res.body[1]).not.toHaveProperty('fedBankAccount');
      // The same bank twice: deterministic from the connection id.
      expect((await staff.get(`${connectionsPath(entityId)}/${connectionId}/accounts`).expect(200)).body.map((a: { providerAccountId: string }) => a.providerAccountId)).toEqual(
        res.body.map((a: { providerAccountId: string }) => a.providerAccountId),
      );
      const list = record(await staff.get(connectionsPath(entityId)).expect(200));
      expect(list.body).toEqual([expect.objectContaining({ id: connectionId, status: 'active', fedBankAccounts: [expect.objectContaining({ id: bankAccountId })] })]);
    });

    it('answers 409 BANK_CONNECTION_ACCOUNT_PUBLICATION_UNSUPPORTED_ERROR to account publication, 404 for a missing connection', async () => {
      const { entityId, connectionId } = await setUp();
      await refused(staff.post(`${connectionsPath(entityId)}/${connectionId}/accounts`).send({ providerAccountIds: ['acc_1'] }), 409, 'BANK_CONNECTION_ACCOUNT_PUBLICATION_UNSUPPORTED_ERROR');
      await refused(staff.post(`${connectionsPath(entityId)}/${randomUUID()}/accounts`).send({ providerAccountIds: ['acc_1'] }), 404, 'BANK_CONNECTION_NOT_FOUND_ERROR');
      await refused(staff.get(`${connectionsPath(entityId)}/${randomUUID()}/accounts`), 404, 'BANK_CONNECTION_NOT_FOUND_ERROR');
    });
  });

  describe('feeds', () => {
    it('attaches a discovered account to a Bank Account of its currency: 201 BankAccount with its feed, audited', async () => {
      const { entityId, connectionId, cash, clp } = await setUp();
      const account = (await staff.post(`/api/entities/${entityId}/bank-accounts`).send({ id: randomUUID(), name: 'CLP', kind: 'bank', ledgerAccountId: cash, currency: 'CLP' }).expect(201)).body;
      const res = record(
        await expectAudited(t, staff.post(`${connectionsPath(entityId)}/${connectionId}/feeds`).send({ bankAccountId: account.id, providerAccountId: clp }), 201, {
          action: 'bank_feed.attach',
          entity_id: entityId,
        }),
      );
      expect(res.body).toMatchObject({ id: account.id, feed: { bankConnectionId: connectionId, providerAccountId: clp, institutionName: 'Banco Sandbox', lastSyncedAt: null } });
      expect((await staff.get(`/api/entities/${entityId}/bank-accounts`).expect(200)).body[0].feed).toEqual(res.body.feed);
    });

    it('refuses a currency mismatch, a fed account, an undiscovered account and missing records, writing nothing', async () => {
      const { entityId, connectionId, cash, clp, usd } = await setUp();
      const create = async () => (await staff.post(`/api/entities/${entityId}/bank-accounts`).send({ id: randomUUID(), name: 'CLP', kind: 'bank', ledgerAccountId: cash, currency: 'CLP' }).expect(201)).body.id as string;
      const a = await create();
      const b = await create();
      const attach = (body: Record<string, unknown>, connection = connectionId) => staff.post(`${connectionsPath(entityId)}/${connection}/feeds`).send(body);
      await refused(attach({ bankAccountId: a, providerAccountId: usd }), 409, 'BANK_FEED_CURRENCY_MISMATCH_ERROR');
      await refused(attach({ bankAccountId: a, providerAccountId: 'acc_unknown' }), 404, 'BANK_PROVIDER_ACCOUNT_NOT_FOUND_ERROR');
      await refused(attach({ bankAccountId: randomUUID(), providerAccountId: clp }), 404, 'BANK_ACCOUNT_NOT_FOUND_ERROR');
      await refused(attach({ bankAccountId: a, providerAccountId: clp }, randomUUID()), 404, 'BANK_CONNECTION_NOT_FOUND_ERROR');
      record(await attach({ bankAccountId: a, providerAccountId: clp }).expect(201));
      await refused(attach({ bankAccountId: a, providerAccountId: clp }), 409, 'BANK_ACCOUNT_ALREADY_FED_ERROR');
      // The provider account already feeds another Bank Account.
      await refused(attach({ bankAccountId: b, providerAccountId: clp }), 409, 'BANK_ACCOUNT_ALREADY_FED_ERROR');
      await refused(staff.delete(`/api/entities/${entityId}/bank-accounts/${a}`), 409, 'BANK_ACCOUNT_HAS_FEED_ERROR');
    });

    it('creates and feeds a Bank Account of kind bank in the provider currency; only an asset ledger account', async () => {
      const { entityId, connectionId, cash, card, usd, creditCard } = await setUp();
      const id = randomUUID();
      const res = record(
        await expectAudited(
          t,
          staff.post(`${connectionsPath(entityId)}/${connectionId}/bank-accounts`).send({ id, name: 'Dólares', ledgerAccountId: cash, providerAccountId: usd }),
          201,
          { action: 'bank_account.create_fed', resource_id: id, entity_id: entityId },
        ),
      );
      expect(res.body).toEqual({
        id,
        entityId,
        name: 'Dólares',
        kind: 'bank',
        ledgerAccountId: cash,
        currency: 'USD',
        feed: { bankConnectionId: connectionId, providerAccountId: usd, institutionName: 'Banco Sandbox', lastSyncedAt: null },
        balance: 0,
        unreconciledCount: 0,
        createdAt: expect.stringMatching(ISO_DATETIME),
        updatedAt: expect.stringMatching(ISO_DATETIME),
      });
      const path = `${connectionsPath(entityId)}/${connectionId}/bank-accounts`;
      await refused(staff.post(path).send({ id: randomUUID(), name: 'Tarjeta', ledgerAccountId: card, providerAccountId: creditCard }), 400, 'BANK_ACCOUNT_KIND_LEDGER_TYPE_MISMATCH_ERROR');
      await refused(staff.post(path).send({ id: randomUUID(), name: 'X', ledgerAccountId: cash, providerAccountId: usd }), 409, 'BANK_ACCOUNT_ALREADY_FED_ERROR');
      await refused(staff.post(path).send({ id, name: 'X', ledgerAccountId: cash, providerAccountId: creditCard }), 409, 'BANK_ACCOUNT_ALREADY_EXISTS_ERROR');
      await refused(staff.post(path).send({ id: randomUUID(), name: 'X', ledgerAccountId: randomUUID(), providerAccountId: creditCard }), 404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR');
      await refused(staff.post(path).send({ id: randomUUID(), name: 'X', ledgerAccountId: cash, providerAccountId: 'nope' }), 404, 'BANK_PROVIDER_ACCOUNT_NOT_FOUND_ERROR');
    });

    it('DELETE .../feed answers the BankAccount with feed null, keeps its movements; again 404 BANK_FEED_NOT_FOUND_ERROR', async () => {
      const { entityId, connectionId, cash, clp } = await setUp();
      const id = await fedAccount(entityId, connectionId, cash, clp);
      record(await sync(entityId, id).expect(201));
      const landed = await movementCount(entityId, id);
      const res = record(await expectAudited(t, staff.delete(feedPath(entityId, id)), 200, { action: 'bank_feed.delete', resource_id: id, entity_id: entityId }));
      expect(res.body).toMatchObject({ id, feed: null });
      expect(await movementCount(entityId, id)).toBe(landed);
      await refused(staff.delete(feedPath(entityId, id)), 404, 'BANK_FEED_NOT_FOUND_ERROR');
      await refused(sync(entityId, id), 404, 'BANK_FEED_NOT_FOUND_ERROR');
      await refused(staff.delete(feedPath(entityId, randomUUID())), 404, 'BANK_ACCOUNT_NOT_FOUND_ERROR');
      await refused(sync(entityId, randomUUID()), 404, 'BANK_ACCOUNT_NOT_FOUND_ERROR');
    });
  });

  describe('sync (D69)', () => {
    it('lands the 90-day window once: 201 { landedCount, skippedCount }; again the same day nothing new; the next day only that day', async () => {
      const { entityId, connectionId, cash, clp } = await setUp();
      const id = await fedAccount(entityId, connectionId, cash, clp);
      const first = record(await expectAudited(t, sync(entityId, id), 201, { action: 'bank_feed.sync', resource_id: id, entity_id: entityId }));
      expect(first.body).toEqual({ landedCount: firstWindowCount(), skippedCount: 0 });
      expect(await movementCount(entityId, id)).toBe(firstWindowCount());
      const account = (await staff.get(`/api/entities/${entityId}/bank-accounts`).expect(200)).body[0];
      expect(account.feed.lastSyncedAt).toBe(clock.now().toISOString());
      expect(account.unreconciledCount).toBe(firstWindowCount());

      const again = record(await sync(entityId, id).expect(201));
      expect(again.body).toEqual({ landedCount: 0, skippedCount: businessDays('2026-06-08', TODAY) * 5 });

      clock.set(new Date('2026-06-16T16:00:00Z'));
      const next = record(await sync(entityId, id).expect(201));
      expect(next.body).toEqual({ landedCount: 5, skippedCount: businessDays('2026-06-08', '2026-06-15') * 5 });

      const [m] = (await staff.get(`/api/entities/${entityId}/bank-accounts/${id}/movements`).query({ limit: '1' }).expect(200)).body.rows;
      expect(m).toMatchObject({
        bankAccountId: id,
        movementDate: '2026-06-16',
        source: 'feed',
        providerMovementId: expect.stringMatching(/^mov_sbx_/),
        amount: expect.any(Number),
        counterpartyTaxId: expect.stringMatching(/^\d{7,8}-[\dK]$/),
        ledgerEntryId: null,
      });
    });

    it('a failure injected on the third page: 502 BANK_PROVIDER_ERROR, nothing landed, status error recorded; the next sync lands all', async () => {
      const { entityId, connectionId, cash, clp } = await setUp();
      const id = await fedAccount(entityId, connectionId, cash, clp);
      sandbox.settings.dailyMovements = 20; // 65 business days x 20: five pages of 300
      sandbox.inject({ atPage: 3 });
      const res = await refusedByProvider(sync(entityId, id));
      expect(res.body.params).toMatchObject({ bankConnectionId: connectionId, status: 'error' });
      expect(await movementCount(entityId, id)).toBe(0);
      expect(await connectionRow(entityId, connectionId)).toEqual({ status: 'error', last_error: expect.stringContaining('injected') });
      expect((await staff.get(connectionsPath(entityId)).expect(200)).body[0]).toMatchObject({ status: 'error', lastError: expect.any(String) });
      expect((await staff.get(`/api/entities/${entityId}/bank-accounts`).expect(200)).body[0].feed.lastSyncedAt).toBeNull();

      const ok = record(await sync(entityId, id).expect(201));
      expect(ok.body).toEqual({ landedCount: businessDays('2026-03-17', TODAY) * 20, skippedCount: 0 });
      expect(await connectionRow(entityId, connectionId)).toEqual({ status: 'active', last_error: null });
    });

    it('a credential failure sets login_required; reconnect with a fresh exchange token restores it (200)', async () => {
      const { entityId, connectionId, cash, clp } = await setUp();
      const id = await fedAccount(entityId, connectionId, cash, clp);
      sandbox.inject({ atPage: 1, status: 'login_required', message: 'The bank asks for the credentials again' });
      const res = await refusedByProvider(sync(entityId, id));
      expect(res.body.params.status).toBe('login_required');
      expect((await connectionRow(entityId, connectionId)).status).toBe('login_required');
      const intent = record(await staff.post(`${connectionsPath(entityId)}/link-intents`).send({ provider: 'sandbox' }).expect(201));
      const restored = record(
        await expectAudited(t, staff.post(`${connectionsPath(entityId)}/${connectionId}/reconnect`).send({ exchangeToken: intent.body.widgetToken }), 200, {
          action: 'bank_connection.reconnect',
          resource_id: connectionId,
        }),
      );
      expect(restored.body).toMatchObject({ id: connectionId, status: 'active', lastError: null, fedBankAccounts: [expect.objectContaining({ id })] });
      await refused(staff.post(`${connectionsPath(entityId)}/${connectionId}/reconnect`).send({ exchangeToken: 'stale' }), 400, 'VALIDATION_ERROR');
      await refused(staff.post(`${connectionsPath(entityId)}/${randomUUID()}/reconnect`).send({ exchangeToken: intent.body.widgetToken }), 404, 'BANK_CONNECTION_NOT_FOUND_ERROR');
      record(await sync(entityId, id).expect(201));
    });

    it('a stored link the key cannot open: 502 BANK_PROVIDER_ERROR, login_required (reconnect), never a 500', async () => {
      const { entityId, connectionId, cash, clp } = await setUp();
      const id = await fedAccount(entityId, connectionId, cash, clp);
      await t.sql(`UPDATE bank_connections SET link_token_ciphertext = 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA' WHERE id = $1`, [connectionId]);
      const res = await refusedByProvider(sync(entityId, id));
      expect(res.body.params.status).toBe('login_required');
      expect((await connectionRow(entityId, connectionId)).status).toBe('login_required');
      record(await staff.get(`${connectionsPath(entityId)}/${connectionId}/accounts`).expect(502));
      // Deleting the connection needs no link: the feed goes, the movements stay.
      record(await staff.delete(`${connectionsPath(entityId)}/${connectionId}`).expect(200));
    });

    it('two syncs of one feed at once land every movement once', async () => {
      const { entityId, connectionId, cash, clp } = await setUp();
      const id = await fedAccount(entityId, connectionId, cash, clp);
      const release = sandbox.holdReads();
      const a = sendNow(sync(entityId, id));
      const b = sendNow(sync(entityId, id));
      await waitUntil(() => sandbox.waitingReads === 2);
      release();
      const [ra, rb] = await Promise.all([a.response, b.response]);
      expect([ra.status, rb.status]).toEqual([201, 201]);
      expect(ra.body.landedCount + rb.body.landedCount).toBe(firstWindowCount());
      expect(ra.body.skippedCount + rb.body.skippedCount).toBe(firstWindowCount());
      expect(await movementCount(entityId, id)).toBe(firstWindowCount());
    });

    it('a sync racing a statement import: each movement once', async () => {
      const { entityId, connectionId, cash, clp } = await setUp();
      const id = await fedAccount(entityId, connectionId, cash, clp);
      const release = sandbox.holdReads();
      const s = sendNow(sync(entityId, id));
      await waitUntil(() => sandbox.waitingReads === 1);
      const csv = 'date,description,amount\n2026-06-01,Depósito,1000\n2026-06-02,Cheque,-500\n';
      const imported = sendNow(staff.post(`/api/entities/${entityId}/bank-accounts/${id}/movements/import`).set('content-type', 'text/csv').send(csv));
      release();
      const [rs, ri] = await Promise.all([s.response, imported.response]);
      expect([rs.status, ri.status]).toEqual([201, 201]);
      expect(await movementCount(entityId, id)).toBe(firstWindowCount() + 2);
      record(await sync(entityId, id).expect(201));
      expect(await movementCount(entityId, id)).toBe(firstWindowCount() + 2);
    });
  });

  describe('delete connection', () => {
    it('removes the connection and every feed it held, naming them; the Bank Accounts keep their movements', async () => {
      const { entityId, connectionId, cash, clp, usd } = await setUp();
      const a = await fedAccount(entityId, connectionId, cash, clp);
      const b = await fedAccount(entityId, connectionId, cash, usd);
      record(await sync(entityId, a).expect(201));
      const res = record(
        await expectAudited(t, staff.delete(`${connectionsPath(entityId)}/${connectionId}`), 200, { action: 'bank_connection.delete', resource_id: connectionId, entity_id: entityId }),
      );
      expect(res.body).toEqual({ deletedBankConnectionId: connectionId, unfedBankAccountIds: [a, b].sort() });
      expect(await countRows(t, 'bank_accounts', 'entity_id = $1 AND feed_bank_connection_id IS NOT NULL', [entityId])).toBe(0);
      expect(await movementCount(entityId, a)).toBe(firstWindowCount());
      await refused(staff.delete(`${connectionsPath(entityId)}/${connectionId}`), 404, 'BANK_CONNECTION_NOT_FOUND_ERROR');
      await refused(sync(entityId, a), 404, 'BANK_FEED_NOT_FOUND_ERROR');
    });

    it('during a sync read: the sync ends 404 BANK_FEED_NOT_FOUND_ERROR, nothing landed, no feed left on the deleted connection', async () => {
      const { entityId, connectionId, cash, clp } = await setUp();
      const id = await fedAccount(entityId, connectionId, cash, clp);
      const release = sandbox.holdReads();
      const s = sendNow(sync(entityId, id));
      await waitUntil(() => sandbox.waitingReads === 1);
      record(await staff.delete(`${connectionsPath(entityId)}/${connectionId}`).expect(200));
      release();
      const res = record(await s.response);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'BANK_FEED_NOT_FOUND_ERROR' });
      expect(await movementCount(entityId, id)).toBe(0);
      expect(await countRows(t, 'bank_accounts', 'feed_bank_connection_id = $1', [connectionId])).toBe(0);
    });

    it('holds no transaction open while the provider is asked; the landing transaction writes the audit row', async () => {
      const { entityId, connectionId, cash, clp } = await setUp();
      const id = await fedAccount(entityId, connectionId, cash, clp);
      const release = sandbox.holdReads();
      const s = sendNow(sync(entityId, id));
      await waitUntil(() => sandbox.waitingReads === 1);
      const open = await t.sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name NOT LIKE 'citus_internal%' AND state LIKE 'idle in transaction%'`,
      );
      release();
      expect(open[0].n).toBe(0);
      const res = record(await s.response);
      expect(res.status).toBe(201);
      expect(await movementCount(entityId, id)).toBe(res.body.landedCount);
      const rows = await t.sql<{ action: string; resource_type: string; method: string; actor_user_id: string | null }>(
        `SELECT action, resource_type, method, actor_user_id FROM audit_trail WHERE entity_id = $1 AND resource_id = $2 AND action = 'bank_feed.sync'`,
        [entityId, id],
      );
      expect(rows).toEqual([{ action: 'bank_feed.sync', resource_type: 'bank_account', method: 'POST', actor_user_id: await bootstrapStaffId(t) }]);
    });

    it('while a sync lands: the deletion waits for it, then unfeeds the account; its movements remain', async () => {
      const { entityId, connectionId, cash, clp } = await setUp();
      const id = await fedAccount(entityId, connectionId, cash, clp);
      let deletion: ReturnType<typeof sendNow> | undefined;
      const res = await whileRowLocked(
        t,
        'SELECT 1 FROM bank_accounts WHERE entity_id = $1 AND id = $2 FOR UPDATE',
        [entityId, id],
        () => sync(entityId, id),
        async () => {
          deletion = sendNow(staff.delete(`${connectionsPath(entityId)}/${connectionId}`));
          await waitUntil(async () => (await lockWaiters(t)) >= 2);
        },
      );
      expect(res.status).toBe(201);
      const deleted = record(await deletion!.response);
      expect(deleted.status).toBe(200);
      expect(deleted.body.unfedBankAccountIds).toEqual([id]);
      expect(await movementCount(entityId, id)).toBe(firstWindowCount());
      expect(await countRows(t, 'bank_movements m', 'NOT EXISTS (SELECT 1 FROM bank_accounts a WHERE a.entity_id = m.entity_id AND a.id = m.bank_account_id)')).toBe(0);
      expect(await countRows(t, 'bank_accounts', 'feed_bank_connection_id = $1', [connectionId])).toBe(0);
    });
  });

  describe('periodic sync', () => {
    it('syncs every feed as system:bank-sync with its audit row, on one instance at a time (advisory lock)', async () => {
      const { entityId, connectionId, cash, clp } = await setUp();
      const id = await fedAccount(entityId, connectionId, cash, clp);
      const periodic = t.app.get(PeriodicBankSync);
      const [one, two] = await Promise.all([periodic.runOnce(), periodic.runOnce()]);
      expect([one.ran, two.ran].sort()).toEqual([false, true]);
      expect(await movementCount(entityId, id)).toBe(firstWindowCount());
      const rows = await t.sql<{ declared_actor: string; actor_user_id: string | null; action: string; request_id: string | null }>(
        `SELECT declared_actor, actor_user_id, action, request_id FROM audit_trail WHERE entity_id = $1 AND resource_id = $2 AND action = 'bank_feed.sync'`,
        [entityId, id],
      );
      expect(rows).toEqual([{ declared_actor: 'system:bank-sync', actor_user_id: null, action: 'bank_feed.sync', request_id: null }]);
    });
  });

  describe('periodic sync failures', () => {
    it('a failed feed is logged and left without an audit row, its connection status recorded; the run goes on', async () => {
      const { entityId, connectionId, cash, clp, usd } = await setUp();
      const failing = await fedAccount(entityId, connectionId, cash, clp);
      const other = await connect(entityId);
      const otherUsd = (await staff.get(`${connectionsPath(entityId)}/${other.id}/accounts`).expect(200)).body[1].providerAccountId;
      const fine = await fedAccount(entityId, other.id, cash, otherUsd);
      expect(usd).not.toBe(otherUsd);
      const periodic = t.app.get(PeriodicBankSync);
      // Every feed of the database is synced by a run (the earlier tests' feeds too).
      await periodic.runOnce();
      sandbox.inject({ atPage: 1, times: 1_000 });
      const run = await periodic.runOnce();
      sandbox.resetFailures();
      expect(run.ran).toBe(true);
      expect(run.failed).toBeGreaterThanOrEqual(2);
      expect((await connectionRow(entityId, connectionId)).status).toBe('error');
      expect((await connectionRow(entityId, other.id)).status).toBe('error');
      const audited = await t.sql<{ n: number }>(`SELECT count(*)::int AS n FROM audit_trail WHERE entity_id = $1 AND action = 'bank_feed.sync' AND resource_id::text = ANY($2::text[])`, [entityId, [failing, fine]]);
      expect(audited[0].n).toBe(2); // the first run's two syncs, none of the failed run
      // The next run without failures restores both connections.
      const recovered = await periodic.runOnce();
      expect(recovered.failed).toBe(0);
      expect((await connectionRow(entityId, connectionId)).status).toBe('active');
    });
  });

  describe('secrets', () => {
    it('no answer of this file carries a link token, an exchange token of a stored link, or the encryption key', async () => {
      const cipher = new AesGcmCipher(encryptionKeyBytes(t.config.bankFeeds.credentialsEncryptionKey!)!);
      const tokens = (await t.sql<{ c: string }>('SELECT link_token_ciphertext AS c FROM bank_connections')).map((r) => cipher.decrypt(r.c));
      expect(tokens.length).toBeGreaterThan(0);
      const all = answers.join('\n');
      for (const token of tokens) expect(all).not.toContain(token);
      expect(all).not.toContain('sandbox_lt_');
      expect(all).not.toContain(t.config.bankFeeds.credentialsEncryptionKey!);
      expect(all).not.toMatch(/v1\.[A-Za-z0-9_-]{16}\./);
    });
  });

  describe('access', () => {
    let connectionId: string;
    let cash: string;
    let clp: string;
    beforeAll(async () => {
      cash = await createLedgerAccount(staff, world.entityId, { code: `11${Math.floor(Math.random() * 900) + 100}`, type: 'asset', tracking: 'balance' });
      connectionId = (await connect(world.entityId)).id;
      clp = (await staff.get(`${connectionsPath(world.entityId)}/${connectionId}/accounts`).expect(200)).body[0].providerAccountId;
    });
    const base = (e: string) => connectionsPath(e);

    it('POST /bank-connections/link-intents', () => checkAccessMatrix(t, world, { method: 'post', path: (e) => `${base(e)}/link-intents`, body: () => ({ provider: 'sandbox' }) }));
    it('POST /bank-connections', async () => {
      const intent = (await staff.post(`${base(world.entityId)}/link-intents`).send({ provider: 'sandbox' }).expect(201)).body;
      await checkAccessMatrix(t, world, { method: 'post', path: (e) => base(e), body: () => ({ id: randomUUID(), provider: 'sandbox', exchangeToken: intent.widgetToken }) });
    });
    it('GET /bank-connections', () => checkAccessMatrix(t, world, { method: 'get', path: (e) => base(e) }));
    it('GET /bank-connections/:id/accounts', () => checkAccessMatrix(t, world, { method: 'get', path: (e) => `${base(e)}/${connectionId}/accounts` }));
    it('POST /bank-connections/:id/reconnect', async () => {
      const intent = (await staff.post(`${base(world.entityId)}/link-intents`).send({ provider: 'sandbox' }).expect(201)).body;
      await checkAccessMatrix(t, world, { method: 'post', path: (e) => `${base(e)}/${connectionId}/reconnect`, body: () => ({ exchangeToken: intent.widgetToken }) });
    });
    it('POST /bank-connections/:id/bank-accounts', () =>
      checkAccessMatrix(t, world, {
        method: 'post',
        path: (e) => `${base(e)}/${connectionId}/bank-accounts`,
        body: () => ({ id: randomUUID(), name: 'Fed', ledgerAccountId: cash, providerAccountId: clp }),
      }));
    it('POST /bank-connections/:id/feeds, sync, DELETE feed, DELETE connection', async () => {
      const other = (await connect(world.entityId)).id;
      const otherClp = (await staff.get(`${base(world.entityId)}/${other}/accounts`).expect(200)).body[0].providerAccountId;
      const account = (await staff.post(`/api/entities/${world.entityId}/bank-accounts`).send({ id: randomUUID(), name: 'M', kind: 'bank', ledgerAccountId: cash, currency: 'CLP' }).expect(201)).body.id;
      await checkAccessMatrix(t, world, { method: 'post', path: (e) => `${base(e)}/${other}/feeds`, body: () => ({ bankAccountId: account, providerAccountId: otherClp }) });
      await checkAccessMatrix(t, world, { method: 'post', path: (e) => `${feedPath(e, account)}/sync` });
      await checkAccessMatrix(t, world, { method: 'delete', path: (e) => feedPath(e, account) });
      await checkAccessMatrix(t, world, { method: 'delete', path: (e) => `${base(e)}/${other}` });
    });
  });
});
