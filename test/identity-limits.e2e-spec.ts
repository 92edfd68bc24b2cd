import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { FixedClock } from '../src/platform/clock/clock';
import { countRows, expectRefused } from './harness/db-checks';
import { createTestApp, createTestDatabase, TestApp } from './harness/test-app';
import { readTestServers, TEST_BUCKET } from './harness/test-servers';
import { BOOTSTRAP_STAFF, mintKey, onboardUser, signIn, signInStaff } from './harness/world';

const run = promisify(execFile);
const SIGN_IN = '/api/auth/sign-in/email';

describe('sign-in throttling and password storage (D11)', () => {
  const clock = new FixedClock(new Date('2026-06-15T16:00:00.000Z'));
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ clock });
  });
  afterAll(() => t.close());

  it('stores passwords as argon2id hashes, never the password', async () => {
    const staff = await signInStaff(t);
    const user = await onboardUser(t, staff, 'client', 'argon');
    const rows = await t.sql<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1 OR email = $2', [user.id, BOOTSTRAP_STAFF.email]);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(row.password_hash).not.toContain(user.password);
      expect(row.password_hash).not.toContain(BOOTSTRAP_STAFF.password);
    }
  });

  it('counts failures of one e-mail in any case, and lets it sign in again once the 15 minutes of the 10 failures are over', async () => {
    const staff = await signInStaff(t);
    const user = await onboardUser(t, staff, 'client', 'window');
    const start = clock.now();
    for (let i = 0; i < 10; i++) {
      const email = i % 2 === 0 ? user.email : user.email.toUpperCase();
      expect((await t.http.post(SIGN_IN).send({ email, password: 'wrong-password-x' })).status).toBe(401);
    }
    try {
      clock.set(new Date(start.getTime() + 15 * 60_000 - 1000));
      const throttled = await expectRefused(t, ['user_sessions', 'audit_trail'], t.http.post(SIGN_IN).send({ email: user.email, password: user.password }), 429, 'RATE_LIMIT_EXCEEDED_ERROR');
      expect(throttled.headers['retry-after']).toBe('1');
      clock.set(new Date(start.getTime() + 15 * 60_000));
      expect((await t.http.post(SIGN_IN).send({ email: user.email, password: user.password })).status).toBe(200);
    } finally {
      clock.set(start);
    }
  });
});

describe('API key rate limit: a sliding hour counted in the database (D14)', () => {
  let t: TestApp;
  let other: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { API_KEY_RATE_LIMIT_PER_HOUR: '4' } });
    // A second instance of the service on the same database.
    other = await createTestApp({ databaseUrl: t.databaseUrl, env: { API_KEY_RATE_LIMIT_PER_HOUR: '4' } });
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  const ask = (app: TestApp, key: string) => request(app.app.getHttpServer()).get('/api/entities').set('x-api-key', key);

  it('shares one count between every instance of the service', async () => {
    const { key } = await mintKey(await signInStaff(t));
    expect((await ask(t, key)).status).toBe(200);
    expect((await ask(other, key)).status).toBe(200);
    expect((await ask(t, key)).status).toBe(200);
    expect((await ask(other, key)).status).toBe(200);
    const over = [await ask(t, key), await ask(other, key)];
    expect(over.map((res) => [res.status, res.body.code])).toEqual([
      [429, 'RATE_LIMIT_EXCEEDED_ERROR'],
      [429, 'RATE_LIMIT_EXCEEDED_ERROR'],
    ]);
  });

  it('lets requests through again as they leave the last hour, and not before', async () => {
    const { id, key } = await mintKey(await signInStaff(t));
    for (let i = 0; i < 4; i++) expect((await ask(t, key)).status).toBe(200);
    expect((await ask(t, key)).status).toBe(429);
    // The database's clock drives the window; age the counted requests instead of waiting. The
    // aged time is read in a subquery: on Citus (api_key_usage a Citus-managed local table) an
    // UPDATE may not call a STABLE function (timestamptz - interval) on a column in SET.
    const age = (minutes: number) =>
      t.sql(
        `UPDATE api_key_usage u SET window_start = x.aged
           FROM (SELECT a.window_start, a.window_start - make_interval(mins => $2) AS aged FROM api_key_usage a WHERE a.api_key_id = $1) x
          WHERE u.api_key_id = $1 AND u.window_start = x.window_start`,
        [id, minutes],
      );
    // 58 minutes old: still inside the hour, even if a minute turns meanwhile.
    await age(58);
    expect((await ask(t, key)).status).toBe(429);
    // 61 minutes old: out of the hour, so the key has its whole hour again.
    await age(3);
    for (let i = 0; i < 4; i++) expect((await ask(t, key)).status).toBe(200);
    expect((await ask(t, key)).status).toBe(429);
  });
});

describe('set-password link lifetime from configuration (D15)', () => {
  it('lasts SET_PASSWORD_LINK_TTL_HOURS hours, then is 400 SET_PASSWORD_TOKEN_INVALID_ERROR', async () => {
    const clock = new FixedClock(new Date('2026-06-15T16:00:00.000Z'));
    const t = await createTestApp({ clock, env: { SET_PASSWORD_LINK_TTL_HOURS: '2' } });
    try {
      const staff = await signInStaff(t);
      const user = await onboardUser(t, staff, 'client', 'ttl');
      const link = await staff.post(`/api/onboarding/users/${user.id}/set-password-link`).expect(201);
      expect(link.body.expiresAt).toBe('2026-06-15T18:00:00.000Z');
      const token = new URL(link.body.url).searchParams.get('token');
      clock.advance(2 * 3600_000 + 1000);
      await expectRefused(t, ['users', 'user_sessions', 'audit_trail'], t.http.post('/api/auth/set-password').send({ token, newPassword: 'too-late-password' }), 400, 'SET_PASSWORD_TOKEN_INVALID_ERROR');
    } finally {
      await t.close();
    }
  });
});

describe('CLI users:create-staff (D10)', () => {
  it('creates a staff User with that password once; a second run changes nothing', async () => {
    const databaseUrl = await createTestDatabase();
    const servers = readTestServers();
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: databaseUrl,
      S3_ENDPOINT: servers.s3Endpoint,
      S3_BUCKET: TEST_BUCKET,
      S3_ACCESS_KEY_ID: servers.s3AccessKeyId,
      S3_SECRET_ACCESS_KEY: servers.s3SecretAccessKey,
      SESSION_SECRET: 'test-session-secret-with-at-least-32-characters',
    };
    const cli = (...args: string[]) =>
      run(process.execPath, ['-r', '@swc-node/register', join(__dirname, '..', 'src', 'cli.ts'), ...args], { env, cwd: join(__dirname, '..'), timeout: 60_000 });
    const email = 'Operator@Example.test';
    const password = 'operator-password-1';
    const first = await cli('users:create-staff', '--email', email, '--password', password);
    expect(first.stdout).toMatch(/^Created staff User/);
    const second = await cli('users:create-staff', '--email', email.toLowerCase(), '--password', 'another-password-2');
    expect(second.stdout).toMatch(/already exists/);
    const t = await createTestApp({ databaseUrl });
    try {
      expect(await countRows(t, 'users', `email = $1 AND role = 'staff'`, [email.toLowerCase()])).toBe(1);
      const staff = await signIn(t, email, password);
      expect((await staff.get('/api/auth/session')).body.user).toMatchObject({ email: email.toLowerCase(), role: 'staff' });
    } finally {
      await t.close();
    }
  }, 120_000);
});
