import request from 'supertest';
import type { TestApp } from '../harness/test-app';
import { createEntity, createOrganization, createWorldApp, grantMembership, ISO_DATETIME, onboardUser, uniqueName, type Agent, type World } from '../harness/world';
import { buildChart, cr, dr, expectError, expectStatus, MovableClock, post, uuid } from './bb-helpers';

const ENTITY_KEYS = ['accountingPolicies', 'country', 'createdAt', 'currency', 'id', 'ledgerLockDate', 'name', 'organizationId', 'parentEntityId', 'taxId', 'updatedAt'];

describe('black box: Organizations and Entities', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock: new MovableClock() }));
  });
  afterAll(() => t.close());

  const newEntity = (body: Record<string, unknown> = {}) =>
    staff.post('/api/entities').send({ id: uuid(), name: uniqueName('Empresa'), country: 'CL', taxId: '76.086.428-5', currency: 'CLP', organizationId: world.organizationId, ...body });

  describe('Organizations', () => {
    it('POST answers 201 { id, name, createdAt }, name stored trimmed', async () => {
      const name = uniqueName('Trim');
      const res = await staff.post('/api/organizations').send({ name: `  ${name}  ` });
      expectStatus(res, 201);
      expect(Object.keys(res.body).sort()).toEqual(['createdAt', 'id', 'name']);
      expect(res.body.name).toBe(name);
      expect(res.body.createdAt).toMatch(ISO_DATETIME);
    });

    it('POST takes an optional id; reusing it is 409 ORGANIZATION_ALREADY_EXISTS_ERROR', async () => {
      const id = uuid();
      const res = await staff.post('/api/organizations').send({ id, name: uniqueName('WithId') });
      expectStatus(res, 201);
      expect(res.body.id).toBe(id);
      expectError(await staff.post('/api/organizations').send({ id, name: uniqueName('Other') }), 409, 'ORGANIZATION_ALREADY_EXISTS_ERROR');
    });

    it('refuses a name used by another Organization, ignoring case, with 409 ORGANIZATION_NAME_ALREADY_EXISTS_ERROR', async () => {
      const name = uniqueName('Case');
      await staff.post('/api/organizations').send({ name }).expect(201);
      expectError(await staff.post('/api/organizations').send({ name: name.toUpperCase() }), 409, 'ORGANIZATION_NAME_ALREADY_EXISTS_ERROR');
    });

    it.each([
      ['empty', ''],
      ['blank', '   '],
      ['invisible only', '\u200B\u200B'],
      ['201 characters', 'x'.repeat(201)],
    ])('refuses a %s name with 400 VALIDATION_ERROR', async (_label, name) => {
      expectError(await staff.post('/api/organizations').send({ name }), 400, 'VALIDATION_ERROR');
    });

    it('accepts a name of exactly 200 characters after trimming', async () => {
      const name = `${uuid()}${'y'.repeat(164)}`;
      expect(name).toHaveLength(200);
      expectStatus(await staff.post('/api/organizations').send({ name: ` ${name} ` }), 201);
    });

    it('POST is staff-only: 403 PERMISSION_DENIED_ERROR for a client and for a staff Member', async () => {
      expectError(await world.clientMember.agent.post('/api/organizations').send({ name: uniqueName('No') }), 403, 'PERMISSION_DENIED_ERROR');
      expectError(await world.staffMember.agent.post('/api/organizations').send({ name: uniqueName('No') }), 403, 'PERMISSION_DENIED_ERROR');
    });

    it('GET list: global staff see every Organization with entities [{ id, name }]', async () => {
      const res = await staff.get('/api/organizations');
      expectStatus(res, 200);
      const org = res.body.find((o: { id: string }) => o.id === world.organizationId);
      expect(org).toMatchObject({ id: world.organizationId, name: expect.any(String) });
      expect(org.entities).toEqual(expect.arrayContaining([{ id: world.entityId, name: expect.any(String) }]));
      expect(res.body.find((o: { id: string }) => o.id === world.otherOrganizationId)).toBeDefined();
    });

    it('GET list: a User sees only Organizations where their Membership role is staff', async () => {
      const asStaffMember = await world.staffMember.agent.get('/api/organizations');
      expectStatus(asStaffMember, 200);
      expect(asStaffMember.body.map((o: { id: string }) => o.id)).toEqual([world.organizationId]);
      const asClient = await world.clientMember.agent.get('/api/organizations');
      expectStatus(asClient, 200);
      expect(asClient.body).toEqual([]);
    });

    it('GET one answers the summary; a missing one is 404 ORGANIZATION_NOT_FOUND_ERROR', async () => {
      const res = await staff.get(`/api/organizations/${world.organizationId}`);
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ id: world.organizationId, name: expect.any(String) });
      expect(res.body.entities).toEqual(expect.arrayContaining([{ id: world.entityId, name: expect.any(String) }]));
      expectError(await staff.get(`/api/organizations/${uuid()}`), 404, 'ORGANIZATION_NOT_FOUND_ERROR');
    });

    it('GET one is staff-only: 403 PERMISSION_DENIED_ERROR for a client member', async () => {
      expectError(await world.clientMember.agent.get(`/api/organizations/${world.organizationId}`), 403, 'PERMISSION_DENIED_ERROR');
    });

    it('PATCH renames: 200 { id, name, createdAt }', async () => {
      const id = await createOrganization(staff);
      const name = uniqueName('Renamed');
      const res = await staff.patch(`/api/organizations/${id}`).set('x-audit-reason', 'typo').send({ name: ` ${name}` });
      expectStatus(res, 200);
      expect(Object.keys(res.body).sort()).toEqual(['createdAt', 'id', 'name']);
      expect(res.body).toMatchObject({ id, name });
      const [row] = await t.sql<{ reason: string }>("SELECT reason FROM audit_trail WHERE method = 'PATCH' AND path LIKE $1", [`%${id}%`]);
      expect(row.reason).toBe('typo');
    });

    it('PATCH may change the case of its own name', async () => {
      const name = uniqueName('own case');
      const { body } = await staff.post('/api/organizations').send({ name }).expect(201);
      expectStatus(await staff.patch(`/api/organizations/${body.id}`).send({ name: name.toUpperCase() }), 200);
    });

    it('PATCH to another Organization\'s name is 409 ORGANIZATION_NAME_ALREADY_EXISTS_ERROR; missing is 404', async () => {
      const taken = uniqueName('Taken');
      await staff.post('/api/organizations').send({ name: taken }).expect(201);
      const id = await createOrganization(staff);
      expectError(await staff.patch(`/api/organizations/${id}`).send({ name: taken.toLowerCase() }), 409, 'ORGANIZATION_NAME_ALREADY_EXISTS_ERROR');
      expectError(await staff.patch(`/api/organizations/${uuid()}`).send({ name: uniqueName('x') }), 404, 'ORGANIZATION_NOT_FOUND_ERROR');
      expectError(await staff.patch(`/api/organizations/${id}`).send({ name: ' ' }), 400, 'VALIDATION_ERROR');
    });

    it('DELETE an empty Organization: 204 without body, and its Memberships go with it', async () => {
      const id = await createOrganization(staff);
      const user = await onboardUser(t, staff, 'client', 'orgdel');
      await grantMembership(staff, user.id, id, 'staff');
      expect((await user.agent.get('/api/organizations')).body.map((o: { id: string }) => o.id)).toEqual([id]);
      const res = await staff.delete(`/api/organizations/${id}`);
      expectStatus(res, 204);
      expect(res.text).toBe('');
      expectError(await staff.get(`/api/organizations/${id}`), 404, 'ORGANIZATION_NOT_FOUND_ERROR');
      expect((await user.agent.get('/api/organizations')).body).toEqual([]);
    });

    it('DELETE while it holds an Entity is 409 ORGANIZATION_NOT_EMPTY_ERROR; missing is 404', async () => {
      expectError(await staff.delete(`/api/organizations/${world.organizationId}`), 409, 'ORGANIZATION_NOT_EMPTY_ERROR');
      expectError(await staff.delete(`/api/organizations/${uuid()}`), 404, 'ORGANIZATION_NOT_FOUND_ERROR');
    });

    it('members: array of { userId, name, email, role }', async () => {
      const res = await staff.get(`/api/organizations/${world.organizationId}/members`);
      expectStatus(res, 200);
      for (const m of res.body) expect(Object.keys(m).sort()).toEqual(['email', 'name', 'role', 'userId']);
      const byId = Object.fromEntries(res.body.map((m: { userId: string; role: string }) => [m.userId, m.role]));
      expect(byId[world.clientMember.id]).toBe('client');
      expect(byId[world.viewerMember.id]).toBe('viewer');
      expect(byId[world.staffMember.id]).toBe('staff');
      expect(byId[world.outsider.id]).toBeUndefined();
    });

    it('members of a missing Organization is 404 ORGANIZATION_NOT_FOUND_ERROR; a client gets 403', async () => {
      expectError(await staff.get(`/api/organizations/${uuid()}/members`), 404, 'ORGANIZATION_NOT_FOUND_ERROR');
      expectError(await world.clientMember.agent.get(`/api/organizations/${world.organizationId}/members`), 403, 'PERMISSION_DENIED_ERROR');
    });
  });

  describe('Entities', () => {
    it('POST answers 201 with the Entity, RUT canonicalized (D23)', async () => {
      const id = uuid();
      const res = await newEntity({ id, name: 'Acme SpA' });
      expectStatus(res, 201);
      expect(Object.keys(res.body).sort()).toEqual(ENTITY_KEYS);
      expect(res.body).toMatchObject({
        id,
        name: 'Acme SpA',
        country: 'CL',
        taxId: '76086428-5',
        currency: 'CLP',
        ledgerLockDate: null,
        accountingPolicies: null,
        parentEntityId: null,
        organizationId: world.organizationId,
      });
      expect(res.body.createdAt).toMatch(ISO_DATETIME);
      expect(res.body.updatedAt).toMatch(ISO_DATETIME);
    });

    it.each([
      ['76 086 428 5', '76086428-5'],
      ['076.086.428-5', '76086428-5'],
      ['10.000.013-k', '10000013-K'],
    ])('canonicalizes the RUT %s as %s', async (taxId, canonical) => {
      const res = await newEntity({ taxId });
      expectStatus(res, 201);
      expect(res.body.taxId).toBe(canonical);
    });

    it('refuses a RUT with a wrong check digit with 400 ENTITY_TAX_ID_INVALID_ERROR', async () => {
      expectError(await newEntity({ taxId: '76.086.428-6' }), 400, 'ENTITY_TAX_ID_INVALID_ERROR');
    });

    it('does not apply the RUT rule outside Chile', async () => {
      const res = await newEntity({ country: 'US', taxId: '12-3456789', currency: 'USD' });
      expectStatus(res, 201);
      expect(res.body.taxId).toBe('12-3456789');
    });

    it('refuses a reused id with 409 ENTITY_ALREADY_EXISTS_ERROR', async () => {
      const id = uuid();
      await newEntity({ id }).expect(201);
      expectError(await newEntity({ id }), 409, 'ENTITY_ALREADY_EXISTS_ERROR');
    });

    it.each(['name', 'country', 'taxId', 'currency', 'id'])('refuses a body without %s with 400 VALIDATION_ERROR', async (field) => {
      const body: Record<string, unknown> = { id: uuid(), name: uniqueName('E'), country: 'CL', taxId: '76.086.428-5', currency: 'CLP' };
      delete body[field];
      expectError(await staff.post('/api/entities').send(body), 400, 'VALIDATION_ERROR');
    });

    it('refuses a missing organizationId with 404 ORGANIZATION_NOT_FOUND_ERROR', async () => {
      expectError(await newEntity({ organizationId: uuid() }), 404, 'ORGANIZATION_NOT_FOUND_ERROR');
    });

    it('without organizationId makes an Organization named after the Entity, with a numeric suffix when taken', async () => {
      const name = uniqueName('Solo');
      const first = await newEntity({ name, organizationId: undefined });
      expectStatus(first, 201);
      const second = await newEntity({ name, organizationId: undefined });
      expectStatus(second, 201);
      const a = await staff.get(`/api/organizations/${first.body.organizationId}`).expect(200);
      const b = await staff.get(`/api/organizations/${second.body.organizationId}`).expect(200);
      expect(a.body.name).toBe(name);
      expect(b.body.name).toBe(`${name} (2)`);
      expect(a.body.entities).toEqual([{ id: first.body.id, name }]);
    });

    it('POST is staff-only: 403 PERMISSION_DENIED_ERROR for a client', async () => {
      const res = await world.clientMember.agent.post('/api/entities').send({ id: uuid(), name: 'x', country: 'CL', taxId: '76.086.428-5', currency: 'CLP' });
      expectError(res, 403, 'PERMISSION_DENIED_ERROR');
    });

    it('GET list: staff see all; a client sees only Entities of its Organizations', async () => {
      const all = await staff.get('/api/entities');
      expectStatus(all, 200);
      const ids = all.body.map((e: { id: string }) => e.id);
      expect(ids).toEqual(expect.arrayContaining([world.entityId, world.otherEntityId]));
      const mine = await world.outsider.agent.get('/api/entities');
      expect(mine.body.map((e: { id: string }) => e.id)).toEqual([world.otherEntityId]);
      expect(Object.keys(mine.body[0]).sort()).toEqual(ENTITY_KEYS);
    });

    it('a client sees an Entity created later in its Organization', async () => {
      const { id } = await createEntity(staff, world.otherOrganizationId);
      const res = await world.outsider.agent.get('/api/entities');
      expect(res.body.map((e: { id: string }) => e.id)).toContain(id);
      await world.outsider.agent.get(`/api/entities/${id}/books`).expect(200);
    });

    describe('PATCH and editability (D22)', () => {
      it('editability is true for a new Entity and false once it has a ledger entry', async () => {
        const { id } = await createEntity(staff, world.organizationId);
        const before = await staff.get(`/api/entities/${id}/editability`);
        expectStatus(before, 200);
        expect(before.body).toEqual({ identityFieldsEditable: true });
        const chart = await buildChart(staff, id);
        await post(staff, id, '2026-06-01', [dr(chart.cash, 10), cr(chart.sales, 10)]);
        expect((await staff.get(`/api/entities/${id}/editability`)).body).toEqual({ identityFieldsEditable: false });
      });

      it('editability stays false after the only entry is unbooked (any status counts)', async () => {
        const { id } = await createEntity(staff, world.organizationId);
        const chart = await buildChart(staff, id);
        const entry = await post(staff, id, '2026-06-01', [dr(chart.cash, 10), cr(chart.sales, 10)]);
        await staff.delete(`/api/entities/${id}/ledger/entries/${entry.id}`).expect(200);
        expect((await staff.get(`/api/entities/${id}/editability`)).body).toEqual({ identityFieldsEditable: false });
      });

      it('PATCH while editable changes identity fields and answers the Entity', async () => {
        const { id } = await createEntity(staff, world.organizationId);
        const res = await staff.patch(`/api/entities/${id}`).send({ country: 'CL', taxId: '10.000.013-k', currency: 'USD', name: 'New name' });
        expectStatus(res, 200);
        expect(Object.keys(res.body).sort()).toEqual(ENTITY_KEYS);
        expect(res.body).toMatchObject({ id, taxId: '10000013-K', currency: 'USD', name: 'New name' });
      });

      it('PATCH with an empty body is 400 VALIDATION_ERROR', async () => {
        expectError(await staff.patch(`/api/entities/${world.entityId}`).send({}), 400, 'VALIDATION_ERROR');
      });

      it('PATCH with country and no taxId (or taxId and no country) is 400 VALIDATION_ERROR', async () => {
        const { id } = await createEntity(staff, world.organizationId);
        expectError(await staff.patch(`/api/entities/${id}`).send({ country: 'US' }), 400, 'VALIDATION_ERROR');
        expectError(await staff.patch(`/api/entities/${id}`).send({ taxId: '76.086.428-5' }), 400, 'VALIDATION_ERROR');
      });

      it('PATCH with a bad RUT is 400 ENTITY_TAX_ID_INVALID_ERROR', async () => {
        const { id } = await createEntity(staff, world.organizationId);
        expectError(await staff.patch(`/api/entities/${id}`).send({ country: 'CL', taxId: '76.086.428-1' }), 400, 'ENTITY_TAX_ID_INVALID_ERROR');
      });

      it('once locked, currency, country or taxId are 409 ENTITY_IDENTITY_FIELDS_LOCKED_ERROR; name stays editable', async () => {
        const { id } = await createEntity(staff, world.organizationId);
        const chart = await buildChart(staff, id);
        await post(staff, id, '2026-06-01', [dr(chart.cash, 10), cr(chart.sales, 10)]);
        expectError(await staff.patch(`/api/entities/${id}`).send({ currency: 'USD' }), 409, 'ENTITY_IDENTITY_FIELDS_LOCKED_ERROR');
        expectError(await staff.patch(`/api/entities/${id}`).send({ country: 'CL', taxId: '10.000.013-K' }), 409, 'ENTITY_IDENTITY_FIELDS_LOCKED_ERROR');
        const res = await staff.patch(`/api/entities/${id}`).send({ name: 'Still editable' });
        expectStatus(res, 200);
        expect(res.body.name).toBe('Still editable');
      });

      it('a client member may PATCH; a viewer gets 403 PERMISSION_DENIED_ERROR', async () => {
        expectStatus(await world.clientMember.agent.patch(`/api/entities/${world.entityId}`).send({ name: uniqueName('By client') }), 200);
        expectError(await world.viewerMember.agent.patch(`/api/entities/${world.entityId}`).send({ name: 'x' }), 403, 'PERMISSION_DENIED_ERROR');
      });

      it('PATCH of a missing Entity is 404 ENTITY_NOT_FOUND_ERROR', async () => {
        expectError(await staff.patch(`/api/entities/${uuid()}`).send({ name: 'x' }), 404, 'ENTITY_NOT_FOUND_ERROR');
      });
    });

    describe('ledger lock date (D24)', () => {
      it('sets and clears the lock date, answering the Entity', async () => {
        const { id } = await createEntity(staff, world.organizationId);
        const set = await staff.patch(`/api/entities/${id}/ledger-lock-date`).send({ ledgerLockDate: '2026-03-31' });
        expectStatus(set, 200);
        expect(Object.keys(set.body).sort()).toEqual(ENTITY_KEYS);
        expect(set.body.ledgerLockDate).toBe('2026-03-31');
        const cleared = await staff.patch(`/api/entities/${id}/ledger-lock-date`).send({ ledgerLockDate: null });
        expectStatus(cleared, 200);
        expect(cleared.body.ledgerLockDate).toBeNull();
      });

      it('requires ledgerLockDate (400 VALIDATION_ERROR without it or with a bad date)', async () => {
        expectError(await staff.patch(`/api/entities/${world.entityId}/ledger-lock-date`).send({}), 400, 'VALIDATION_ERROR');
        expectError(await staff.patch(`/api/entities/${world.entityId}/ledger-lock-date`).send({ ledgerLockDate: '2026-02-30' }), 400, 'VALIDATION_ERROR');
      });

      it('entries dated on or before the lock date are 409 LEDGER_PERIOD_LOCKED_ERROR; the next day is open', async () => {
        const { id } = await createEntity(staff, world.organizationId);
        const chart = await buildChart(staff, id);
        await staff.patch(`/api/entities/${id}/ledger-lock-date`).send({ ledgerLockDate: '2026-03-31' }).expect(200);
        for (const entryDate of ['2026-03-31', '2026-01-15']) {
          const res = await staff
            .post(`/api/entities/${id}/ledger/entries`)
            .send({ id: uuid(), entryDate, memo: 'locked', newLedgerEntryLines: [dr(chart.cash, 5), cr(chart.sales, 5)] });
          expectError(res, 409, 'LEDGER_PERIOD_LOCKED_ERROR');
        }
        await post(staff, id, '2026-04-01', [dr(chart.cash, 5), cr(chart.sales, 5)]);
      });

      it('cannot move on or after a Scheduled Entry\'s date: 409 ENTITY_LOCK_DATE_OVER_SCHEDULED_ENTRY_ERROR', async () => {
        const { id } = await createEntity(staff, world.organizationId);
        const chart = await buildChart(staff, id);
        await staff
          .post(`/api/entities/${id}/ledger/scheduled-entries`)
          .send({ id: uuid(), entryDate: '2026-07-10', memo: 'rent', newLedgerEntryLines: [dr(chart.opex, 5), cr(chart.cash, 5)] })
          .expect(201);
        expectError(await staff.patch(`/api/entities/${id}/ledger-lock-date`).send({ ledgerLockDate: '2026-07-10' }), 409, 'ENTITY_LOCK_DATE_OVER_SCHEDULED_ENTRY_ERROR');
        expectError(await staff.patch(`/api/entities/${id}/ledger-lock-date`).send({ ledgerLockDate: '2026-07-11' }), 409, 'ENTITY_LOCK_DATE_OVER_SCHEDULED_ENTRY_ERROR');
        expectStatus(await staff.patch(`/api/entities/${id}/ledger-lock-date`).send({ ledgerLockDate: '2026-07-09' }), 200);
      });

      it('a viewer cannot set the lock date (403 PERMISSION_DENIED_ERROR)', async () => {
        expectError(await world.viewerMember.agent.patch(`/api/entities/${world.entityId}/ledger-lock-date`).send({ ledgerLockDate: null }), 403, 'PERMISSION_DENIED_ERROR');
      });
    });

    describe('parent (staff only)', () => {
      it('sets and clears the parent, answering the Entity', async () => {
        const { id: parent } = await createEntity(staff, world.organizationId);
        const { id: child } = await createEntity(staff, world.organizationId);
        const res = await staff.patch(`/api/entities/${child}/parent`).send({ parentEntityId: parent });
        expectStatus(res, 200);
        expect(res.body).toMatchObject({ id: child, parentEntityId: parent });
        const cleared = await staff.patch(`/api/entities/${child}/parent`).send({ parentEntityId: null });
        expectStatus(cleared, 200);
        expect(cleared.body.parentEntityId).toBeNull();
      });

      it('a missing parent is 404 ENTITY_PARENT_NOT_FOUND_ERROR', async () => {
        expectError(await staff.patch(`/api/entities/${world.entityId}/parent`).send({ parentEntityId: uuid() }), 404, 'ENTITY_PARENT_NOT_FOUND_ERROR');
      });

      it('itself as parent is 409 ENTITY_SELF_PARENT_ERROR', async () => {
        expectError(await staff.patch(`/api/entities/${world.entityId}/parent`).send({ parentEntityId: world.entityId }), 409, 'ENTITY_SELF_PARENT_ERROR');
      });

      it('a cycle is 409 ENTITY_PARENT_CYCLE_ERROR', async () => {
        const { id: a } = await createEntity(staff, world.organizationId);
        const { id: b } = await createEntity(staff, world.organizationId);
        const { id: c } = await createEntity(staff, world.organizationId);
        await staff.patch(`/api/entities/${b}/parent`).send({ parentEntityId: a }).expect(200);
        await staff.patch(`/api/entities/${c}/parent`).send({ parentEntityId: b }).expect(200);
        expectError(await staff.patch(`/api/entities/${a}/parent`).send({ parentEntityId: c }), 409, 'ENTITY_PARENT_CYCLE_ERROR');
        expectError(await staff.patch(`/api/entities/${a}/parent`).send({ parentEntityId: b }), 409, 'ENTITY_PARENT_CYCLE_ERROR');
      });

      it('the parentEntityId field is required (400 VALIDATION_ERROR)', async () => {
        expectError(await staff.patch(`/api/entities/${world.entityId}/parent`).send({}), 400, 'VALIDATION_ERROR');
      });

      it('is staff-only: a client member gets 403 PERMISSION_DENIED_ERROR', async () => {
        expectError(await world.clientMember.agent.patch(`/api/entities/${world.entityId}/parent`).send({ parentEntityId: null }), 403, 'PERMISSION_DENIED_ERROR');
      });
    });

    describe('accounting policies (staff only)', () => {
      it('sets text and clears with null, answering the Entity', async () => {
        const { id } = await createEntity(staff, world.organizationId);
        const res = await staff.patch(`/api/entities/${id}/accounting-policies`).send({ accountingPolicies: 'IFRS for SMEs; FIFO inventory.' });
        expectStatus(res, 200);
        expect(res.body).toMatchObject({ id, accountingPolicies: 'IFRS for SMEs; FIFO inventory.' });
        const cleared = await staff.patch(`/api/entities/${id}/accounting-policies`).send({ accountingPolicies: null });
        expect(cleared.body.accountingPolicies).toBeNull();
      });

      it('requires the field (400) and is staff-only (403 for a client)', async () => {
        expectError(await staff.patch(`/api/entities/${world.entityId}/accounting-policies`).send({}), 400, 'VALIDATION_ERROR');
        expectError(
          await world.clientMember.agent.patch(`/api/entities/${world.entityId}/accounting-policies`).send({ accountingPolicies: 'x' }),
          403,
          'PERMISSION_DENIED_ERROR',
        );
      });
    });

    describe('move to another Organization (D21)', () => {
      it('moves the Entity, answering it with the new organizationId; members follow the Organization', async () => {
        const { id } = await createEntity(staff, world.organizationId);
        await world.clientMember.agent.get(`/api/entities/${id}/books`).expect(200);
        const res = await staff.patch(`/api/entities/${id}/organization`).send({ organizationId: world.otherOrganizationId });
        expectStatus(res, 200);
        expect(Object.keys(res.body).sort()).toEqual(ENTITY_KEYS);
        expect(res.body.organizationId).toBe(world.otherOrganizationId);
        expectError(await world.clientMember.agent.get(`/api/entities/${id}/books`), 404, 'ENTITY_NOT_FOUND_ERROR');
        await world.outsider.agent.get(`/api/entities/${id}/books`).expect(200);
        const org = await staff.get(`/api/organizations/${world.otherOrganizationId}`);
        expect(org.body.entities.map((e: { id: string }) => e.id)).toContain(id);
      });

      it('a missing Organization is 404 ORGANIZATION_NOT_FOUND_ERROR; a client gets 403', async () => {
        expectError(await staff.patch(`/api/entities/${world.entityId}/organization`).send({ organizationId: uuid() }), 404, 'ORGANIZATION_NOT_FOUND_ERROR');
        expectError(
          await world.clientMember.agent.patch(`/api/entities/${world.entityId}/organization`).send({ organizationId: world.organizationId }),
          403,
          'PERMISSION_DENIED_ERROR',
        );
      });
    });

    it('every mutation writes one audit row naming the Entity and its Organization (D18)', async () => {
      const requestId = `bb-${uuid()}`;
      await staff.patch(`/api/entities/${world.entityId}`).set('x-request-id', requestId).send({ name: uniqueName('Audited') }).expect(200);
      const rows = await t.sql<Record<string, unknown>>('SELECT * FROM audit_trail WHERE request_id = $1', [requestId]);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ entity_id: world.entityId, organization_id: world.organizationId, credential: 'session', method: 'PATCH' });
    });

    it('a refused mutation writes no audit row', async () => {
      const [before] = await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM audit_trail');
      await staff.patch(`/api/entities/${world.entityId}/parent`).send({ parentEntityId: world.entityId }).expect(409);
      const [after] = await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM audit_trail');
      expect(after.n).toBe(before.n);
    });

    it('an anonymous caller gets 401 on Entity routes', async () => {
      expectError(await request(t.app.getHttpServer()).get(`/api/entities/${world.entityId}/editability`), 401, 'UNAUTHENTICATED_ERROR');
    });
  });
});
