import { randomBytes, randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import { ObjectStore } from '../src/platform/object-store/object-store';
import { checkAccessMatrix } from './harness/access-matrix';
import { countRows, expectAudited, expectRefused } from './harness/db-checks';
import { entryHosts, EntryHosts } from './harness/hosts';
import type { TestApp } from './harness/test-app';
import { Agent, createWorldApp, freshEntity, ISO_DATETIME, World } from './harness/world';

/**
 * Attachments (spec, Attachments and Attachment upload; D70, D79, D79a): real bytes go from the
 * test to the embedded S3 server through the presigned URL, never through the service, and come
 * back through the download URL.
 */
describe('Attachments (D70, D79)', () => {
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

  const base = (hostId = entryId, entityId = world.entityId) => `/api/entities/${entityId}/ledger/entries/${hostId}/attachments`;
  const TABLES = ['attachments', 'audit_trail'];
  const refused = (req: Test, status: number, code: string) => expectRefused(t, TABLES, req, status, code);
  const pdf = (bytes: Buffer, overrides: Record<string, unknown> = {}) => ({ filename: 'factura-1001.pdf', contentType: 'application/pdf', byteSize: bytes.length, ...overrides });
  const putBytes = (url: string, bytes: Buffer, contentType = 'application/pdf') => fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body: bytes });

  async function presign(bytes: Buffer, overrides: Record<string, unknown> = {}, hostId = entryId, agent: Agent = staff) {
    const res = await agent.post(`${base(hostId)}/presign`).send(pdf(bytes, overrides));
    expect(res.status).toBe(200);
    return res.body as { attachmentId: string; url: string };
  }

  async function upload(bytes: Buffer, overrides: Record<string, unknown> = {}, hostId = entryId) {
    const slot = await presign(bytes, overrides, hostId);
    expect((await putBytes(slot.url, bytes, (overrides.contentType as string) ?? 'application/pdf')).status).toBe(200);
    const confirmed = await staff.post(`${base(hostId)}/confirm`).send({ attachmentId: slot.attachmentId, filename: overrides.filename ?? 'factura-1001.pdf' });
    expect(confirmed.status).toBe(200);
    return confirmed.body as { id: string; filename: string };
  }

  describe('the whole flow', () => {
    it('presign, PUT the bytes to the store, confirm, list, download the same bytes, delete (audited at each step)', async () => {
      const bytes = randomBytes(70_000);
      const slot = (
        await expectAudited(t, staff.post(`${base()}/presign`).send(pdf(bytes)), 200, {
          action: 'attachment.presign',
          resource_type: 'attachment',
          entity_id: world.entityId,
        })
      ).body;
      expect(slot).toEqual({ attachmentId: expect.any(String), url: expect.any(String) });
      const url = new URL(slot.url);
      // Issue 33: the URL names the upload's key, `uploads/` and D70's key of the attachment.
      expect(url.pathname).toBe(`/accounting-test/uploads/entities/${world.entityId}/ledger_entry/${entryId}/${slot.attachmentId}`);
      expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
      expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
      const [row] = await t.sql('SELECT * FROM audit_trail WHERE resource_id = $1', [slot.attachmentId]);
      expect(row.action).toBe('attachment.presign');
      // Not listed before it is confirmed.
      expect((await staff.get(base())).body).toEqual([]);

      expect((await putBytes(slot.url, bytes)).status).toBe(200);
      const confirmed = await expectAudited(t, staff.post(`${base()}/confirm`).send({ attachmentId: slot.attachmentId, filename: 'Factura 1001 (copia).pdf' }), 200, {
        action: 'attachment.confirm',
        resource_id: slot.attachmentId,
      });
      const attachment = {
        id: slot.attachmentId,
        filename: 'Factura 1001 (copia).pdf',
        contentType: 'application/pdf',
        byteSize: 70_000,
        createdAt: expect.stringMatching(ISO_DATETIME),
        updatedAt: expect.stringMatching(ISO_DATETIME),
      };
      expect(confirmed.body).toEqual(attachment);
      expect((await staff.get(base())).body).toEqual([attachment]);

      const link = await staff.get(`${base()}/${slot.attachmentId}/url`);
      expect(link.status).toBe(200);
      expect(new URL(link.body.url).searchParams.get('X-Amz-Expires')).toBe('300');
      const download = await fetch(link.body.url);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-disposition')).toBe('attachment; filename="Factura 1001 _copia_.pdf"');
      expect(download.headers.get('content-type')).toBe('application/pdf');
      expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);

      const deleted = await expectAudited(t, staff.delete(`${base()}/${slot.attachmentId}`), 204, { action: 'attachment.delete', resource_id: slot.attachmentId });
      expect(deleted.text).toBe('');
      expect((await staff.get(base())).body).toEqual([]);
      expect((await fetch(link.body.url)).status).toBe(404);
      expect(await countRows(t, 'attachments', 'id = $1', [slot.attachmentId])).toBe(0);
    });

    it('lists the confirmed attachments of the host oldest first, and only those of that host', async () => {
      const host = await hosts.entry('Otra venta');
      const first = await upload(randomBytes(10), { filename: 'a.csv', contentType: 'text/csv' }, host);
      const second = await upload(randomBytes(20), { filename: 'b.png', contentType: 'image/png' }, host);
      await presign(randomBytes(5), {}, host); // a slot, never confirmed
      expect((await staff.get(base(host))).body.map((a: { id: string }) => a.id)).toEqual([first.id, second.id]);
      expect((await staff.get(base(entryId))).body.map((a: { id: string }) => a.id)).not.toContain(first.id);
    });

    it('takes each of the seven content types, and 26,214,400 bytes (25 MB, inclusive)', async () => {
      for (const contentType of [
        'application/pdf',
        'image/png',
        'image/jpeg',
        'application/xml',
        'text/xml',
        'text/csv',
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      ]) {
        await presign(randomBytes(1), { contentType });
      }
      await presign(randomBytes(1), { byteSize: 26_214_400 });
    });

    it('a client Member attaches; a viewer lists and downloads but does not attach (D79, D79a)', async () => {
      const member = world.clientMember.agent;
      const bytes = randomBytes(30);
      const slot = await presign(bytes, {}, entryId, member);
      expect((await putBytes(slot.url, bytes)).status).toBe(200);
      expect((await member.post(`${base()}/confirm`).send({ attachmentId: slot.attachmentId, filename: 'm.pdf' })).status).toBe(200);
      const viewer = world.viewerMember.agent;
      expect((await viewer.get(base())).body.map((a: { id: string }) => a.id)).toContain(slot.attachmentId);
      expect((await viewer.get(`${base()}/${slot.attachmentId}/url`)).status).toBe(200);
      await refused(viewer.post(`${base()}/presign`).send(pdf(bytes)), 403, 'PERMISSION_DENIED_ERROR');
      await refused(viewer.delete(`${base()}/${slot.attachmentId}`), 403, 'PERMISSION_DENIED_ERROR');
    });
  });

  describe('the bytes never pass through the service', () => {
    it('a 25 MB file (26,214,400 bytes) goes from the client straight to the store: the URL is the store\'s, the service only reads its metadata', async () => {
      const bytes = Buffer.alloc(26_214_400, 7);
      const slot = await presign(bytes, { filename: 'big.pdf' });
      const servers = new URL(t.config.s3.endpoint!);
      expect(new URL(slot.url).origin).toBe(servers.origin);
      expect((await putBytes(slot.url, bytes)).status).toBe(200);
      const done = await staff.post(`${base()}/confirm`).send({ attachmentId: slot.attachmentId, filename: 'big.pdf' });
      expect(done.status).toBe(200);
      expect(done.body.byteSize).toBe(26_214_400);
      const download = await fetch((await staff.get(`${base()}/${slot.attachmentId}/url`)).body.url);
      expect(Number(download.headers.get('content-length'))).toBe(26_214_400);
      await download.body?.cancel();
    });

    it('no route of the service takes the bytes: a body past 1,000,000 bytes to any attachment route is refused (413, or not JSON), writing nothing', async () => {
      // One byte past D2's limit proves it for 25 MB as well: the body parser stops there.
      const bytes = Buffer.alloc(1_000_001, 0x20);
      for (const suffix of ['/presign', '/confirm']) {
        for (const type of ['application/pdf', 'application/octet-stream', 'application/json']) {
          const res = await refused(staff.post(`${base()}${suffix}`).set('content-type', type).send(bytes), type === 'application/json' ? 413 : 400, type === 'application/json' ? 'PAYLOAD_TOO_LARGE_ERROR' : 'MALFORMED_JSON_ERROR');
          expect(res.body.statusCode).toBeLessThan(500);
        }
      }
      // Nor is there a route to PUT bytes to.
      const put = await staff.put(`${base()}/${randomUUID()}`).set('content-type', 'application/pdf').send(Buffer.alloc(10));
      expect({ status: put.status, code: put.body.code }).toEqual({ status: 404, code: 'ROUTE_NOT_FOUND_ERROR' });
    });
  });

  describe('the store binds what was presigned', () => {
    it('refuses bytes of another length, another type or a changed URL; confirm then answers 409 ATTACHMENT_NOT_UPLOADED_ERROR', async () => {
      const bytes = randomBytes(100);
      const slot = await presign(bytes);
      expect((await putBytes(slot.url, Buffer.concat([bytes, Buffer.from('!')]))).status).toBe(403);
      expect((await putBytes(slot.url, bytes, 'image/png')).status).toBe(403);
      expect((await putBytes(slot.url.replace(/X-Amz-Signature=([0-9a-f])/, (_m, c: string) => `X-Amz-Signature=${c === '0' ? '1' : '0'}`), bytes)).status).toBe(403);
      expect((await putBytes(slot.url.replace('X-Amz-Expires=900', 'X-Amz-Expires=604800'), bytes)).status).toBe(403);
      await refused(staff.post(`${base()}/confirm`).send({ attachmentId: slot.attachmentId, filename: 'x.pdf' }), 409, 'ATTACHMENT_NOT_UPLOADED_ERROR');
    });
  });

  describe('confirm refusals (D70)', () => {
    it('before the upload: 409 ATTACHMENT_NOT_UPLOADED_ERROR, writing nothing; the slot stays confirmable', async () => {
      const bytes = randomBytes(10);
      const slot = await presign(bytes);
      const res = await refused(staff.post(`${base()}/confirm`).send({ attachmentId: slot.attachmentId, filename: 'x.pdf' }), 409, 'ATTACHMENT_NOT_UPLOADED_ERROR');
      expect(res.body.params).toEqual({ attachmentId: slot.attachmentId });
      expect((await putBytes(slot.url, bytes)).status).toBe(200);
      expect((await staff.post(`${base()}/confirm`).send({ attachmentId: slot.attachmentId, filename: 'x.pdf' })).status).toBe(200);
    });

    it('twice: 409 ATTACHMENT_ALREADY_EXISTS_ERROR, the attachment unchanged', async () => {
      const done = await upload(randomBytes(10));
      const res = await refused(staff.post(`${base()}/confirm`).send({ attachmentId: done.id, filename: 'renamed.pdf' }), 409, 'ATTACHMENT_ALREADY_EXISTS_ERROR');
      expect(res.body.params).toEqual({ attachmentId: done.id });
    });

    it('an object whose size or type differs from the slot (written around the URL): 409 ATTACHMENT_UPLOAD_MISMATCH_ERROR', async () => {
      const bytes = randomBytes(10);
      const slot = await presign(bytes);
      // Another presign of the same key with another length, as a writer with the bucket's keys could do.
      const other = await presign(randomBytes(11));
      const forged = other.url.replace(other.attachmentId, slot.attachmentId);
      expect((await putBytes(forged, randomBytes(11))).status).toBe(403); // the store still refuses the changed URL
      const store = t.app.get(ObjectStore);
      const key = `uploads/entities/${world.entityId}/ledger_entry/${entryId}/${slot.attachmentId}`;
      const direct = await store.presignPut({ key, contentType: 'text/csv', byteSize: 11, signedAt: new Date(), expiresInSeconds: 60 });
      expect((await putBytes(direct, randomBytes(11), 'text/csv')).status).toBe(200);
      const res = await refused(staff.post(`${base()}/confirm`).send({ attachmentId: slot.attachmentId, filename: 'x.pdf' }), 409, 'ATTACHMENT_UPLOAD_MISMATCH_ERROR');
      expect(res.body.params).toEqual({
        attachmentId: slot.attachmentId,
        expected: { byteSize: 10, contentType: 'application/pdf' },
        stored: { byteSize: 11, contentType: 'text/csv' },
      });
    });

    it('two confirms of one upload at once: one attachment (200), the other 409 ATTACHMENT_ALREADY_EXISTS_ERROR, one audit row', async () => {
      const bytes = randomBytes(40);
      const slot = await presign(bytes);
      expect((await putBytes(slot.url, bytes)).status).toBe(200);
      const audits = await countRows(t, 'audit_trail', "action = 'attachment.confirm' AND resource_id = $1", [slot.attachmentId]);
      const answers = await Promise.all([0, 1].map(() => staff.post(`${base()}/confirm`).send({ attachmentId: slot.attachmentId, filename: 'x.pdf' })));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(answers.find((r) => r.status === 409)!.body.code).toBe('ATTACHMENT_ALREADY_EXISTS_ERROR');
      expect(await countRows(t, 'audit_trail', "action = 'attachment.confirm' AND resource_id = $1", [slot.attachmentId])).toBe(audits + 1);
    });

    it('an id never presigned, or a slot of another host (even uploaded): 404 ATTACHMENT_NOT_FOUND_ERROR (D70: attachment missing)', async () => {
      await refused(staff.post(`${base()}/confirm`).send({ attachmentId: randomUUID(), filename: 'x.pdf' }), 404, 'ATTACHMENT_NOT_FOUND_ERROR');
      const bytes = randomBytes(3);
      const slot = await presign(bytes);
      const other = await hosts.entry('Otra');
      await refused(staff.post(`${base(other)}/confirm`).send({ attachmentId: slot.attachmentId, filename: 'x.pdf' }), 404, 'ATTACHMENT_NOT_FOUND_ERROR');
      expect((await putBytes(slot.url, bytes)).status).toBe(200);
      await refused(staff.post(`${base(other)}/confirm`).send({ attachmentId: slot.attachmentId, filename: 'x.pdf' }), 404, 'ATTACHMENT_NOT_FOUND_ERROR');
    });
  });

  describe('bad input: 400 VALIDATION_ERROR, nothing written', () => {
    it.each([
      ['a content type outside the seven', { contentType: 'application/zip' }, 'contentType'],
      ['a content type in another case', { contentType: 'Application/PDF' }, 'contentType'],
      ['byteSize 0', { byteSize: 0 }, 'byteSize'],
      ['byteSize over 26,214,400', { byteSize: 26_214_401 }, 'byteSize'],
      ['byteSize not an integer', { byteSize: 1.5 }, 'byteSize'],
      ['byteSize as a string (D2b)', { byteSize: '10' }, 'byteSize'],
      ['an empty file name', { filename: '' }, 'filename'],
      ['a blank file name', { filename: '   ' }, 'filename'],
      ['a 10,000-character file name', { filename: `${'a'.repeat(9996)}.pdf` }, 'filename'],
      ['a file name with NUL', { filename: 'a\u0000.pdf' }, 'filename'],
      ['a file name with a line break', { filename: 'a\r\nX-Evil: 1.pdf' }, 'filename'],
      ['a missing file name', { filename: undefined }, 'filename'],
      ['an unknown property', { objectKey: 'entities/x' }, 'objectKey'],
    ])('presign with %s', async (_label, overrides, path) => {
      const res = await refused(staff.post(`${base()}/presign`).send(pdf(randomBytes(1), overrides)), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors.map((e: { path: string }) => e.path)).toContain(path);
    });

    it.each([
      ['a malformed attachmentId', { attachmentId: 'nope', filename: 'x.pdf' }, 'attachmentId'],
      ['an empty file name', { attachmentId: randomUUID(), filename: '' }, 'filename'],
      ['a 10,000-character file name', { attachmentId: randomUUID(), filename: 'a'.repeat(10_000) }, 'filename'],
    ])('confirm with %s', async (_label, body, path) => {
      const res = await refused(staff.post(`${base()}/confirm`).send(body), 400, 'VALIDATION_ERROR');
      expect(res.body.params.errors.map((e: { path: string }) => e.path)).toContain(path);
    });

    it('a file name with path characters is kept as the name, but names no path in the key or the download header', async () => {
      const bytes = randomBytes(12);
      const slot = await presign(bytes, { filename: '../../../etc/passwd' });
      expect(new URL(slot.url).pathname).toBe(`/accounting-test/uploads/entities/${world.entityId}/ledger_entry/${entryId}/${slot.attachmentId}`);
      expect((await putBytes(slot.url, bytes)).status).toBe(200);
      const done = await staff.post(`${base()}/confirm`).send({ attachmentId: slot.attachmentId, filename: '..\\..\\x"; filename=evil.exe' });
      expect(done.status).toBe(200);
      expect(done.body.filename).toBe('..\\..\\x"; filename=evil.exe');
      const download = await fetch((await staff.get(`${base()}/${slot.attachmentId}/url`)).body.url);
      expect(download.headers.get('content-disposition')).toBe('attachment; filename="x__ filename=evil.exe"');
      expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    });
  });

  describe('hosts and attachments that are not there', () => {
    it('a missing entry, or one of another Entity: 404 ATTACHMENT_HOST_NOT_FOUND_ERROR on every route', async () => {
      const otherEntity = await freshEntity(world);
      const foreign = await (await entryHosts(staff, otherEntity)).entry();
      for (const hostId of [randomUUID(), foreign]) {
        const expectHost404 = async (req: Test) => {
          const res = await refused(req, 404, 'ATTACHMENT_HOST_NOT_FOUND_ERROR');
          expect(res.body.params).toEqual({ hostKind: 'ledger_entry', hostId });
        };
        await expectHost404(staff.post(`${base(hostId)}/presign`).send(pdf(randomBytes(1))));
        await expectHost404(staff.post(`${base(hostId)}/confirm`).send({ attachmentId: randomUUID(), filename: 'x.pdf' }));
        await expectHost404(staff.get(base(hostId)));
        await expectHost404(staff.get(`${base(hostId)}/${randomUUID()}/url`));
        await expectHost404(staff.delete(`${base(hostId)}/${randomUUID()}`));
      }
    });

    it('a missing invoice or bank movement: 404 ATTACHMENT_HOST_NOT_FOUND_ERROR with its kind', async () => {
      const id = randomUUID();
      const invoice = await refused(staff.post(`/api/entities/${world.entityId}/invoices/${id}/attachments/presign`).send(pdf(randomBytes(1))), 404, 'ATTACHMENT_HOST_NOT_FOUND_ERROR');
      expect(invoice.body.params).toEqual({ hostKind: 'invoice', hostId: id });
      const movement = await refused(staff.get(`/api/entities/${world.entityId}/bank-movements/${id}/attachments`), 404, 'ATTACHMENT_HOST_NOT_FOUND_ERROR');
      expect(movement.body.params).toEqual({ hostKind: 'bank_movement', hostId: id });
    });

    it('a missing attachment, an unconfirmed slot or one of another host: 404 ATTACHMENT_NOT_FOUND_ERROR on url and delete', async () => {
      const slot = await presign(randomBytes(2));
      const done = await upload(randomBytes(2));
      const other = await hosts.entry('Tercera');
      for (const [hostId, attachmentId] of [
        [entryId, randomUUID()],
        [entryId, slot.attachmentId],
        [other, done.id],
      ]) {
        await refused(staff.get(`${base(hostId)}/${attachmentId}/url`), 404, 'ATTACHMENT_NOT_FOUND_ERROR');
        const res = await refused(staff.delete(`${base(hostId)}/${attachmentId}`), 404, 'ATTACHMENT_NOT_FOUND_ERROR');
        expect(res.body.params).toEqual({ attachmentId });
      }
    });

    it('an unbooked entry keeps its attachments (it stays on record)', async () => {
      const host = await hosts.entry('Se anula');
      const done = await upload(randomBytes(5), {}, host);
      await staff.delete(`/api/entities/${world.entityId}/ledger/entries/${host}`).expect(200);
      expect((await staff.get(base(host))).body.map((a: { id: string }) => a.id)).toEqual([done.id]);
    });
  });

  describe('OpenAPI (issue 21 routes)', () => {
    it('every attachment, To-do and comment route documents its request body and its response schema; operation ids are unique', async () => {
      type Op = { operationId: string; requestBody?: { content: Record<string, { schema: unknown }> }; responses: Record<string, { content?: Record<string, { schema: unknown }> }> };
      const doc = (await t.http.get('/api/docs-json')).body as { paths: Record<string, Record<string, Op>> };
      const ours = Object.entries(doc.paths).filter(([path]) => /\/(attachments|todos|comments)/.test(path));
      expect(ours.flatMap(([, operations]) => Object.keys(operations))).toHaveLength(15 + 4 + 4);
      const problems: string[] = [];
      const ids = new Set<string>();
      for (const [path, operations] of ours) {
        for (const [method, op] of Object.entries(operations)) {
          if (ids.has(op.operationId)) problems.push(`${method} ${path}: operationId ${op.operationId} repeated`);
          ids.add(op.operationId);
          const takesBody = (method === 'post' || method === 'patch') && !path.endsWith('/url');
          if (takesBody && !op.requestBody?.content['application/json']?.schema) problems.push(`${method} ${path}: no request schema`);
          const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'));
          if (!success) problems.push(`${method} ${path}: no success response`);
          else if (success[0] !== '204' && !success[1].content?.['application/json']?.schema) problems.push(`${method} ${path}: no response schema`);
        }
      }
      expect(problems).toEqual([]);
    });
  });

  describe('access (D16, D70, D79a)', () => {
    const matrixBody = () => pdf(randomBytes(1));
    it('POST presign', () => checkAccessMatrix(t, world, { method: 'post', path: (e) => `${base(entryId, e)}/presign`, body: matrixBody }));
    it('POST confirm', () =>
      checkAccessMatrix(t, world, { method: 'post', path: (e) => `${base(entryId, e)}/confirm`, body: () => ({ attachmentId: randomUUID(), filename: 'x.pdf' }) }));
    it('GET list', () => checkAccessMatrix(t, world, { method: 'get', path: (e) => base(entryId, e) }));
    it('GET url', () => checkAccessMatrix(t, world, { method: 'get', path: (e) => `${base(entryId, e)}/${randomUUID()}/url` }));
    it('DELETE', () => checkAccessMatrix(t, world, { method: 'delete', path: (e) => `${base(entryId, e)}/${randomUUID()}` }));
  });
});
