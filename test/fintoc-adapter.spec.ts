import { BankProviderFailure } from '../src/modules/bank-feeds/application/bank-provider';
import { FintocBank, nextLink } from '../src/modules/bank-feeds/infrastructure/providers/fintoc-bank';
import { waitUntil } from './harness/db-checks';
import { FakeFintoc, fintocAccount, fintocMovement } from './harness/fake-fintoc';

/** The fintoc adapter against a local server playing Fintoc's documented answers (D67, D67a). */
describe('FintocBank adapter', () => {
  const fake = new FakeFintoc();
  const LINK_TOKEN = 'link_fake1_token_9f8e7d6c5b4a39281706';
  const link = { connectionId: '00000000-0000-4000-8000-000000000001', linkToken: LINK_TOKEN };
  const adapter = (budgetMs = 5000) => new FintocBank({ baseUrl: fake.url, secretKey: fake.secretKey, publicKey: 'pk_test_fake', budgetMs, backoffMs: 1, perPage: 300 });
  const failureOf = async (promise: Promise<unknown>): Promise<BankProviderFailure> => {
    try {
      await promise;
    } catch (error) {
      expect(error).toBeInstanceOf(BankProviderFailure);
      return error as BankProviderFailure;
    }
    throw new Error('expected a provider failure');
  };

  beforeAll(async () => {
    await fake.start();
    fake.links.set('exchange_fake_1', { linkToken: LINK_TOKEN, institution: 'Banco de Chile', accounts: [fintocAccount('acc_clp'), fintocAccount('acc_usd', 'USD')] });
    const movements: Array<Record<string, unknown>> = [];
    // 700 confirmed movements over 2026-05-01..2026-05-14, plus a pending one the adapter must not ask for.
    for (let n = 0; n < 700; n++) movements.push(fintocMovement(n, `2026-05-${String(1 + (n % 14)).padStart(2, '0')}`, n % 3 === 0 ? -(1000 + n) : 1000 + n));
    movements.push(fintocMovement(9999, '2026-05-10', 5000, { status: 'pending' }));
    // Outside the window: the day after `until` and the day before `since`.
    movements.push(fintocMovement(8888, '2026-05-15', 5000), fintocMovement(7777, '2026-04-30', 5000));
    fake.movements.set('acc_clp', movements);
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.reset());

  it('creates a link intent: POST /v1/link_intents { product movements, country cl, holder_type } with the raw secret key and an Idempotency-Key', async () => {
    const intent = await adapter().createLinkIntent({ holderType: 'individual' });
    expect(intent).toEqual({ widgetToken: 'li_fake1_sec_widgettoken', publicKey: 'pk_test_fake', expiresAt: new Date('2026-06-15T12:30:00.000Z') });
    const [req] = fake.requests;
    expect(req.method).toBe('POST');
    expect(req.url.pathname).toBe('/v1/link_intents');
    expect(JSON.parse(req.body)).toEqual({ product: 'movements', country: 'cl', holder_type: 'individual' });
    expect(req.headers.authorization).toBe(fake.secretKey);
    expect(req.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('exchanges the exchange token for the link: link token, institution name, holder name', async () => {
    expect(await adapter().exchange('exchange_fake_1')).toEqual({ linkToken: LINK_TOKEN, institutionName: 'Banco de Chile', holderName: 'Comercial y Producción SpA' });
    expect(fake.requests[0].url.searchParams.get('exchange_token')).toBe('exchange_fake_1');
  });

  it('an exchange token Fintoc does not know is the caller\'s error (inputRejected), a 503 is Fintoc\'s', async () => {
    const unknown = await failureOf(adapter().exchange('exchange_unknown'));
    expect(unknown.inputRejected).toBe(true);
    fake.fail(/exchange/, 503, { error: { type: 'api_error', code: 'unavailable', message: 'down' } }, 1_000_000);
    const down = await failureOf(adapter(100).exchange('exchange_fake_1'));
    expect(down.inputRejected).toBe(false);
  });

  it('reads the accounts of the link', async () => {
    const accounts = await adapter().accounts(link);
    expect(accounts[0]).toEqual({
      providerAccountId: 'acc_clp',
      name: 'Cuenta Corriente',
      number: '1530108000',
      type: 'checking_account',
      currency: 'CLP',
      balances: { available: 7010000, current: 7010000 },
      refreshedAt: new Date('2026-06-15T11:00:00.000Z'),
    });
    expect(accounts[1].currency).toBe('USD');
  });

  it('reads every page through the Link header (300 a page), confirmed only, since inclusive and until as the exclusive next day; maps per D67a', async () => {
    const movements = await adapter().movements(link, 'acc_clp', { since: '2026-05-01', until: '2026-05-14' });
    expect(movements).toHaveLength(700);
    expect(new Set(movements.map((m) => m.providerMovementId)).size).toBe(700);
    const pages = fake.requests.map((r) => r.url);
    expect(pages.map((u) => u.searchParams.get('page'))).toEqual([null, '2', '3']);
    expect(pages[0].searchParams.get('since')).toBe('2026-05-01');
    expect(pages[0].searchParams.get('until')).toBe('2026-05-15');
    expect(pages[0].searchParams.get('per_page')).toBe('300');
    expect(pages[0].searchParams.get('confirmed_only')).toBe('true');
    const moneyOut = movements.find((m) => m.providerMovementId === 'mov_000000')!;
    expect(moneyOut).toEqual({
      providerMovementId: 'mov_000000',
      movementDate: '2026-05-01',
      description: 'Traspaso a:Comercial y Producción SpA',
      amount: 1000,
      side: 'credit',
      reference: '123740000',
      counterpartyName: 'Comercial y Producción SpA',
      counterpartyTaxId: '77180653-8',
    });
    expect(movements.find((m) => m.providerMovementId === 'mov_000001')).toMatchObject({ amount: 1001, side: 'debit', counterpartyTaxId: '77180653-8' });
  });

  it('takes the calendar date written in post_date, not shifted by time zone', async () => {
    fake.movements.set('acc_tz', [fintocMovement(1, '2026-05-03', 100, { post_date: '2026-05-03T23:30:00.000-04:00' })]);
    fake.links.get('exchange_fake_1')!.accounts.push(fintocAccount('acc_tz'));
    const [m] = await adapter().movements(link, 'acc_tz', { since: '2026-05-01', until: '2026-05-14' });
    expect(m.movementDate).toBe('2026-05-03');
  });

  it('waits for a slow page without giving up while the request has time', async () => {
    const release = fake.hold(2);
    let settled = false;
    const reading = adapter().movements(link, 'acc_clp', { since: '2026-05-01', until: '2026-05-14' }).finally(() => (settled = true));
    await waitUntil(() => fake.held === 1);
    expect(settled).toBe(false);
    release();
    expect(await reading).toHaveLength(700);
  });

  it('a page that does not come within the request time fails with status error, naming no token', async () => {
    const release = fake.hold(2);
    const failure = await failureOf(adapter(300).movements(link, 'acc_clp', { since: '2026-05-01', until: '2026-05-14' }));
    release();
    expect(failure.info.status).toBe('error');
    expect(failure.info.message).toMatch(/time/);
  });

  it('retries 429 and 5xx with backoff (Retry-After honoured) and then reads on', async () => {
    fake.fail(/movements\?/, 429, { error: { type: 'api_error', code: 'rate_limit_exceeded', message: 'Too many requests' } }, 2, { 'retry-after': '0' });
    fake.fail(/movements\?/, 503, { error: { type: 'institution_error', code: 'institution_unavailable', message: 'The bank is unavailable' } }, 1);
    expect(await adapter().movements(link, 'acc_clp', { since: '2026-05-01', until: '2026-05-14' })).toHaveLength(700);
    expect(fake.requests.length).toBe(3 + 3);
  });

  it('gives up on 5xx when the request time runs out: status error', async () => {
    fake.fail(/movements\?/, 503, { error: { type: 'institution_error', code: 'institution_unavailable', message: 'The bank is unavailable' } }, 1_000_000);
    const failure = await failureOf(adapter(200).movements(link, 'acc_clp', { since: '2026-05-01', until: '2026-05-14' }));
    expect(failure.info).toEqual({ status: 'error', message: expect.stringMatching(/503/) });
  });

  it('maps a credential error to login_required and any other error to error; messages never carry the link token or the key', async () => {
    const other = { ...link, linkToken: 'link_other_token_00112233445566778899' };
    const credentials = await failureOf(adapter().accounts(other));
    expect(credentials.info.status).toBe('login_required');
    expect(credentials.info.message).not.toContain(other.linkToken);
    expect(credentials.info.message).toContain('invalid_link_token');

    fake.fail(/movements\?/, 400, { error: { type: 'invalid_request_error', code: 'missing_parameter', message: 'since is missing', param: 'since' } });
    const invalid = await failureOf(adapter().movements(link, 'acc_clp', { since: '2026-05-01', until: '2026-05-14' }));
    expect(invalid.info).toEqual({ status: 'error', message: expect.stringContaining('missing_parameter') });

    const wrongKey = new FintocBank({ baseUrl: fake.url, secretKey: 'sk_test_wrong_key_000000000', publicKey: '', budgetMs: 2000, backoffMs: 1 });
    const auth = await failureOf(wrongKey.accounts(link));
    expect(auth.info.status).toBe('error');
    expect(auth.info.message).not.toContain('sk_test_wrong_key');

    fake.fail(/accounts\?/, 502, '<html>bad gateway</html>', 1_000_000);
    const html = await failureOf(adapter(100).accounts(link));
    expect(html.info.status).toBe('error');
  });

  it('a failure on the third page fails the whole read: no movement is answered', async () => {
    fake.fail(/movements\?.*[?&]page=3(&|$)/, 400, { error: { type: 'invalid_request_error', code: 'invalid_page', message: 'page' } });
    const failure = await failureOf(adapter().movements(link, 'acc_clp', { since: '2026-05-01', until: '2026-05-14' }));
    expect(failure.info.status).toBe('error');
    expect(fake.requests.map((r) => r.url.searchParams.get('page'))).toEqual([null, '2', '3']);
  });

  it('does not follow a next page link to another origin (the secret key stays with Fintoc)', async () => {
    fake.nextOrigin = 'http://127.0.0.2:9';
    const failure = await failureOf(adapter().movements(link, 'acc_clp', { since: '2026-05-01', until: '2026-05-14' }));
    expect(failure.info.message).toMatch(/origin/);
    expect(fake.requests).toHaveLength(1);
  });

  it('reads the Link header rel="next"', () => {
    expect(nextLink('<https://api.fintoc.com/v1/x?page=1>; rel="first", <https://api.fintoc.com/v1/x?page=3>; rel="next"')).toBe('https://api.fintoc.com/v1/x?page=3');
    expect(nextLink('<https://api.fintoc.com/v1/x?page=1>; rel="first"')).toBeNull();
    expect(nextLink(null)).toBeNull();
  });
});
