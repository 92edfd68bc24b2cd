import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { expectRefused, tableFingerprint } from './harness/db-checks';
import { RouteInfo, routeTable } from './harness/routes';
import type { TestApp } from './harness/test-app';
import { rutCheckDigit } from '../libs/shared-kernel/src';
import { Agent, createLedgerAccount, createWorldApp, freshEntity, mintKey, World } from './harness/world';

/**
 * The rules of the spec's Conventions, Authentication, Errors and Limits that hold on every route,
 * asked of every route the application has (read from its controllers, so a new route is asked
 * too): who is refused and how, the D1 envelope of each refusal, and that a refusal writes nothing.
 */

/** Every table a request could write, but those that authenticating a request itself writes. */
const DATA_TABLES = [
  'audit_trail',
  'organizations',
  'memberships',
  'users',
  'set_password_tokens',
  'entities',
  'books',
  'dimensions',
  'dimension_values',
  'chart_initializations',
  'ledger_account_groups',
  'ledger_accounts',
  'ledger_account_monthly_totals',
  'partners',
  'ledger_entries',
  'ledger_lines',
  'ledger_line_dimension_values',
  'reconciliation_allocations',
];

const ENVELOPE_KEYS = ['code', 'message', 'params', 'requestId', 'statusCode'];

type Sent = request.Test;

function isWrite(route: RouteInfo): boolean {
  return !['GET', 'HEAD'].includes(route.method);
}

describe('cross-cutting rules on every route', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let staffKey: string;
  let staffReadOnlyKey: string;
  let routes: RouteInfo[];

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp());
    staffKey = (await mintKey(staff)).key;
    staffReadOnlyKey = (await mintKey(staff, { permissions: { erp: ['read'] } })).key;
    routes = routeTable(t);
  });
  afterAll(() => t.close());

  /** The route's path with the world's Entity and fresh ids; `malformed` names a parameter to spoil. */
  const pathOf = (route: RouteInfo, malformed?: string) =>
    route.path.replace(/:(\w+)/g, (_, name: string) => (name === malformed ? 'not-a-uuid' : name === 'entityId' ? world.entityId : randomUUID()));
  const send = (agent: Agent | null, route: RouteInfo, path = pathOf(route)): Sent => {
    const client = agent ?? request(t.app.getHttpServer());
    return client[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](path);
  };

  /** Collects every answer that is not the expected refusal in its exact D1 envelope. */
  const checker = (failures: string[]) => async (route: RouteInfo, caller: string, sent: Sent, status: number, code: string) => {
    const res = await sent;
    const keys = Object.keys(res.body ?? {}).sort();
    const got = { status: res.status, code: res.body?.code, envelope: keys.join(','), requestIdEchoed: res.body?.requestId === res.headers['x-request-id'] };
    const want = { status, code, envelope: ENVELOPE_KEYS.join(','), requestIdEchoed: true };
    if (JSON.stringify(got) !== JSON.stringify(want) || res.body.statusCode !== status) {
      failures.push(`${route.method} ${route.path} as ${caller}: ${JSON.stringify(got)}, want ${status} ${code}`);
    }
    return res;
  };

  // These walk every route of the service with several callers each (thousands of requests, one
  // at a time): their time grows with the routes, not with a fault.
  const WALK_TIMEOUT_MS = 180_000;

  it('refuses every caller the access rules refuse, in the exact D1 envelope, and writes nothing', async () => {
    const failures: string[] = [];
    const check = checker(failures);
    const before = await tableFingerprint(t, DATA_TABLES);
    const key = (route: RouteInfo, apiKey: string, actor = true) => {
      const sent = send(null, route).set('x-api-key', apiKey);
      return actor ? sent.set('x-audit-actor', 'cross-cutting') : sent;
    };
    for (const route of routes) {
      const tenant = route.path.includes(':entityId');
      if (!route.isPublic) await check(route, 'no credentials', send(null, route), 401, 'UNAUTHENTICATED_ERROR');
      if (route.path.startsWith('/api/auth/')) {
        // Spec "API key rules": keys are barred from the auth surface, whatever the key.
        await check(route, 'a valid key on /api/auth', key(route, world.keys.member), 403, 'API_KEY_FORBIDDEN_ON_AUTH_ERROR');
        continue;
      }
      if (route.isPublic) continue;
      await check(route, 'a revoked key', key(route, world.keys.revoked), 401, 'UNAUTHENTICATED_ERROR');
      await check(route, 'an unknown key', key(route, `mea_${'a'.repeat(12)}_${'b'.repeat(43)}`), 401, 'UNAUTHENTICATED_ERROR');
      if (route.staffOnly) {
        await check(route, 'a client member', send(world.clientMember.agent, route), 403, 'PERMISSION_DENIED_ERROR');
        await check(route, 'a staff member (client Role)', send(world.staffMember.agent, route), 403, 'PERMISSION_DENIED_ERROR');
        await check(route, "a client member's key", key(route, world.keys.member), 403, 'PERMISSION_DENIED_ERROR');
      } else if (tenant) {
        await check(route, 'a non-member', send(world.outsider.agent, route), 404, 'ENTITY_NOT_FOUND_ERROR');
      }
      if (tenant) await check(route, 'a key confined to another Entity', key(route, world.keys.scopedToOtherEntity), 404, 'ENTITY_NOT_FOUND_ERROR');
      if (!isWrite(route)) continue;
      // Spec "API key rules": x-audit-actor on every key mutation, staff-only ones included.
      await check(route, 'a staff key without x-audit-actor', key(route, staffKey, false), 400, 'AUDIT_ACTOR_REQUIRED_ERROR');
      await check(route, 'a staff key with a blank x-audit-actor', key(route, staffKey, false).set('x-audit-actor', ' '), 400, 'AUDIT_ACTOR_REQUIRED_ERROR');
      await check(route, 'a read-only staff key', key(route, staffReadOnlyKey), 403, 'API_KEY_READ_ONLY_ERROR');
      if (!route.staffOnly) {
        await check(route, "a client member's key without x-audit-actor", key(route, world.keys.member, false), 400, 'AUDIT_ACTOR_REQUIRED_ERROR');
        await check(route, "a client member's read-only key", key(route, world.keys.memberReadOnly), 403, 'API_KEY_READ_ONLY_ERROR');
        if (tenant) await check(route, 'a viewer', send(world.viewerMember.agent, route), 403, 'PERMISSION_DENIED_ERROR');
      }
    }
    expect(failures).toEqual([]);
    expect(await tableFingerprint(t, DATA_TABLES)).toEqual(before);
  }, WALK_TIMEOUT_MS);

  it('names the header in the AUDIT_ACTOR_REQUIRED_ERROR message and params', async () => {
    const res = await request(t.app.getHttpServer()).delete(`/api/entities/${world.entityId}/partners/${randomUUID()}`).set('x-api-key', world.keys.member);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      requestId: res.headers['x-request-id'],
      statusCode: 400,
      code: 'AUDIT_ACTOR_REQUIRED_ERROR',
      message: expect.stringContaining('x-audit-actor'),
      params: { header: 'x-audit-actor' },
    });
  });

  it('answers a malformed id in any path parameter with 400 VALIDATION_ERROR naming the parameter, writing nothing', async () => {
    const failures: string[] = [];
    const check = checker(failures);
    const before = await tableFingerprint(t, DATA_TABLES);
    for (const route of routes) {
      for (const [, name] of route.path.matchAll(/:(\w+)/g)) {
        const res = await check(route, `staff, ${name} malformed`, send(staff, route, pathOf(route, name)), 400, 'VALIDATION_ERROR');
        const paths = (res.body.params?.errors ?? []).map((e: { path: string }) => e.path);
        if (paths.join() !== name) failures.push(`${route.method} ${route.path}: ${name} malformed named ${JSON.stringify(paths)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await tableFingerprint(t, DATA_TABLES)).toEqual(before);
  }, WALK_TIMEOUT_MS);

  describe('request bodies are JSON', () => {
    it('refuses a body that is not application/json on every mutating route with 400 MALFORMED_JSON_ERROR, writing nothing', async () => {
      const failures: string[] = [];
      const check = checker(failures);
      const before = await tableFingerprint(t, DATA_TABLES);
      for (const route of routes.filter(isWrite)) {
        // The JSON a client meant, under a type that says otherwise: never read as an empty body.
        await check(route, 'staff, text/plain', send(staff, route).set('content-type', 'text/plain').send('{"name":"x"}'), 400, 'MALFORMED_JSON_ERROR');
      }
      expect(failures).toEqual([]);
      expect(await tableFingerprint(t, DATA_TABLES)).toEqual(before);
    });

    it('refuses a form, a multipart body and a body with no content type alike, naming the type in params', async () => {
      const org = () => staff.post('/api/organizations');
      for (const [type, body] of [
        ['application/x-www-form-urlencoded', 'name=Form+Org'],
        ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nMultipart Org\r\n--x--\r\n'],
        ['application/xml', '<name>Xml Org</name>'],
        ['application/merge-patch+json', '{"name":"Merge Org"}'],
      ]) {
        const res = await expectRefused(t, DATA_TABLES, org().set('content-type', type).send(body), 400, 'MALFORMED_JSON_ERROR');
        expect(res.body).toEqual({ requestId: res.headers['x-request-id'], statusCode: 400, code: 'MALFORMED_JSON_ERROR', message: expect.any(String), params: { contentType: type } });
      }
      const untyped = org().send(Buffer.from('{"name":"Untyped Org"}'));
      untyped.unset('content-type');
      const res = await expectRefused(t, DATA_TABLES, untyped, 400, 'MALFORMED_JSON_ERROR');
      expect(res.body.params).toEqual({ contentType: null });
    });

    it('judges the caller first: no credentials 401, a read-only key 403, a non-member 404, before the media type', async () => {
      const text = (sent: Sent) => sent.set('content-type', 'text/plain').send('{"name":"x"}');
      const http = () => request(t.app.getHttpServer());
      await expectRefused(t, DATA_TABLES, text(http().post('/api/organizations')), 401, 'UNAUTHENTICATED_ERROR');
      await expectRefused(t, DATA_TABLES, text(http().post('/api/organizations').set('x-api-key', staffReadOnlyKey).set('x-audit-actor', 'x')), 403, 'API_KEY_READ_ONLY_ERROR');
      await expectRefused(t, DATA_TABLES, text(world.outsider.agent.post(`/api/entities/${world.entityId}/books`)), 404, 'ENTITY_NOT_FOUND_ERROR');
      await expectRefused(t, DATA_TABLES, text(world.clientMember.agent.post(`/api/entities/${world.entityId}/books`)), 400, 'MALFORMED_JSON_ERROR');
    });

    it('takes application/json with or without a charset; an empty body of any type is no body; GET ignores a body', async () => {
      expect((await staff.post('/api/organizations').set('content-type', 'application/json; charset=utf-8').send(JSON.stringify({ name: `Charset ${randomUUID()}` }))).status).toBe(201);
      expect((await staff.post('/api/organizations').set('content-type', 'Application/JSON').send(JSON.stringify({ name: `Case ${randomUUID()}` }))).status).toBe(201);
      // A route that takes no body, sent an empty one under some type: judged as no body (404 here: no such User).
      const empty = await staff.post(`/api/onboarding/users/${randomUUID()}/revoke-sessions`).set('content-type', 'text/plain').send('');
      expect([empty.status, empty.body.code]).toEqual([404, 'USER_NOT_FOUND_ERROR']);
      const get = await staff.get('/api/entities').set('content-type', 'text/plain').send('hello');
      expect(get.status).toBe(200);
    });
  });

  describe('routes that take no body', () => {
    it('refuse a body naming any property with 400 VALIDATION_ERROR naming it and write nothing; {} or none deletes', async () => {
      const entity = `/api/entities/${world.entityId}`;
      const created = async (path: string, body: Record<string, unknown>) => {
        const res = await staff.post(`${entity}${path}`).send(body);
        expect(res.status).toBe(201);
        return res.body;
      };
      const dimensionId = (await created('/dimensions', { id: randomUUID(), name: `Dim ${randomUUID()}` })).id;
      const valueId = (await created(`/dimensions/${dimensionId}/values`, { id: randomUUID(), code: 'V1', name: 'Value' })).id;
      const accountId = (await created('/ledger/accounts', { id: randomUUID(), name: 'Cash', code: '1199', type: 'asset', tracking: 'balance', subtype: null })).account.id;
      const partnerId = (await created('/partners', { id: randomUUID(), name: 'Partner', type: 'company', country: 'CL', taxId: '76.086.428-5' })).id;
      const deletes: Array<[string, string, Record<string, unknown> | undefined]> = [
        [`/dimensions/${dimensionId}/values/${valueId}`, 'dimension_values', {}],
        [`/dimensions/${dimensionId}`, 'dimensions', undefined],
        [`/ledger/accounts/${accountId}`, 'ledger_accounts', {}],
        [`/partners/${partnerId}`, 'partners', undefined],
      ];
      for (const [path, table, accepted] of deletes) {
        const res = await expectRefused(t, DATA_TABLES, staff.delete(`${entity}${path}`).send({ force: true }), 400, 'VALIDATION_ERROR');
        expect({ path, errors: res.body.params.errors }).toEqual({ path, errors: [{ path: 'force', message: expect.any(String) }] });
        const deleted = accepted ? await staff.delete(`${entity}${path}`).send(accepted) : await staff.delete(`${entity}${path}`);
        expect({ path, table, status: deleted.status }).toEqual({ path, table, status: 200 });
      }
    });
  });

  it('pages default to 50 rows and take up to 100 (D8) where the spec names no other size', async () => {
    const entityId = await freshEntity(world);
    const entity = `/api/entities/${entityId}`;
    const receivable = await createLedgerAccount(staff, entityId, { code: '1105', type: 'asset', tracking: 'open_item', subtype: 'receivable' });
    const sales = await createLedgerAccount(staff, entityId, { code: '4101', type: 'income', tracking: 'balance' });
    // 51 open-item lines in one entry, then 50 more entries: 51 entries, over 51 audit rows.
    const debits = Array.from({ length: 51 }, () => ({ side: 'debit', ledgerAccountId: receivable, amount: 1 }));
    const entry = (lines: unknown[]) => ({ id: randomUUID(), entryDate: '2020-01-02', memo: 'Page', newLedgerEntryLines: lines });
    await staff.post(`${entity}/ledger/entries`).send(entry([...debits, { side: 'credit', ledgerAccountId: sales, amount: 51 }])).expect(201);
    for (let i = 0; i < 50; i++) {
      await staff.post(`${entity}/ledger/entries`).send(entry([{ side: 'debit', ledgerAccountId: receivable, amount: 1 }, { side: 'credit', ledgerAccountId: sales, amount: 1 }])).expect(201);
    }
    for (let i = 0; i < 51; i++) {
      const body = String(10_000_000 + i);
      await staff.post(`${entity}/partners`).send({ id: randomUUID(), name: `Partner ${i}`, type: 'company', country: 'CL', taxId: `${body}-${rutCheckDigit(body)}` }).expect(201);
    }
    const pagers: Array<[string, Record<string, string>, string]> = [
      [`${entity}/ledger/entries`, {}, 'entries'],
      [`${entity}/ledger/open-item-lines`, { accountId: receivable }, 'lines'],
      [`${entity}/partners/pages`, {}, 'rows'],
      [`${entity}/audit-trail`, {}, 'rows'],
      [`/api/organizations/${world.organizationId}/audit-trail`, {}, 'rows'],
    ];
    for (const [path, query, rows] of pagers) {
      const first = await staff.get(path).query(query);
      expect({ path, status: first.status, rows: first.body[rows]?.length, more: typeof first.body.nextCursor }).toEqual({ path, status: 200, rows: 50, more: 'string' });
      const hundred = await staff.get(path).query({ ...query, limit: 100 });
      expect({ path, status: hundred.status, over50: hundred.body[rows]?.length > 50 }).toEqual({ path, status: 200, over50: true });
      const tooMany = await staff.get(path).query({ ...query, limit: 101 });
      expect({ path, status: tooMany.status, code: tooMany.body.code, at: tooMany.body.params?.errors?.[0]?.path }).toEqual({ path, status: 400, code: 'VALIDATION_ERROR', at: 'limit' });
    }
  });

  it('takes text up to its documented length and refuses one character more with 400 VALIDATION_ERROR naming the field, writing nothing', async () => {
    const entityId = await freshEntity(world);
    const entity = `/api/entities/${entityId}`;
    const cash = await createLedgerAccount(staff, entityId, { code: '1101', type: 'asset', tracking: 'balance' });
    const sales = await createLedgerAccount(staff, entityId, { code: '4101', type: 'income', tracking: 'balance' });
    const dimensionId = (await staff.post(`${entity}/dimensions`).send({ id: randomUUID(), name: 'Dim' }).expect(201)).body.id;
    let n = 0;
    const text = (length: number) => `${++n}`.padEnd(length, 'x');
    const entry = (override: Record<string, unknown>, line: Record<string, unknown> = {}) => ({
      id: randomUUID(),
      entryDate: '2020-01-02',
      memo: 'm',
      newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: cash, amount: 1, ...line }, { side: 'credit', ledgerAccountId: sales, amount: 1 }],
      ...override,
    });
    const cases: Array<[string, number, string, (value: string) => Record<string, unknown>]> = [
      ['/api/organizations', 200, 'name', (name) => ({ name })],
      ['/api/entities', 200, 'name', (name) => ({ id: randomUUID(), name, country: 'CL', taxId: '76.086.428-5', currency: 'CLP', organizationId: world.organizationId })],
      ['/api/auth/api-keys', 200, 'name', (name) => ({ name })],
      ['/api/onboarding/users', 200, 'name', (name) => ({ id: randomUUID(), email: `${randomUUID()}@example.test`, name, role: 'client' })],
      [`${entity}/books`, 200, 'name', (name) => ({ id: randomUUID(), name })],
      [`${entity}/dimensions`, 200, 'name', (name) => ({ id: randomUUID(), name })],
      [`${entity}/dimensions/${dimensionId}/values`, 50, 'code', (code) => ({ id: randomUUID(), code, name: 'v' })],
      [`${entity}/ledger/accounts`, 200, 'name', (name) => ({ id: randomUUID(), name, code: text(8), type: 'asset', tracking: 'balance' })],
      [`${entity}/ledger/accounts`, 50, 'code', (code) => ({ id: randomUUID(), name: 'a', code, type: 'asset', tracking: 'balance' })],
      [`${entity}/partners`, 200, 'name', (name) => ({ id: randomUUID(), name, type: 'company', country: 'AR', taxId: text(10) })],
      [`${entity}/partners`, 50, 'taxId', (taxId) => ({ id: randomUUID(), name: 'p', type: 'company', country: 'AR', taxId })],
      [`${entity}/ledger/entries`, 1000, 'memo', (memo) => entry({ memo })],
      [`${entity}/ledger/entries`, 10_000, 'notes', (notes) => entry({ notes })],
      [`${entity}/ledger/entries`, 1000, 'newLedgerEntryLines[0].description', (description) => entry({}, { description })],
    ];
    for (const [path, limit, field, body] of cases) {
      const taken = await staff.post(path).send(body(text(limit)));
      expect({ path, field, status: taken.status }).toEqual({ path, field, status: 201 });
      const res = await expectRefused(t, DATA_TABLES, staff.post(path).send(body(text(limit + 1))), 400, 'VALIDATION_ERROR');
      expect({ path, field, at: res.body.params.errors.map((e: { path: string }) => e.path) }).toEqual({ path, field, at: [field] });
    }
  });

  it('reports each validation problem once (a name that is not a string is not also an invalid name)', async () => {
    const res = await expectRefused(t, DATA_TABLES, staff.post('/api/organizations').send({ name: 42 }), 400, 'VALIDATION_ERROR');
    expect(res.body.params.errors).toEqual([{ path: 'name', message: 'name must be a string' }]);
  });
});
