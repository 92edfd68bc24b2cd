import { randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import { checkAccessMatrix, MatrixRoute } from './harness/access-matrix';
import { expectRefused, lockWaiters, rowLockWaiters, sendNow, waitUntil, whileTableLocked } from './harness/db-checks';
import type { TestApp } from './harness/test-app';
import { Agent, createWorldApp, freshEntity, ISO_DATETIME, World } from './harness/world';

interface DimensionBody {
  id: string;
  entityId: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

interface ValueBody {
  id: string;
  entityId: string;
  dimensionId: string;
  code: string;
  name: string;
  parentId: string | null;
  createdAt: string;
  updatedAt: string;
}

describe('Dimensions and Dimension Values', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp());
  });
  afterAll(() => t.close());

  const dimensionsPath = (entityId: string) => `/api/entities/${entityId}/dimensions`;
  const valuesPath = (entityId: string, dimensionId: string) => `${dimensionsPath(entityId)}/${dimensionId}/values`;

  const createDimension = async (entityId: string, name: string, id: string = randomUUID()): Promise<DimensionBody> => {
    const res = await staff.post(dimensionsPath(entityId)).send({ id, name });
    expect(res.status).toBe(201);
    return res.body;
  };
  const createValue = async (entityId: string, dimensionId: string, code: string, parentId?: string | null): Promise<ValueBody> => {
    const body: Record<string, unknown> = { id: randomUUID(), code, name: `Value ${code}` };
    if (parentId !== undefined) body.parentId = parentId;
    const res = await staff.post(valuesPath(entityId, dimensionId)).send(body);
    expect(res.status).toBe(201);
    return res.body;
  };

  const dimensionRows = (entityId: string) =>
    t.sql('SELECT id, name, updated_at FROM dimensions WHERE entity_id = $1 ORDER BY id', [entityId]);
  const valueRows = (entityId: string) =>
    t.sql('SELECT id, dimension_id, code, name, parent_id, updated_at FROM dimension_values WHERE entity_id = $1 ORDER BY id', [entityId]);
  /** Sends a request that must be refused, and checks that neither the Dimensions, their values nor the audit trail changed. */
  const refusedWithoutWrites = (req: Test, status: number, code: string) => expectRefused(t, ['dimensions', 'dimension_values', 'audit_trail'], req, status, code);

  describe('Dimensions', () => {
    it('creates a Dimension and answers 201 with { id, entityId, name, createdAt, updatedAt }', async () => {
      const entityId = await freshEntity(world);
      const id = randomUUID();
      const res = await staff.post(dimensionsPath(entityId)).send({ id, name: 'Cost center' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id, entityId, name: 'Cost center', createdAt: expect.stringMatching(ISO_DATETIME), updatedAt: expect.stringMatching(ISO_DATETIME) });
      const audit = await t.sql('SELECT action, resource_type, resource_id FROM audit_trail WHERE entity_id = $1 AND resource_type = $2', [entityId, 'dimension']);
      expect(audit).toEqual([{ action: 'dimension.create', resource_type: 'dimension', resource_id: id }]);
    });

    it('lists the Dimensions of the Entity only', async () => {
      const entityId = await freshEntity(world);
      const other = await freshEntity(world);
      const region = await createDimension(entityId, 'Region');
      const cost = await createDimension(entityId, 'Cost center');
      await createDimension(other, 'Project');
      const res = await staff.get(dimensionsPath(entityId));
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(2);
      expect(res.body).toEqual(expect.arrayContaining([region, cost]));
    });

    it('refuses a reused id with 409 DIMENSION_ALREADY_EXISTS_ERROR and writes nothing', async () => {
      const entityId = await freshEntity(world);
      const dimension = await createDimension(entityId, 'Region');
      await refusedWithoutWrites(staff.post(dimensionsPath(entityId)).send({ id: dimension.id, name: 'Project' }), 409, 'DIMENSION_ALREADY_EXISTS_ERROR');
    });

    it('refuses a name in use on create with 409 DIMENSION_NAME_ALREADY_EXISTS_ERROR and writes nothing', async () => {
      const entityId = await freshEntity(world);
      await createDimension(entityId, 'Region');
      await refusedWithoutWrites(staff.post(dimensionsPath(entityId)).send({ id: randomUUID(), name: 'Region' }), 409, 'DIMENSION_NAME_ALREADY_EXISTS_ERROR');
    });

    it('accepts the same name in another Entity', async () => {
      await createDimension(await freshEntity(world), 'Region');
      await createDimension(await freshEntity(world), 'Region');
    });

    it.each([
      ['an empty name', { id: randomUUID(), name: '' }],
      ['a blank name', { id: randomUUID(), name: '   ' }],
      ['a missing id', { name: 'Region' }],
      ['a missing name', { id: randomUUID() }],
    ])('refuses %s on create with 400 VALIDATION_ERROR', async (_label, body) => {
      const entityId = await freshEntity(world);
      await refusedWithoutWrites(staff.post(dimensionsPath(entityId)).send(body), 400, 'VALIDATION_ERROR');
    });

    it('renames a Dimension and answers 200 with it', async () => {
      const entityId = await freshEntity(world);
      const dimension = await createDimension(entityId, 'Region');
      const res = await staff.patch(`${dimensionsPath(entityId)}/${dimension.id}`).send({ name: 'Zone' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...dimension, name: 'Zone', updatedAt: expect.stringMatching(ISO_DATETIME) });
      expect((await staff.get(dimensionsPath(entityId))).body).toEqual([res.body]);
    });

    it('answers 404 DIMENSION_NOT_FOUND_ERROR to a rename that waited for a delete of the Dimension, writing no audit row', async () => {
      const entityId = await freshEntity(world);
      const dimension = await createDimension(entityId, 'Region');
      let rename: Promise<import('supertest').Response> | undefined;
      // The delete has written and waits for its audit row; the rename is sent then.
      const deleted = await whileTableLocked(t, 'audit_trail', 1, () => staff.delete(`${dimensionsPath(entityId)}/${dimension.id}`), async () => {
        rename = Promise.resolve(staff.patch(`${dimensionsPath(entityId)}/${dimension.id}`).send({ name: 'Zone' }));
        await waitUntil(async () => (await rowLockWaiters(t)) >= 1);
      });
      const renamed = await rename!;
      expect([deleted.status, renamed.status, renamed.body.code]).toEqual([200, 404, 'DIMENSION_NOT_FOUND_ERROR']);
      expect(await t.sql(`SELECT action FROM audit_trail WHERE resource_id = $1 ORDER BY occurred_at`, [dimension.id])).toEqual([{ action: 'dimension.create' }, { action: 'dimension.delete' }]);
    });

    it('refuses a rename to a name in use with 409 DIMENSION_NAME_ALREADY_EXISTS_ERROR and writes nothing', async () => {
      const entityId = await freshEntity(world);
      await createDimension(entityId, 'Region');
      const project = await createDimension(entityId, 'Project');
      await refusedWithoutWrites(staff.patch(`${dimensionsPath(entityId)}/${project.id}`).send({ name: 'Region' }), 409, 'DIMENSION_NAME_ALREADY_EXISTS_ERROR');
    });

    it('refuses a rename without a name with 400 VALIDATION_ERROR', async () => {
      const entityId = await freshEntity(world);
      const dimension = await createDimension(entityId, 'Region');
      await refusedWithoutWrites(staff.patch(`${dimensionsPath(entityId)}/${dimension.id}`).send({}), 400, 'VALIDATION_ERROR');
      await refusedWithoutWrites(staff.patch(`${dimensionsPath(entityId)}/${dimension.id}`).send({ name: '' }), 400, 'VALIDATION_ERROR');
    });

    it('answers 404 DIMENSION_NOT_FOUND_ERROR for an unknown Dimension and one of another Entity, on every route', async () => {
      const entityId = await freshEntity(world);
      const other = await freshEntity(world);
      const foreign = await createDimension(other, 'Region');
      for (const dimensionId of [randomUUID(), foreign.id]) {
        const path = `${dimensionsPath(entityId)}/${dimensionId}`;
        await refusedWithoutWrites(staff.patch(path).send({ name: 'Zone' }), 404, 'DIMENSION_NOT_FOUND_ERROR');
        await refusedWithoutWrites(staff.delete(path), 404, 'DIMENSION_NOT_FOUND_ERROR');
        await refusedWithoutWrites(staff.get(`${path}/values`), 404, 'DIMENSION_NOT_FOUND_ERROR');
        await refusedWithoutWrites(staff.post(`${path}/values`).send({ id: randomUUID(), code: 'X', name: 'X' }), 404, 'DIMENSION_NOT_FOUND_ERROR');
      }
      expect((await dimensionRows(other)).map((row) => row.name)).toEqual(['Region']);
    });

    it('deletes a Dimension without values and answers 200 with the deleted Dimension', async () => {
      const entityId = await freshEntity(world);
      const dimension = await createDimension(entityId, 'Region');
      const res = await staff.delete(`${dimensionsPath(entityId)}/${dimension.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(dimension);
      expect(await dimensionRows(entityId)).toEqual([]);
      expect((await staff.get(dimensionsPath(entityId))).body).toEqual([]);
    });

    it('refuses to delete a Dimension with values with 409 DIMENSION_HAS_VALUES_ERROR and writes nothing', async () => {
      const entityId = await freshEntity(world);
      const dimension = await createDimension(entityId, 'Region');
      await createValue(entityId, dimension.id, 'N');
      await refusedWithoutWrites(staff.delete(`${dimensionsPath(entityId)}/${dimension.id}`), 409, 'DIMENSION_HAS_VALUES_ERROR');
    });
  });

  describe('Dimension Values', () => {
    let entityId: string;
    let dimension: DimensionBody;
    let otherDimension: DimensionBody;

    beforeEach(async () => {
      entityId = await freshEntity(world);
      dimension = await createDimension(entityId, 'Region');
      otherDimension = await createDimension(entityId, 'Project');
    });

    const valuePath = (valueId: string, dimensionId = dimension.id) => `${valuesPath(entityId, dimensionId)}/${valueId}`;

    it('creates a value and answers 201 with { id, entityId, dimensionId, code, name, parentId, createdAt, updatedAt }', async () => {
      const id = randomUUID();
      const res = await staff.post(valuesPath(entityId, dimension.id)).send({ id, code: 'N', name: 'North' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id,
        entityId,
        dimensionId: dimension.id,
        code: 'N',
        name: 'North',
        parentId: null,
        createdAt: expect.stringMatching(ISO_DATETIME),
        updatedAt: expect.stringMatching(ISO_DATETIME),
      });
      const child = await createValue(entityId, dimension.id, 'N1', id);
      expect(child.parentId).toBe(id);
      const list = await staff.get(valuesPath(entityId, dimension.id));
      expect(list.status).toBe(200);
      expect(list.body).toEqual([res.body, child]);
      expect((await staff.get(valuesPath(entityId, otherDimension.id))).body).toEqual([]);
    });

    it('refuses a reused value id with 409 DIMENSION_VALUE_ALREADY_EXISTS_ERROR and writes nothing', async () => {
      const value = await createValue(entityId, dimension.id, 'N');
      await refusedWithoutWrites(
        staff.post(valuesPath(entityId, dimension.id)).send({ id: value.id, code: 'S', name: 'South' }),
        409,
        'DIMENSION_VALUE_ALREADY_EXISTS_ERROR',
      );
      // Also when the id is reused under another Dimension of the Entity.
      await refusedWithoutWrites(
        staff.post(valuesPath(entityId, otherDimension.id)).send({ id: value.id, code: 'S', name: 'South' }),
        409,
        'DIMENSION_VALUE_ALREADY_EXISTS_ERROR',
      );
    });

    it('refuses a code in use in the same Dimension with 409 DIMENSION_VALUE_CODE_ALREADY_EXISTS_ERROR; the same code in another Dimension is fine', async () => {
      await createValue(entityId, dimension.id, 'N');
      await refusedWithoutWrites(
        staff.post(valuesPath(entityId, dimension.id)).send({ id: randomUUID(), code: 'N', name: 'Another north' }),
        409,
        'DIMENSION_VALUE_CODE_ALREADY_EXISTS_ERROR',
      );
      const elsewhere = await createValue(entityId, otherDimension.id, 'N');
      expect(elsewhere.code).toBe('N');
    });

    it('refuses an unknown parent and a parent of another Dimension with 404 DIMENSION_VALUE_PARENT_NOT_FOUND_ERROR', async () => {
      const foreignParent = await createValue(entityId, otherDimension.id, 'P');
      for (const parentId of [randomUUID(), foreignParent.id]) {
        await refusedWithoutWrites(
          staff.post(valuesPath(entityId, dimension.id)).send({ id: randomUUID(), code: 'C', name: 'Child', parentId }),
          404,
          'DIMENSION_VALUE_PARENT_NOT_FOUND_ERROR',
        );
      }
      const value = await createValue(entityId, dimension.id, 'C');
      for (const parentId of [randomUUID(), foreignParent.id]) {
        await refusedWithoutWrites(staff.patch(valuePath(value.id)).send({ parentId }), 404, 'DIMENSION_VALUE_PARENT_NOT_FOUND_ERROR');
      }
    });

    it.each([
      ['an empty code', { code: '', name: 'North' }],
      ['an empty name', { code: 'N', name: '' }],
      ['a blank code', { code: '  ', name: 'North' }],
      ['a missing code', { name: 'North' }],
      ['a malformed parentId', { code: 'N', name: 'North', parentId: 'nope' }],
    ])('refuses %s on create with 400 VALIDATION_ERROR', async (_label, body) => {
      await refusedWithoutWrites(staff.post(valuesPath(entityId, dimension.id)).send({ id: randomUUID(), ...body }), 400, 'VALIDATION_ERROR');
    });

    it('updates code, name and parent with PATCH and answers 200 with the value', async () => {
      const parent = await createValue(entityId, dimension.id, 'P');
      const value = await createValue(entityId, dimension.id, 'V');
      const res = await staff.patch(valuePath(value.id)).send({ code: 'V2', name: 'Renamed', parentId: parent.id });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...value, code: 'V2', name: 'Renamed', parentId: parent.id, updatedAt: expect.stringMatching(ISO_DATETIME) });
      const name = await staff.patch(valuePath(value.id)).send({ name: 'Only the name' });
      expect(name.status).toBe(200);
      expect(name.body).toMatchObject({ code: 'V2', name: 'Only the name', parentId: parent.id });
      const cleared = await staff.patch(valuePath(value.id)).send({ parentId: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ code: 'V2', name: 'Only the name', parentId: null });
      expect(await valueRows(entityId)).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: value.id, code: 'V2', name: 'Only the name', parent_id: null })]),
      );
    });

    it('refuses a PATCH with an empty body with 400 VALIDATION_ERROR', async () => {
      const value = await createValue(entityId, dimension.id, 'V');
      await refusedWithoutWrites(staff.patch(valuePath(value.id)).send({}), 400, 'VALIDATION_ERROR');
    });

    it('refuses a PATCH to a code in use in the Dimension with 409 DIMENSION_VALUE_CODE_ALREADY_EXISTS_ERROR', async () => {
      await createValue(entityId, dimension.id, 'A');
      const b = await createValue(entityId, dimension.id, 'B');
      await refusedWithoutWrites(staff.patch(valuePath(b.id)).send({ code: 'A' }), 409, 'DIMENSION_VALUE_CODE_ALREADY_EXISTS_ERROR');
    });

    it('refuses a parent that would make a value its own descendant with 409 DIMENSION_VALUE_PARENT_CYCLE_ERROR', async () => {
      const a = await createValue(entityId, dimension.id, 'A');
      const b = await createValue(entityId, dimension.id, 'B', a.id);
      const c = await createValue(entityId, dimension.id, 'C', b.id);
      await refusedWithoutWrites(staff.patch(valuePath(a.id)).send({ parentId: c.id }), 409, 'DIMENSION_VALUE_PARENT_CYCLE_ERROR');
      await refusedWithoutWrites(staff.patch(valuePath(a.id)).send({ parentId: b.id }), 409, 'DIMENSION_VALUE_PARENT_CYCLE_ERROR');
      await refusedWithoutWrites(staff.patch(valuePath(a.id)).send({ parentId: a.id }), 409, 'DIMENSION_VALUE_PARENT_CYCLE_ERROR');
      // Moving a descendant further down its own branch is no cycle.
      const moved = await staff.patch(valuePath(c.id)).send({ parentId: a.id });
      expect(moved.status).toBe(200);
      expect(moved.body.parentId).toBe(a.id);
    });

    it('A under B and C under A at once, B under C: the second waits for the first (on the Dimension) and is refused 409 DIMENSION_VALUE_PARENT_CYCLE_ERROR', async () => {
      const c = await createValue(entityId, dimension.id, 'C');
      const b = await createValue(entityId, dimension.id, 'B', c.id);
      const a = await createValue(entityId, dimension.id, 'A');
      let moving: ReturnType<typeof sendNow> | undefined;
      // A under B has written and waits for its audit row; C under A is sent then. Each alone is
      // no cycle; both would close A->B->C->A (the rows they lock are not the ones the other changes).
      const first = await whileTableLocked(t, 'audit_trail', 1, () => staff.patch(valuePath(a.id)).send({ parentId: b.id }), async () => {
        moving = sendNow(staff.patch(valuePath(c.id)).send({ parentId: a.id }));
        await waitUntil(async () => moving!.answered() || (await lockWaiters(t)) >= 2);
      });
      const second = await moving!.response;
      expect([first.status, second.status, second.body.code]).toEqual([200, 409, 'DIMENSION_VALUE_PARENT_CYCLE_ERROR']);
      const parents = Object.fromEntries((await valueRows(entityId)).map((row) => [row.id, row.parent_id]));
      expect([parents[a.id], parents[b.id], parents[c.id]]).toEqual([b.id, c.id, null]);
    });

    it.each([
      ['the delete first', 'delete', 404, 'DIMENSION_VALUE_PARENT_NOT_FOUND_ERROR'],
      ['the create first', 'create', 409, 'DIMENSION_VALUE_HAS_CHILDREN_ERROR'],
    ] as const)('a value created under a parent being deleted (%s): the second waits on the Dimension and is refused, never a 500', async (_label, first, status, code) => {
      const parent = await createValue(entityId, dimension.id, 'P');
      const childId = randomUUID();
      const requests = {
        delete: () => staff.delete(valuePath(parent.id)),
        create: () => staff.post(valuesPath(entityId, dimension.id)).send({ id: childId, code: 'P1', name: 'Child', parentId: parent.id }),
      };
      let sending: ReturnType<typeof sendNow> | undefined;
      // The first has written and waits for its audit row; the second is sent then.
      const firstAnswer = await whileTableLocked(t, 'audit_trail', 1, requests[first], async () => {
        sending = sendNow(requests[first === 'delete' ? 'create' : 'delete']());
        await waitUntil(async () => sending!.answered() || (await lockWaiters(t)) >= 2);
      });
      const second = await sending!.response;
      expect([firstAnswer.status, second.status, second.body.code]).toEqual([first === 'delete' ? 200 : 201, status, code]);
      const ids = (await valueRows(entityId)).map((row) => row.id);
      expect([ids.includes(parent.id), ids.includes(childId)]).toEqual(first === 'delete' ? [false, false] : [true, true]);
    });

    it('answers 404 DIMENSION_VALUE_NOT_FOUND_ERROR for an unknown value and for a value addressed under the wrong Dimension', async () => {
      const value = await createValue(entityId, dimension.id, 'V');
      for (const path of [valuePath(randomUUID()), valuePath(value.id, otherDimension.id)]) {
        await refusedWithoutWrites(staff.patch(path).send({ name: 'X' }), 404, 'DIMENSION_VALUE_NOT_FOUND_ERROR');
        await refusedWithoutWrites(staff.delete(path), 404, 'DIMENSION_VALUE_NOT_FOUND_ERROR');
      }
    });

    it('refuses to delete a value with children with 409 DIMENSION_VALUE_HAS_CHILDREN_ERROR; deleting a leaf answers 200 with the value', async () => {
      const parent = await createValue(entityId, dimension.id, 'P');
      const leaf = await createValue(entityId, dimension.id, 'L', parent.id);
      await refusedWithoutWrites(staff.delete(valuePath(parent.id)), 409, 'DIMENSION_VALUE_HAS_CHILDREN_ERROR');

      const res = await staff.delete(valuePath(leaf.id));
      expect(res.status).toBe(200);
      expect(res.body).toEqual(leaf);
      expect((await valueRows(entityId)).map((row) => row.id)).toEqual([parent.id]);

      const emptied = await staff.delete(valuePath(parent.id));
      expect(emptied.status).toBe(200);
      expect(emptied.body).toEqual(parent);
      expect(await valueRows(entityId)).toEqual([]);
      // With its values gone, the Dimension can be deleted.
      expect((await staff.delete(`${dimensionsPath(entityId)}/${dimension.id}`)).status).toBe(200);
    });
  });

  describe('access matrix', () => {
    let dimensionId: string;
    let valueId: string;
    beforeAll(async () => {
      dimensionId = (await createDimension(world.entityId, `Matrix ${randomUUID()}`)).id;
      valueId = (await createValue(world.entityId, dimensionId, `M-${randomUUID()}`)).id;
    });

    const routes: Array<[string, () => MatrixRoute]> = [
      ['GET /dimensions', () => ({ method: 'get', path: (id) => `/api/entities/${id}/dimensions` })],
      ['POST /dimensions', () => ({ method: 'post', path: (id) => `/api/entities/${id}/dimensions`, body: () => ({ id: randomUUID(), name: randomUUID() }) })],
      ['GET /dimensions/:dimensionId/values', () => ({ method: 'get', path: (id) => `/api/entities/${id}/dimensions/${dimensionId}/values` })],
      [
        'POST /dimensions/:dimensionId/values',
        () => ({
          method: 'post',
          path: (id) => `/api/entities/${id}/dimensions/${dimensionId}/values`,
          body: () => ({ id: randomUUID(), code: randomUUID(), name: 'Matrix value' }),
        }),
      ],
      [
        'PATCH /dimensions/:dimensionId/values/:dimensionValueId',
        () => ({ method: 'patch', path: (id) => `/api/entities/${id}/dimensions/${dimensionId}/values/${valueId}`, body: () => ({ name: `Matrix ${randomUUID()}` }) }),
      ],
      ['DELETE /dimensions/:dimensionId/values/:dimensionValueId', () => ({ method: 'delete', path: (id) => `/api/entities/${id}/dimensions/${dimensionId}/values/${valueId}` })],
      ['PATCH /dimensions/:dimensionId', () => ({ method: 'patch', path: (id) => `/api/entities/${id}/dimensions/${dimensionId}`, body: () => ({ name: `Matrix ${randomUUID()}` }) })],
      ['DELETE /dimensions/:dimensionId', () => ({ method: 'delete', path: (id) => `/api/entities/${id}/dimensions/${dimensionId}` })],
    ];

    it.each(routes)('%s', async (_label, route) => {
      await checkAccessMatrix(t, world, route());
    });
  });
});
