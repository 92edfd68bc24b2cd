import { randomUUID } from 'node:crypto';
import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import request from 'supertest';
import { Audit } from '../src/platform/audit/audit.decorator';
import { StaffOnly } from '../src/platform/auth/decorators';
import { FixedClock } from '../src/platform/clock/clock';
import { countRows, expectRefused, lockWaiters, sendNow, tableFingerprint, waitUntil, whileRowLocked, whileTableLocked } from './harness/db-checks';
import { createTestApp, TestApp } from './harness/test-app';
import { BOOTSTRAP_STAFF, createEntity, createOrganization, mintKey, onboardUser, signIn, signInStaff } from './harness/world';

/** Mutations that exist only in this test, to prove the audit transaction. */
@StaffOnly()
@Controller('test-audit')
class AuditProbeController {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {}

  @Post('ok')
  @HttpCode(200)
  @Audit('probe.ok', 'organization')
  @ApiOkResponse({ description: 'writes a row' })
  async ok(): Promise<{ id: string }> {
    const id = randomUUID();
    await this.insertOrganization(id);
    return { id };
  }

  @Post('fail')
  @Audit('probe.fail', 'organization')
  @ApiOkResponse({ description: 'writes a row, then fails' })
  async fail(): Promise<never> {
    await this.insertOrganization('0f6b0c51-0c0f-4b59-8a39-5c1f3b7a9d00');
    throw new Error('failure after the write');
  }

  private attempts = 0;

  /** Gives up the first attempt as PostgreSQL does on a deadlock, after writing. */
  @Post('deadlock-once')
  @HttpCode(200)
  @Audit('probe.retry', 'organization')
  @ApiOkResponse({ description: 'writes a row; the first attempt dies of a deadlock' })
  async deadlockOnce(): Promise<{ id: string; attempts: number }> {
    const id = randomUUID();
    await this.insertOrganization(id);
    this.attempts += 1;
    if (this.attempts === 1) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
    return { id, attempts: this.attempts };
  }

  private async insertOrganization(id: string): Promise<void> {
    await this.txHost.tx.query(
      `INSERT INTO organizations (id, name, name_key, created_at, updated_at) VALUES ($1, $2, $2, now(), now())`,
      [id, `probe ${id}`],
    );
  }
}

const cookieOf = (res: request.Response): string => {
  const header = res.headers['set-cookie'] as unknown as string[] | undefined;
  return (header ?? []).find((c) => c.startsWith('accounting.sid=')) ?? '';
};

describe('identity and access', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ extraControllers: [AuditProbeController] });
  });
  afterAll(() => t.close());

  describe('sign-in (D11)', () => {
    it('answers 200 { user } and sets an httpOnly SameSite=Lax session cookie', async () => {
      const res = await t.http.post('/api/auth/sign-in/email').send(BOOTSTRAP_STAFF);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ user: { id: expect.any(String), email: BOOTSTRAP_STAFF.email, name: 'Staff', role: 'staff' } });
      const cookie = cookieOf(res);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).toMatch(/Path=\//);
      expect(cookie).not.toMatch(/Secure/i);
    });

    it('marks the cookie Secure when COOKIE_SECURE=true', async () => {
      const secure = await createTestApp({ databaseUrl: t.databaseUrl, env: { COOKIE_SECURE: 'true' } });
      try {
        const res = await secure.http.post('/api/auth/sign-in/email').set('x-forwarded-proto', 'https').send(BOOTSTRAP_STAFF);
        expect(res.status).toBe(200);
        expect(cookieOf(res)).toMatch(/; Secure/i);
      } finally {
        await secure.close();
      }
    });

    it('treats e-mails case-insensitively', async () => {
      const res = await t.http.post('/api/auth/sign-in/email').send({ ...BOOTSTRAP_STAFF, email: ' STAFF@Example.TEST ' });
      expect(res.status).toBe(200);
    });

    it('regenerates the session id at sign-in; the old id stops working', async () => {
      const agent = request.agent(t.app.getHttpServer());
      const first = cookieOf(await agent.post('/api/auth/sign-in/email').send(BOOTSTRAP_STAFF));
      const second = cookieOf(await agent.post('/api/auth/sign-in/email').send(BOOTSTRAP_STAFF));
      expect(first.split(';')[0]).not.toBe(second.split(';')[0]);
      const old = await t.http.get('/api/auth/session').set('cookie', first.split(';')[0]);
      expect(old.status).toBe(401);
      expect((await agent.get('/api/auth/session')).status).toBe(200);
    });

    it('gives the same 401 INVALID_EMAIL_OR_PASSWORD_ERROR for a wrong password and an unknown e-mail, and audits neither', async () => {
      const auditBefore = await countRows(t, 'audit_trail');
      const wrong = await t.http.post('/api/auth/sign-in/email').send({ email: BOOTSTRAP_STAFF.email, password: 'not-the-password' });
      const unknown = await t.http.post('/api/auth/sign-in/email').send({ email: 'nobody@example.test', password: 'not-the-password' });
      for (const res of [wrong, unknown]) {
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('INVALID_EMAIL_OR_PASSWORD_ERROR');
        expect(cookieOf(res)).toBe('');
      }
      const { requestId: _a, ...wrongBody } = wrong.body;
      const { requestId: _b, ...unknownBody } = unknown.body;
      expect(wrongBody).toEqual(unknownBody);
      expect(await countRows(t, 'audit_trail')).toBe(auditBefore);
    });

    it('refuses a malformed body with 400 VALIDATION_ERROR', async () => {
      const res = await t.http.post('/api/auth/sign-in/email').send({ email: BOOTSTRAP_STAFF.email });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.params.errors[0].path).toBe('password');
    });

    it('answers 429 after 10 failures for one e-mail in 15 minutes, even with the right password', async () => {
      const staff = await signInStaff(t);
      const user = await onboardUser(t, staff, 'client', 'throttled');
      for (let i = 0; i < 10; i++) {
        const res = await t.http.post('/api/auth/sign-in/email').send({ email: user.email, password: 'wrong-password-x' });
        expect(res.status).toBe(401);
      }
      const res = await t.http.post('/api/auth/sign-in/email').send({ email: user.email, password: user.password });
      expect(res.status).toBe(429);
      expect(res.body.code).toBe('RATE_LIMIT_EXCEEDED_ERROR');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      // Another e-mail is not affected.
      expect((await t.http.post('/api/auth/sign-in/email').send(BOOTSTRAP_STAFF)).status).toBe(200);
    });

    it('audits a sign-in with the signed-in User as actor', async () => {
      const res = await t.http.post('/api/auth/sign-in/email').set('x-request-id', 'sign-in-audit-1').send(BOOTSTRAP_STAFF);
      const rows = await t.sql('SELECT * FROM audit_trail WHERE request_id = $1', ['sign-in-audit-1']);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ action: 'auth.sign_in', actor_user_id: res.body.user.id, credential: 'session' });
    });
  });

  describe('session, sign-out (D12)', () => {
    it('GET /api/auth/session answers { user, expiresAt } with a session and 401 without', async () => {
      const staff = await signInStaff(t);
      const res = await staff.get('/api/auth/session');
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ email: BOOTSTRAP_STAFF.email, role: 'staff' });
      expect(Date.parse(res.body.expiresAt)).toBeGreaterThan(Date.now());
      const anonymous = await t.http.get('/api/auth/session');
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.code).toBe('UNAUTHENTICATED_ERROR');
    });

    it('POST /api/auth/sign-out answers 204 and ends the session', async () => {
      const staff = await signInStaff(t);
      const res = await staff.post('/api/auth/sign-out');
      expect(res.status).toBe(204);
      expect((await staff.get('/api/auth/session')).status).toBe(401);
    });
  });

  describe('onboarding (D15, staff only)', () => {
    it('creates a User 201 { id, email, name, role, hasPassword, createdAt }, e-mail lower-cased', async () => {
      const staff = await signInStaff(t);
      const id = randomUUID();
      const res = await staff.post('/api/onboarding/users').send({ id, email: 'New.Person@Example.TEST', name: ' New Person ', role: 'client' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id, email: 'new.person@example.test', name: 'New Person', role: 'client', hasPassword: false, createdAt: expect.any(String) });
      const found = await staff.get('/api/onboarding/users').query({ email: 'NEW.person@example.test' });
      expect(found.status).toBe(200);
      expect(found.body).toEqual(res.body);
    });

    it('refuses a reused id (USER_ALREADY_EXISTS_ERROR) and a taken e-mail in any case (USER_EMAIL_ALREADY_EXISTS_ERROR), writing nothing', async () => {
      const staff = await signInStaff(t);
      const id = randomUUID();
      await staff.post('/api/onboarding/users').send({ id, email: 'dup@example.test', name: 'Dup', role: 'client' }).expect(201);
      const before = await countRows(t, 'users');
      const sameId = await staff.post('/api/onboarding/users').send({ id, email: 'other@example.test', name: 'X', role: 'client' });
      expect(sameId.status).toBe(409);
      expect(sameId.body.code).toBe('USER_ALREADY_EXISTS_ERROR');
      const sameEmail = await staff.post('/api/onboarding/users').send({ id: randomUUID(), email: 'DUP@example.test', name: 'X', role: 'client' });
      expect(sameEmail.status).toBe(409);
      expect(sameEmail.body.code).toBe('USER_EMAIL_ALREADY_EXISTS_ERROR');
      expect(await countRows(t, 'users')).toBe(before);
    });

    it('answers 404 USER_NOT_FOUND_ERROR for an unknown e-mail or user', async () => {
      const staff = await signInStaff(t);
      const res = await staff.get('/api/onboarding/users').query({ email: 'ghost@example.test' });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('USER_NOT_FOUND_ERROR');
      const link = await staff.post(`/api/onboarding/users/${randomUUID()}/set-password-link`);
      expect(link.status).toBe(404);
      expect(link.body.code).toBe('USER_NOT_FOUND_ERROR');
    });

    it('refuses bad input with 400 VALIDATION_ERROR', async () => {
      const staff = await signInStaff(t);
      const res = await staff.post('/api/onboarding/users').send({ id: 'x', email: 'not-an-email', name: '', role: 'admin' });
      expect(res.status).toBe(400);
      expect([...new Set(res.body.params.errors.map((e: { path: string }) => e.path))].sort()).toEqual(['email', 'id', 'name', 'role']);
    });

    it('refuses a blank name (stored trimmed, it would be empty) with 400 VALIDATION_ERROR and writes nothing', async () => {
      const staff = await signInStaff(t);
      const before = await countRows(t, 'users');
      const res = await staff.post('/api/onboarding/users').send({ id: randomUUID(), email: `blank-${randomUUID()}@example.test`, name: ' \t ', role: 'client' });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
      expect(res.body.params.errors.map((e: { path: string }) => e.path)).toEqual(['name']);
      expect(await countRows(t, 'users')).toBe(before);
    });

    it('answers two creates of one e-mail at once (in two cases) with one 201 and one 409 USER_EMAIL_ALREADY_EXISTS_ERROR, never a 500', async () => {
      const staff = await signInStaff(t);
      const email = `twice-${randomUUID()}@example.test`;
      const results = await whileTableLocked(t, 'users', 2, () =>
        Promise.all([
          staff.post('/api/onboarding/users').send({ id: randomUUID(), email, name: 'Twice', role: 'client' }),
          staff.post('/api/onboarding/users').send({ id: randomUUID(), email: email.toUpperCase(), name: 'Twice', role: 'client' }),
        ]),
      );
      expect(results.map((res) => `${res.status} ${res.body.code ?? ''}`.trim()).sort()).toEqual(['201', '409 USER_EMAIL_ALREADY_EXISTS_ERROR']);
      expect(await countRows(t, 'users', 'email = $1', [email])).toBe(1);
    });

    it('is refused to a client with 403 PERMISSION_DENIED_ERROR', async () => {
      const staff = await signInStaff(t);
      const client = await onboardUser(t, staff, 'client', 'nosy');
      const before = await countRows(t, 'users');
      const res = await client.agent.post('/api/onboarding/users').send({ id: randomUUID(), email: 'x@example.test', name: 'X', role: 'staff' });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('PERMISSION_DENIED_ERROR');
      expect(await countRows(t, 'users')).toBe(before);
      expect((await client.agent.get('/api/onboarding/users').query({ email: client.email })).status).toBe(403);
    });

    it('revoke-sessions ends every live session of the User at once', async () => {
      const staff = await signInStaff(t);
      const user = await onboardUser(t, staff, 'client', 'revoked');
      const second = await signIn(t, user.email, user.password);
      expect((await user.agent.get('/api/auth/session')).status).toBe(200);
      const res = await staff.post(`/api/onboarding/users/${user.id}/revoke-sessions`);
      expect(res.status).toBe(204);
      expect((await user.agent.get('/api/auth/session')).status).toBe(401);
      expect((await second.get('/api/auth/session')).status).toBe(401);
    });
  });

  describe('set-password links (D12, D15)', () => {
    it('issues a single-use link under APP_BASE_URL; a second use is 400 SET_PASSWORD_TOKEN_INVALID_ERROR', async () => {
      const staff = await signInStaff(t);
      const id = randomUUID();
      await staff.post('/api/onboarding/users').send({ id, email: `link-${id}@example.test`, name: 'Link', role: 'client' }).expect(201);
      const link = await staff.post(`/api/onboarding/users/${id}/set-password-link`);
      expect(link.status).toBe(201);
      expect(link.body.url).toMatch(/^http:\/\/app\.test\/set-password\?token=/);
      expect(Date.parse(link.body.expiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);
      const token = new URL(link.body.url).searchParams.get('token');
      expect(await countRows(t, 'set_password_tokens', 'token_hash = $1', [token])).toBe(0); // only the hash is stored
      expect((await t.http.post('/api/auth/set-password').send({ token, newPassword: 'a-new-password-1' })).status).toBe(204);
      const again = await t.http.post('/api/auth/set-password').send({ token, newPassword: 'another-password-2' });
      expect(again.status).toBe(400);
      expect(again.body.code).toBe('SET_PASSWORD_TOKEN_INVALID_ERROR');
      await signIn(t, `link-${id}@example.test`, 'a-new-password-1');
      const user = await staff.get('/api/onboarding/users').query({ email: `link-${id}@example.test` });
      expect(user.body.hasPassword).toBe(true);
    });

    it('puts the link under the path of APP_BASE_URL ({APP_BASE_URL}/set-password?token=...), with or without its trailing slash', async () => {
      for (const base of ['https://erp.example.test/app', 'https://erp.example.test/app/']) {
        const mounted = await createTestApp({ databaseUrl: t.databaseUrl, env: { APP_BASE_URL: base } });
        try {
          const staff = await signInStaff(mounted);
          const id = randomUUID();
          await staff.post('/api/onboarding/users').send({ id, email: `mounted-${id}@example.test`, name: 'Mounted', role: 'client' }).expect(201);
          const link = await staff.post(`/api/onboarding/users/${id}/set-password-link`);
          expect(link.status).toBe(201);
          expect(link.body).toEqual({ url: expect.stringMatching(/^https:\/\/erp\.example\.test\/app\/set-password\?token=[A-Za-z0-9_-]+$/), expiresAt: expect.any(String) });
          const token = new URL(link.body.url).searchParams.get('token');
          await mounted.http.post('/api/auth/set-password').send({ token, newPassword: 'mounted-password-1' }).expect(204);
        } finally {
          await mounted.close();
        }
      }
    });

    it('refuses a password under 12 characters (400 VALIDATION_ERROR) and keeps the link usable', async () => {
      const staff = await signInStaff(t);
      const user = await onboardUser(t, staff, 'client', 'short');
      const link = await staff.post(`/api/onboarding/users/${user.id}/set-password-link`).expect(201);
      const token = new URL(link.body.url).searchParams.get('token');
      const res = await t.http.post('/api/auth/set-password').send({ token, newPassword: 'short' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', params: { errors: [{ path: 'newPassword' }] } });
      expect((await t.http.post('/api/auth/set-password').send({ token, newPassword: 'long-enough-now' })).status).toBe(204);
    });

    it('refuses an expired link', async () => {
      const clock = new FixedClock(new Date());
      const timed = await createTestApp({ databaseUrl: t.databaseUrl, clock });
      try {
        const staff = await signInStaff(timed);
        const user = await onboardUser(timed, staff, 'client', 'expired-link');
        const link = await staff.post(`/api/onboarding/users/${user.id}/set-password-link`).expect(201);
        clock.advance(24 * 3600_000 + 1000);
        const res = await timed.http.post('/api/auth/set-password').send({ token: new URL(link.body.url).searchParams.get('token'), newPassword: 'too-late-password' });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('SET_PASSWORD_TOKEN_INVALID_ERROR');
      } finally {
        await timed.close();
      }
    });

    it('a sign-in with the old password racing the password change leaves no session (was a live session that survived the change)', async () => {
      const staff = await signInStaff(t);
      const user = await onboardUser(t, staff, 'client', 'racing-reset');
      const other = await onboardUser(t, staff, 'client', 'racing-other');
      const link = await staff.post(`/api/onboarding/users/${user.id}/set-password-link`).expect(201);
      const token = new URL(link.body.url).searchParams.get('token');
      // The sign-in is sent with the other User's session cookie: once the password is verified it
      // replaces that session, whose row is held here; so it stops between its check and its new session.
      const [{ sid }] = await t.sql<{ sid: string }>(`SELECT sid FROM user_sessions WHERE sess->>'userId' = $1`, [other.id]);
      let setting: ReturnType<typeof sendNow> | undefined;
      const signedIn = await whileRowLocked(
        t,
        'SELECT 1 FROM user_sessions WHERE sid = $1 FOR UPDATE',
        [sid],
        () => other.agent.post('/api/auth/sign-in/email').send({ email: user.email, password: user.password }),
        async () => {
          setting = sendNow(t.http.post('/api/auth/set-password').send({ token, newPassword: 'the-new-password-1' }));
          await waitUntil(async () => setting!.answered() || (await lockWaiters(t)) >= 2);
        },
      );
      const set = await setting!.response;
      expect([signedIn.status, set.status]).toEqual([200, 204]);
      // The sign-in was judged on the old password, so its session ends with the change.
      expect((await request(t.app.getHttpServer()).get('/api/auth/session').set('cookie', cookieOf(signedIn))).status).toBe(401);
      // Its row may be back: express-session saves a regenerated session once more as the response
      // ends, which can come after the change removed it (see the next test). No row of the User
      // carries the stamp of the password now set, so none is a session.
      const liveRows = `sess->>'userId' = $1 AND sess->>'passwordStamp' = (SELECT left(encode(sha256(convert_to(password_hash, 'UTF8')), 'hex'), 32) FROM users WHERE id::text = $1)`;
      expect(await countRows(t, 'user_sessions', `sess->>'userId' = $1`, [user.id])).toBeLessThanOrEqual(1);
      expect(await countRows(t, 'user_sessions', liveRows, [user.id])).toBe(0);
      expect((await t.http.post('/api/auth/sign-in/email').send({ email: user.email, password: user.password })).status).toBe(401);
      await signIn(t, user.email, 'the-new-password-1');
      // The same condition finds the session of the new password: it is not vacuous.
      expect(await countRows(t, 'user_sessions', liveRows, [user.id])).toBe(1);
    });

    it('a session signed in with the password before a change stays ended even if its row is written again after the change', async () => {
      const staff = await signInStaff(t);
      const user = await onboardUser(t, staff, 'client', 'late-session-row');
      const signedIn = await t.http.post('/api/auth/sign-in/email').send({ email: user.email, password: user.password });
      expect(signedIn.status).toBe(200);
      // The signed cookie `s:<sid>.<signature>` names the session row.
      const sid = /^s:([^.]+)\./.exec(decodeURIComponent(cookieOf(signedIn).split(';')[0].split('=')[1]))![1];
      const [row] = await t.sql<{ sess: unknown; expire: Date }>('SELECT sess, expire FROM user_sessions WHERE sid = $1', [sid]);
      const link = await staff.post(`/api/onboarding/users/${user.id}/set-password-link`).expect(201);
      await t.http.post('/api/auth/set-password').send({ token: new URL(link.body.url).searchParams.get('token'), newPassword: 'the-new-password-2' }).expect(204);
      expect(await countRows(t, 'user_sessions', `sess->>'userId' = $1`, [user.id])).toBe(0);
      // The sign-in's session store writing its row once more after the change (express-session
      // saves a regenerated session again when the response ends): the row is back, the session is not.
      await t.sql('INSERT INTO user_sessions (sid, sess, expire) VALUES ($1, $2::json, $3)', [sid, JSON.stringify(row.sess), row.expire]);
      const res = await request(t.app.getHttpServer()).get('/api/auth/session').set('cookie', cookieOf(signedIn));
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHENTICATED_ERROR');
      const fresh = await signIn(t, user.email, 'the-new-password-2');
      expect((await fresh.get('/api/auth/session')).status).toBe(200);
    });

    it('setting a password ends the sessions the User had', async () => {
      const staff = await signInStaff(t);
      const user = await onboardUser(t, staff, 'client', 'reset');
      const link = await staff.post(`/api/onboarding/users/${user.id}/set-password-link`).expect(201);
      await t.http.post('/api/auth/set-password').send({ token: new URL(link.body.url).searchParams.get('token'), newPassword: 'brand-new-password' }).expect(204);
      expect((await user.agent.get('/api/auth/session')).status).toBe(401);
    });
  });

  describe('API keys (D13)', () => {
    it('mints a key shown once, lists it without the secret and stores only a hash', async () => {
      const staff = await signInStaff(t);
      const res = await staff.post('/api/auth/api-keys').send({ name: 'integration' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: 'integration',
        key: expect.stringMatching(/^mea_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/),
        prefix: expect.any(String),
        permissions: null,
        entityId: null,
        expiresAt: null,
        createdAt: expect.any(String),
      });
      expect(res.body.key.startsWith(`mea_${res.body.prefix}_`)).toBe(true);
      const secret = res.body.key.split('_').slice(2).join('_');
      expect(await countRows(t, 'api_keys', `secret_hash = $1 OR secret_hash LIKE '%' || $1 || '%'`, [secret])).toBe(0);
      const list = await staff.get('/api/auth/api-keys');
      const listed = list.body.find((k: { id: string }) => k.id === res.body.id);
      expect(listed).toMatchObject({ name: 'integration', lastUsedAt: null, revokedAt: null });
      expect(listed.key).toBeUndefined();
      expect(JSON.stringify(list.body)).not.toContain(secret);
    });

    it('authenticates as its owner and notes lastUsedAt', async () => {
      const staff = await signInStaff(t);
      const { id, key } = await mintKey(staff);
      const res = await t.http.get('/api/entities').set('x-api-key', key);
      expect(res.status).toBe(200);
      const listed = (await staff.get('/api/auth/api-keys')).body.find((k: { id: string }) => k.id === id);
      expect(listed.lastUsedAt).not.toBeNull();
    });

    it('answers 401 for an unknown, malformed or revoked key; revocation takes effect on the next request', async () => {
      const staff = await signInStaff(t);
      const { id, key } = await mintKey(staff);
      expect((await t.http.get('/api/entities').set('x-api-key', key)).status).toBe(200);
      expect((await staff.delete(`/api/auth/api-keys/${id}`)).status).toBe(204);
      for (const bad of [key, 'nonsense', `${key.slice(0, -1)}x`]) {
        const res = await t.http.get('/api/entities').set('x-api-key', bad);
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('UNAUTHENTICATED_ERROR');
      }
      const listed = (await staff.get('/api/auth/api-keys')).body.find((k: { id: string }) => k.id === id);
      expect(listed.revokedAt).not.toBeNull();
    });

    it('revokes a key without writing back what a request of the key noted meanwhile (lastUsedAt), and keeps the first revocation time', async () => {
      const staff = await signInStaff(t);
      const { id } = await mintKey(staff);
      const noted = new Date('2031-01-02T03:04:05.000Z');
      // A request of the key notes lastUsedAt while the revocation, which has read the key, waits for the row.
      const sent = await whileRowLocked(t, 'UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [id, noted], async () => sendNow(staff.delete(`/api/auth/api-keys/${id}`)));
      expect((await sent.response).status).toBe(204);
      const [row] = await t.sql<{ last_used_at: Date; revoked_at: Date | null }>('SELECT last_used_at, revoked_at FROM api_keys WHERE id = $1', [id]);
      expect(row.last_used_at.toISOString()).toBe(noted.toISOString());
      expect(row.revoked_at).not.toBeNull();
      const first = row.revoked_at!.toISOString();
      expect((await staff.delete(`/api/auth/api-keys/${id}`)).status).toBe(204);
      const [again] = await t.sql<{ revoked_at: Date }>('SELECT revoked_at FROM api_keys WHERE id = $1', [id]);
      expect(again.revoked_at.toISOString()).toBe(first);
    });

    it('answers 401 for an expired key', async () => {
      const clock = new FixedClock(new Date());
      const timed = await createTestApp({ databaseUrl: t.databaseUrl, clock });
      try {
        const staff = await signInStaff(timed);
        const { key } = await mintKey(staff, { expiresAt: new Date(clock.now().getTime() + 3600_000).toISOString() });
        expect((await timed.http.get('/api/entities').set('x-api-key', key)).status).toBe(200);
        clock.advance(3600_000);
        const res = await timed.http.get('/api/entities').set('x-api-key', key);
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('UNAUTHENTICATED_ERROR');
      } finally {
        await timed.close();
      }
    });

    it('refuses bad mint bodies with 400 VALIDATION_ERROR and writes nothing', async () => {
      const staff = await signInStaff(t);
      const before = await countRows(t, 'api_keys');
      for (const body of [
        {},
        { name: '   ' },
        { name: 'x', permissions: { erp: ['write'] } },
        { name: 'x', permissions: { erp: ['read'], admin: true } },
        { name: 'x', permissions: { erp: ['read', 'read'] } },
        { name: 'x', expiresAt: '2000-01-01T00:00:00Z' },
        { name: 'x', expiresAt: 'tomorrow' },
        { name: 'x', entityId: 'not-a-uuid' },
      ]) {
        const res = await staff.post('/api/auth/api-keys').send(body);
        expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'VALIDATION_ERROR' });
      }
      expect(await countRows(t, 'api_keys')).toBe(before);
    });

    it('takes expiresAt as a date-time with an offset only: any other ISO 8601 form is 400 VALIDATION_ERROR (never a 500) and writes nothing', async () => {
      const staff = await signInStaff(t);
      for (const expiresAt of ['2030-01-01', '2030-01-01T10:00:00', '2030-W01', '2030-001', '20300101T100000Z', '+275760-09-13T00:00:00Z']) {
        const res = await expectRefused(t, ['api_keys', 'audit_trail'], staff.post('/api/auth/api-keys').send({ name: 'x', expiresAt }), 400, 'VALIDATION_ERROR');
        expect({ expiresAt, errors: res.body.params.errors }).toEqual({ expiresAt, errors: [{ path: 'expiresAt', message: expect.stringContaining('offset') }] });
      }
      const res = await staff.post('/api/auth/api-keys').send({ name: 'x', expiresAt: '2030-01-01T00:00:00+02:00' });
      expect([res.status, res.body.expiresAt]).toEqual([201, '2029-12-31T22:00:00.000Z']);
    });

    it('scopes a key to an Entity its owner can reach, else 404 ENTITY_NOT_FOUND_ERROR', async () => {
      const staff = await signInStaff(t);
      const organizationId = await createOrganization(staff);
      const entity = await createEntity(staff, organizationId);
      const client = await onboardUser(t, staff, 'client', 'scoper');
      const refused = await client.agent.post('/api/auth/api-keys').send({ name: 'scoped', entityId: entity.id });
      expect(refused.status).toBe(404);
      expect(refused.body.code).toBe('ENTITY_NOT_FOUND_ERROR');
      const missing = await staff.post('/api/auth/api-keys').send({ name: 'scoped', entityId: randomUUID() });
      expect(missing.status).toBe(404);
      const scoped = await staff.post('/api/auth/api-keys').send({ name: 'scoped', entityId: entity.id });
      expect(scoped.status).toBe(201);
      expect(scoped.body.entityId).toBe(entity.id);
    });

    it("cannot revoke another User's key (404 API_KEY_NOT_FOUND_ERROR)", async () => {
      const staff = await signInStaff(t);
      const { id } = await mintKey(staff);
      const client = await onboardUser(t, staff, 'client', 'thief');
      const res = await client.agent.delete(`/api/auth/api-keys/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('API_KEY_NOT_FOUND_ERROR');
      expect(await countRows(t, 'api_keys', 'id = $1 AND revoked_at IS NULL', [id])).toBe(1);
    });

    it('is barred from /api/auth/* with 403 API_KEY_FORBIDDEN_ON_AUTH_ERROR, even a valid key', async () => {
      const staff = await signInStaff(t);
      const { key } = await mintKey(staff);
      for (const [method, path] of [
        ['get', '/api/auth/session'],
        ['get', '/api/auth/api-keys'],
        ['post', '/api/auth/api-keys'],
        ['post', '/api/auth/sign-in/email'],
        ['post', '/api/auth/sign-out'],
        ['get', '/api/auth/no-such-route'],
        ['post', '/api/auth'],
      ] as const) {
        const res = await t.http[method](path).set('x-api-key', key).set('x-audit-actor', 'bot').send({ name: 'x' });
        expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 403, code: 'API_KEY_FORBIDDEN_ON_AUTH_ERROR' });
      }
    });

    it('is barred from /api/auth/* however the path is spelled (the router ignores case and a trailing slash); no key is minted', async () => {
      const staff = await signInStaff(t);
      const { key } = await mintKey(staff);
      const before = await tableFingerprint(t, ['api_keys', 'audit_trail']);
      for (const [method, path] of [
        ['post', '/api/Auth/api-keys'],
        ['post', '/API/AUTH/API-KEYS'],
        ['post', '/api/auth/api-keys/'],
        ['post', '/api/%61uth/api-keys'],
        ['get', '/api/Auth/api-keys'],
        ['get', '/api/AUTH/session'],
        ['post', '/api/Auth/sign-out'],
      ] as const) {
        const res = await t.http[method](path).set('x-api-key', key).set('x-audit-actor', 'bot').send({ name: 'smuggled' });
        expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 403, code: 'API_KEY_FORBIDDEN_ON_AUTH_ERROR' });
      }
      expect(await tableFingerprint(t, ['api_keys', 'audit_trail'])).toEqual(before);
    });
  });

  describe('key requests: read-only keys and x-audit-actor', () => {
    it('refuses a read-only key on a mutation with 403 API_KEY_READ_ONLY_ERROR and writes nothing; it still reads', async () => {
      const staff = await signInStaff(t);
      const { key } = await mintKey(staff, { permissions: { erp: ['read'] } });
      const before = await countRows(t, 'organizations');
      const auditBefore = await countRows(t, 'audit_trail');
      const res = await t.http.post('/api/organizations').set('x-api-key', key).set('x-audit-actor', 'bot').send({ name: `RO ${randomUUID()}` });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('API_KEY_READ_ONLY_ERROR');
      expect(await countRows(t, 'organizations')).toBe(before);
      expect(await countRows(t, 'audit_trail')).toBe(auditBefore);
      expect((await t.http.get('/api/organizations').set('x-api-key', key)).status).toBe(200);
      expect((await t.http.head('/api/organizations').set('x-api-key', key)).status).toBe(200);
    });

    it('refuses a key mutation without x-audit-actor with 400 naming the header; GET needs none', async () => {
      const staff = await signInStaff(t);
      const { key } = await mintKey(staff);
      const before = await countRows(t, 'organizations');
      const res = await t.http.post('/api/organizations').set('x-api-key', key).send({ name: `No actor ${randomUUID()}` });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('AUDIT_ACTOR_REQUIRED_ERROR');
      expect(res.body.message).toContain('x-audit-actor');
      expect(await countRows(t, 'organizations')).toBe(before);
      expect((await t.http.get('/api/organizations').set('x-api-key', key)).status).toBe(200);
    });

    it('records the declared actor verbatim and the key owner as the verified actor', async () => {
      const staff = await signInStaff(t);
      const { id: apiKeyId, key } = await mintKey(staff);
      const me = (await staff.get('/api/auth/session')).body.user;
      const res = await t.http
        .post('/api/organizations')
        .set('x-api-key', key)
        .set('x-audit-actor', 'erwin:conv-42')
        .set('x-audit-reason', 'monthly close')
        .set('x-request-id', 'declared-actor-1')
        .send({ name: `Declared ${randomUUID()}` });
      expect(res.status).toBe(201);
      const rows = await t.sql('SELECT * FROM audit_trail WHERE request_id = $1', ['declared-actor-1']);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        actor_user_id: me.id,
        declared_actor: 'erwin:conv-42',
        credential: 'api_key',
        api_key_id: apiKeyId,
        method: 'POST',
        path: '/api/organizations',
        action: 'organization.create',
        resource_type: 'organization',
        resource_id: res.body.id,
        organization_id: res.body.id,
        reason: 'monthly close',
      });
    });

    it('does not ask a session for x-audit-actor', async () => {
      const staff = await signInStaff(t);
      expect((await staff.post('/api/organizations').send({ name: `Session ${randomUUID()}` })).status).toBe(201);
    });
  });

  describe('rate limit (D14)', () => {
    it('answers 429 RATE_LIMIT_EXCEEDED_ERROR with Retry-After past the limit, for that key only; sessions are not limited', async () => {
      const limited = await createTestApp({ databaseUrl: t.databaseUrl, env: { API_KEY_RATE_LIMIT_PER_HOUR: '5' } });
      try {
        const staff = await signInStaff(limited);
        const first = await mintKey(staff);
        const second = await mintKey(staff);
        for (let i = 0; i < 5; i++) {
          expect((await limited.http.get('/api/entities').set('x-api-key', first.key)).status).toBe(200);
        }
        const over = await limited.http.get('/api/entities').set('x-api-key', first.key);
        expect(over.status).toBe(429);
        expect(over.body.code).toBe('RATE_LIMIT_EXCEEDED_ERROR');
        expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(3600);
        expect((await limited.http.get('/api/entities').set('x-api-key', second.key)).status).toBe(200);
        for (let i = 0; i < 10; i++) expect((await staff.get('/api/entities')).status).toBe(200);
      } finally {
        await limited.close();
      }
    });

    it('lets no more than the limit through when one key fires in parallel from many connections', async () => {
      const limited = await createTestApp({ databaseUrl: t.databaseUrl, env: { API_KEY_RATE_LIMIT_PER_HOUR: '20', DATABASE_POOL_SIZE: '10' } });
      try {
        const staff = await signInStaff(limited);
        const { key } = await mintKey(staff);
        const server = limited.app.getHttpServer();
        const answers = await Promise.all(Array.from({ length: 45 }, () => request(server).get('/api/entities').set('x-api-key', key)));
        const statuses = answers.map((res) => res.status);
        expect(statuses.filter((s) => s === 200)).toHaveLength(20);
        expect(statuses.filter((s) => s === 429)).toHaveLength(25);
      } finally {
        await limited.close();
      }
    });
  });

  describe('audit trail (D18)', () => {
    it('a mutation that fails after writing leaves neither its data nor an audit row', async () => {
      const staff = await signInStaff(t);
      const auditBefore = await countRows(t, 'audit_trail');
      const res = await staff.post('/api/test-audit/fail');
      expect(res.status).toBe(500);
      expect(res.body.code).toBe('INTERNAL_SERVER_ERROR');
      expect(await countRows(t, 'organizations', 'id = $1', ['0f6b0c51-0c0f-4b59-8a39-5c1f3b7a9d00'])).toBe(0);
      expect(await countRows(t, 'audit_trail')).toBe(auditBefore);
    });

    it('a transaction given up for a deadlock runs again: one write, one audit row', async () => {
      const staff = await signInStaff(t);
      const before = await countRows(t, 'organizations');
      const res = await staff.post('/api/test-audit/deadlock-once').set('x-request-id', 'retry-1');
      expect(res.status).toBe(200);
      expect(res.body.attempts).toBe(2);
      expect(await countRows(t, 'organizations')).toBe(before + 1);
      expect(await countRows(t, 'audit_trail', 'request_id = $1', ['retry-1'])).toBe(1);
    });

    it('a mutation refused by a domain rule writes no audit row', async () => {
      const staff = await signInStaff(t);
      const name = `Unique ${randomUUID()}`;
      await staff.post('/api/organizations').send({ name }).expect(201);
      const auditBefore = await countRows(t, 'audit_trail');
      const res = await staff.post('/api/organizations').send({ name });
      expect(res.status).toBe(409);
      expect(await countRows(t, 'audit_trail')).toBe(auditBefore);
    });

    it('each successful mutation leaves exactly one row, in its transaction', async () => {
      const staff = await signInStaff(t);
      for (let i = 0; i < 3; i++) {
        const requestId = `probe-ok-${i}-${randomUUID()}`;
        const res = await staff.post('/api/test-audit/ok').set('x-request-id', requestId);
        expect(res.status).toBe(200);
        const rows = await t.sql('SELECT * FROM audit_trail WHERE request_id = $1', [requestId]);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ action: 'probe.ok', resource_id: res.body.id, credential: 'session', declared_actor: null });
        expect(await countRows(t, 'organizations', 'id = $1', [res.body.id])).toBe(1);
      }
    });
  });

  describe('routes that take no body (D2)', () => {
    it('refuse a body naming any property with 400 VALIDATION_ERROR and write nothing; accept none or {}', async () => {
      const staff = await signInStaff(t);
      const user = await onboardUser(t, staff, 'client', 'nobody');
      const { id: apiKeyId } = await mintKey(staff);
      const organizationId = await createOrganization(staff);
      // Sessions by id only: the session store touches its row's expiry after each answer.
      const tables = ['users', 'set_password_tokens', 'api_keys', 'organizations', 'audit_trail'];
      const sessionIds = async () => (await t.sql<{ sid: string }>('SELECT sid FROM user_sessions ORDER BY sid')).map((r) => r.sid);
      for (const [method, path] of [
        ['post', `/api/onboarding/users/${user.id}/set-password-link`],
        ['post', `/api/onboarding/users/${user.id}/revoke-sessions`],
        ['delete', `/api/auth/api-keys/${apiKeyId}`],
        ['delete', `/api/organizations/${organizationId}`],
        ['post', '/api/auth/sign-out'],
      ] as const) {
        const before = await tableFingerprint(t, tables);
        const sessionsBefore = await sessionIds();
        const res = await staff[method](path).send({ expiresInHours: 1 });
        expect({ path, status: res.status, code: res.body.code, errors: res.body.params?.errors }).toEqual({
          path,
          status: 400,
          code: 'VALIDATION_ERROR',
          errors: [{ path: 'expiresInHours', message: expect.any(String) }],
        });
        expect(await tableFingerprint(t, tables)).toEqual(before);
        expect(await sessionIds()).toEqual(sessionsBefore);
      }
      expect((await staff.post(`/api/onboarding/users/${user.id}/set-password-link`).send({})).status).toBe(201);
      expect((await staff.post(`/api/onboarding/users/${user.id}/revoke-sessions`)).status).toBe(204);
      expect((await staff.delete(`/api/auth/api-keys/${apiKeyId}`).send({})).status).toBe(204);
      expect((await staff.delete(`/api/organizations/${organizationId}`)).status).toBe(204);
      expect((await staff.post('/api/auth/sign-out').send({})).status).toBe(204);
    });
  });

  describe('bootstrap staff (D10)', () => {
    it('creates the staff User once, however often the service starts', async () => {
      const again = await createTestApp({ databaseUrl: t.databaseUrl });
      await again.close();
      expect(await countRows(t, 'users', 'email = $1', [BOOTSTRAP_STAFF.email])).toBe(1);
      expect(await countRows(t, 'users', `email = $1 AND role = 'staff'`, [BOOTSTRAP_STAFF.email])).toBe(1);
    });
  });
});

describe('entity-scoped keys outside their Entity', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('are refused on staff-only routes that are not about their Entity, and see no Organization', async () => {
    const staff = await signInStaff(t);
    const organizationId = await createOrganization(staff);
    const entity = await createEntity(staff, organizationId);
    const { key } = await mintKey(staff, { entityId: entity.id });
    const before = await countRows(t, 'organizations');
    const create = await t.http.post('/api/organizations').set('x-api-key', key).set('x-audit-actor', 'bot').send({ name: `Scoped ${randomUUID()}` });
    expect(create.status).toBe(403);
    expect(create.body.code).toBe('PERMISSION_DENIED_ERROR');
    expect(await countRows(t, 'organizations')).toBe(before);
    const onboarding = await t.http.get('/api/onboarding/users').query({ email: BOOTSTRAP_STAFF.email }).set('x-api-key', key);
    expect(onboarding.status).toBe(403);
    const list = await t.http.get('/api/organizations').set('x-api-key', key);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
    const entities = await t.http.get('/api/entities').set('x-api-key', key);
    expect(entities.body.map((e: { id: string }) => e.id)).toEqual([entity.id]);
    expect((await t.http.get(`/api/entities/${entity.id}`).set('x-api-key', key)).status).toBe(200);
  });
});
