import request from 'supertest';
import type { TestApp } from '../harness/test-app';
import { createTestApp } from '../harness/test-app';
import { BOOTSTRAP_STAFF, createWorldApp, ISO_DATETIME, mintKey, onboardUser, signIn, type Agent, type World } from '../harness/world';
import { expectError, expectStatus, MovableClock, uuid } from './bb-helpers';

describe('black box: auth, API keys, onboarding, envelope', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  const clock = new MovableClock();

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock }));
  });
  afterAll(() => t.close());

  const anon = () => request(t.app.getHttpServer());

  describe('sign-in (D11)', () => {
    it('answers 200 { user: { id, email, name, role } } and sets an httpOnly SameSite=Lax cookie', async () => {
      const res = await anon().post('/api/auth/sign-in/email').send(BOOTSTRAP_STAFF);
      expectStatus(res, 200);
      expect(Object.keys(res.body)).toEqual(['user']);
      expect(Object.keys(res.body.user).sort()).toEqual(['email', 'id', 'name', 'role']);
      expect(res.body.user).toMatchObject({ email: BOOTSTRAP_STAFF.email, role: 'staff' });
      const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).join(';');
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
    });

    it('refuses a wrong password with 401 INVALID_EMAIL_OR_PASSWORD_ERROR', async () => {
      const res = await anon().post('/api/auth/sign-in/email').send({ email: BOOTSTRAP_STAFF.email, password: 'wrong-password-123' });
      expectError(res, 401, 'INVALID_EMAIL_OR_PASSWORD_ERROR');
    });

    it('answers an unknown e-mail exactly like a wrong password', async () => {
      const a = await anon().post('/api/auth/sign-in/email').send({ email: 'nobody@example.test', password: 'wrong-password-123' });
      const b = await anon().post('/api/auth/sign-in/email').send({ email: BOOTSTRAP_STAFF.email, password: 'wrong-password-456' });
      expectError(a, 401, 'INVALID_EMAIL_OR_PASSWORD_ERROR');
      expect({ ...a.body, requestId: null }).toEqual({ ...b.body, requestId: null });
    });

    it('slows down repeated failures for one e-mail: 429 after 10 failures', async () => {
      const email = `slow-${uuid()}@example.test`;
      for (let i = 0; i < 10; i++) {
        const res = await anon().post('/api/auth/sign-in/email').send({ email, password: 'wrong-password-123' });
        expect(res.status).toBe(401);
      }
      const res = await anon().post('/api/auth/sign-in/email').send({ email, password: 'wrong-password-123' });
      expect(res.status).toBe(429);
    });

    it('refuses a body without password with 400 VALIDATION_ERROR', async () => {
      const res = await anon().post('/api/auth/sign-in/email').send({ email: BOOTSTRAP_STAFF.email });
      expectError(res, 400, 'VALIDATION_ERROR');
    });
  });

  describe('session (D12)', () => {
    it('GET /api/auth/session answers { user, expiresAt } for a signed-in User', async () => {
      const res = await staff.get('/api/auth/session');
      expectStatus(res, 200);
      expect(res.body.user).toMatchObject({ email: BOOTSTRAP_STAFF.email, role: 'staff' });
      expect(res.body.expiresAt).toMatch(ISO_DATETIME);
    });

    it('GET /api/auth/session without a session is 401 UNAUTHENTICATED_ERROR', async () => {
      expectError(await anon().get('/api/auth/session'), 401, 'UNAUTHENTICATED_ERROR');
    });

    it('sign-out answers 204 and ends the session', async () => {
      const agent = await signIn(t, BOOTSTRAP_STAFF.email, BOOTSTRAP_STAFF.password);
      expectStatus(await agent.post('/api/auth/sign-out'), 204);
      expectError(await agent.get('/api/auth/session'), 401, 'UNAUTHENTICATED_ERROR');
      expectError(await agent.get('/api/entities'), 401, 'UNAUTHENTICATED_ERROR');
    });
  });

  describe('API keys (D13)', () => {
    it('mints a key: 201 { id, name, key, prefix, permissions, entityId, expiresAt, createdAt }, key like mea_<prefix>_<secret>', async () => {
      const res = await world.clientMember.agent.post('/api/auth/api-keys').send({ name: 'integration' });
      expectStatus(res, 201);
      expect(Object.keys(res.body).sort()).toEqual(['createdAt', 'entityId', 'expiresAt', 'id', 'key', 'name', 'permissions', 'prefix'].sort());
      expect(res.body.name).toBe('integration');
      expect(res.body.entityId).toBeNull();
      expect(res.body.expiresAt).toBeNull();
      expect(res.body.createdAt).toMatch(ISO_DATETIME);
      expect(res.body.key.startsWith(`mea_${res.body.prefix}_`)).toBe(true);
      expect(res.body.key.length).toBeGreaterThan(`mea_${res.body.prefix}_`.length + 16);
    });

    it('stores only a hash of the secret', async () => {
      const { key } = await mintKey(world.clientMember.agent);
      const rows = await t.sql('SELECT * FROM api_keys');
      // The secret is all after `mea_<prefix>_` (base64url, which may itself hold `_`).
      const secret = key.split('_').slice(2).join('_');
      expect(secret.length).toBeGreaterThanOrEqual(43);
      expect(JSON.stringify(rows)).not.toContain(secret);
    });

    it('lists the caller\'s keys without secrets, with lastUsedAt and revokedAt', async () => {
      const { id, key } = await mintKey(world.clientMember.agent, { name: 'listed' });
      await request(t.app.getHttpServer()).get('/api/entities').set('x-api-key', key).expect(200);
      const res = await world.clientMember.agent.get('/api/auth/api-keys');
      expectStatus(res, 200);
      expect(Array.isArray(res.body)).toBe(true);
      const row = res.body.find((k: { id: string }) => k.id === id);
      expect(row).toBeDefined();
      expect(row).not.toHaveProperty('key');
      expect(JSON.stringify(res.body)).not.toContain(key);
      expect(row.lastUsedAt).toMatch(ISO_DATETIME);
      expect(row).toHaveProperty('revokedAt', null);
      // Only the caller's own keys.
      const staffKeys = await staff.get('/api/auth/api-keys');
      expect(staffKeys.body.find((k: { id: string }) => k.id === id)).toBeUndefined();
    });

    it('revokes with 204; the next request with the key is 401 UNAUTHENTICATED_ERROR', async () => {
      const { id, key } = await mintKey(world.clientMember.agent);
      await anon().get('/api/entities').set('x-api-key', key).expect(200);
      expectStatus(await world.clientMember.agent.delete(`/api/auth/api-keys/${id}`), 204);
      expectError(await anon().get('/api/entities').set('x-api-key', key), 401, 'UNAUTHENTICATED_ERROR');
      const listed = await world.clientMember.agent.get('/api/auth/api-keys');
      expect(listed.body.find((k: { id: string }) => k.id === id).revokedAt).toMatch(ISO_DATETIME);
    });

    it('refuses an unknown key with 401 UNAUTHENTICATED_ERROR', async () => {
      expectError(await anon().get('/api/entities').set('x-api-key', 'mea_nope_nope'), 401, 'UNAUTHENTICATED_ERROR');
    });

    it('refuses permissions other than { erp: ["read"] } with 400 VALIDATION_ERROR', async () => {
      const res = await world.clientMember.agent.post('/api/auth/api-keys').send({ name: 'k', permissions: { erp: ['write'] } });
      expectError(res, 400, 'VALIDATION_ERROR');
    });

    it('echoes the read-only permissions on the minted key', async () => {
      const res = await world.clientMember.agent.post('/api/auth/api-keys').send({ name: 'ro', permissions: { erp: ['read'] } });
      expectStatus(res, 201);
      expect(res.body.permissions).toEqual({ erp: ['read'] });
    });

    it('a read-only key reads (200) and is refused every mutation with 403 API_KEY_READ_ONLY_ERROR', async () => {
      await anon().get(`/api/entities/${world.entityId}/books`).set('x-api-key', world.keys.memberReadOnly).expect(200);
      const res = await anon()
        .post(`/api/entities/${world.entityId}/dimensions`)
        .set('x-api-key', world.keys.memberReadOnly)
        .set('x-audit-actor', 'bot')
        .send({ id: uuid(), name: 'RO' });
      expectError(res, 403, 'API_KEY_READ_ONLY_ERROR');
    });

    it('a key mutation without x-audit-actor is 400 AUDIT_ACTOR_REQUIRED_ERROR naming the header', async () => {
      const res = await anon().post(`/api/entities/${world.entityId}/dimensions`).set('x-api-key', world.keys.member).send({ id: uuid(), name: 'No actor' });
      expectError(res, 400, 'AUDIT_ACTOR_REQUIRED_ERROR');
      expect(res.body.message).toContain('x-audit-actor');
    });

    it('records x-audit-actor verbatim on the audit row, with the key owner as actor', async () => {
      const id = uuid();
      const res = await anon()
        .post(`/api/entities/${world.entityId}/dimensions`)
        .set('x-api-key', world.keys.member)
        .set('x-audit-actor', 'erwin:conv-42')
        .send({ id, name: `Actor ${id}` });
      expectStatus(res, 201);
      const rows = await t.sql<Record<string, unknown>>('SELECT * FROM audit_trail WHERE resource_id = $1', [id]);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ declared_actor: 'erwin:conv-42', actor_user_id: world.clientMember.id, credential: 'api_key' });
    });

    it('GET with a key needs no x-audit-actor', async () => {
      expectStatus(await anon().get(`/api/entities/${world.entityId}/books`).set('x-api-key', world.keys.member), 200);
    });

    it('a key on /api/auth/* is 403 API_KEY_FORBIDDEN_ON_AUTH_ERROR, even on sign-in', async () => {
      expectError(await anon().get('/api/auth/api-keys').set('x-api-key', world.keys.member), 403, 'API_KEY_FORBIDDEN_ON_AUTH_ERROR');
      expectError(await anon().post('/api/auth/sign-in/email').set('x-api-key', world.keys.member).send(BOOTSTRAP_STAFF), 403, 'API_KEY_FORBIDDEN_ON_AUTH_ERROR');
      expectError(await anon().get('/api/auth/session').set('x-api-key', 'garbage'), 403, 'API_KEY_FORBIDDEN_ON_AUTH_ERROR');
    });

    it('a key confined to one Entity gets 404 ENTITY_NOT_FOUND_ERROR on another, also for a staff owner', async () => {
      const res = await anon().get(`/api/entities/${world.entityId}/books`).set('x-api-key', world.keys.scopedToOtherEntity);
      expectError(res, 404, 'ENTITY_NOT_FOUND_ERROR');
      await anon().get(`/api/entities/${world.otherEntityId}/books`).set('x-api-key', world.keys.scopedToOtherEntity).expect(200);
    });

    it('a key confined to one Entity lists no Organization', async () => {
      const res = await anon().get('/api/organizations').set('x-api-key', world.keys.scopedToOtherEntity);
      expectStatus(res, 200);
      expect(res.body).toEqual([]);
    });

    it('a key confined to one Entity lists only that Entity', async () => {
      const res = await anon().get('/api/entities').set('x-api-key', world.keys.scopedToOtherEntity);
      expectStatus(res, 200);
      expect(res.body.map((e: { id: string }) => e.id)).toEqual([world.otherEntityId]);
    });

    it('refuses to confine a key to an Entity its owner cannot reach', async () => {
      const res = await world.outsider.agent.post('/api/auth/api-keys').send({ name: 'k', entityId: world.entityId });
      expect([403, 404]).toContain(res.status);
    });

    it('an expired key is 401 UNAUTHENTICATED_ERROR', async () => {
      const expiresAt = new Date(clock.now().getTime() + 60_000).toISOString();
      const res = await world.clientMember.agent.post('/api/auth/api-keys').send({ name: 'short', expiresAt });
      expectStatus(res, 201);
      await anon().get('/api/entities').set('x-api-key', res.body.key).expect(200);
      clock.setToday('2026-06-16');
      try {
        expectError(await anon().get('/api/entities').set('x-api-key', res.body.key), 401, 'UNAUTHENTICATED_ERROR');
      } finally {
        clock.setToday('2026-06-15');
      }
    });

    it('rate-limits a key: 429 RATE_LIMIT_EXCEEDED_ERROR with Retry-After (D14)', async () => {
      const limited = await createTestApp({ databaseUrl: t.databaseUrl, env: { API_KEY_RATE_LIMIT_PER_HOUR: '3' }, clock });
      try {
        const { key } = await mintKey(world.clientMember.agent);
        const http = request(limited.app.getHttpServer());
        for (let i = 0; i < 3; i++) await http.get('/api/entities').set('x-api-key', key).expect(200);
        const res = await http.get('/api/entities').set('x-api-key', key);
        expectError(res, 429, 'RATE_LIMIT_EXCEEDED_ERROR');
        expect(res.headers['retry-after']).toBeDefined();
      } finally {
        await limited.close();
      }
    });
  });

  describe('envelope and generic codes (D1, D2)', () => {
    it('no credentials: 401 UNAUTHENTICATED_ERROR in the envelope', async () => {
      expectError(await anon().get('/api/entities'), 401, 'UNAUTHENTICATED_ERROR');
    });

    it('a success also carries x-request-id', async () => {
      const res = await staff.get('/api/entities');
      expect(res.headers['x-request-id']).toBeTruthy();
    });

    it('keeps a caller x-request-id of visible ASCII', async () => {
      const res = await anon().get('/api/entities').set('x-request-id', 'my-request-1');
      expect(res.headers['x-request-id']).toBe('my-request-1');
      expect(res.body.requestId).toBe('my-request-1');
    });

    it('replaces an x-request-id longer than 128 characters with a UUID', async () => {
      const res = await anon().get('/api/entities').set('x-request-id', 'a'.repeat(129));
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    });

    it('unknown route: 404 ROUTE_NOT_FOUND_ERROR', async () => {
      expectError(await staff.get('/api/no-such-route'), 404, 'ROUTE_NOT_FOUND_ERROR');
    });

    it('malformed JSON: 400 MALFORMED_JSON_ERROR', async () => {
      const res = await staff.post(`/api/entities/${world.entityId}/dimensions`).set('content-type', 'application/json').send('{"id":');
      expectError(res, 400, 'MALFORMED_JSON_ERROR');
    });

    it('unknown body property: 400 VALIDATION_ERROR with params.errors [{ path, message }]', async () => {
      const res = await staff.post(`/api/entities/${world.entityId}/dimensions`).send({ id: uuid(), name: 'x', extra: 1 });
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(Array.isArray(res.body.params.errors)).toBe(true);
      expect(res.body.params.errors[0]).toEqual({ path: expect.any(String), message: expect.any(String) });
    });

    it('malformed path id: 400 VALIDATION_ERROR', async () => {
      expectError(await staff.get('/api/entities/not-a-uuid/books'), 400, 'VALIDATION_ERROR');
    });

    it('body over 1 MB: 413 PAYLOAD_TOO_LARGE_ERROR', async () => {
      const res = await staff.post(`/api/entities/${world.entityId}/dimensions`).send({ id: uuid(), name: 'x'.repeat(1_100_000) });
      expectError(res, 413, 'PAYLOAD_TOO_LARGE_ERROR');
    });

    it('viewer mutation: 403 PERMISSION_DENIED_ERROR', async () => {
      const res = await world.viewerMember.agent.post(`/api/entities/${world.entityId}/dimensions`).send({ id: uuid(), name: 'V' });
      expectError(res, 403, 'PERMISSION_DENIED_ERROR');
    });

    it('non-member: 404 ENTITY_NOT_FOUND_ERROR, never 403', async () => {
      expectError(await world.outsider.agent.get(`/api/entities/${world.entityId}/books`), 404, 'ENTITY_NOT_FOUND_ERROR');
    });
  });

  describe('onboarding (D15)', () => {
    it('creates a User: 201 { id, email, name, role, hasPassword, createdAt }, e-mail lower-cased', async () => {
      const id = uuid();
      const res = await staff.post('/api/onboarding/users').send({ id, email: `Mixed.${id.slice(0, 6)}@Example.TEST`, name: 'Mixed', role: 'client' });
      expectStatus(res, 201);
      expect(Object.keys(res.body).sort()).toEqual(['createdAt', 'email', 'hasPassword', 'id', 'name', 'role']);
      expect(res.body).toMatchObject({ id, email: `mixed.${id.slice(0, 6)}@example.test`, name: 'Mixed', role: 'client', hasPassword: false });
      expect(res.body.createdAt).toMatch(ISO_DATETIME);
    });

    it('refuses an e-mail in use (any case) with 409 USER_EMAIL_ALREADY_EXISTS_ERROR', async () => {
      const email = `dup-${uuid().slice(0, 8)}@example.test`;
      await staff.post('/api/onboarding/users').send({ id: uuid(), email, name: 'A', role: 'client' }).expect(201);
      const res = await staff.post('/api/onboarding/users').send({ id: uuid(), email: email.toUpperCase(), name: 'B', role: 'client' });
      expectError(res, 409, 'USER_EMAIL_ALREADY_EXISTS_ERROR');
    });

    it('refuses a reused id with 409 USER_ALREADY_EXISTS_ERROR', async () => {
      const id = uuid();
      await staff.post('/api/onboarding/users').send({ id, email: `a-${id}@example.test`, name: 'A', role: 'client' }).expect(201);
      const res = await staff.post('/api/onboarding/users').send({ id, email: `b-${id}@example.test`, name: 'B', role: 'client' });
      expectError(res, 409, 'USER_ALREADY_EXISTS_ERROR');
    });

    it('refuses a role other than staff or client with 400 VALIDATION_ERROR', async () => {
      const id = uuid();
      const res = await staff.post('/api/onboarding/users').send({ id, email: `v-${id}@example.test`, name: 'V', role: 'viewer' });
      expectError(res, 400, 'VALIDATION_ERROR');
    });

    it('finds a User by e-mail; a missing one is 404 USER_NOT_FOUND_ERROR', async () => {
      const res = await staff.get('/api/onboarding/users').query({ email: world.clientMember.email });
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ id: world.clientMember.id, email: world.clientMember.email, role: 'client', hasPassword: true });
      expectError(await staff.get('/api/onboarding/users').query({ email: 'missing@example.test' }), 404, 'USER_NOT_FOUND_ERROR');
    });

    it('is staff-only: 403 PERMISSION_DENIED_ERROR for a client, also a staff Member', async () => {
      expectError(await world.clientMember.agent.get('/api/onboarding/users').query({ email: world.clientMember.email }), 403, 'PERMISSION_DENIED_ERROR');
      expectError(
        await world.staffMember.agent.post('/api/onboarding/users').send({ id: uuid(), email: `x-${uuid()}@example.test`, name: 'X', role: 'client' }),
        403,
        'PERMISSION_DENIED_ERROR',
      );
    });

    it('set-password link: 201 { url, expiresAt } at APP_BASE_URL, 24 h, single use', async () => {
      const id = uuid();
      await staff.post('/api/onboarding/users').send({ id, email: `link-${id}@example.test`, name: 'L', role: 'client' }).expect(201);
      const res = await staff.post(`/api/onboarding/users/${id}/set-password-link`);
      expectStatus(res, 201);
      expect(Object.keys(res.body).sort()).toEqual(['expiresAt', 'url']);
      expect(res.body.url).toMatch(/^http:\/\/app\.test\/set-password\?token=.+/);
      expect(new Date(res.body.expiresAt).getTime() - clock.now().getTime()).toBe(24 * 3600 * 1000);
      const token = new URL(res.body.url).searchParams.get('token');
      expectStatus(await anon().post('/api/auth/set-password').send({ token, newPassword: 'a-long-password-1' }), 204);
      expectError(await anon().post('/api/auth/set-password').send({ token, newPassword: 'a-long-password-2' }), 400, 'SET_PASSWORD_TOKEN_INVALID_ERROR');
      const user = await staff.get('/api/onboarding/users').query({ email: `link-${id}@example.test` });
      expect(user.body.hasPassword).toBe(true);
      await signIn(t, `link-${id}@example.test`, 'a-long-password-1');
    });

    it('set-password refuses an expired token with 400 SET_PASSWORD_TOKEN_INVALID_ERROR', async () => {
      const id = uuid();
      await staff.post('/api/onboarding/users').send({ id, email: `exp-${id}@example.test`, name: 'E', role: 'client' }).expect(201);
      const link = await staff.post(`/api/onboarding/users/${id}/set-password-link`).expect(201);
      const token = new URL(link.body.url).searchParams.get('token');
      clock.setToday('2026-06-17');
      try {
        expectError(await anon().post('/api/auth/set-password').send({ token, newPassword: 'a-long-password-1' }), 400, 'SET_PASSWORD_TOKEN_INVALID_ERROR');
      } finally {
        clock.setToday('2026-06-15');
      }
    });

    it('set-password refuses a password under 12 characters with 400 VALIDATION_ERROR', async () => {
      const id = uuid();
      await staff.post('/api/onboarding/users').send({ id, email: `short-${id}@example.test`, name: 'S', role: 'client' }).expect(201);
      const link = await staff.post(`/api/onboarding/users/${id}/set-password-link`).expect(201);
      const token = new URL(link.body.url).searchParams.get('token');
      expectError(await anon().post('/api/auth/set-password').send({ token, newPassword: 'short-pw-11' }), 400, 'VALIDATION_ERROR');
    });

    it('set-password revokes every session of that User', async () => {
      const user = await onboardUser(t, staff, 'client', 'reset');
      await user.agent.get('/api/auth/session').expect(200);
      const link = await staff.post(`/api/onboarding/users/${user.id}/set-password-link`).expect(201);
      const token = new URL(link.body.url).searchParams.get('token');
      await anon().post('/api/auth/set-password').send({ token, newPassword: 'another-password-99' }).expect(204);
      expectError(await user.agent.get('/api/auth/session'), 401, 'UNAUTHENTICATED_ERROR');
    });

    it('set-password link for a missing User is 404 USER_NOT_FOUND_ERROR', async () => {
      expectError(await staff.post(`/api/onboarding/users/${uuid()}/set-password-link`), 404, 'USER_NOT_FOUND_ERROR');
    });

    it('revoke-sessions: 204 and the User\'s session is gone', async () => {
      const user = await onboardUser(t, staff, 'client', 'revoked');
      expectStatus(await staff.post(`/api/onboarding/users/${user.id}/revoke-sessions`), 204);
      expectError(await user.agent.get('/api/entities'), 401, 'UNAUTHENTICATED_ERROR');
    });

    it('grant is 204 and an upsert of the role; revoke is 204 and removes access', async () => {
      const user = await onboardUser(t, staff, 'client', 'grant');
      const path = `/api/onboarding/users/${user.id}/memberships`;
      expectError(await user.agent.get(`/api/entities/${world.entityId}/books`), 404, 'ENTITY_NOT_FOUND_ERROR');
      expectStatus(await staff.post(path).send({ organizationId: world.organizationId, role: 'client' }), 204);
      await user.agent.get(`/api/entities/${world.entityId}/books`).expect(200);
      expectStatus(await staff.post(path).send({ organizationId: world.organizationId, role: 'viewer' }), 204);
      const members = await staff.get(`/api/organizations/${world.organizationId}/members`).expect(200);
      expect(members.body.filter((m: { userId: string }) => m.userId === user.id)).toEqual([
        { userId: user.id, name: expect.any(String), email: user.email, role: 'viewer' },
      ]);
      expectError(await user.agent.post(`/api/entities/${world.entityId}/dimensions`).send({ id: uuid(), name: 'no' }), 403, 'PERMISSION_DENIED_ERROR');
      expectStatus(await staff.delete(path).send({ organizationId: world.organizationId, role: 'viewer' }), 204);
      expectError(await user.agent.get(`/api/entities/${world.entityId}/books`), 404, 'ENTITY_NOT_FOUND_ERROR');
    });

    it('grant in a missing Organization is 404 ORGANIZATION_NOT_FOUND_ERROR; for a missing User 404 USER_NOT_FOUND_ERROR', async () => {
      expectError(
        await staff.post(`/api/onboarding/users/${world.clientMember.id}/memberships`).send({ organizationId: uuid(), role: 'client' }),
        404,
        'ORGANIZATION_NOT_FOUND_ERROR',
      );
      expectError(
        await staff.post(`/api/onboarding/users/${uuid()}/memberships`).send({ organizationId: world.organizationId, role: 'client' }),
        404,
        'USER_NOT_FOUND_ERROR',
      );
    });

    it('grant with an unknown role is 400 VALIDATION_ERROR', async () => {
      const res = await staff.post(`/api/onboarding/users/${world.clientMember.id}/memberships`).send({ organizationId: world.organizationId, role: 'owner' });
      expectError(res, 400, 'VALIDATION_ERROR');
    });
  });
});
