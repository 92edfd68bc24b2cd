import { randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import { checkAccessMatrix } from './harness/access-matrix';
import { expectAudited, expectRefused } from './harness/db-checks';
import { entryHosts, EntryHosts } from './harness/hosts';
import type { TestApp } from './harness/test-app';
import { Agent, bootstrapStaffId, createWorldApp, freshEntity, ISO_DATETIME, World } from './harness/world';

/** Comments (D72, D75, D75a). */
describe('Comments', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let hosts: EntryHosts;
  let entryId: string;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp());
    hosts = await entryHosts(staff, world.entityId);
    entryId = await hosts.entry();
  });
  afterAll(() => t.close());

  const path = (entityId = world.entityId) => `/api/entities/${entityId}/comments`;
  const refused = (req: Test, status: number, code: string) => expectRefused(t, ['comments', 'audit_trail'], req, status, code);
  const body = (overrides: Record<string, unknown> = {}) => ({ id: randomUUID(), hostKind: 'ledger_entry', hostId: entryId, text: 'Revisar el IVA', ...overrides });
  const create = async (agent: Agent = staff, overrides: Record<string, unknown> = {}) => {
    const res = await agent.post(path()).send(body(overrides));
    expect(res.status).toBe(201);
    return res.body;
  };

  it('creates a comment: 201, the caller is the author, text stored trimmed, audited', async () => {
    const id = randomUUID();
    const res = await expectAudited(t, staff.post(path()).send(body({ id, text: '  Falta el respaldo  ' })), 201, {
      action: 'comment.create',
      resource_type: 'comment',
      resource_id: id,
    });
    expect(res.body).toEqual({
      id,
      entityId: world.entityId,
      hostKind: 'ledger_entry',
      hostId: entryId,
      authorUserId: await bootstrapStaffId(t),
      text: 'Falta el respaldo',
      createdAt: expect.stringMatching(ISO_DATETIME),
      updatedAt: expect.stringMatching(ISO_DATETIME),
    });
  });

  it('lists the comments of one record, oldest first', async () => {
    const host = await hosts.entry('Con comentarios');
    const a = await create(staff, { hostId: host, text: 'uno' });
    const b = await create(world.clientMember.agent, { hostId: host, text: 'dos' });
    const res = await staff.get(path()).query({ hostKind: 'ledger_entry', hostId: host });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([a, b]);
    expect((await world.viewerMember.agent.get(path()).query({ hostKind: 'ledger_entry', hostId: host })).body).toEqual([a, b]);
  });

  it.each([
    ['blank text', { text: '  ' }, 'text'],
    ['2,001 characters', { text: 'x'.repeat(2001) }, 'text'],
    ['an unknown host kind', { hostKind: 'partner' }, 'hostKind'],
    ['a malformed host id', { hostId: 'x' }, 'hostId'],
    ['an author', { authorUserId: randomUUID() }, 'authorUserId'],
  ])('POST with %s: 400 VALIDATION_ERROR', async (_label, overrides, errorPath) => {
    const res = await refused(staff.post(path()).send(body(overrides)), 400, 'VALIDATION_ERROR');
    expect(res.body.params.errors.map((e: { path: string }) => e.path)).toContain(errorPath);
  });

  it('takes 2,000 characters', async () => {
    expect((await create(staff, { text: 'x'.repeat(2000) })).text).toHaveLength(2000);
  });

  it('a reused id: 409 COMMENT_ALREADY_EXISTS_ERROR', async () => {
    const c = await create();
    const res = await refused(staff.post(path()).send(body({ id: c.id })), 409, 'COMMENT_ALREADY_EXISTS_ERROR');
    expect(res.body.params).toEqual({ commentId: c.id });
  });

  it('a host that is not a record of that kind in the Entity: 404 COMMENT_HOST_NOT_FOUND_ERROR on GET and POST (D75a)', async () => {
    const foreign = await (await entryHosts(staff, await freshEntity(world))).entry();
    for (const [hostKind, hostId] of [
      ['ledger_entry', randomUUID()],
      ['ledger_entry', foreign],
      ['invoice', entryId],
      ['bank_movement', randomUUID()],
    ]) {
      const posted = await refused(staff.post(path()).send(body({ hostKind, hostId })), 404, 'COMMENT_HOST_NOT_FOUND_ERROR');
      expect(posted.body.params).toEqual({ hostKind, hostId });
      const listed = await refused(staff.get(path()).query({ hostKind, hostId }), 404, 'COMMENT_HOST_NOT_FOUND_ERROR');
      expect(listed.body.params).toEqual({ hostKind, hostId });
    }
  });

  it('GET without hostKind or hostId: 400 VALIDATION_ERROR', async () => {
    for (const query of [{}, { hostKind: 'ledger_entry' }, { hostId: entryId }, { hostKind: 'x', hostId: entryId }]) {
      const res = await staff.get(path()).query(query);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    }
  });

  describe('author rules (D75)', () => {
    it('the author edits (200, text trimmed, audited); anyone else, staff included, gets 403 PERMISSION_DENIED_ERROR', async () => {
      const c = await create(world.clientMember.agent);
      const edited = await expectAudited(t, world.clientMember.agent.patch(`${path()}/${c.id}`).send({ text: ' corregido ' }), 200, { action: 'comment.update', resource_id: c.id });
      expect(edited.body).toMatchObject({ id: c.id, text: 'corregido', authorUserId: world.clientMember.id });
      for (const agent of [staff, world.staffMember.agent]) {
        const res = await refused(agent.patch(`${path()}/${c.id}`).send({ text: 'otro' }), 403, 'PERMISSION_DENIED_ERROR');
        expect(res.body.params).toEqual({ commentId: c.id });
      }
    });

    it('PATCH naming the host or the author: 400 VALIDATION_ERROR', async () => {
      const c = await create();
      await refused(staff.patch(`${path()}/${c.id}`).send({ text: 'x', hostId: randomUUID() }), 400, 'VALIDATION_ERROR');
      await refused(staff.patch(`${path()}/${c.id}`).send({}), 400, 'VALIDATION_ERROR');
    });

    it('the author deletes (200 with the deleted comment); a client Member who is not the author gets 403', async () => {
      const c = await create(world.clientMember.agent);
      const other = await onboardOtherClient();
      await refused(other.delete(`${path()}/${c.id}`), 403, 'PERMISSION_DENIED_ERROR');
      const res = await expectAudited(t, world.clientMember.agent.delete(`${path()}/${c.id}`), 200, { action: 'comment.delete', resource_id: c.id });
      expect(res.body).toEqual(c);
      await refused(world.clientMember.agent.delete(`${path()}/${c.id}`), 404, 'COMMENT_NOT_FOUND_ERROR');
    });

    it('global staff and staff Members of the Organization delete any comment', async () => {
      for (const agent of [staff, world.staffMember.agent]) {
        const c = await create(world.clientMember.agent);
        expect((await agent.delete(`${path()}/${c.id}`)).status).toBe(200);
      }
    });

    it('a viewer neither comments nor deletes (D16)', async () => {
      const c = await create();
      await refused(world.viewerMember.agent.post(path()).send(body()), 403, 'PERMISSION_DENIED_ERROR');
      await refused(world.viewerMember.agent.delete(`${path()}/${c.id}`), 403, 'PERMISSION_DENIED_ERROR');
    });

    it('a missing comment: 404 COMMENT_NOT_FOUND_ERROR with params { commentId }', async () => {
      const commentId = randomUUID();
      const res = await refused(staff.patch(`${path()}/${commentId}`).send({ text: 'x' }), 404, 'COMMENT_NOT_FOUND_ERROR');
      expect(res.body.params).toEqual({ commentId });
      await refused(staff.delete(`${path()}/${commentId}`), 404, 'COMMENT_NOT_FOUND_ERROR');
    });

    async function onboardOtherClient(): Promise<Agent> {
      const { onboardUser, grantMembership } = await import('./harness/world');
      const user = await onboardUser(t, staff, 'client', 'second-client');
      await grantMembership(staff, user.id, world.organizationId, 'client');
      return user.agent;
    }
  });

  it('an unbooked entry keeps its comments', async () => {
    const host = await hosts.entry('Anulada con comentario');
    const c = await create(staff, { hostId: host });
    await staff.delete(`/api/entities/${world.entityId}/ledger/entries/${host}`).expect(200);
    expect((await staff.get(path()).query({ hostKind: 'ledger_entry', hostId: host })).body).toEqual([c]);
  });

  describe('access', () => {
    it('GET /comments', () => checkAccessMatrix(t, world, { method: 'get', path: (e) => `${path(e)}?hostKind=ledger_entry&hostId=${entryId}` }));
    it('POST /comments', () => checkAccessMatrix(t, world, { method: 'post', path, body: () => body() }));
    it('PATCH /comments/:commentId', () => checkAccessMatrix(t, world, { method: 'patch', path: (e) => `${path(e)}/${randomUUID()}`, body: () => ({ text: 'x' }) }));
    it('DELETE /comments/:commentId', () => checkAccessMatrix(t, world, { method: 'delete', path: (e) => `${path(e)}/${randomUUID()}` }));
  });
});
