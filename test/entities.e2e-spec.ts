import { randomUUID } from 'node:crypto';
import type { Response, Test } from 'supertest';
import { auditRowCount, expectAudited, expectRefused, lockWaiters, sendNow, waitUntil, whileTableLocked } from './harness/db-checks';
import { createTestApp, TestApp } from './harness/test-app';
import { FixedClock } from '../src/platform/clock/clock';
import { TickingClock } from './harness/ticking-clock';
import { Agent, bootstrapStaffId, createEntity, createOrganization, grantMembership, ISO_DATETIME, mintKey, onboardUser, signInStaff, TestUser, uniqueName } from './harness/world';

/** The tables a refused write must leave alone. */
const TABLES = ['organizations', 'memberships', 'entities', 'audit_trail'] as const;

const ids = (body: Array<{ id: string }>) => body.map((row) => row.id).sort();

describe('Entities', () => {
  let t: TestApp;
  const clock = new TickingClock();
  let staff: Agent;
  let staffId: string;
  let client: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ clock });
    staff = await signInStaff(t);
    staffId = await bootstrapStaffId(t);
    client = await onboardUser(t, staff, 'client', 'plainclient');
  });
  afterAll(() => t.close());

  /** Sends a request that must be refused with `status` and `code`, and checks that nothing was written. */
  const refused = (req: Test, status: number, code: string): Promise<Response> => expectRefused(t, TABLES, req, status, code);

  /** Sends a mutation that must succeed with `status` and leave exactly one audit row by the staff User. */
  const audited = (req: Test, status: number, expected: Record<string, unknown>): Promise<Response> =>
    expectAudited(t, req, status, { actor_user_id: staffId, credential: 'session', declared_actor: null, resource_type: 'entity', ...expected });

  async function entityRow(id: string) {
    const rows = await t.sql<Record<string, unknown>>(
      `SELECT organization_id, name, country, tax_id, currency, ledger_lock_date::text AS ledger_lock_date, accounting_policies, parent_entity_id
         FROM entities WHERE id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  async function organizationName(id: string): Promise<string | null> {
    const rows = await t.sql<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [id]);
    return rows[0]?.name ?? null;
  }

  const body = (overrides: Record<string, unknown> = {}) => ({
    id: randomUUID(),
    name: uniqueName('Comercial Andes SpA'),
    country: 'CL',
    taxId: '76.086.428-5',
    currency: 'CLP',
    ...overrides,
  });

  describe('POST /api/entities', () => {
    let organizationId: string;

    beforeAll(async () => {
      organizationId = await createOrganization(staff);
    });

    it('creates an Entity: 201 with the Entity, one audit row', async () => {
      const input = body({ organizationId, name: '  Comercial Andes SpA  ', taxId: '76086428-5' });
      const res = await audited(staff.post('/api/entities').send(input), 201, {
        action: 'entity.create',
        entity_id: input.id,
        organization_id: organizationId,
        resource_id: input.id,
        method: 'POST',
        path: '/api/entities',
      });
      expect(res.body).toEqual({
        id: input.id,
        organizationId,
        name: 'Comercial Andes SpA',
        country: 'CL',
        taxId: '76086428-5',
        currency: 'CLP',
        ledgerLockDate: null,
        accountingPolicies: null,
        parentEntityId: null,
        createdAt: expect.stringMatching(ISO_DATETIME),
        updatedAt: expect.stringMatching(ISO_DATETIME),
      });
      expect(res.body.updatedAt).toBe(res.body.createdAt);
      expect(await entityRow(input.id)).toEqual({
        organization_id: organizationId,
        name: 'Comercial Andes SpA',
        country: 'CL',
        tax_id: '76086428-5',
        currency: 'CLP',
        ledger_lock_date: null,
        accounting_policies: null,
        parent_entity_id: null,
      });
      const read = await staff.get(`/api/entities/${input.id}`).expect(200);
      expect(read.body).toEqual(res.body);
    });

    it.each([
      ['76.086.428-5', '76086428-5'],
      ['760864285', '76086428-5'],
      ['10.000.013-k', '10000013-K'],
      ['0076.086.428-5', '76086428-5'],
    ])('stores the Chilean RUT %s canonically as %s', async (taxId, canonical) => {
      const res = await staff.post('/api/entities').send(body({ organizationId, taxId })).expect(201);
      expect(res.body.taxId).toBe(canonical);
      expect((await entityRow(res.body.id))?.tax_id).toBe(canonical);
    });

    it('keeps a foreign tax id as given (trimmed)', async () => {
      const res = await staff.post('/api/entities').send(body({ organizationId, country: 'US', taxId: ' 12-3456789 ', currency: 'USD' })).expect(201);
      expect(res.body).toMatchObject({ country: 'US', taxId: '12-3456789', currency: 'USD' });
    });

    it.each(['76.086.428-4', '12.345.678-K', 'not-a-rut'])('refuses the bad RUT %s with 400 ENTITY_TAX_ID_INVALID_ERROR and writes nothing', async (taxId) => {
      await refused(staff.post('/api/entities').send(body({ organizationId, taxId })), 400, 'ENTITY_TAX_ID_INVALID_ERROR');
    });

    it('refuses a bad RUT without organizationId and leaves no Organization behind', async () => {
      await refused(staff.post('/api/entities').send(body({ taxId: '76.086.428-4' })), 400, 'ENTITY_TAX_ID_INVALID_ERROR');
    });

    it.each([
      ['an unknown country', { country: 'XX' }, 'country'],
      ['a lower-case country', { country: 'cl' }, 'country'],
      ['an unknown currency', { currency: 'XXY' }, 'currency'],
      ['the ISO code for no currency', { currency: 'XXX' }, 'currency'],
      ['gold', { currency: 'XAU' }, 'currency'],
    ])('refuses %s with 400 VALIDATION_ERROR', async (_label, change, path) => {
      const res = await refused(staff.post('/api/entities').send(body({ organizationId, ...change })), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors[0].path).toBe(path);
    });

    it('refuses a reused id with 409 ENTITY_ALREADY_EXISTS_ERROR and writes nothing', async () => {
      const first = body({ organizationId });
      await staff.post('/api/entities').send(first).expect(201);
      const res = await refused(staff.post('/api/entities').send(body({ id: first.id, organizationId })), 409, 'ENTITY_ALREADY_EXISTS_ERROR');
      expect(res.body.params).toEqual({ entityId: first.id });
      // Also without organizationId: no Organization is made for the refused Entity.
      await refused(staff.post('/api/entities').send(body({ id: first.id })), 409, 'ENTITY_ALREADY_EXISTS_ERROR');
    });

    it('answers two concurrent creates with the same id with one 201 and one 409 ENTITY_ALREADY_EXISTS_ERROR', async () => {
      const id = randomUUID();
      const before = await auditRowCount(t);
      const results = await whileTableLocked(t, 'entities', 2, () =>
        Promise.all([staff.post('/api/entities').send(body({ id, organizationId })), staff.post('/api/entities').send(body({ id, organizationId }))]),
      );
      expect(results.map((res) => `${res.status} ${res.body.code ?? ''}`.trim()).sort()).toEqual(['201', '409 ENTITY_ALREADY_EXISTS_ERROR']);
      expect(await t.sql('SELECT id FROM entities WHERE id = $1', [id])).toHaveLength(1);
      expect(await auditRowCount(t)).toBe(before + 1);
    });

    it('refuses an unknown organizationId with 404 ORGANIZATION_NOT_FOUND_ERROR and writes nothing', async () => {
      const missing = randomUUID();
      const res = await refused(staff.post('/api/entities').send(body({ organizationId: missing })), 404, 'ORGANIZATION_NOT_FOUND_ERROR');
      expect(res.body.params).toEqual({ organizationId: missing });
    });

    it("without organizationId makes an Organization named after the Entity, then 'Name (2)', 'Name (3)'", async () => {
      const name = uniqueName('Inversiones Sur');
      const made: Array<{ id: string; organizationId: string }> = [];
      for (let i = 0; i < 3; i++) {
        const input = body({ name });
        const res = await audited(staff.post('/api/entities').send(input), 201, { action: 'entity.create', entity_id: input.id });
        made.push(res.body);
        const [row] = await t.sql('SELECT organization_id FROM audit_trail WHERE entity_id = $1 AND action = $2', [input.id, 'entity.create']);
        expect(row.organization_id).toBe(res.body.organizationId);
      }
      expect(new Set(made.map((e) => e.organizationId)).size).toBe(3);
      const names = [];
      for (const entity of made) names.push(await organizationName(entity.organizationId));
      expect(names).toEqual([name, `${name} (2)`, `${name} (3)`]);
      const summary = await staff.get(`/api/organizations/${made[1].organizationId}`).expect(200);
      expect(summary.body.entities).toEqual([{ id: made[1].id, name }]);
    });

    it('without organizationId names the Organization after an Entity name of 200 emoji, suffixing whole characters', async () => {
      const name = `${'🏔'.repeat(192)}${randomUUID().slice(0, 8)}`;
      const first = await staff.post('/api/entities').send(body({ name })).expect(201);
      const second = await staff.post('/api/entities').send(body({ name })).expect(201);
      expect(await organizationName(first.body.organizationId)).toBe(name);
      expect(await organizationName(second.body.organizationId)).toBe(`${[...name].slice(0, 196).join('')} (2)`);
    });

    it('without organizationId treats an Organization name taken in another case as taken', async () => {
      const name = uniqueName('Grupo Norte');
      await createOrganization(staff, name.toUpperCase());
      const res = await staff.post('/api/entities').send(body({ name })).expect(201);
      expect(await organizationName(res.body.organizationId)).toBe(`${name} (2)`);
    });

    it('without organizationId gives two concurrent Entities of one name two Organizations, the second suffixed', async () => {
      const name = uniqueName('Simultanea');
      const results = await whileTableLocked(t, 'organizations', 2, () =>
        Promise.all([staff.post('/api/entities').send(body({ name })), staff.post('/api/entities').send(body({ name }))]),
      );
      expect(results.map((res) => res.status)).toEqual([201, 201]);
      const names = [];
      for (const res of results) names.push(await organizationName(res.body.organizationId));
      expect(names.sort()).toEqual([name, `${name} (2)`]);
    });

    it.each(['id', 'name', 'country', 'taxId', 'currency'])('refuses a body without %s with 400 VALIDATION_ERROR on that path', async (field) => {
      const input: Record<string, unknown> = body({ organizationId });
      delete input[field];
      const res = await refused(staff.post('/api/entities').send(input), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors.map((e: { path: string }) => e.path)).toContain(field);
    });

    it.each(['name', 'country', 'taxId', 'currency'])('refuses an empty %s with 400 VALIDATION_ERROR', async (field) => {
      const res = await refused(staff.post('/api/entities').send(body({ organizationId, [field]: '' })), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors.map((e: { path: string }) => e.path)).toContain(field);
    });

    it.each([
      ['a name', { name: ' \t ' }, 'name'],
      ['a tax id', { country: 'US', currency: 'USD', taxId: '   ' }, 'taxId'],
    ])('refuses %s of only whitespace with 400 VALIDATION_ERROR (it would be stored empty)', async (_label, change, path) => {
      const res = await refused(staff.post('/api/entities').send(body({ organizationId, ...change })), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors.map((e: { path: string }) => e.path)).toContain(path);
    });

    it('refuses a malformed id or organizationId and an unknown property with 400 VALIDATION_ERROR', async () => {
      await refused(staff.post('/api/entities').send(body({ organizationId, id: 'e-1' })), 400, 'VALIDATION_ERROR');
      await refused(staff.post('/api/entities').send(body({ organizationId: 'o-1' })), 400, 'VALIDATION_ERROR');
      const res = await refused(staff.post('/api/entities').send(body({ organizationId, ledgerLockDate: '2020-01-01' })), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors).toEqual([expect.objectContaining({ path: 'ledgerLockDate' })]);
    });

    it('refuses a client with 403 PERMISSION_DENIED_ERROR and writes nothing', async () => {
      const member = await onboardUser(t, staff, 'client', 'creator');
      await grantMembership(staff, member.id, organizationId, 'staff');
      await refused(client.agent.post('/api/entities').send(body({ organizationId })), 403, 'PERMISSION_DENIED_ERROR');
      await refused(member.agent.post('/api/entities').send(body({ organizationId })), 403, 'PERMISSION_DENIED_ERROR');
    });
  });

  describe('GET /api/entities', () => {
    let orgA: string;
    let orgB: string;
    let orgC: string;
    let a1: string;
    let a2: string;
    let b1: string;
    let c1: string;
    let member: TestUser;

    beforeAll(async () => {
      orgA = await createOrganization(staff);
      orgB = await createOrganization(staff);
      orgC = await createOrganization(staff);
      a1 = (await createEntity(staff, orgA)).id;
      a2 = (await createEntity(staff, orgA)).id;
      b1 = (await createEntity(staff, orgB)).id;
      c1 = (await createEntity(staff, orgC)).id;
      member = await onboardUser(t, staff, 'client', 'lister');
      await grantMembership(staff, member.id, orgA, 'client');
      await grantMembership(staff, member.id, orgB, 'viewer');
    });

    it('shows staff every Entity, as Entities', async () => {
      const res = await staff.get('/api/entities').expect(200);
      const all = await t.sql<{ id: string }>('SELECT id FROM entities');
      expect(ids(res.body)).toEqual(ids(all));
      expect(ids(res.body)).toEqual(expect.arrayContaining([a1, a2, b1, c1]));
      const one = res.body.find((e: { id: string }) => e.id === a1);
      expect(Object.keys(one).sort()).toEqual(
        ['accountingPolicies', 'country', 'createdAt', 'currency', 'id', 'ledgerLockDate', 'name', 'organizationId', 'parentEntityId', 'taxId', 'updatedAt'].sort(),
      );
    });

    it('shows a client only the Entities of Organizations where they hold a Membership (any role)', async () => {
      const res = await member.agent.get('/api/entities').expect(200);
      expect(ids(res.body)).toEqual([a1, a2, b1].sort());
    });

    it('shows a client without Memberships an empty array', async () => {
      const res = await client.agent.get('/api/entities').expect(200);
      expect(res.body).toEqual([]);
    });

    it('shows an Entity-scoped key only its Entity, for a client and for staff', async () => {
      const scoped = await mintKey(member.agent, { entityId: a2 });
      const res = await t.http.get('/api/entities').set('x-api-key', scoped.key).expect(200);
      expect(ids(res.body)).toEqual([a2]);
      const staffScoped = await mintKey(staff, { entityId: c1 });
      const staffRes = await t.http.get('/api/entities').set('x-api-key', staffScoped.key).expect(200);
      expect(ids(staffRes.body)).toEqual([c1]);
    });

    it("shows an Entity-scoped key nothing once its owner no longer reaches the Entity (as GET /:entityId answers 404)", async () => {
      const leaver = await onboardUser(t, staff, 'client', 'leaver');
      await grantMembership(staff, leaver.id, orgC, 'client');
      const scoped = await mintKey(leaver.agent, { entityId: c1 });
      expect(ids((await t.http.get('/api/entities').set('x-api-key', scoped.key).expect(200)).body)).toEqual([c1]);
      await staff.delete(`/api/onboarding/users/${leaver.id}/memberships`).send({ organizationId: orgC, role: 'client' }).expect(204);
      const res = await t.http.get('/api/entities').set('x-api-key', scoped.key);
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: [] });
      const one = await t.http.get(`/api/entities/${c1}`).set('x-api-key', scoped.key);
      expect({ status: one.status, code: one.body.code }).toEqual({ status: 404, code: 'ENTITY_NOT_FOUND_ERROR' });
    });
  });

  describe('GET /api/entities/:entityId and /editability', () => {
    it('answers { identityFieldsEditable: true } while the Entity has no ledger', async () => {
      const { id } = await createEntity(staff, await createOrganization(staff));
      const res = await staff.get(`/api/entities/${id}/editability`).expect(200);
      expect(res.body).toEqual({ identityFieldsEditable: true });
    });

    it('counts an entry of any status (D22): a scheduled entry locks the identity fields, and so does it once cancelled', async () => {
      const { id } = await createEntity(staff, await createOrganization(staff));
      const account = async (code: string, type: string) => {
        const accountId = randomUUID();
        await staff.post(`/api/entities/${id}/ledger/accounts`).send({ id: accountId, code, name: code, type, tracking: 'balance' }).expect(201);
        return accountId;
      };
      const cash = await account('1101', 'asset');
      const sales = await account('4101', 'income');
      const scheduled = await staff
        .post(`/api/entities/${id}/ledger/scheduled-entries`)
        .send({ id: randomUUID(), entryDate: '2030-01-02', memo: 'Rent', newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: cash, amount: 5 }, { side: 'credit', ledgerAccountId: sales, amount: 5 }] })
        .expect(201);
      expect((await staff.get(`/api/entities/${id}/editability`).expect(200)).body).toEqual({ identityFieldsEditable: false });
      await staff.delete(`/api/entities/${id}/ledger/scheduled-entries/${scheduled.body.id}`).expect(200);
      expect((await staff.get(`/api/entities/${id}/editability`).expect(200)).body).toEqual({ identityFieldsEditable: false });
      // A PATCH naming an identity field is refused whole, even with the values the Entity has.
      const before = await entityRow(id);
      await refused(staff.patch(`/api/entities/${id}`).send({ country: 'CL', taxId: '76086428-5' }), 409, 'ENTITY_IDENTITY_FIELDS_LOCKED_ERROR');
      await refused(staff.patch(`/api/entities/${id}`).send({ name: 'Renamed with it', currency: 'CLP' }), 409, 'ENTITY_IDENTITY_FIELDS_LOCKED_ERROR');
      expect(await entityRow(id)).toEqual(before);
    });

    it('answers a non-member with the same 404 body for an existing and a missing Entity', async () => {
      const { id } = await createEntity(staff, await createOrganization(staff));
      const missingId = randomUUID();
      for (const path of ['', '/editability']) {
        const existing = await client.agent.get(`/api/entities/${id}${path}`);
        const missing = await client.agent.get(`/api/entities/${missingId}${path}`);
        expect({ status: existing.status, code: existing.body.code }).toEqual({ status: 404, code: 'ENTITY_NOT_FOUND_ERROR' });
        const strip = (res: Response, entityId: string) => JSON.stringify({ ...res.body, requestId: undefined }).split(entityId).join('<id>');
        expect(strip(existing, id)).toBe(strip(missing, missingId));
      }
    });

    it('answers staff asking for a missing Entity with 404 ENTITY_NOT_FOUND_ERROR, and a malformed id with 400', async () => {
      const missing = await staff.get(`/api/entities/${randomUUID()}`);
      expect({ status: missing.status, code: missing.body.code }).toEqual({ status: 404, code: 'ENTITY_NOT_FOUND_ERROR' });
      const malformed = await staff.get('/api/entities/not-a-uuid/editability');
      expect({ status: malformed.status, code: malformed.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
      expect(malformed.body.params.errors[0].path).toBe('entityId');
    });
  });

  describe('PATCH /api/entities/:entityId', () => {
    let organizationId: string;

    beforeAll(async () => {
      organizationId = await createOrganization(staff);
    });

    it('renames: 200 with the Entity, the name trimmed, updatedAt moved, one audit row', async () => {
      const created = (await staff.post('/api/entities').send(body({ organizationId })).expect(201)).body;
      const res = await audited(staff.patch(`/api/entities/${created.id}`).send({ name: '  Andes Holding SpA ' }), 200, {
        action: 'entity.update',
        entity_id: created.id,
        organization_id: organizationId,
        resource_id: created.id,
        method: 'PATCH',
      });
      expect(res.body).toEqual({ ...created, name: 'Andes Holding SpA', updatedAt: expect.stringMatching(ISO_DATETIME) });
      expect(res.body.updatedAt > created.updatedAt).toBe(true);
      expect((await entityRow(created.id))?.name).toBe('Andes Holding SpA');
    });

    it('changes country and taxId together, canonicalizing a Chilean RUT', async () => {
      const created = (await staff.post('/api/entities').send(body({ organizationId, country: 'US', taxId: 'EIN-1', currency: 'USD' })).expect(201)).body;
      const res = await audited(staff.patch(`/api/entities/${created.id}`).send({ country: 'CL', taxId: '12.345.678-5', currency: 'CLP' }), 200, {
        action: 'entity.update',
      });
      expect(res.body).toMatchObject({ country: 'CL', taxId: '12345678-5', currency: 'CLP', name: created.name });
      expect(await entityRow(created.id)).toMatchObject({ country: 'CL', tax_id: '12345678-5', currency: 'CLP' });
    });

    it('changes the currency alone', async () => {
      const { id } = await createEntity(staff, organizationId);
      const res = await staff.patch(`/api/entities/${id}`).send({ currency: 'USD' }).expect(200);
      expect(res.body).toMatchObject({ currency: 'USD', country: 'CL', taxId: '76086428-5' });
    });

    it('refuses an empty body with 400 VALIDATION_ERROR', async () => {
      const { id } = await createEntity(staff, organizationId);
      await refused(staff.patch(`/api/entities/${id}`).send({}), 400, 'VALIDATION_ERROR');
    });

    it('refuses country without taxId, and taxId without country, with 400 VALIDATION_ERROR', async () => {
      const { id } = await createEntity(staff, organizationId);
      const countryOnly = await refused(staff.patch(`/api/entities/${id}`).send({ country: 'US' }), 400, 'VALIDATION_ERROR');
      expect(countryOnly.body.params.errors[0].path).toBe('taxId');
      const taxIdOnly = await refused(staff.patch(`/api/entities/${id}`).send({ taxId: '12.345.678-5' }), 400, 'VALIDATION_ERROR');
      expect(taxIdOnly.body.params.errors[0].path).toBe('country');
    });

    it('refuses a bad RUT with 400 ENTITY_TAX_ID_INVALID_ERROR and changes nothing (also not the name sent with it)', async () => {
      const { id } = await createEntity(staff, organizationId);
      await refused(staff.patch(`/api/entities/${id}`).send({ name: 'Nope SpA', country: 'CL', taxId: '12.345.678-K' }), 400, 'ENTITY_TAX_ID_INVALID_ERROR');
    });

    it('refuses an unknown country or currency with 400 VALIDATION_ERROR', async () => {
      const { id } = await createEntity(staff, organizationId);
      await refused(staff.patch(`/api/entities/${id}`).send({ country: 'XX', taxId: '1' }), 400, 'VALIDATION_ERROR');
      await refused(staff.patch(`/api/entities/${id}`).send({ currency: 'XXY' }), 400, 'VALIDATION_ERROR');
    });

    it.each([
      ['an unknown field', { name: 'X SpA', organizationId: randomUUID() }, 'organizationId'],
      ['a read-only field', { ledgerLockDate: '2024-01-01' }, 'ledgerLockDate'],
      ['an empty name', { name: '' }, 'name'],
      ['a whitespace-only name', { name: '   ' }, 'name'],
      ['a name that is not a string', { name: 7 }, 'name'],
      ['a null name', { name: null }, 'name'],
      ['a null currency', { currency: null }, 'currency'],
      ['a whitespace-only tax id', { country: 'US', taxId: '  ' }, 'taxId'],
    ])('refuses %s with 400 VALIDATION_ERROR', async (_label, change, path) => {
      const { id } = await createEntity(staff, organizationId);
      const res = await refused(staff.patch(`/api/entities/${id}`).send(change), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors.map((e: { path: string }) => e.path)).toContain(path);
    });

    it('lets a client member rename; a viewer gets 403 PERMISSION_DENIED_ERROR', async () => {
      const { id } = await createEntity(staff, organizationId);
      const member = await onboardUser(t, staff, 'client', 'renamer');
      const viewer = await onboardUser(t, staff, 'client', 'viewer');
      await grantMembership(staff, member.id, organizationId, 'client');
      await grantMembership(staff, viewer.id, organizationId, 'viewer');
      await refused(viewer.agent.patch(`/api/entities/${id}`).send({ name: 'Viewer SpA' }), 403, 'PERMISSION_DENIED_ERROR');
      const res = await member.agent.patch(`/api/entities/${id}`).send({ name: 'Member SpA' }).expect(200);
      expect(res.body.name).toBe('Member SpA');
      const [row] = await t.sql('SELECT actor_user_id FROM audit_trail WHERE entity_id = $1 AND action = $2', [id, 'entity.update']);
      expect(row.actor_user_id).toBe(member.id);
    });
  });

  describe('PATCH /api/entities/:entityId/ledger-lock-date', () => {
    it('sets a date and clears it with null', async () => {
      const { id } = await createEntity(staff, await createOrganization(staff));
      const set = await audited(staff.patch(`/api/entities/${id}/ledger-lock-date`).send({ ledgerLockDate: '2024-12-31' }), 200, {
        action: 'entity.set_ledger_lock_date',
        entity_id: id,
      });
      expect(set.body).toMatchObject({ id, ledgerLockDate: '2024-12-31' });
      expect((await entityRow(id))?.ledger_lock_date).toBe('2024-12-31');
      expect((await staff.get(`/api/entities/${id}`).expect(200)).body.ledgerLockDate).toBe('2024-12-31');

      const cleared = await audited(staff.patch(`/api/entities/${id}/ledger-lock-date`).send({ ledgerLockDate: null }), 200, {
        action: 'entity.set_ledger_lock_date',
      });
      expect(cleared.body.ledgerLockDate).toBeNull();
      expect((await entityRow(id))?.ledger_lock_date).toBeNull();
    });

    it.each([
      ['missing', {}],
      ['an impossible date', { ledgerLockDate: '2024-02-30' }],
      ['not ISO', { ledgerLockDate: '31-12-2024' }],
      ['a date-time', { ledgerLockDate: '2024-12-31T00:00:00Z' }],
      ['a number', { ledgerLockDate: 20241231 }],
    ])('refuses a lock date that is %s with 400 VALIDATION_ERROR on path ledgerLockDate', async (_label, payload) => {
      const { id } = await createEntity(staff, await createOrganization(staff));
      await staff.patch(`/api/entities/${id}/ledger-lock-date`).send({ ledgerLockDate: '2023-06-30' }).expect(200);
      const res = await refused(staff.patch(`/api/entities/${id}/ledger-lock-date`).send(payload), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors[0].path).toBe('ledgerLockDate');
      expect((await entityRow(id))?.ledger_lock_date).toBe('2023-06-30');
    });

    it('accepts a leap day', async () => {
      const { id } = await createEntity(staff, await createOrganization(staff));
      const res = await staff.patch(`/api/entities/${id}/ledger-lock-date`).send({ ledgerLockDate: '2024-02-29' }).expect(200);
      expect(res.body.ledgerLockDate).toBe('2024-02-29');
    });
  });

  describe('PATCH /api/entities/:entityId/parent', () => {
    let organizationId: string;
    const parentOf = async (id: string) => (await entityRow(id))?.parent_entity_id;
    const setParent = (id: string, parentEntityId: string | null) => staff.patch(`/api/entities/${id}/parent`).send({ parentEntityId });

    beforeAll(async () => {
      organizationId = await createOrganization(staff);
    });

    it('sets a parent and clears it with null', async () => {
      const parent = await createEntity(staff, organizationId);
      const child = await createEntity(staff, organizationId);
      const set = await audited(setParent(child.id, parent.id), 200, { action: 'entity.set_parent', entity_id: child.id, resource_id: child.id });
      expect(set.body).toMatchObject({ id: child.id, parentEntityId: parent.id });
      expect(await parentOf(child.id)).toBe(parent.id);
      const cleared = await audited(setParent(child.id, null), 200, { action: 'entity.set_parent' });
      expect(cleared.body.parentEntityId).toBeNull();
      expect(await parentOf(child.id)).toBeNull();
    });

    it('accepts a parent in another Organization', async () => {
      const parent = await createEntity(staff, await createOrganization(staff));
      const child = await createEntity(staff, organizationId);
      const res = await setParent(child.id, parent.id).expect(200);
      expect(res.body.parentEntityId).toBe(parent.id);
    });

    it('refuses an unknown parent with 404 ENTITY_PARENT_NOT_FOUND_ERROR and keeps the parent', async () => {
      const parent = await createEntity(staff, organizationId);
      const child = await createEntity(staff, organizationId);
      await setParent(child.id, parent.id).expect(200);
      const missing = randomUUID();
      const res = await refused(setParent(child.id, missing), 404, 'ENTITY_PARENT_NOT_FOUND_ERROR');
      expect(res.body.params).toEqual({ parentEntityId: missing });
      expect(await parentOf(child.id)).toBe(parent.id);
    });

    it('answers a parent outside an Entity-scoped key\'s reach as missing (404 ENTITY_PARENT_NOT_FOUND_ERROR), as the tenant guard does', async () => {
      const outside = await createEntity(staff, organizationId);
      const child = await createEntity(staff, organizationId);
      const scoped = await mintKey(staff, { entityId: child.id });
      const res = await refused(
        t.http.patch(`/api/entities/${child.id}/parent`).set('x-api-key', scoped.key).set('x-audit-actor', 'erp').send({ parentEntityId: outside.id }),
        404,
        'ENTITY_PARENT_NOT_FOUND_ERROR',
      );
      expect(res.body.params).toEqual({ parentEntityId: outside.id });
      expect(await parentOf(child.id)).toBeNull();
      const unscoped = await mintKey(staff);
      await t.http.patch(`/api/entities/${child.id}/parent`).set('x-api-key', unscoped.key).set('x-audit-actor', 'erp').send({ parentEntityId: outside.id }).expect(200);
      expect(await parentOf(child.id)).toBe(outside.id);
    });

    it('refuses the Entity itself with 409 ENTITY_SELF_PARENT_ERROR', async () => {
      const entity = await createEntity(staff, organizationId);
      await refused(setParent(entity.id, entity.id), 409, 'ENTITY_SELF_PARENT_ERROR');
      expect(await parentOf(entity.id)).toBeNull();
    });

    it('refuses A->B then B->A with 409 ENTITY_PARENT_CYCLE_ERROR', async () => {
      const a = await createEntity(staff, organizationId);
      const b = await createEntity(staff, organizationId);
      await setParent(a.id, b.id).expect(200);
      await refused(setParent(b.id, a.id), 409, 'ENTITY_PARENT_CYCLE_ERROR');
      expect(await parentOf(a.id)).toBe(b.id);
      expect(await parentOf(b.id)).toBeNull();
    });

    it('A->B and C->A at once under B->C: the second waits for the first (one lock for every parent change) and is refused 409 ENTITY_PARENT_CYCLE_ERROR', async () => {
      const a = await createEntity(staff, organizationId);
      const b = await createEntity(staff, organizationId);
      const c = await createEntity(staff, organizationId);
      await setParent(b.id, c.id).expect(200);
      let changing: ReturnType<typeof sendNow> | undefined;
      // A->B has written and waits for its audit row; C->A is sent then. Each alone is no cycle;
      // both would close A->B->C->A (the rows they lock are not the ones the other changes).
      const first = await whileTableLocked(t, 'audit_trail', 1, () => setParent(a.id, b.id), async () => {
        changing = sendNow(setParent(c.id, a.id));
        await waitUntil(async () => changing!.answered() || (await lockWaiters(t)) >= 2);
      });
      const second = await changing!.response;
      expect([first.status, second.status, second.body.code]).toEqual([200, 409, 'ENTITY_PARENT_CYCLE_ERROR']);
      expect([await parentOf(a.id), await parentOf(b.id), await parentOf(c.id)]).toEqual([b.id, c.id, null]);
    });

    it('refuses closing a longer chain A->B->C with C->A with 409 ENTITY_PARENT_CYCLE_ERROR, keeping C\'s parent', async () => {
      const a = await createEntity(staff, organizationId);
      const b = await createEntity(staff, organizationId);
      const c = await createEntity(staff, organizationId);
      const d = await createEntity(staff, organizationId);
      await setParent(a.id, b.id).expect(200);
      await setParent(b.id, c.id).expect(200);
      await setParent(c.id, d.id).expect(200);
      await refused(setParent(c.id, a.id), 409, 'ENTITY_PARENT_CYCLE_ERROR');
      await refused(setParent(d.id, a.id), 409, 'ENTITY_PARENT_CYCLE_ERROR');
      expect([await parentOf(a.id), await parentOf(b.id), await parentOf(c.id), await parentOf(d.id)]).toEqual([b.id, c.id, d.id, null]);
      // Re-pointing within the tree without a cycle is fine: A directly under C.
      await setParent(a.id, c.id).expect(200);
    });

    it('refuses a missing or malformed parentEntityId with 400 VALIDATION_ERROR', async () => {
      const entity = await createEntity(staff, organizationId);
      await refused(staff.patch(`/api/entities/${entity.id}/parent`).send({}), 400, 'VALIDATION_ERROR');
      await refused(staff.patch(`/api/entities/${entity.id}/parent`).send({ parentEntityId: 'parent' }), 400, 'VALIDATION_ERROR');
    });

    it('refuses a client member with 403 PERMISSION_DENIED_ERROR', async () => {
      const parent = await createEntity(staff, organizationId);
      const child = await createEntity(staff, organizationId);
      const member = await onboardUser(t, staff, 'client', 'parent');
      await grantMembership(staff, member.id, organizationId, 'staff');
      await refused(member.agent.patch(`/api/entities/${child.id}/parent`).send({ parentEntityId: parent.id }), 403, 'PERMISSION_DENIED_ERROR');
    });
  });

  describe('PATCH /api/entities/:entityId/accounting-policies', () => {
    it('sets the policies and clears them with null', async () => {
      const { id } = await createEntity(staff, await createOrganization(staff));
      const text = 'IFRS for SMEs; inventories at weighted average cost.';
      const set = await audited(staff.patch(`/api/entities/${id}/accounting-policies`).send({ accountingPolicies: text }), 200, {
        action: 'entity.set_accounting_policies',
        entity_id: id,
      });
      expect(set.body).toMatchObject({ id, accountingPolicies: text });
      expect((await entityRow(id))?.accounting_policies).toBe(text);
      const cleared = await audited(staff.patch(`/api/entities/${id}/accounting-policies`).send({ accountingPolicies: null }), 200, {
        action: 'entity.set_accounting_policies',
      });
      expect(cleared.body.accountingPolicies).toBeNull();
      expect((await entityRow(id))?.accounting_policies).toBeNull();
    });

    it('refuses a missing field or a non-string with 400 VALIDATION_ERROR', async () => {
      const { id } = await createEntity(staff, await createOrganization(staff));
      await refused(staff.patch(`/api/entities/${id}/accounting-policies`).send({}), 400, 'VALIDATION_ERROR');
      await refused(staff.patch(`/api/entities/${id}/accounting-policies`).send({ accountingPolicies: 5 }), 400, 'VALIDATION_ERROR');
    });
  });

  describe('PATCH /api/entities/:entityId/organization', () => {
    it('moves the Entity: old members lose access (404), new members gain it', async () => {
      const from = await createOrganization(staff);
      const to = await createOrganization(staff);
      const { id } = await createEntity(staff, from);
      const oldMember = await onboardUser(t, staff, 'client', 'oldmember');
      const newMember = await onboardUser(t, staff, 'client', 'newmember');
      await grantMembership(staff, oldMember.id, from, 'client');
      await grantMembership(staff, newMember.id, to, 'client');
      await oldMember.agent.get(`/api/entities/${id}`).expect(200);
      await newMember.agent.get(`/api/entities/${id}`).expect(404);

      const res = await audited(staff.patch(`/api/entities/${id}/organization`).send({ organizationId: to }), 200, {
        action: 'entity.move',
        entity_id: id,
        organization_id: to,
        resource_id: id,
      });
      expect(res.body).toMatchObject({ id, organizationId: to });
      expect((await entityRow(id))?.organization_id).toBe(to);

      const lost = await oldMember.agent.get(`/api/entities/${id}`);
      expect({ status: lost.status, code: lost.body.code }).toEqual({ status: 404, code: 'ENTITY_NOT_FOUND_ERROR' });
      await newMember.agent.get(`/api/entities/${id}`).expect(200);
      expect(ids((await oldMember.agent.get('/api/entities').expect(200)).body)).toEqual([]);
      expect(ids((await newMember.agent.get('/api/entities').expect(200)).body)).toEqual([id]);
      expect((await staff.get(`/api/organizations/${from}`).expect(200)).body.entities).toEqual([]);
      expect((await staff.get(`/api/organizations/${to}`).expect(200)).body.entities).toEqual([{ id, name: res.body.name }]);
    });

    it('refuses an unknown Organization with 404 ORGANIZATION_NOT_FOUND_ERROR and keeps the Entity where it was', async () => {
      const from = await createOrganization(staff);
      const { id } = await createEntity(staff, from);
      await refused(staff.patch(`/api/entities/${id}/organization`).send({ organizationId: randomUUID() }), 404, 'ORGANIZATION_NOT_FOUND_ERROR');
      expect((await entityRow(id))?.organization_id).toBe(from);
    });

    it('refuses a missing or malformed organizationId with 400 VALIDATION_ERROR', async () => {
      const { id } = await createEntity(staff, await createOrganization(staff));
      await refused(staff.patch(`/api/entities/${id}/organization`).send({}), 400, 'VALIDATION_ERROR');
      await refused(staff.patch(`/api/entities/${id}/organization`).send({ organizationId: 'elsewhere' }), 400, 'VALIDATION_ERROR');
    });

    it('lets an emptied Organization be deleted afterwards', async () => {
      const from = await createOrganization(staff);
      const to = await createOrganization(staff);
      const { id } = await createEntity(staff, from);
      const blocked = await staff.delete(`/api/organizations/${from}`);
      expect(blocked.body.code).toBe('ORGANIZATION_NOT_EMPTY_ERROR');
      await staff.patch(`/api/entities/${id}/organization`).send({ organizationId: to }).expect(200);
      await staff.delete(`/api/organizations/${from}`).expect(204);
    });
  });

  describe('GET /api/entities/:entityId/audit-trail', () => {
    let organizationId: string;
    let entityId: string;
    let member: TestUser;
    const trail = (query: Record<string, string | number> = {}) => staff.get(`/api/entities/${entityId}/audit-trail`).query(query);
    const actions = (res: Response) => res.body.rows.map((r: { action: string }) => r.action);

    beforeAll(async () => {
      organizationId = await createOrganization(staff);
      member = await onboardUser(t, staff, 'client', 'trail');
      await grantMembership(staff, member.id, organizationId, 'client');
      // Day 1: created. Day 2: renamed by staff, then by the client member. Day 3: lock date, policies.
      clock.jumpTo('2026-04-10T15:00:00.000Z');
      entityId = (await createEntity(staff, organizationId)).id;
      clock.jumpTo('2026-04-11T15:00:00.000Z');
      await staff.patch(`/api/entities/${entityId}`).set('x-audit-reason', 'typo in the legal name').send({ name: 'Trail SpA' }).expect(200);
      await member.agent.patch(`/api/entities/${entityId}`).send({ name: 'Trail Chile SpA' }).expect(200);
      clock.jumpTo('2026-04-12T15:00:00.000Z');
      await staff.patch(`/api/entities/${entityId}/ledger-lock-date`).send({ ledgerLockDate: '2025-12-31' }).expect(200);
      await staff.patch(`/api/entities/${entityId}/accounting-policies`).send({ accountingPolicies: 'IFRS' }).expect(200);
      // Another Entity's mutations stay out of this trail.
      const other = await createEntity(staff, organizationId);
      await staff.patch(`/api/entities/${other.id}`).send({ name: 'Other SpA' }).expect(200);
    });

    it('answers { rows, nextCursor }, newest first, the Entity\'s rows only', async () => {
      const res = await trail().expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['nextCursor', 'rows']);
      expect(res.body.nextCursor).toBeNull();
      expect(actions(res)).toEqual(['entity.set_accounting_policies', 'entity.set_ledger_lock_date', 'entity.update', 'entity.update', 'entity.create']);
      for (const row of res.body.rows) expect(row).toMatchObject({ entityId, organizationId, resourceType: 'entity', resourceId: entityId });
      expect(res.body.rows[2]).toMatchObject({ actorUserId: member.id, credential: 'session' });
      expect(res.body.rows[3]).toMatchObject({ actorUserId: staffId, reason: 'typo in the legal name', method: 'PATCH', path: `/api/entities/${entityId}` });
      expect(res.body.rows[4].occurredAt).toMatch(/^2026-04-10T15:00/);
      expect(Object.keys(res.body.rows[0]).sort()).toEqual(
        [
          'action',
          'actorUserId',
          'apiKeyId',
          'credential',
          'declaredActor',
          'entityId',
          'id',
          'method',
          'occurredAt',
          'organizationId',
          'path',
          'reason',
          'requestId',
          'resourceId',
          'resourceType',
        ].sort(),
      );
    });

    it('filters by resourceType', async () => {
      expect(actions(await trail({ resourceType: 'entity' }).expect(200))).toHaveLength(5);
      expect((await trail({ resourceType: 'organization' }).expect(200)).body.rows).toEqual([]);
    });

    it('filters by actorUserId', async () => {
      const res = await trail({ actorUserId: member.id }).expect(200);
      expect(res.body.rows.map((r: { actorUserId: string; name?: string }) => r.actorUserId)).toEqual([member.id]);
      expect(actions(await trail({ actorUserId: staffId }).expect(200))).toHaveLength(4);
      expect((await trail({ actorUserId: randomUUID() }).expect(200)).body.rows).toEqual([]);
    });

    it('filters by from and to (ISO dates, whole days, inclusive)', async () => {
      expect(actions(await trail({ from: '2026-04-11' }).expect(200))).toEqual([
        'entity.set_accounting_policies',
        'entity.set_ledger_lock_date',
        'entity.update',
        'entity.update',
      ]);
      expect(actions(await trail({ to: '2026-04-11' }).expect(200))).toEqual(['entity.update', 'entity.update', 'entity.create']);
      expect(actions(await trail({ from: '2026-04-11', to: '2026-04-11' }).expect(200))).toEqual(['entity.update', 'entity.update']);
      expect(actions(await trail({ from: '2026-04-13' }).expect(200))).toEqual([]);
    });

    it('filters by from and to given as date-times', async () => {
      const res = await trail({ from: '2026-04-11T00:00:00Z', to: '2026-04-12T00:00:00Z' }).expect(200);
      expect(actions(res)).toEqual(['entity.update', 'entity.update']);
    });

    it('pages with limit and cursor, visiting every row exactly once, in order', async () => {
      const all = (await trail().expect(200)).body.rows.map((r: { id: string }) => r.id);
      const first = await trail({ limit: 2 }).expect(200);
      expect(first.body.rows).toHaveLength(2);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const second = await trail({ limit: 2, cursor: first.body.nextCursor }).expect(200);
      expect(second.body.rows).toHaveLength(2);
      const third = await trail({ limit: 2, cursor: second.body.nextCursor }).expect(200);
      expect(third.body.rows).toHaveLength(1);
      expect(third.body.nextCursor).toBeNull();
      expect([...first.body.rows, ...second.body.rows, ...third.body.rows].map((r: { id: string }) => r.id)).toEqual(all);
    });

    it('pages combine with filters', async () => {
      const first = await trail({ limit: 1, actorUserId: staffId }).expect(200);
      const second = await trail({ limit: 1, actorUserId: staffId, cursor: first.body.nextCursor }).expect(200);
      expect([...actions(first), ...actions(second)]).toEqual(['entity.set_accounting_policies', 'entity.set_ledger_lock_date']);
    });

    it.each([
      ['garbage', 'not-a-cursor'],
      ['characters outside base64url', 'abc$%'],
      ['a tampered cursor', Buffer.from(`1|${randomUUID()}`, 'utf8').toString('base64url')],
      ['a cursor with a bad id', Buffer.from('2026-04-11T15:00:00.000Z|1234', 'utf8').toString('base64url')],
      // Instants that survive a round trip through Date but not PostgreSQL (were 500s).
      ['a cursor in year 0', Buffer.from(`0000-01-01T00:00:00.000Z|${randomUUID()}`, 'utf8').toString('base64url')],
      ['a cursor before year 0', Buffer.from(`-000001-01-01T00:00:00.000Z|${randomUUID()}`, 'utf8').toString('base64url')],
      ['a cursor in year 275760', Buffer.from(`+275760-09-13T00:00:00.000Z|${randomUUID()}`, 'utf8').toString('base64url')],
    ])('refuses an invalid cursor (%s) with 400 VALIDATION_ERROR', async (_label, cursor) => {
      const res = await trail({ cursor });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
      expect(res.body.params.errors[0].path).toBe('cursor');
    });

    it.each([
      ['limit 0', { limit: 0 }, 'limit'],
      ['limit 101', { limit: 101 }, 'limit'],
      ['a malformed actorUserId', { actorUserId: 'me' }, 'actorUserId'],
      ['an impossible from date', { from: '2026-02-30' }, 'from'],
      // Date-times that Date.parse rolls over or takes but PostgreSQL refuses (were 500s).
      ['an impossible from date-time', { from: '2026-02-30T10:00:00Z' }, 'from'],
      ['a from date-time in year 0', { from: '0000-01-01T00:00:00Z' }, 'from'],
      ['a to date-time with an offset of 23:59', { to: '2030-01-01T00:00:00+23:59' }, 'to'],
      ['an unknown filter', { entityId: randomUUID() }, 'entityId'],
    ])('refuses %s with 400 VALIDATION_ERROR', async (_label, query, path) => {
      const res = await trail(query);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
      expect(res.body.params.errors[0].path).toBe(path);
    });

    it('keeps newest first among rows of one instant (a clock standing still), on one page and across pages', async () => {
      const still = await createTestApp({ databaseUrl: t.databaseUrl, clock: new FixedClock(new Date('2026-05-01T12:00:00.000Z')) });
      try {
        const stillStaff = await signInStaff(still);
        const { id } = await createEntity(stillStaff, organizationId);
        const sent: string[] = [];
        for (let i = 1; i <= 8; i++) {
          const requestId = `rename-${i}-${randomUUID()}`;
          await stillStaff.patch(`/api/entities/${id}`).set('x-request-id', requestId).send({ name: `Still ${i} SpA` }).expect(200);
          sent.push(requestId);
        }
        const newestFirst = [...sent].reverse();
        const res = await stillStaff.get(`/api/entities/${id}/audit-trail`).expect(200);
        expect(new Set(res.body.rows.map((r: { occurredAt: string }) => r.occurredAt))).toEqual(new Set(['2026-05-01T12:00:00.000Z']));
        expect(actions(res)).toEqual([...sent.map(() => 'entity.update'), 'entity.create']);
        expect(res.body.rows.slice(0, 8).map((r: { requestId: string }) => r.requestId)).toEqual(newestFirst);
        const paged: string[] = [];
        let cursor: string | null = null;
        do {
          const page: Response = await stillStaff.get(`/api/entities/${id}/audit-trail`).query({ limit: 3, ...(cursor ? { cursor } : {}) }).expect(200);
          paged.push(...page.body.rows.map((r: { requestId: string }) => r.requestId));
          cursor = page.body.nextCursor;
        } while (cursor);
        expect(paged.slice(0, 8)).toEqual(newestFirst);
        expect(paged).toHaveLength(9);
      } finally {
        await still.close();
      }
    });

    it('is readable by a client member; a non-member gets 404 ENTITY_NOT_FOUND_ERROR', async () => {
      const res = await member.agent.get(`/api/entities/${entityId}/audit-trail`).expect(200);
      expect(res.body.rows).toHaveLength(5);
      const hidden = await client.agent.get(`/api/entities/${entityId}/audit-trail`);
      expect({ status: hidden.status, code: hidden.body.code }).toEqual({ status: 404, code: 'ENTITY_NOT_FOUND_ERROR' });
    });
  });
});
