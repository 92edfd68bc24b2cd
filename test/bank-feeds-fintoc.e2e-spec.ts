import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Response } from 'supertest';
import { FixedClock } from '../src/platform/clock/clock';
import { expectRefused } from './harness/db-checks';
import { FakeFintoc, fintocAccount, fintocMovement } from './harness/fake-fintoc';
import type { TestApp } from './harness/test-app';
import { Agent, createLedgerAccount, createWorldApp, freshEntity, World } from './harness/world';

/**
 * The fintoc provider through the service, against the local fake: connect, discover, feed,
 * sync, a credential failure, reconnect. Every answer and every log line of the run (logs at
 * trace level, captured) must be free of the secret key, the link token and the exchange token.
 */
describe('Bank feeds with the fintoc provider (D67a)', () => {
  const fake = new FakeFintoc();
  const LINK_TOKEN = 'link_e2e_fintoc_token_a1b2c3d4e5f6a7b8c9d0';
  const EXCHANGE_TOKEN = 'li_e2e_sec_exchange_token_0102030405';
  const EXCHANGE_TOKEN_2 = 'li_e2e_sec_exchange_token_0607080910';
  let t: TestApp;
  let world: World;
  let staff: Agent;
  const logs: string[] = [];
  const answers: string[] = [];
  const spies: jest.SpyInstance[] = [];
  const clock = new FixedClock(new Date('2026-06-15T16:00:00Z'));

  beforeAll(async () => {
    await fake.start();
    fake.links.set(EXCHANGE_TOKEN, { linkToken: LINK_TOKEN, institution: 'Banco de Chile', accounts: [fintocAccount('acc_clp'), fintocAccount('acc_usd', 'USD')] });
    fake.links.set(EXCHANGE_TOKEN_2, { linkToken: LINK_TOKEN, institution: 'Banco de Chile', accounts: [fintocAccount('acc_clp'), fintocAccount('acc_usd', 'USD')] });
    const movements: Array<Record<string, unknown>> = [];
    for (let n = 0; n < 650; n++) movements.push(fintocMovement(n, `2026-06-${String(1 + (n % 14)).padStart(2, '0')}`, n % 2 ? 1000 + n : -(1000 + n)));
    fake.movements.set('acc_clp', movements);
    // Every log line of the run: pino writes with fs.write/fs.writeSync on fd 1, Nest's logger through stdout.
    const capture = (original: (...args: never[]) => unknown) =>
      function (this: unknown, fd: unknown, data: unknown, ...rest: unknown[]) {
        if (fd === 1 || fd === 2) {
          logs.push(String(data));
          const callback = rest.find((r) => typeof r === 'function') as ((e: null, n: number) => void) | undefined;
          callback?.(null, Buffer.byteLength(String(data)));
          return Buffer.byteLength(String(data));
        }
        return (original as (...a: unknown[]) => unknown).call(this, fd, data, ...rest);
      };
    spies.push(jest.spyOn(fs, 'writeSync').mockImplementation(capture(fs.writeSync as never) as never));
    spies.push(jest.spyOn(fs, 'write').mockImplementation(capture(fs.write as never) as never));
    spies.push(
      jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
        logs.push(String(chunk));
        return true;
      }),
    );
    ({ t, world, staff } = await createWorldApp({
      clock,
      env: { FINTOC_SECRET_KEY: fake.secretKey, FINTOC_BASE_URL: fake.url, FINTOC_PUBLIC_KEY: 'pk_test_e2e', FINTOC_REQUEST_BUDGET_MS: '3000', LOG_LEVEL: 'trace' },
    }));
  });
  afterAll(async () => {
    await t.close();
    for (const spy of spies) spy.mockRestore();
    await fake.stop();
  });

  const record = (res: Response) => {
    answers.push(JSON.stringify(res.headers) + res.text);
    return res;
  };
  const base = (entityId: string) => `/api/entities/${entityId}/bank-connections`;

  it('connects, discovers, feeds and syncs: the movements land once, mapped per D67a', async () => {
    const entityId = await freshEntity(world);
    const cash = await createLedgerAccount(staff, entityId, { code: '1101', type: 'asset', tracking: 'balance' });
    const intent = record(await staff.post(`${base(entityId)}/link-intents`).send({ provider: 'fintoc' }).expect(201));
    expect(intent.body).toEqual({ provider: 'fintoc', widgetToken: 'li_fake1_sec_widgettoken', publicKey: 'pk_test_e2e', expiresAt: '2026-06-15T12:30:00.000Z' });
    expect(JSON.parse(fake.requests.find((r) => r.url.pathname === '/v1/link_intents')!.body).holder_type).toBe('business');

    const id = randomUUID();
    const connection = record(await staff.post(base(entityId)).send({ id, provider: 'fintoc', exchangeToken: EXCHANGE_TOKEN }).expect(201));
    expect(connection.body).toMatchObject({ id, provider: 'fintoc', institutionName: 'Banco de Chile', holderName: 'Comercial y Producción SpA', status: 'active', fedBankAccounts: [] });

    const panel = record(await staff.get(`${base(entityId)}/${id}/accounts`).expect(200));
    expect(panel.body.map((a: { providerAccountId: string; currency: string }) => [a.providerAccountId, a.currency])).toEqual([
      ['acc_clp', 'CLP'],
      ['acc_usd', 'USD'],
    ]);
    const bankAccountId = randomUUID();
    record(await staff.post(`${base(entityId)}/${id}/bank-accounts`).send({ id: bankAccountId, name: 'Chile CLP', ledgerAccountId: cash, providerAccountId: 'acc_clp' }).expect(201));

    const sync = record(await staff.post(`/api/entities/${entityId}/bank-accounts/${bankAccountId}/feed/sync`).expect(201));
    expect(sync.body).toEqual({ landedCount: 650, skippedCount: 0 });
    const asked = fake.requests.filter((r) => r.url.pathname === '/v1/accounts/acc_clp/movements');
    expect(asked.map((r) => r.url.searchParams.get('page'))).toEqual([null, '2', '3']);
    expect(asked[0].url.searchParams.get('since')).toBe('2026-03-17');
    expect(asked[0].url.searchParams.get('until')).toBe('2026-06-16');
    const [row] = await t.sql<Record<string, unknown>>(
      `SELECT amount::int AS amount, side, counterparty_tax_id, counterparty_name, reference, source, movement_date::text AS movement_date FROM bank_movements WHERE provider_movement_id = 'mov_000001'`,
    );
    expect(row).toEqual({ amount: 1001, side: 'debit', counterparty_tax_id: '77180653-8', counterparty_name: 'Comercial y Producción SpA', reference: '123740001', source: 'feed', movement_date: '2026-06-02' });
    // The second sync reads from the last sync's day minus 7 days (D69).
    const inSecondWindow = fake.movements.get('acc_clp')!.filter((m) => String(m.post_date).slice(0, 10) >= '2026-06-08').length;
    expect(record(await staff.post(`/api/entities/${entityId}/bank-accounts/${bankAccountId}/feed/sync`).expect(201)).body).toEqual({ landedCount: 0, skippedCount: inSecondWindow });

    // A credential error: 502, login_required recorded, nothing landed; reconnect restores the connection.
    fake.fail(/movements\?/, 403, { error: { type: 'link_error', code: 'invalid_credentials', message: `Credentials changed for ${LINK_TOKEN}` } });
    const failed = record(
      await expectRefused(t, ['bank_accounts', 'bank_movements', 'audit_trail'], staff.post(`/api/entities/${entityId}/bank-accounts/${bankAccountId}/feed/sync`), 502, 'BANK_PROVIDER_ERROR'),
    );
    expect(failed.body.params).toMatchObject({ status: 'login_required', bankConnectionId: id });
    const listed = record(await staff.get(base(entityId)).expect(200));
    expect(listed.body[0]).toMatchObject({ status: 'login_required', lastError: expect.stringContaining('invalid_credentials') });
    const restored = record(await staff.post(`${base(entityId)}/${id}/reconnect`).send({ exchangeToken: EXCHANGE_TOKEN_2 }).expect(200));
    expect(restored.body).toMatchObject({ status: 'active', lastError: null, fedBankAccounts: [expect.objectContaining({ id: bankAccountId })] });

    // Errors of the panel answer 502 too.
    fake.fail(/\/v1\/accounts\?/, 500, { error: { type: 'api_error', code: 'internal', message: 'boom' } }, 1_000_000);
    record(await staff.get(`${base(entityId)}/${id}/accounts`).expect(502));
    fake.reset();
  });

  it('no answer and no log line carried the secret key, the link token or an exchange token', () => {
    expect(logs.join('').length).toBeGreaterThan(0);
    expect(logs.join('')).toContain('/feed/sync');
    for (const text of [answers.join('\n'), logs.join('')]) {
      for (const secret of [fake.secretKey, LINK_TOKEN, EXCHANGE_TOKEN, EXCHANGE_TOKEN_2, t.config.bankFeeds.credentialsEncryptionKey!]) expect(text).not.toContain(secret);
    }
  });
});
