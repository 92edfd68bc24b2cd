import type { TestApp } from '../harness/test-app';
import { createWorldApp, freshEntity, ISO_DATETIME, type Agent, type World } from '../harness/world';
import { buildChart, createPartner, cr, dr, expectError, expectStatus, freshRut, MovableClock, post, rut, uuid } from './bb-helpers';

const PARTNER_KEYS = ['country', 'createdAt', 'defaultPurchaseAccountId', 'entityId', 'id', 'name', 'taxId', 'type', 'updatedAt'];

describe('black box: Dimensions and Partners', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock: new MovableClock() }));
  });
  afterAll(() => t.close());

  const base = (entityId: string) => `/api/entities/${entityId}`;
  const newDimension = async (entityId: string, name = `Dim ${uuid().slice(0, 6)}`) => {
    const id = uuid();
    await staff.post(`${base(entityId)}/dimensions`).send({ id, name }).expect(201);
    return id;
  };
  const newValue = async (entityId: string, dimensionId: string, code: string, parentId: string | null = null) => {
    const id = uuid();
    await staff.post(`${base(entityId)}/dimensions/${dimensionId}/values`).send({ id, code, name: `Value ${code}`, parentId }).expect(201);
    return id;
  };

  describe('Dimensions', () => {
    it('POST answers 201 { id, entityId, name, createdAt, updatedAt }', async () => {
      const entityId = await freshEntity(world);
      const id = uuid();
      const res = await staff.post(`${base(entityId)}/dimensions`).send({ id, name: 'Cost centre' });
      expectStatus(res, 201);
      expect(Object.keys(res.body).sort()).toEqual(['createdAt', 'entityId', 'id', 'name', 'updatedAt']);
      expect(res.body).toMatchObject({ id, entityId, name: 'Cost centre' });
      expect(res.body.createdAt).toMatch(ISO_DATETIME);
    });

    it('GET lists the Entity\'s Dimensions as a bare array', async () => {
      const entityId = await freshEntity(world);
      const a = await newDimension(entityId, 'Project');
      const b = await newDimension(entityId, 'Area');
      const res = await staff.get(`${base(entityId)}/dimensions`);
      expectStatus(res, 200);
      expect(res.body.map((d: { id: string }) => d.id).sort()).toEqual([a, b].sort());
    });

    it('a reused id is 409 DIMENSION_ALREADY_EXISTS_ERROR; a used name 409 DIMENSION_NAME_ALREADY_EXISTS_ERROR', async () => {
      const entityId = await freshEntity(world);
      const id = await newDimension(entityId, 'Project');
      expectError(await staff.post(`${base(entityId)}/dimensions`).send({ id, name: 'Other' }), 409, 'DIMENSION_ALREADY_EXISTS_ERROR');
      expectError(await staff.post(`${base(entityId)}/dimensions`).send({ id: uuid(), name: 'Project' }), 409, 'DIMENSION_NAME_ALREADY_EXISTS_ERROR');
    });

    it('an empty name is 400 VALIDATION_ERROR', async () => {
      expectError(await staff.post(`${base(world.entityId)}/dimensions`).send({ id: uuid(), name: '' }), 400, 'VALIDATION_ERROR');
    });

    it('PATCH renames (200 Dimension); name is required; another\'s name is 409; missing 404 DIMENSION_NOT_FOUND_ERROR', async () => {
      const entityId = await freshEntity(world);
      const id = await newDimension(entityId, 'Old');
      await newDimension(entityId, 'Taken');
      const res = await staff.patch(`${base(entityId)}/dimensions/${id}`).send({ name: 'New' });
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ id, entityId, name: 'New' });
      expectError(await staff.patch(`${base(entityId)}/dimensions/${id}`).send({}), 400, 'VALIDATION_ERROR');
      expectError(await staff.patch(`${base(entityId)}/dimensions/${id}`).send({ name: 'Taken' }), 409, 'DIMENSION_NAME_ALREADY_EXISTS_ERROR');
      expectError(await staff.patch(`${base(entityId)}/dimensions/${uuid()}`).send({ name: 'x' }), 404, 'DIMENSION_NOT_FOUND_ERROR');
    });

    it('DELETE answers 200 with the deleted Dimension; with values it is 409 DIMENSION_HAS_VALUES_ERROR', async () => {
      const entityId = await freshEntity(world);
      const empty = await newDimension(entityId, 'Empty');
      const full = await newDimension(entityId, 'Full');
      await newValue(entityId, full, 'A');
      const res = await staff.delete(`${base(entityId)}/dimensions/${empty}`);
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ id: empty, name: 'Empty', entityId });
      expectError(await staff.delete(`${base(entityId)}/dimensions/${full}`), 409, 'DIMENSION_HAS_VALUES_ERROR');
      expectError(await staff.delete(`${base(entityId)}/dimensions/${empty}`), 404, 'DIMENSION_NOT_FOUND_ERROR');
    });

    it('a viewer reads Dimensions but cannot create one', async () => {
      expectStatus(await world.viewerMember.agent.get(`${base(world.entityId)}/dimensions`), 200);
      expectError(await world.viewerMember.agent.post(`${base(world.entityId)}/dimensions`).send({ id: uuid(), name: 'V' }), 403, 'PERMISSION_DENIED_ERROR');
    });
  });

  describe('Dimension values', () => {
    it('POST answers 201 { id, entityId, dimensionId, code, name, parentId, createdAt, updatedAt }', async () => {
      const entityId = await freshEntity(world);
      const dimensionId = await newDimension(entityId);
      const id = uuid();
      const res = await staff.post(`${base(entityId)}/dimensions/${dimensionId}/values`).send({ id, code: 'SCL', name: 'Santiago' });
      expectStatus(res, 201);
      expect(Object.keys(res.body).sort()).toEqual(['code', 'createdAt', 'dimensionId', 'entityId', 'id', 'name', 'parentId', 'updatedAt']);
      expect(res.body).toMatchObject({ id, entityId, dimensionId, code: 'SCL', name: 'Santiago', parentId: null });
    });

    it('GET lists the Dimension\'s values; of a missing Dimension 404 DIMENSION_NOT_FOUND_ERROR', async () => {
      const entityId = await freshEntity(world);
      const dimensionId = await newDimension(entityId);
      const a = await newValue(entityId, dimensionId, 'A');
      const b = await newValue(entityId, dimensionId, 'B', a);
      const res = await staff.get(`${base(entityId)}/dimensions/${dimensionId}/values`);
      expectStatus(res, 200);
      expect(res.body.map((v: { id: string }) => v.id).sort()).toEqual([a, b].sort());
      expect(res.body.find((v: { id: string }) => v.id === b).parentId).toBe(a);
      expectError(await staff.get(`${base(entityId)}/dimensions/${uuid()}/values`), 404, 'DIMENSION_NOT_FOUND_ERROR');
      expectError(await staff.post(`${base(entityId)}/dimensions/${uuid()}/values`).send({ id: uuid(), code: 'X', name: 'X' }), 404, 'DIMENSION_NOT_FOUND_ERROR');
    });

    it('a reused id is 409 DIMENSION_VALUE_ALREADY_EXISTS_ERROR', async () => {
      const entityId = await freshEntity(world);
      const dimensionId = await newDimension(entityId);
      const id = await newValue(entityId, dimensionId, 'A');
      expectError(await staff.post(`${base(entityId)}/dimensions/${dimensionId}/values`).send({ id, code: 'B', name: 'B' }), 409, 'DIMENSION_VALUE_ALREADY_EXISTS_ERROR');
    });

    it('a code in use within the Dimension is 409 DIMENSION_VALUE_CODE_ALREADY_EXISTS_ERROR; another Dimension may reuse it', async () => {
      const entityId = await freshEntity(world);
      const d1 = await newDimension(entityId);
      const d2 = await newDimension(entityId);
      await newValue(entityId, d1, 'A');
      expectError(await staff.post(`${base(entityId)}/dimensions/${d1}/values`).send({ id: uuid(), code: 'A', name: 'again' }), 409, 'DIMENSION_VALUE_CODE_ALREADY_EXISTS_ERROR');
      expectStatus(await staff.post(`${base(entityId)}/dimensions/${d2}/values`).send({ id: uuid(), code: 'A', name: 'other dim' }), 201);
    });

    it('a missing parent, or one in another Dimension, is 404 DIMENSION_VALUE_PARENT_NOT_FOUND_ERROR', async () => {
      const entityId = await freshEntity(world);
      const d1 = await newDimension(entityId);
      const d2 = await newDimension(entityId);
      const foreign = await newValue(entityId, d2, 'F');
      expectError(await staff.post(`${base(entityId)}/dimensions/${d1}/values`).send({ id: uuid(), code: 'A', name: 'A', parentId: uuid() }), 404, 'DIMENSION_VALUE_PARENT_NOT_FOUND_ERROR');
      expectError(await staff.post(`${base(entityId)}/dimensions/${d1}/values`).send({ id: uuid(), code: 'B', name: 'B', parentId: foreign }), 404, 'DIMENSION_VALUE_PARENT_NOT_FOUND_ERROR');
    });

    it('empty code or name is 400 VALIDATION_ERROR', async () => {
      const entityId = await freshEntity(world);
      const d = await newDimension(entityId);
      expectError(await staff.post(`${base(entityId)}/dimensions/${d}/values`).send({ id: uuid(), code: '', name: 'A' }), 400, 'VALIDATION_ERROR');
      expectError(await staff.post(`${base(entityId)}/dimensions/${d}/values`).send({ id: uuid(), code: 'A', name: '' }), 400, 'VALIDATION_ERROR');
    });

    it('PATCH changes code, name and parent (200 value); empty body 400; missing value 404 DIMENSION_VALUE_NOT_FOUND_ERROR', async () => {
      const entityId = await freshEntity(world);
      const d = await newDimension(entityId);
      const a = await newValue(entityId, d, 'A');
      const b = await newValue(entityId, d, 'B');
      const res = await staff.patch(`${base(entityId)}/dimensions/${d}/values/${b}`).send({ code: 'B2', name: 'Bee', parentId: a });
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ id: b, code: 'B2', name: 'Bee', parentId: a, dimensionId: d });
      const cleared = await staff.patch(`${base(entityId)}/dimensions/${d}/values/${b}`).send({ parentId: null });
      expect(cleared.body.parentId).toBeNull();
      expectError(await staff.patch(`${base(entityId)}/dimensions/${d}/values/${b}`).send({}), 400, 'VALIDATION_ERROR');
      expectError(await staff.patch(`${base(entityId)}/dimensions/${d}/values/${uuid()}`).send({ name: 'x' }), 404, 'DIMENSION_VALUE_NOT_FOUND_ERROR');
      expectError(await staff.patch(`${base(entityId)}/dimensions/${d}/values/${b}`).send({ code: 'A' }), 409, 'DIMENSION_VALUE_CODE_ALREADY_EXISTS_ERROR');
    });

    it('PATCH making a value its own ancestor is 409 DIMENSION_VALUE_PARENT_CYCLE_ERROR', async () => {
      const entityId = await freshEntity(world);
      const d = await newDimension(entityId);
      const a = await newValue(entityId, d, 'A');
      const b = await newValue(entityId, d, 'B', a);
      const c = await newValue(entityId, d, 'C', b);
      expectError(await staff.patch(`${base(entityId)}/dimensions/${d}/values/${a}`).send({ parentId: c }), 409, 'DIMENSION_VALUE_PARENT_CYCLE_ERROR');
      expectError(await staff.patch(`${base(entityId)}/dimensions/${d}/values/${a}`).send({ parentId: a }), 409, 'DIMENSION_VALUE_PARENT_CYCLE_ERROR');
    });

    it('DELETE answers 200 with the deleted value; with children 409 DIMENSION_VALUE_HAS_CHILDREN_ERROR', async () => {
      const entityId = await freshEntity(world);
      const d = await newDimension(entityId);
      const a = await newValue(entityId, d, 'A');
      const b = await newValue(entityId, d, 'B', a);
      expectError(await staff.delete(`${base(entityId)}/dimensions/${d}/values/${a}`), 409, 'DIMENSION_VALUE_HAS_CHILDREN_ERROR');
      const res = await staff.delete(`${base(entityId)}/dimensions/${d}/values/${b}`);
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ id: b, code: 'B', parentId: a });
      expectStatus(await staff.delete(`${base(entityId)}/dimensions/${d}/values/${a}`), 200);
      expectError(await staff.delete(`${base(entityId)}/dimensions/${d}/values/${a}`), 404, 'DIMENSION_VALUE_NOT_FOUND_ERROR');
    });

    it('DELETE of a value tagged on a line is 409 DIMENSION_VALUE_IN_USE_ERROR', async () => {
      const entityId = await freshEntity(world);
      const chart = await buildChart(staff, entityId);
      const d = await newDimension(entityId);
      const v = await newValue(entityId, d, 'A');
      await post(staff, entityId, '2026-06-01', [dr(chart.cash, 10), cr(chart.sales, 10, { dimensionValueIds: [v] })]);
      expectError(await staff.delete(`${base(entityId)}/dimensions/${d}/values/${v}`), 409, 'DIMENSION_VALUE_IN_USE_ERROR');
    });
  });

  describe('Partners (D45)', () => {
    it('POST answers 201 with the partner row, RUT canonicalized, no Book named', async () => {
      const entityId = await freshEntity(world);
      const id = uuid();
      const res = await staff.post(`${base(entityId)}/partners`).send({ id, name: 'Cliente SpA', type: 'company', country: 'CL', taxId: '76.086.428-5' });
      expectStatus(res, 201);
      expect(Object.keys(res.body).sort()).toEqual(PARTNER_KEYS);
      expect(res.body).toMatchObject({ id, entityId, name: 'Cliente SpA', type: 'company', country: 'CL', taxId: '76086428-5', defaultPurchaseAccountId: null });
      expect(res.body.createdAt).toMatch(ISO_DATETIME);
    });

    it('accepts type individual and a foreign tax id as given', async () => {
      const res = await staff.post(`${base(world.entityId)}/partners`).send({ id: uuid(), name: 'John', type: 'individual', country: 'US', taxId: `SSN-${uuid().slice(0, 6)}` });
      expectStatus(res, 201);
      expect(res.body.type).toBe('individual');
    });

    it('an unknown type is 400 VALIDATION_ERROR', async () => {
      const res = await staff.post(`${base(world.entityId)}/partners`).send({ id: uuid(), name: 'X', type: 'government', country: 'CL', taxId: freshRut() });
      expectError(res, 400, 'VALIDATION_ERROR');
    });

    it('a bad Chilean RUT is 400 PARTNER_TAX_ID_INVALID_ERROR', async () => {
      const res = await staff.post(`${base(world.entityId)}/partners`).send({ id: uuid(), name: 'X', type: 'company', country: 'CL', taxId: '76.086.428-0' });
      expectError(res, 400, 'PARTNER_TAX_ID_INVALID_ERROR');
    });

    it('a tax id in use (after canonicalization) is 409 PARTNER_TAX_ID_ALREADY_EXISTS_ERROR', async () => {
      const entityId = await freshEntity(world);
      await createPartner(staff, entityId, 'One', '76086428-5');
      const res = await staff.post(`${base(entityId)}/partners`).send({ id: uuid(), name: 'Two', type: 'company', country: 'CL', taxId: '76.086.428-5' });
      expectError(res, 409, 'PARTNER_TAX_ID_ALREADY_EXISTS_ERROR');
    });

    it('a reused id is 409 PARTNER_ALREADY_EXISTS_ERROR', async () => {
      const entityId = await freshEntity(world);
      const id = await createPartner(staff, entityId, 'One', freshRut());
      const res = await staff.post(`${base(entityId)}/partners`).send({ id, name: 'Two', type: 'company', country: 'CL', taxId: freshRut() });
      expectError(res, 409, 'PARTNER_ALREADY_EXISTS_ERROR');
    });

    it('the same id and tax id in another Entity is no conflict (D4)', async () => {
      const a = await freshEntity(world);
      const b = await freshEntity(world);
      const taxId = freshRut();
      const id = await createPartner(staff, a, 'One', taxId);
      expectStatus(await staff.post(`${base(b)}/partners`).send({ id, name: 'One', type: 'company', country: 'CL', taxId }), 201);
    });

    it('defaultPurchaseAccountId is accepted on create and PATCH; a missing account is 404 LEDGER_ACCOUNT_NOT_FOUND_ERROR', async () => {
      const entityId = await freshEntity(world);
      const chart = await buildChart(staff, entityId);
      const res = await staff.post(`${base(entityId)}/partners`).send({ id: uuid(), name: 'Sup', type: 'company', country: 'CL', taxId: freshRut(), defaultPurchaseAccountId: chart.opex });
      expectStatus(res, 201);
      expect(res.body.defaultPurchaseAccountId).toBe(chart.opex);
      const patched = await staff.patch(`${base(entityId)}/partners/${res.body.id}`).send({ defaultPurchaseAccountId: chart.cogs });
      expectStatus(patched, 200);
      expect(patched.body.defaultPurchaseAccountId).toBe(chart.cogs);
      const missing = await staff.post(`${base(entityId)}/partners`).send({ id: uuid(), name: 'Sup2', type: 'company', country: 'CL', taxId: freshRut(), defaultPurchaseAccountId: uuid() });
      expectError(missing, 404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR');
    });

    it('GET /partners lists every partner by name, without Book figures', async () => {
      const entityId = await freshEntity(world);
      await createPartner(staff, entityId, 'Charlie', freshRut());
      await createPartner(staff, entityId, 'alpha', freshRut());
      await createPartner(staff, entityId, 'Bravo', freshRut());
      const res = await staff.get(`${base(entityId)}/partners`);
      expectStatus(res, 200);
      expect(res.body).toHaveLength(3);
      const names = res.body.map((p: { name: string }) => p.name);
      expect([...names].sort((x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0))).toEqual(names);
      for (const p of res.body) expect(Object.keys(p).sort()).toEqual(PARTNER_KEYS);
    });

    it('GET /partners/pages pages { rows, nextCursor } with receivable and payable open balances', async () => {
      const entityId = await freshEntity(world);
      const chart = await buildChart(staff, entityId);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(await createPartner(staff, entityId, `P${i}`, freshRut()));
      await post(staff, entityId, '2026-06-01', [dr(chart.receivable, 700, { partnerId: ids[0] }), cr(chart.sales, 700)]);
      await post(staff, entityId, '2026-06-01', [dr(chart.opex, 200), cr(chart.payable, 200, { partnerId: ids[0] })]);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await staff.get(`${base(entityId)}/partners/pages`).query({ limit: 2, ...(cursor ? { cursor } : {}) });
        expectStatus(res, 200);
        expect(Object.keys(res.body).sort()).toEqual(['nextCursor', 'rows']);
        expect(res.body.rows.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.rows.map((r: { id: string }) => r.id));
        cursor = res.body.nextCursor;
        pages++;
      } while (cursor && pages < 10);
      expect(pages).toBe(3);
      expect(seen.sort()).toEqual([...ids].sort());
      const first = await staff.get(`${base(entityId)}/partners/pages`);
      const row = first.body.rows.find((r: { id: string }) => r.id === ids[0]);
      expect(JSON.stringify(row)).toContain('700');
      expect(JSON.stringify(row)).toContain('200');
    });

    it('GET /partners/pages refuses a limit over 100 with 400 VALIDATION_ERROR', async () => {
      expectError(await staff.get(`${base(world.entityId)}/partners/pages`).query({ limit: 101 }), 400, 'VALIDATION_ERROR');
    });

    it('PATCH answers the partner row; the new tax id is canonicalized and checked', async () => {
      const entityId = await freshEntity(world);
      const id = await createPartner(staff, entityId, 'Old', freshRut());
      const other = rut(12345678);
      await createPartner(staff, entityId, 'Other', other);
      const res = await staff.patch(`${base(entityId)}/partners/${id}`).send({ name: 'New', country: 'CL', taxId: '11.111.111-1' });
      expectStatus(res, 200);
      expect(Object.keys(res.body).sort()).toEqual(PARTNER_KEYS);
      expect(res.body).toMatchObject({ id, name: 'New', taxId: '11111111-1' });
      expectError(await staff.patch(`${base(entityId)}/partners/${id}`).send({ country: 'CL', taxId: other }), 409, 'PARTNER_TAX_ID_ALREADY_EXISTS_ERROR');
      expectError(await staff.patch(`${base(entityId)}/partners/${id}`).send({ country: 'CL', taxId: '11.111.111-2' }), 400, 'PARTNER_TAX_ID_INVALID_ERROR');
      expectError(await staff.patch(`${base(entityId)}/partners/${uuid()}`).send({ name: 'x' }), 404, 'PARTNER_NOT_FOUND_ERROR');
    });

    it('DELETE answers 200 with the partner row; a missing one is 404 PARTNER_NOT_FOUND_ERROR', async () => {
      const entityId = await freshEntity(world);
      const id = await createPartner(staff, entityId, 'Gone', freshRut());
      const res = await staff.delete(`${base(entityId)}/partners/${id}`);
      expectStatus(res, 200);
      expect(Object.keys(res.body).sort()).toEqual(PARTNER_KEYS);
      expect(res.body.id).toBe(id);
      expectError(await staff.delete(`${base(entityId)}/partners/${id}`), 404, 'PARTNER_NOT_FOUND_ERROR');
    });

    it('DELETE while a line names the partner is 409 PARTNER_IN_USE_ERROR', async () => {
      const entityId = await freshEntity(world);
      const chart = await buildChart(staff, entityId);
      const id = await createPartner(staff, entityId, 'Busy', freshRut());
      await post(staff, entityId, '2026-06-01', [dr(chart.receivable, 10, { partnerId: id }), cr(chart.sales, 10)]);
      expectError(await staff.delete(`${base(entityId)}/partners/${id}`), 409, 'PARTNER_IN_USE_ERROR');
    });
  });
});
