import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { Response, Test } from 'supertest';
import { auditRowCount, expectAudited, expectRefused, rowLockWaiters, tableLockWaiters, waitUntil, whileTableLocked } from './harness/db-checks';
import { createTestApp, TestApp } from './harness/test-app';
import { TickingClock } from './harness/ticking-clock';
import { Agent, bootstrapStaffId, createEntity, createOrganization, grantMembership, ISO_DATETIME, mintKey, onboardUser, signInStaff, TestUser, uniqueName } from './harness/world';

/** The tables a refused write must leave alone. */
const TABLES = ['organizations', 'memberships', 'entities', 'audit_trail'] as const;

describe('Organizations and Memberships', () => {
  let t: TestApp;
  let staff: Agent;
  let staffId: string;
  let client: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ clock: new TickingClock() });
    staff = await signInStaff(t);
    staffId = await bootstrapStaffId(t);
    client = await onboardUser(t, staff, 'client', 'plainclient');
  });
  afterAll(() => t.close());

  /** Sends a request that must be refused with `status` and `code`, and checks that nothing was written. */
  const refused = (req: Test, status: number, code: string): Promise<Response> => expectRefused(t, TABLES, req, status, code);

  /**
   * Sends a mutation that must succeed with `status` and leave exactly one audit row, made by the
   * staff User over the session unless `expected` says otherwise.
   */
  const audited = (req: Test, status: number, expected: Record<string, unknown>): Promise<Response> =>
    expectAudited(t, req, status, {
      actor_user_id: staffId,
      credential: 'session',
      declared_actor: null,
      api_key_id: null,
      entity_id: null,
      reason: null,
      ...expected,
    });

  async function organizationRow(id: string) {
    const rows = await t.sql<{ id: string; name: string; name_key: string }>('SELECT id, name, name_key FROM organizations WHERE id = $1', [id]);
    return rows[0] ?? null;
  }

  async function membershipRows(organizationId: string) {
    return t.sql<{ user_id: string; role: string }>('SELECT user_id, role FROM memberships WHERE organization_id = $1 ORDER BY user_id', [
      organizationId,
    ]);
  }

  describe('POST /api/organizations', () => {
    it('creates an Organization: 201 { id, name, createdAt }, the name stored trimmed, one audit row', async () => {
      const name = uniqueName('Grupo Andes');
      const res = await audited(staff.post('/api/organizations').send({ name: `   ${name}\t ` }), 201, {
        action: 'organization.create',
        resource_type: 'organization',
        method: 'POST',
        path: '/api/organizations',
      });
      expect(Object.keys(res.body).sort()).toEqual(['createdAt', 'id', 'name']);
      expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name, createdAt: expect.stringMatching(ISO_DATETIME) });
      expect(await organizationRow(res.body.id)).toEqual({ id: res.body.id, name, name_key: name.toLowerCase() });
      const [row] = await t.sql('SELECT organization_id, resource_id FROM audit_trail WHERE action = $1 AND resource_id = $2', [
        'organization.create',
        res.body.id,
      ]);
      expect(row).toEqual({ organization_id: res.body.id, resource_id: res.body.id });
    });

    it('honours an id supplied by the client', async () => {
      const id = randomUUID();
      const res = await audited(staff.post('/api/organizations').send({ id, name: uniqueName('Client Id') }), 201, {
        action: 'organization.create',
        organization_id: id,
        resource_id: id,
      });
      expect(res.body.id).toBe(id);
      expect(await organizationRow(id)).not.toBeNull();
    });

    it('refuses a reused id with 409 ORGANIZATION_ALREADY_EXISTS_ERROR and writes nothing', async () => {
      const id = randomUUID();
      await staff.post('/api/organizations').send({ id, name: uniqueName('First') }).expect(201);
      const res = await refused(staff.post('/api/organizations').send({ id, name: uniqueName('Second') }), 409, 'ORGANIZATION_ALREADY_EXISTS_ERROR');
      expect(res.body.params).toEqual({ organizationId: id });
    });

    it('answers two concurrent creates with the same id (a retried request) with one 201 and one 409 ORGANIZATION_ALREADY_EXISTS_ERROR', async () => {
      const id = randomUUID();
      const before = await auditRowCount(t);
      const results = await whileTableLocked(t, 'organizations', 2, () =>
        Promise.all([
          staff.post('/api/organizations').send({ id, name: uniqueName('Race A') }),
          staff.post('/api/organizations').send({ id, name: uniqueName('Race B') }),
        ]),
      );
      expect(results.map((res) => `${res.status} ${res.body.code ?? ''}`.trim()).sort()).toEqual(['201', '409 ORGANIZATION_ALREADY_EXISTS_ERROR']);
      expect(await t.sql('SELECT id FROM organizations WHERE id = $1', [id])).toHaveLength(1);
      expect(await auditRowCount(t)).toBe(before + 1);
    });

    it('answers two concurrent creates with the same name with one 201 and one 409 ORGANIZATION_NAME_ALREADY_EXISTS_ERROR', async () => {
      const name = uniqueName('Race Name');
      const results = await whileTableLocked(t, 'organizations', 2, () =>
        Promise.all([staff.post('/api/organizations').send({ name }), staff.post('/api/organizations').send({ name: name.toUpperCase() })]),
      );
      expect(results.map((res) => `${res.status} ${res.body.code ?? ''}`.trim()).sort()).toEqual(['201', '409 ORGANIZATION_NAME_ALREADY_EXISTS_ERROR']);
    });

    it('refuses a name already used, ignoring case and surrounding whitespace, with 409 ORGANIZATION_NAME_ALREADY_EXISTS_ERROR', async () => {
      const name = uniqueName('Holding Sur');
      await staff.post('/api/organizations').send({ name }).expect(201);
      await refused(staff.post('/api/organizations').send({ name: `  ${name.toUpperCase()}  ` }), 409, 'ORGANIZATION_NAME_ALREADY_EXISTS_ERROR');
      await refused(staff.post('/api/organizations').send({ name: name.toLowerCase() }), 409, 'ORGANIZATION_NAME_ALREADY_EXISTS_ERROR');
    });

    it.each([
      ['empty', ''],
      ['whitespace only', ' \t\n '],
      ['201 characters', 'x'.repeat(201)],
      ['invisible characters only', '\u200B'],
      ['invisible characters and spaces', ' \u200B\u200C \u2060 '],
      ['not a string', 42],
      ['null', null],
    ])('refuses a name that is %s with 400 VALIDATION_ERROR on path name', async (_label, name) => {
      const res = await refused(staff.post('/api/organizations').send({ name }), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors[0].path).toBe('name');
    });

    it('refuses a missing name with 400 VALIDATION_ERROR on path name', async () => {
      const res = await refused(staff.post('/api/organizations').send({}), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors[0].path).toBe('name');
    });

    it('accepts 200 characters after trimming', async () => {
      const name = `${randomUUID()}${'n'.repeat(164)}`;
      expect(name).toHaveLength(200);
      const res = await staff.post('/api/organizations').send({ name: `  ${name}  ` });
      expect(res.status).toBe(201);
      expect(res.body.name).toBe(name);
    });

    it('counts characters, not UTF-16 units: 200 emoji are accepted, 201 refused with 400 VALIDATION_ERROR', async () => {
      const name = `${'🏔'.repeat(192)}${randomUUID().slice(0, 8)}`;
      expect([...name]).toHaveLength(200);
      const res = await staff.post('/api/organizations').send({ name });
      expect(res.status).toBe(201);
      expect(res.body.name).toBe(name);
      const tooLong = await refused(staff.post('/api/organizations').send({ name: `${name}x` }), 400, 'VALIDATION_ERROR');
      expect(tooLong.body.params.errors[0].path).toBe('name');
    });

    it('refuses a malformed id with 400 VALIDATION_ERROR on path id', async () => {
      const res = await refused(staff.post('/api/organizations').send({ id: 'not-a-uuid', name: uniqueName('Bad Id') }), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors[0].path).toBe('id');
    });

    it('refuses an unknown property with 400 VALIDATION_ERROR (no mass assignment)', async () => {
      const res = await refused(staff.post('/api/organizations').send({ name: uniqueName('Extra'), createdAt: '2020-01-01T00:00:00Z' }), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors).toEqual([expect.objectContaining({ path: 'createdAt' })]);
    });

    it('refuses a client User with 403 PERMISSION_DENIED_ERROR and writes nothing', async () => {
      await refused(client.agent.post('/api/organizations').send({ name: uniqueName('By Client') }), 403, 'PERMISSION_DENIED_ERROR');
    });

    it('refuses a client holding a staff Membership (the route needs the global staff Role)', async () => {
      const organizationId = await createOrganization(staff);
      const orgStaff = await onboardUser(t, staff, 'client', 'orgstaffcreate');
      await grantMembership(staff, orgStaff.id, organizationId, 'staff');
      await refused(orgStaff.agent.post('/api/organizations').send({ name: uniqueName('By Org Staff') }), 403, 'PERMISSION_DENIED_ERROR');
    });

    it('refuses an unauthenticated caller with 401 UNAUTHENTICATED_ERROR', async () => {
      await refused(t.http.post('/api/organizations').send({ name: uniqueName('Anon') }), 401, 'UNAUTHENTICATED_ERROR');
    });

    it('records x-audit-reason in the reason of the audit row', async () => {
      await audited(staff.post('/api/organizations').set('x-audit-reason', 'New client signed on 2026-03-01').send({ name: uniqueName('Reasoned') }), 201, {
        action: 'organization.create',
        reason: 'New client signed on 2026-03-01',
      });
    });
  });

  describe('GET /api/organizations (visibility)', () => {
    let orgA: string;
    let orgB: string;
    let orgC: string;
    let entityA1: { id: string; name: string };
    let entityA2: { id: string; name: string };
    let orgStaffClient: TestUser;
    let plainMember: TestUser;

    beforeAll(async () => {
      orgA = await createOrganization(staff, uniqueName('Visible A'));
      orgB = await createOrganization(staff, uniqueName('Visible B'));
      orgC = await createOrganization(staff, uniqueName('Visible C'));
      // Created in reverse name order, so the summary's order is by name and not by creation.
      const zeta = await createEntity(staff, orgA, { name: 'Zeta Comercial SpA' });
      const alpha = await createEntity(staff, orgA, { name: 'Alpha Servicios SpA' });
      entityA1 = { id: alpha.id, name: 'Alpha Servicios SpA' };
      entityA2 = { id: zeta.id, name: 'Zeta Comercial SpA' };
      orgStaffClient = await onboardUser(t, staff, 'client', 'orgstaffvis');
      plainMember = await onboardUser(t, staff, 'client', 'membervis');
      await grantMembership(staff, orgStaffClient.id, orgA, 'staff');
      await grantMembership(staff, orgStaffClient.id, orgB, 'client');
      await grantMembership(staff, orgStaffClient.id, orgC, 'viewer');
      await grantMembership(staff, plainMember.id, orgB, 'client');
      await grantMembership(staff, plainMember.id, orgC, 'viewer');
    });

    it('shows global staff every Organization', async () => {
      const res = await staff.get('/api/organizations').expect(200);
      const all = await t.sql<{ id: string }>('SELECT id FROM organizations');
      expect(res.body.map((o: { id: string }) => o.id).sort()).toEqual(all.map((o) => o.id).sort());
      expect(res.body.map((o: { id: string }) => o.id)).toEqual(expect.arrayContaining([orgA, orgB, orgC]));
    });

    it('answers each Organization as a summary { id, name, createdAt, entities: [{ id, name }] } with Entities by name', async () => {
      const res = await staff.get('/api/organizations').expect(200);
      const summary = res.body.find((o: { id: string }) => o.id === orgA);
      expect(Object.keys(summary).sort()).toEqual(['createdAt', 'entities', 'id', 'name']);
      expect(summary).toEqual({ id: orgA, name: expect.stringMatching(/^Visible A /), createdAt: expect.stringMatching(ISO_DATETIME), entities: [entityA1, entityA2] });
      expect(res.body.find((o: { id: string }) => o.id === orgB).entities).toEqual([]);
    });

    it('shows a client User exactly the Organizations where they hold the staff role', async () => {
      const res = await orgStaffClient.agent.get('/api/organizations').expect(200);
      expect(res.body.map((o: { id: string }) => o.id)).toEqual([orgA]);
      expect(res.body[0].entities).toEqual([entityA1, entityA2]);
    });

    it('shows a client with only client and viewer Memberships an empty array', async () => {
      const res = await plainMember.agent.get('/api/organizations').expect(200);
      expect(res.body).toEqual([]);
    });

    it('shows a client without Memberships an empty array', async () => {
      const res = await client.agent.get('/api/organizations').expect(200);
      expect(res.body).toEqual([]);
    });

    it('shows an API key confined to one Entity an empty array, even when its owner sees Organizations', async () => {
      const scoped = await mintKey(orgStaffClient.agent, { entityId: entityA1.id });
      const res = await t.http.get('/api/organizations').set('x-api-key', scoped.key).expect(200);
      expect(res.body).toEqual([]);
      const staffScoped = await mintKey(staff, { entityId: entityA1.id });
      const staffRes = await t.http.get('/api/organizations').set('x-api-key', staffScoped.key).expect(200);
      expect(staffRes.body).toEqual([]);
    });

    it('shows an unscoped API key what its owner sees', async () => {
      const key = await mintKey(orgStaffClient.agent);
      const res = await t.http.get('/api/organizations').set('x-api-key', key.key).expect(200);
      expect(res.body.map((o: { id: string }) => o.id)).toEqual([orgA]);
    });

    it('refuses an unauthenticated caller with 401 UNAUTHENTICATED_ERROR', async () => {
      const res = await t.http.get('/api/organizations');
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 401, code: 'UNAUTHENTICATED_ERROR' });
    });
  });

  describe('GET /api/organizations/:organizationId', () => {
    it('answers the summary with its Entities', async () => {
      const name = uniqueName('Single');
      const organizationId = await createOrganization(staff, name);
      const entity = await createEntity(staff, organizationId, { name: 'Solo SpA' });
      const res = await staff.get(`/api/organizations/${organizationId}`).expect(200);
      expect(res.body).toEqual({ id: organizationId, name, createdAt: expect.stringMatching(ISO_DATETIME), entities: [{ id: entity.id, name: 'Solo SpA' }] });
    });

    it('answers an unknown id with 404 ORGANIZATION_NOT_FOUND_ERROR', async () => {
      const id = randomUUID();
      const res = await staff.get(`/api/organizations/${id}`);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'ORGANIZATION_NOT_FOUND_ERROR' });
      expect(res.body.params).toEqual({ organizationId: id });
    });

    it('answers a malformed id with 400 VALIDATION_ERROR on path organizationId', async () => {
      const res = await staff.get('/api/organizations/not-a-uuid');
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
      expect(res.body.params.errors[0].path).toBe('organizationId');
    });

    it('refuses a client, even one holding a staff Membership there, with 403 PERMISSION_DENIED_ERROR', async () => {
      const organizationId = await createOrganization(staff);
      const orgStaff = await onboardUser(t, staff, 'client', 'orgstaffget');
      await grantMembership(staff, orgStaff.id, organizationId, 'staff');
      for (const agent of [client.agent, orgStaff.agent]) {
        const res = await agent.get(`/api/organizations/${organizationId}`);
        expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 'PERMISSION_DENIED_ERROR' });
      }
    });
  });

  describe('PATCH /api/organizations/:organizationId (rename)', () => {
    it('renames: 200 { id, name, createdAt }, the name stored trimmed, one audit row', async () => {
      const organizationId = await createOrganization(staff);
      const before = await staff.get(`/api/organizations/${organizationId}`).expect(200);
      const name = uniqueName('Renamed');
      const res = await audited(staff.patch(`/api/organizations/${organizationId}`).send({ name: ` ${name} ` }), 200, {
        action: 'organization.rename',
        resource_type: 'organization',
        resource_id: organizationId,
        organization_id: organizationId,
        method: 'PATCH',
        path: `/api/organizations/${organizationId}`,
      });
      expect(res.body).toEqual({ id: organizationId, name, createdAt: before.body.createdAt });
      expect(await organizationRow(organizationId)).toEqual({ id: organizationId, name, name_key: name.toLowerCase() });
    });

    it("refuses another Organization's name, ignoring case, with 409 ORGANIZATION_NAME_ALREADY_EXISTS_ERROR", async () => {
      const taken = uniqueName('Taken');
      await createOrganization(staff, taken);
      const organizationId = await createOrganization(staff);
      await refused(staff.patch(`/api/organizations/${organizationId}`).send({ name: ` ${taken.toUpperCase()} ` }), 409, 'ORGANIZATION_NAME_ALREADY_EXISTS_ERROR');
    });

    it('accepts its own name in another case', async () => {
      const name = uniqueName('Same Name');
      const organizationId = await createOrganization(staff, name);
      const res = await audited(staff.patch(`/api/organizations/${organizationId}`).send({ name: name.toUpperCase() }), 200, {
        action: 'organization.rename',
      });
      expect(res.body.name).toBe(name.toUpperCase());
      expect((await organizationRow(organizationId))?.name).toBe(name.toUpperCase());
    });

    it.each([
      ['empty', ''],
      ['whitespace only', '   '],
      ['201 characters', 'y'.repeat(201)],
      ['invisible characters only', '\u200B'],
    ])('refuses a name that is %s with 400 VALIDATION_ERROR on path name', async (_label, name) => {
      const organizationId = await createOrganization(staff);
      const res = await refused(staff.patch(`/api/organizations/${organizationId}`).send({ name }), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors[0].path).toBe('name');
    });

    it('refuses a missing name and an unknown property with 400 VALIDATION_ERROR', async () => {
      const organizationId = await createOrganization(staff);
      await refused(staff.patch(`/api/organizations/${organizationId}`).send({}), 400, 'VALIDATION_ERROR');
      const res = await refused(staff.patch(`/api/organizations/${organizationId}`).send({ name: uniqueName('Ok'), id: randomUUID() }), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors).toEqual([expect.objectContaining({ path: 'id' })]);
    });

    it('answers an unknown id with 404 ORGANIZATION_NOT_FOUND_ERROR and a malformed one with 400', async () => {
      await refused(staff.patch(`/api/organizations/${randomUUID()}`).send({ name: uniqueName('Ghost') }), 404, 'ORGANIZATION_NOT_FOUND_ERROR');
      await refused(staff.patch('/api/organizations/123').send({ name: uniqueName('Ghost') }), 400, 'VALIDATION_ERROR');
    });

    it('refuses a client with 403 PERMISSION_DENIED_ERROR', async () => {
      const organizationId = await createOrganization(staff);
      await refused(client.agent.patch(`/api/organizations/${organizationId}`).send({ name: uniqueName('Hijack') }), 403, 'PERMISSION_DENIED_ERROR');
    });
  });

  describe('DELETE /api/organizations/:organizationId', () => {
    it('deletes: 204 without a body, removes its Memberships, one audit row', async () => {
      const organizationId = await createOrganization(staff);
      const a = await onboardUser(t, staff, 'client', 'deleted-a');
      const b = await onboardUser(t, staff, 'client', 'deleted-b');
      await grantMembership(staff, a.id, organizationId, 'client');
      await grantMembership(staff, b.id, organizationId, 'viewer');
      // A Membership elsewhere stays.
      const elsewhere = await createOrganization(staff);
      await grantMembership(staff, a.id, elsewhere, 'client');
      expect(await membershipRows(organizationId)).toHaveLength(2);

      const res = await audited(staff.delete(`/api/organizations/${organizationId}`), 204, {
        action: 'organization.delete',
        resource_type: 'organization',
        resource_id: organizationId,
        organization_id: organizationId,
      });
      expect(res.text).toBe('');
      expect(await organizationRow(organizationId)).toBeNull();
      expect(await membershipRows(organizationId)).toEqual([]);
      expect(await membershipRows(elsewhere)).toEqual([{ user_id: a.id, role: 'client' }]);
      const gone = await staff.get(`/api/organizations/${organizationId}`);
      expect({ status: gone.status, code: gone.body.code }).toEqual({ status: 404, code: 'ORGANIZATION_NOT_FOUND_ERROR' });
    });

    it('refuses while it holds an Entity with 409 ORGANIZATION_NOT_EMPTY_ERROR and deletes nothing', async () => {
      const organizationId = await createOrganization(staff);
      const member = await onboardUser(t, staff, 'client', 'notempty');
      await grantMembership(staff, member.id, organizationId, 'client');
      await createEntity(staff, organizationId);
      await refused(staff.delete(`/api/organizations/${organizationId}`), 409, 'ORGANIZATION_NOT_EMPTY_ERROR');
      expect(await organizationRow(organizationId)).not.toBeNull();
      expect(await membershipRows(organizationId)).toEqual([{ user_id: member.id, role: 'client' }]);
    });

    it('answers an unknown id with 404 ORGANIZATION_NOT_FOUND_ERROR', async () => {
      await refused(staff.delete(`/api/organizations/${randomUUID()}`), 404, 'ORGANIZATION_NOT_FOUND_ERROR');
    });

    /**
     * The DELETE has deleted the row and waits (holding its locks) on the audit trail, held by
     * a test transaction; `reference` is sent then and must wait for the DELETE's outcome.
     */
    async function racingDelete(organizationId: string, reference: () => Test): Promise<[Response, Response]> {
      const blocker = new Client({ connectionString: t.databaseUrl });
      await blocker.connect();
      try {
        await blocker.query('BEGIN');
        await blocker.query('LOCK TABLE audit_trail IN EXCLUSIVE MODE');
        const deleted = Promise.resolve(staff.delete(`/api/organizations/${organizationId}`));
        await waitUntil(async () => (await tableLockWaiters(t, 'audit_trail')) >= 1);
        const referenced = Promise.resolve(reference());
        await waitUntil(async () => (await rowLockWaiters(t)) >= 1);
        await blocker.query('COMMIT');
        return [await deleted, await referenced];
      } finally {
        await blocker.end();
      }
    }

    it('answers an Entity created into an Organization being deleted with 404 ORGANIZATION_NOT_FOUND_ERROR, never 500', async () => {
      const organizationId = await createOrganization(staff);
      const id = randomUUID();
      const [deleted, created] = await racingDelete(organizationId, () =>
        staff.post('/api/entities').send({ id, name: uniqueName('Racing SpA'), country: 'CL', taxId: '76.086.428-5', currency: 'CLP', organizationId }),
      );
      expect(deleted.status).toBe(204);
      expect({ status: created.status, code: created.body.code }).toEqual({ status: 404, code: 'ORGANIZATION_NOT_FOUND_ERROR' });
      expect(await t.sql('SELECT id FROM entities WHERE id = $1', [id])).toEqual([]);
      expect(await t.sql('SELECT id FROM audit_trail WHERE entity_id = $1', [id])).toEqual([]);
    });

    it('answers a Membership granted in an Organization being deleted with 404 ORGANIZATION_NOT_FOUND_ERROR, never 500', async () => {
      const organizationId = await createOrganization(staff);
      const user = await onboardUser(t, staff, 'client', 'racinggrant');
      const [deleted, granted] = await racingDelete(organizationId, () =>
        staff.post(`/api/onboarding/users/${user.id}/memberships`).send({ organizationId, role: 'client' }),
      );
      expect(deleted.status).toBe(204);
      expect({ status: granted.status, code: granted.body.code }).toEqual({ status: 404, code: 'ORGANIZATION_NOT_FOUND_ERROR' });
      expect(await membershipRows(organizationId)).toEqual([]);
    });

    it('answers an Entity moved into an Organization being deleted with 404 ORGANIZATION_NOT_FOUND_ERROR, never 500', async () => {
      const home = await createOrganization(staff);
      const entity = await createEntity(staff, home);
      const organizationId = await createOrganization(staff);
      const [deleted, moved] = await racingDelete(organizationId, () => staff.patch(`/api/entities/${entity.id}/organization`).send({ organizationId }));
      expect(deleted.status).toBe(204);
      expect({ status: moved.status, code: moved.body.code }).toEqual({ status: 404, code: 'ORGANIZATION_NOT_FOUND_ERROR' });
      expect(await t.sql('SELECT organization_id FROM entities WHERE id = $1', [entity.id])).toEqual([{ organization_id: home }]);
    });

    it('refuses a client with 403 PERMISSION_DENIED_ERROR', async () => {
      const organizationId = await createOrganization(staff);
      await refused(client.agent.delete(`/api/organizations/${organizationId}`), 403, 'PERMISSION_DENIED_ERROR');
    });
  });

  describe('GET /api/organizations/:organizationId/members', () => {
    it('lists the members as [{ userId, name, email, role }] by name', async () => {
      const organizationId = await createOrganization(staff);
      const zed = await onboardUser(t, staff, 'client', 'zed');
      const amy = await onboardUser(t, staff, 'client', 'amy');
      const mia = await onboardUser(t, staff, 'staff', 'mia');
      await grantMembership(staff, zed.id, organizationId, 'viewer');
      await grantMembership(staff, amy.id, organizationId, 'client');
      await grantMembership(staff, mia.id, organizationId, 'staff');
      const users = await t.sql<{ id: string; name: string; email: string }>('SELECT id, name, email FROM users WHERE id = ANY($1)', [
        [zed.id, amy.id, mia.id],
      ]);
      const nameOf = (id: string) => users.find((u) => u.id === id)!.name;

      const res = await staff.get(`/api/organizations/${organizationId}/members`).expect(200);
      expect(res.body).toEqual([
        { userId: amy.id, name: nameOf(amy.id), email: amy.email, role: 'client' },
        { userId: mia.id, name: nameOf(mia.id), email: mia.email, role: 'staff' },
        { userId: zed.id, name: nameOf(zed.id), email: zed.email, role: 'viewer' },
      ]);
    });

    it('lists an Organization without members as []', async () => {
      const organizationId = await createOrganization(staff);
      const res = await staff.get(`/api/organizations/${organizationId}/members`).expect(200);
      expect(res.body).toEqual([]);
    });

    it('answers an unknown Organization with 404 ORGANIZATION_NOT_FOUND_ERROR and refuses a client with 403', async () => {
      const missing = await staff.get(`/api/organizations/${randomUUID()}/members`);
      expect({ status: missing.status, code: missing.body.code }).toEqual({ status: 404, code: 'ORGANIZATION_NOT_FOUND_ERROR' });
      const organizationId = await createOrganization(staff);
      const denied = await client.agent.get(`/api/organizations/${organizationId}/members`);
      expect({ status: denied.status, code: denied.body.code }).toEqual({ status: 403, code: 'PERMISSION_DENIED_ERROR' });
    });
  });

  describe('Memberships: POST and DELETE /api/onboarding/users/:userId/memberships', () => {
    const path = (userId: string) => `/api/onboarding/users/${userId}/memberships`;

    it('grants: 204, one row, one audit row naming the Organization and the User', async () => {
      const organizationId = await createOrganization(staff);
      const user = await onboardUser(t, staff, 'client', 'grantee');
      const res = await audited(staff.post(path(user.id)).send({ organizationId, role: 'client' }), 204, {
        action: 'membership.grant',
        resource_type: 'membership',
        resource_id: user.id,
        organization_id: organizationId,
      });
      expect(res.text).toBe('');
      expect(await membershipRows(organizationId)).toEqual([{ user_id: user.id, role: 'client' }]);
    });

    it('grant is an upsert of the role: client then viewer leaves one row with role viewer', async () => {
      const organizationId = await createOrganization(staff);
      const user = await onboardUser(t, staff, 'client', 'upsert');
      await audited(staff.post(path(user.id)).send({ organizationId, role: 'client' }), 204, { action: 'membership.grant' });
      await audited(staff.post(path(user.id)).send({ organizationId, role: 'viewer' }), 204, { action: 'membership.grant' });
      expect(await membershipRows(organizationId)).toEqual([{ user_id: user.id, role: 'viewer' }]);
      const members = await staff.get(`/api/organizations/${organizationId}/members`).expect(200);
      expect(members.body).toEqual([expect.objectContaining({ userId: user.id, role: 'viewer' })]);
    });

    it('revokes: 204, the row is gone, one audit row', async () => {
      const organizationId = await createOrganization(staff);
      const user = await onboardUser(t, staff, 'client', 'revokee');
      await grantMembership(staff, user.id, organizationId, 'client');
      const res = await audited(staff.delete(path(user.id)).send({ organizationId, role: 'client' }), 204, {
        action: 'membership.revoke',
        resource_type: 'membership',
        resource_id: user.id,
        organization_id: organizationId,
      });
      expect(res.text).toBe('');
      expect(await membershipRows(organizationId)).toEqual([]);
    });

    it('revokes the Membership whatever role the body names (a viewer revoked as client loses access)', async () => {
      const organizationId = await createOrganization(staff);
      const user = await onboardUser(t, staff, 'client', 'viewer-revokee');
      await grantMembership(staff, user.id, organizationId, 'viewer');
      await staff.delete(path(user.id)).send({ organizationId, role: 'client' }).expect(204);
      expect(await membershipRows(organizationId)).toEqual([]);
    });

    it("GET lists the User's Memberships by Organization name with the role (issue 33: the Users screen shows them); staff only; 404 for an unknown User", async () => {
      const [zeta, alpha, other] = [uniqueName('Zeta Org'), uniqueName('Alpha Org'), uniqueName('Other Org')];
      const zetaId = await createOrganization(staff, zeta);
      const alphaId = await createOrganization(staff, alpha);
      const otherId = await createOrganization(staff, other);
      const user = await onboardUser(t, staff, 'client', 'holder');
      expect((await staff.get(path(user.id)).expect(200)).body).toEqual([]);
      await grantMembership(staff, user.id, zetaId, 'viewer');
      await grantMembership(staff, user.id, alphaId, 'client');
      // Someone else's Membership is not listed.
      const someoneElse = await onboardUser(t, staff, 'client', 'someone');
      await grantMembership(staff, someoneElse.id, otherId, 'client');
      const before = await auditRowCount(t);
      const listed = await staff.get(path(user.id)).expect(200);
      expect(listed.body).toEqual([
        { organizationId: alphaId, organizationName: alpha, role: 'client' },
        { organizationId: zetaId, organizationName: zeta, role: 'viewer' },
      ]);
      expect(await auditRowCount(t)).toBe(before);
      await refused(client.agent.get(path(user.id)), 403, 'PERMISSION_DENIED_ERROR');
      await refused(user.agent.get(path(user.id)), 403, 'PERMISSION_DENIED_ERROR');
      await refused(staff.get(path(randomUUID())), 404, 'USER_NOT_FOUND_ERROR');
      await refused(staff.get(path('not-a-uuid')), 400, 'VALIDATION_ERROR');
    });

    it('refuses an unknown User with 404 USER_NOT_FOUND_ERROR', async () => {
      const organizationId = await createOrganization(staff);
      await refused(staff.post(path(randomUUID())).send({ organizationId, role: 'client' }), 404, 'USER_NOT_FOUND_ERROR');
      await refused(staff.delete(path(randomUUID())).send({ organizationId, role: 'client' }), 404, 'USER_NOT_FOUND_ERROR');
    });

    it('refuses an unknown Organization with 404 ORGANIZATION_NOT_FOUND_ERROR', async () => {
      const user = await onboardUser(t, staff, 'client', 'noorg');
      await refused(staff.post(path(user.id)).send({ organizationId: randomUUID(), role: 'client' }), 404, 'ORGANIZATION_NOT_FOUND_ERROR');
      await refused(staff.delete(path(user.id)).send({ organizationId: randomUUID(), role: 'client' }), 404, 'ORGANIZATION_NOT_FOUND_ERROR');
    });

    it.each([
      ['an unknown role', { role: 'owner' }, 'role'],
      ['a missing role', { role: undefined }, 'role'],
      ['a malformed organizationId', { organizationId: 'abc' }, 'organizationId'],
      ['an unknown property', { expiresAt: '2030-01-01' }, 'expiresAt'],
    ])('refuses %s with 400 VALIDATION_ERROR', async (_label, change, errorPath) => {
      const organizationId = await createOrganization(staff);
      const user = await onboardUser(t, staff, 'client', 'badbody');
      const res = await refused(staff.post(path(user.id)).send({ organizationId, role: 'client', ...change }), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors[0].path).toBe(errorPath);
    });

    it('refuses a malformed userId with 400 VALIDATION_ERROR', async () => {
      const organizationId = await createOrganization(staff);
      const res = await refused(staff.post(path('nope')).send({ organizationId, role: 'client' }), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors[0].path).toBe('userId');
    });

    it('refuses a client with 403 PERMISSION_DENIED_ERROR', async () => {
      const organizationId = await createOrganization(staff);
      await refused(client.agent.post(path(client.id)).send({ organizationId, role: 'staff' }), 403, 'PERMISSION_DENIED_ERROR');
    });

    it("makes the Organization's Entities, including later ones, reachable for a client; revoking makes them 404 again", async () => {
      const organizationId = await createOrganization(staff);
      const early = await createEntity(staff, organizationId);
      const user = await onboardUser(t, staff, 'client', 'reach');
      const status = async (entityId: string) => {
        const res = await user.agent.get(`/api/entities/${entityId}`);
        return res.status === 404 ? `404 ${res.body.code}` : String(res.status);
      };
      const listed = async () => (await user.agent.get('/api/entities').expect(200)).body.map((e: { id: string }) => e.id).sort();

      expect(await status(early.id)).toBe('404 ENTITY_NOT_FOUND_ERROR');
      await grantMembership(staff, user.id, organizationId, 'client');
      expect(await status(early.id)).toBe('200');
      const later = await createEntity(staff, organizationId);
      expect(await status(later.id)).toBe('200');
      expect(await listed()).toEqual([early.id, later.id].sort());

      await staff.delete(path(user.id)).send({ organizationId, role: 'client' }).expect(204);
      expect(await status(early.id)).toBe('404 ENTITY_NOT_FOUND_ERROR');
      expect(await status(later.id)).toBe('404 ENTITY_NOT_FOUND_ERROR');
      expect(await listed()).toEqual([]);
    });
  });

  describe('GET /api/organizations/:organizationId/audit-trail', () => {
    let organizationId: string;
    let entityId: string;
    let member: TestUser;

    beforeAll(async () => {
      member = await onboardUser(t, staff, 'client', 'audited');
      organizationId = (await staff.post('/api/organizations').set('x-audit-reason', 'onboarding').send({ name: uniqueName('Audited') }).expect(201)).body.id;
      await staff.patch(`/api/organizations/${organizationId}`).send({ name: uniqueName('Audited Renamed') }).expect(200);
      await grantMembership(staff, member.id, organizationId, 'client');
      entityId = (await createEntity(staff, organizationId)).id;
      await staff.patch(`/api/organizations/${organizationId}`).send({ name: uniqueName('Audited Twice') }).expect(200);
    });

    it('answers { rows, nextCursor } newest first, with the create and rename rows', async () => {
      const res = await staff.get(`/api/organizations/${organizationId}/audit-trail`).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['nextCursor', 'rows']);
      expect(res.body.nextCursor).toBeNull();
      expect(res.body.rows.map((r: { action: string }) => r.action)).toEqual([
        'organization.rename',
        'entity.create',
        'membership.grant',
        'organization.rename',
        'organization.create',
      ]);
      const times = res.body.rows.map((r: { occurredAt: string }) => r.occurredAt);
      expect([...times].sort().reverse()).toEqual(times);
      const created = res.body.rows.at(-1);
      expect(created).toMatchObject({
        organizationId,
        actorUserId: staffId,
        credential: 'session',
        declaredActor: null,
        method: 'POST',
        path: '/api/organizations',
        resourceType: 'organization',
        resourceId: organizationId,
        reason: 'onboarding',
      });
      expect(res.body.rows[1]).toMatchObject({ action: 'entity.create', entityId, resourceId: entityId });
    });

    it('pages with limit=1 visit every row exactly once, in order', async () => {
      const all = (await staff.get(`/api/organizations/${organizationId}/audit-trail`).expect(200)).body.rows.map((r: { id: string }) => r.id);
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 20; page++) {
        const res: Response = await staff.get(`/api/organizations/${organizationId}/audit-trail`).query(cursor ? { limit: 1, cursor } : { limit: 1 }).expect(200);
        expect(res.body.rows.length).toBeLessThanOrEqual(1);
        seen.push(...res.body.rows.map((r: { id: string }) => r.id));
        cursor = res.body.nextCursor;
        if (cursor === null) break;
      }
      expect(cursor).toBeNull();
      expect(seen).toEqual(all);
      expect(new Set(seen).size).toBe(all.length);
    });

    it('refuses a client with 403 PERMISSION_DENIED_ERROR', async () => {
      for (const agent of [client.agent, member.agent]) {
        const res = await agent.get(`/api/organizations/${organizationId}/audit-trail`);
        expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 'PERMISSION_DENIED_ERROR' });
      }
    });

    it('answers an unknown Organization with 404 ORGANIZATION_NOT_FOUND_ERROR', async () => {
      const res = await staff.get(`/api/organizations/${randomUUID()}/audit-trail`);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'ORGANIZATION_NOT_FOUND_ERROR' });
    });

    it('reading writes no audit row', async () => {
      const before = await auditRowCount(t);
      await staff.get(`/api/organizations/${organizationId}/audit-trail`).expect(200);
      await staff.get(`/api/organizations/${organizationId}`).expect(200);
      await staff.get('/api/organizations').expect(200);
      expect(await auditRowCount(t)).toBe(before);
    });
  });
});
