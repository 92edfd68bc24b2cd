import { randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import { checkAccessMatrix } from './harness/access-matrix';
import { countRows, expectAudited, expectRefused } from './harness/db-checks';
import { entryHosts, EntryHosts } from './harness/hosts';
import type { TestApp } from './harness/test-app';
import { Agent, createWorldApp, freshEntity, ISO_DATETIME, World } from './harness/world';

/** To-dos (spec, To-do and To-dos; D17, D61a, D71, D75). */
describe('To-dos', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let hosts: EntryHosts;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp());
    hosts = await entryHosts(staff, world.entityId);
  });
  afterAll(() => t.close());

  const path = (entityId = world.entityId) => `/api/entities/${entityId}/todos`;
  const refused = (req: Test, status: number, code: string) => expectRefused(t, ['todos', 'audit_trail'], req, status, code);
  const create = async (body: Record<string, unknown> = {}) => {
    const res = await staff.post(path()).send({ id: randomUUID(), text: 'Revisar', ...body });
    expect(res.status).toBe(201);
    return res.body;
  };

  describe('POST /todos', () => {
    it('creates a stand-alone To-do, text stored trimmed, 201, audited', async () => {
      const id = randomUUID();
      const res = await expectAudited(t, staff.post(path()).send({ id, text: '  Pedir la factura corregida \n' }), 201, {
        action: 'todo.create',
        resource_type: 'todo',
        resource_id: id,
        entity_id: world.entityId,
      });
      expect(res.body).toEqual({
        id,
        entityId: world.entityId,
        text: 'Pedir la factura corregida',
        completedAt: null,
        invoiceId: null,
        bankMovementId: null,
        ledgerEntryId: null,
        link: null,
        createdAt: expect.stringMatching(ISO_DATETIME),
        updatedAt: expect.stringMatching(ISO_DATETIME),
      });
      expect((await t.sql('SELECT text FROM todos WHERE id = $1', [id]))[0].text).toBe('Pedir la factura corregida');
    });

    it('links a ledger entry, answering its summary; null link fields count as absent', async () => {
      const entryId = await hosts.entry('Venta 77');
      const todo = await create({ ledgerEntryId: entryId, invoiceId: null, bankMovementId: null });
      expect(todo).toMatchObject({ ledgerEntryId: entryId, invoiceId: null, bankMovementId: null, link: { kind: 'ledger_entry', id: entryId, entryDate: '2026-06-10', memo: 'Venta 77' } });
      expect(Object.keys(todo.link).sort()).toEqual(['entryDate', 'id', 'kind', 'memo']);
      const scheduled = await hosts.scheduled('Arriendo');
      expect((await create({ ledgerEntryId: scheduled })).link).toEqual({ kind: 'ledger_entry', id: scheduled, entryDate: '2099-01-15', memo: 'Arriendo' });
    });

    it.each([
      ['blank text', { text: '   ' }, 'text'],
      ['empty text', { text: '' }, 'text'],
      ['501 characters after trimming', { text: ` ${'x'.repeat(501)} ` }, 'text'],
      ['text as a number', { text: 5 }, 'text'],
      ['no text', { text: undefined }, 'text'],
      ['two links', { ledgerEntryId: randomUUID(), invoiceId: randomUUID() }, 'body'],
      ['three links', { ledgerEntryId: randomUUID(), invoiceId: randomUUID(), bankMovementId: randomUUID() }, 'body'],
      ['a malformed link id', { ledgerEntryId: 'x' }, 'ledgerEntryId'],
      ['a malformed id', { id: 'x' }, 'id'],
      ['completedAt', { completedAt: '2026-01-01T00:00:00.000Z' }, 'completedAt'],
    ])('%s: 400 VALIDATION_ERROR, nothing written', async (_label, body, errorPath) => {
      const res = await refused(staff.post(path()).send({ id: randomUUID(), text: 'x', ...body }), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors.map((e: { path: string }) => e.path)).toContain(errorPath);
    });

    it('takes 500 characters after trimming, counted as characters (emoji are one each)', async () => {
      expect((await create({ text: `  ${'x'.repeat(500)}  ` })).text).toHaveLength(500);
      expect([...(await create({ text: '😀'.repeat(500) })).text]).toHaveLength(500);
    });

    it('a reused id: 409 TODO_ALREADY_EXISTS_ERROR with params { todoId }', async () => {
      const todo = await create();
      const res = await refused(staff.post(path()).send({ id: todo.id, text: 'otra' }), 409, 'TODO_ALREADY_EXISTS_ERROR');
      expect(res.body).toMatchObject({ statusCode: 409, code: 'TODO_ALREADY_EXISTS_ERROR', params: { todoId: todo.id }, requestId: expect.any(String) });
    });

    it('two creates of one id at once: one To-do (201), the other 409 TODO_ALREADY_EXISTS_ERROR', async () => {
      const id = randomUUID();
      const answers = await Promise.all(['a', 'b'].map((text) => staff.post(path()).send({ id, text })));
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
      expect(answers.find((r) => r.status === 409)!.body).toMatchObject({ code: 'TODO_ALREADY_EXISTS_ERROR', params: { todoId: id } });
      expect(await countRows(t, 'todos', 'id = $1', [id])).toBe(1);
    });

    it('the same id in another Entity is another To-do (D4)', async () => {
      const todo = await create();
      const other = await freshEntity(world);
      expect((await staff.post(path(other)).send({ id: todo.id, text: 'x' })).status).toBe(201);
    });

    it('a missing record, another Entity\'s, an unbooked or a cancelled entry: 404 TODO_LINKED_RECORD_NOT_FOUND_ERROR with params { linkKind, recordId }', async () => {
      const otherEntity = await freshEntity(world);
      const foreign = await (await entryHosts(staff, otherEntity)).entry();
      const unbooked = await hosts.entry('Anulada');
      await staff.delete(`/api/entities/${world.entityId}/ledger/entries/${unbooked}`).expect(200);
      const cancelled = await hosts.scheduled('Cancelada');
      await staff.delete(`/api/entities/${world.entityId}/ledger/scheduled-entries/${cancelled}`).expect(200);
      for (const recordId of [randomUUID(), foreign, unbooked, cancelled]) {
        const res = await refused(staff.post(path()).send({ id: randomUUID(), text: 'x', ledgerEntryId: recordId }), 404, 'TODO_LINKED_RECORD_NOT_FOUND_ERROR');
        expect(res.body.params).toEqual({ linkKind: 'ledger_entry', recordId });
      }
      for (const [field, linkKind] of [
        ['invoiceId', 'invoice'],
        ['bankMovementId', 'bank_movement'],
      ]) {
        const recordId = randomUUID();
        const res = await refused(staff.post(path()).send({ id: randomUUID(), text: 'x', [field]: recordId }), 404, 'TODO_LINKED_RECORD_NOT_FOUND_ERROR');
        expect(res.body.params).toEqual({ linkKind, recordId });
      }
    });
  });

  describe('GET /todos', () => {
    it('lists open and completed To-dos oldest first, each with its link; filters by one record', async () => {
      const entityId = await freshEntity(world);
      const own = await entryHosts(staff, entityId);
      const entryId = await own.entry('Con link');
      const ids: string[] = [];
      for (const body of [{ text: 'uno' }, { text: 'dos', ledgerEntryId: entryId }, { text: 'tres' }]) {
        const res = await staff.post(path(entityId)).send({ id: randomUUID(), ...body }).expect(201);
        ids.push(res.body.id);
      }
      await staff.patch(`${path(entityId)}/${ids[0]}`).send({ completed: true }).expect(200);
      const all = await staff.get(path(entityId));
      expect(all.status).toBe(200);
      expect(all.body.map((x: { id: string }) => x.id)).toEqual(ids);
      expect(all.body[0].completedAt).toMatch(ISO_DATETIME);
      expect(all.body[1].link).toEqual({ kind: 'ledger_entry', id: entryId, entryDate: '2026-06-10', memo: 'Con link' });
      expect((await staff.get(path(entityId)).query({ ledgerEntryId: entryId })).body.map((x: { id: string }) => x.id)).toEqual([ids[1]]);
      expect((await staff.get(path(entityId)).query({ invoiceId: randomUUID() })).body).toEqual([]);
    });

    it('two filters, an unknown or a malformed one: 400 VALIDATION_ERROR', async () => {
      for (const query of [{ ledgerEntryId: randomUUID(), invoiceId: randomUUID() }, { bankMovementId: randomUUID(), invoiceId: randomUUID() }, { ledgerEntryId: 'x' }, { entryId: randomUUID() }]) {
        const res = await staff.get(path()).query(query);
        expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
      }
    });
  });

  describe('PATCH /todos/:todoId (state table)', () => {
    it('open -> completed sets completedAt; completing again keeps it; false reopens; text is trimmed; audited', async () => {
      const todo = await create();
      const done = await expectAudited(t, staff.patch(`${path()}/${todo.id}`).send({ completed: true }), 200, { action: 'todo.update', resource_id: todo.id });
      expect(done.body.completedAt).toMatch(ISO_DATETIME);
      const again = await staff.patch(`${path()}/${todo.id}`).send({ completed: true, text: '  nuevo  ' });
      expect(again.body).toMatchObject({ completedAt: done.body.completedAt, text: 'nuevo' });
      const reopened = await staff.patch(`${path()}/${todo.id}`).send({ completed: false });
      expect(reopened.body).toMatchObject({ completedAt: null, text: 'nuevo' });
      expect((await staff.patch(`${path()}/${todo.id}`).send({ completed: false })).body.completedAt).toBeNull();
    });

    it('keeps the link and its summary', async () => {
      const entryId = await hosts.entry('Link fijo');
      const todo = await create({ ledgerEntryId: entryId });
      expect((await staff.patch(`${path()}/${todo.id}`).send({ text: 'y' })).body.link).toEqual(todo.link);
    });

    it.each([
      ['no field', {}],
      ['a link field (D61a)', { ledgerEntryId: randomUUID() }],
      ['invoiceId null (D61a)', { invoiceId: null }],
      ['id (D61a)', { id: randomUUID() }],
      ['completed as a string (D2b)', { completed: 'true' }],
      ['blank text', { text: '  ' }],
      ['501 characters', { text: 'x'.repeat(501) }],
    ])('%s: 400 VALIDATION_ERROR, nothing written', async (_label, body) => {
      const todo = await create();
      await refused(staff.patch(`${path()}/${todo.id}`).send(body), 400, 'VALIDATION_ERROR');
    });

    it('a missing To-do: 404 TODO_NOT_FOUND_ERROR with params { todoId }', async () => {
      const todoId = randomUUID();
      const res = await refused(staff.patch(`${path()}/${todoId}`).send({ completed: true }), 404, 'TODO_NOT_FOUND_ERROR');
      expect(res.body.params).toEqual({ todoId });
    });
  });

  describe('DELETE /todos/:todoId', () => {
    it('answers 200 with the deleted To-do; then 404 TODO_NOT_FOUND_ERROR', async () => {
      const entryId = await hosts.entry('Borrar');
      const todo = await create({ ledgerEntryId: entryId });
      const res = await expectAudited(t, staff.delete(`${path()}/${todo.id}`), 200, { action: 'todo.delete', resource_id: todo.id });
      expect(res.body).toEqual(todo);
      expect(await countRows(t, 'todos', 'id = $1', [todo.id])).toBe(0);
      const again = await refused(staff.delete(`${path()}/${todo.id}`), 404, 'TODO_NOT_FOUND_ERROR');
      expect(again.body.params).toEqual({ todoId: todo.id });
    });
  });

  describe('links cleared with the record (D71)', () => {
    it('unbooking the entry clears the link in its transaction; the To-do stays, stand-alone, its state unchanged', async () => {
      const entryId = await hosts.entry('Se desbooka');
      const todo = await create({ ledgerEntryId: entryId });
      await staff.patch(`${path()}/${todo.id}`).send({ completed: true }).expect(200);
      const other = await create({ text: 'sin link' });
      await staff.delete(`/api/entities/${world.entityId}/ledger/entries/${entryId}`).expect(200);
      const [after] = (await staff.get(path())).body.filter((x: { id: string }) => x.id === todo.id);
      expect(after).toMatchObject({ ledgerEntryId: null, link: null, completedAt: expect.stringMatching(ISO_DATETIME), text: 'Revisar' });
      expect((await staff.get(path()).query({ ledgerEntryId: entryId })).body).toEqual([]);
      expect((await staff.get(path())).body.find((x: { id: string }) => x.id === other.id)).toEqual(other);
    });

    it('cancelling the scheduled entry clears the link', async () => {
      const scheduled = await hosts.scheduled('Se cancela');
      const todo = await create({ ledgerEntryId: scheduled });
      await staff.delete(`/api/entities/${world.entityId}/ledger/scheduled-entries/${scheduled}`).expect(200);
      expect((await staff.get(path())).body.find((x: { id: string }) => x.id === todo.id)).toMatchObject({ ledgerEntryId: null, link: null });
    });

    it('reversing the entry keeps the link (only unbooking and cancelling clear it)', async () => {
      const entryId = await hosts.entry('Se reversa');
      const todo = await create({ ledgerEntryId: entryId });
      await staff.post(`/api/entities/${world.entityId}/ledger/entries/${entryId}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-11' }).expect(201);
      expect((await staff.get(path())).body.find((x: { id: string }) => x.id === todo.id)).toMatchObject({ ledgerEntryId: entryId });
    });

    it('an unbooking racing a To-do that links the entry: either the To-do is refused or its link is cleared, never a link to an unbooked entry', async () => {
      for (let round = 0; round < 4; round++) {
        const entryId = await hosts.entry(`Carrera ${round}`);
        const todoId = randomUUID();
        const [created, unbooked] = await Promise.all([
          staff.post(path()).send({ id: todoId, text: 'x', ledgerEntryId: entryId }),
          staff.delete(`/api/entities/${world.entityId}/ledger/entries/${entryId}`),
        ]);
        expect(unbooked.status).toBe(200);
        expect([201, 404]).toContain(created.status);
        expect(await countRows(t, 'todos', 'ledger_entry_id = $1', [entryId])).toBe(0);
      }
    });
  });

  describe('access: staff of the Entity\'s Organization only (D17)', () => {
    it('a staff Member uses To-dos; a client Member and a viewer get 403 PERMISSION_DENIED_ERROR', async () => {
      expect((await world.staffMember.agent.post(path()).send({ id: randomUUID(), text: 'x' })).status).toBe(201);
      for (const agent of [world.clientMember.agent, world.viewerMember.agent]) {
        await refused(agent.get(path()), 403, 'PERMISSION_DENIED_ERROR');
        await refused(agent.post(path()).send({ id: randomUUID(), text: 'x' }), 403, 'PERMISSION_DENIED_ERROR');
      }
    });
    it('GET /todos', () => checkAccessMatrix(t, world, { method: 'get', path, todo: true }));
    it('POST /todos', () => checkAccessMatrix(t, world, { method: 'post', path, todo: true, body: () => ({ id: randomUUID(), text: 'x' }) }));
    it('PATCH /todos/:todoId', () => checkAccessMatrix(t, world, { method: 'patch', path: (e) => `${path(e)}/${randomUUID()}`, todo: true, body: () => ({ completed: true }) }));
    it('DELETE /todos/:todoId', () => checkAccessMatrix(t, world, { method: 'delete', path: (e) => `${path(e)}/${randomUUID()}`, todo: true }));
  });
});
