import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { FixedClock } from '../src/platform/clock/clock';
import { expectRefused } from './harness/db-checks';
import { createTestApp, TestApp } from './harness/test-app';
import { Agent, createEntity, createOrganization, mintKey, onboardUser, signInStaff, uniqueName } from './harness/world';

const SIGN_IN = '/api/auth/sign-in/email';

/** Issue 17, item 4: the smaller holes hostile testing found. */
describe('sign-in throttling per e-mail and client address (D11a)', () => {
  const clock = new FixedClock(new Date('2026-06-15T16:00:00.000Z'));
  let t: TestApp;
  let staff: Agent;
  beforeAll(async () => {
    // Behind a proxy on loopback (TRUST_PROXY's default): X-Forwarded-For names the client.
    t = await createTestApp({ clock });
    staff = await signInStaff(t);
  });
  afterAll(() => t.close());

  const from = (address: string, email: string, password: string) => t.http.post(SIGN_IN).set('x-forwarded-for', address).send({ email, password });

  it('throttles 10 failures of one e-mail from one address with 429, and does not lock the User out from another address', async () => {
    const user = await onboardUser(t, staff, 'client', 'd11a');
    for (let i = 0; i < 10; i++) expect((await from('203.0.113.10', i % 2 ? user.email.toUpperCase() : ` ${user.email}`, 'wrong-password-x')).status).toBe(401);
    const throttled = await expectRefused(t, ['user_sessions', 'audit_trail'], from('203.0.113.10', user.email, user.password), 429, 'RATE_LIMIT_EXCEEDED_ERROR');
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from('198.51.100.7', user.email, user.password)).status).toBe(200);
  });

  it('throttles 100 failures from one address across e-mails, for every e-mail, and no other address', async () => {
    const user = await onboardUser(t, staff, 'client', 'd11a-spray');
    for (let i = 0; i < 100; i++) expect((await from('203.0.113.99', `nobody-${i}@example.test`, 'wrong-password-x')).status).toBe(401);
    await expectRefused(t, ['user_sessions', 'audit_trail'], from('203.0.113.99', user.email, user.password), 429, 'RATE_LIMIT_EXCEEDED_ERROR');
    expect((await from('198.51.100.8', user.email, user.password)).status).toBe(200);
    // 100 sign-ins, each verifying a password hash (argon2id) even for an unknown e-mail (D11).
  }, 180_000);

  it('counts the socket address, not X-Forwarded-For, when TRUST_PROXY does not allow the peer', async () => {
    const direct = await createTestApp({ databaseUrl: t.databaseUrl, clock, env: { TRUST_PROXY: 'false' } });
    try {
      const user = await onboardUser(direct, await signInStaff(direct), 'client', 'd11a-socket');
      for (let i = 0; i < 10; i++) {
        expect((await direct.http.post(SIGN_IN).set('x-forwarded-for', `192.0.2.${i}`).send({ email: user.email, password: 'wrong-password-x' })).status).toBe(401);
      }
      const res = await direct.http.post(SIGN_IN).set('x-forwarded-for', '192.0.2.200').send({ email: user.email, password: user.password });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 429, code: 'RATE_LIMIT_EXCEEDED_ERROR' });
    } finally {
      await direct.close();
    }
  });
});

describe('set-password links (D15a)', () => {
  let t: TestApp;
  let staff: Agent;
  beforeAll(async () => {
    t = await createTestApp();
    staff = await signInStaff(t);
  });
  afterAll(() => t.close());

  const link = async (userId: string) => new URL((await staff.post(`/api/onboarding/users/${userId}/set-password-link`).expect(201)).body.url).searchParams.get('token');
  const setPassword = (token: string | null, newPassword: string) => t.http.post('/api/auth/set-password').send({ token, newPassword });

  it('ends an older link when a newer one is made, and every link when the password is set', async () => {
    const id = randomUUID();
    await staff.post('/api/onboarding/users').send({ id, email: `d15a-${id.slice(0, 8)}@example.test`, name: 'D15a', role: 'client' }).expect(201);
    const first = await link(id);
    const second = await link(id);
    const third = await link(id);
    await expectRefused(t, ['users', 'user_sessions', 'audit_trail'], setPassword(first, 'password-from-first'), 400, 'SET_PASSWORD_TOKEN_INVALID_ERROR');
    await expectRefused(t, ['users', 'user_sessions', 'audit_trail'], setPassword(second, 'password-from-second'), 400, 'SET_PASSWORD_TOKEN_INVALID_ERROR');
    expect((await setPassword(third, 'password-from-third')).status).toBe(204);
    await expectRefused(t, ['users', 'user_sessions', 'audit_trail'], setPassword(third, 'password-again-third'), 400, 'SET_PASSWORD_TOKEN_INVALID_ERROR');
  });

  it('ends a link that was made before the password was set through another route of links', async () => {
    const id = randomUUID();
    await staff.post('/api/onboarding/users').send({ id, email: `d15a-b-${id.slice(0, 8)}@example.test`, name: 'D15a b', role: 'client' }).expect(201);
    const older = await link(id);
    // The older link is ended by the newer one; the newer one, used, ends what is left.
    const newer = await link(id);
    expect((await setPassword(newer, 'password-from-newer')).status).toBe(204);
    await expectRefused(t, ['users', 'user_sessions', 'audit_trail'], setPassword(older, 'password-from-older'), 400, 'SET_PASSWORD_TOKEN_INVALID_ERROR');
  });
});

describe('names (D30b)', () => {
  let t: TestApp;
  let staff: Agent;
  let entityId: string;
  beforeAll(async () => {
    t = await createTestApp();
    staff = await signInStaff(t);
    entityId = (await createEntity(staff, await createOrganization(staff))).id;
  });
  afterAll(() => t.close());

  const BLANKS = ['\u2800', '\u3164\u3164', ' \u115F\u1160 ', '\uFFA0'];
  const HIDDEN = (base: string) => [`${base}\u200B`, `\u200D${base}`, `${base.slice(0, 2)}\u2060${base.slice(2)}`, `${base}\u202E`, `${base}\tx`];

  it('refuses Organization names of blank look-alikes or with control or format characters, and NFC and NFD spellings are one name', async () => {
    for (const name of [...BLANKS, ...HIDDEN(uniqueName('Org'))]) {
      await expectRefused(t, ['organizations', 'audit_trail'], staff.post('/api/organizations').send({ name }), 400, 'VALIDATION_ERROR');
    }
    const base = uniqueName('Café');
    const nfc = base.normalize('NFC');
    const nfd = base.normalize('NFD');
    expect(nfc).not.toBe(nfd);
    const created = await staff.post('/api/organizations').send({ name: nfd }).expect(201);
    expect(created.body.name).toBe(nfc);
    await expectRefused(t, ['organizations', 'audit_trail'], staff.post('/api/organizations').send({ name: nfc.toUpperCase() }), 409, 'ORGANIZATION_NAME_ALREADY_EXISTS_ERROR');
  });

  const NAMED: Array<{ label: string; tables: string[]; send: (name: string) => ReturnType<Agent['post']> }> = [
    { label: 'Entity', tables: ['entities', 'organizations'], send: (name) => staff.post('/api/entities').send({ id: randomUUID(), name, country: 'CL', taxId: '76.086.428-5', currency: 'CLP' }) },
    { label: 'Partner', tables: ['partners'], send: (name) => staff.post(`/api/entities/${entityId}/partners`).send({ id: randomUUID(), name, type: 'company', country: 'AR', taxId: `T-${randomUUID().slice(0, 8)}` }) },
    { label: 'ledger account', tables: ['ledger_accounts'], send: (name) => staff.post(`/api/entities/${entityId}/ledger/accounts`).send({ id: randomUUID(), name, code: randomUUID().slice(0, 6), type: 'asset', tracking: 'balance' }) },
    { label: 'Book', tables: ['books'], send: (name) => staff.post(`/api/entities/${entityId}/books`).send({ id: randomUUID(), name }) },
    { label: 'Dimension', tables: ['dimensions'], send: (name) => staff.post(`/api/entities/${entityId}/dimensions`).send({ id: randomUUID(), name }) },
    { label: 'API key', tables: ['api_keys'], send: (name) => staff.post('/api/auth/api-keys').send({ name }) },
    { label: 'User', tables: ['users'], send: (name) => staff.post('/api/onboarding/users').send({ id: randomUUID(), email: `n-${randomUUID().slice(0, 8)}@example.test`, name, role: 'client' }) },
  ];

  it.each(NAMED.map((named) => [named.label, named] as const))('applies the same rule to every %s name', async (_label, named) => {
    for (const name of [...BLANKS, ...HIDDEN('Name')]) {
      await expectRefused(t, [...named.tables, 'audit_trail'], named.send(name), 400, 'VALIDATION_ERROR');
    }
    const created = await named.send(' Cafe\u0301 ');
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body)).toContain('"Café"');
  });
});

describe('request limits and caching (D2a)', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp({ requestTimeoutMs: 1000 });
    const staff = await signInStaff(t);
    key = (await mintKey(staff)).key;
  });
  afterAll(() => t.close());

  it('answers a trickled body with 408 REQUEST_TIMEOUT_ERROR and closes the connection once the request deadline passes', async () => {
    const server = t.app.getHttpServer();
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('POST /api/organizations HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":');
    const started = Date.now();
    await closed;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ statusCode: 408, code: 'REQUEST_TIMEOUT_ERROR' });
  });

  it('refuses an x-audit-actor over 200 characters or with control or format characters with 400 VALIDATION_ERROR, and takes 200', async () => {
    const send = (actor: string) => t.http.post('/api/organizations').set('x-api-key', key).set('x-audit-actor', actor).send({ name: uniqueName('Actor') });
    for (const actor of ['a'.repeat(201), 'a'.repeat(8000), 'bot\u00AD']) {
      const res = await expectRefused(t, ['organizations', 'audit_trail'], send(actor), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors[0].path).toBe('headers.x-audit-actor');
    }
    expect((await send('a'.repeat(200))).status).toBe(201);
  });

  it('marks authenticated JSON answers Cache-Control: no-store, errors included', async () => {
    const ok = await t.http.get('/api/organizations').set('x-api-key', key);
    expect({ status: ok.status, cacheControl: ok.headers['cache-control'] }).toEqual({ status: 200, cacheControl: 'no-store' });
    const missing = await t.http.get(`/api/entities/${randomUUID()}`).set('x-api-key', key);
    expect({ status: missing.status, cacheControl: missing.headers['cache-control'] }).toEqual({ status: 404, cacheControl: 'no-store' });
    // Nothing to revalidate, so no ETag is computed.
    expect(ok.headers.etag).toBeUndefined();
  });
});
