import { randomBytes, randomUUID } from 'node:crypto';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { AttachmentSweeper, SWEEP_LOCK_KEY } from '../src/modules/attachments';
import { RecordHosts } from '../src/modules/record-hosts';
import { FixedClock } from '../src/platform/clock/clock';
import { ObjectStore } from '../src/platform/object-store/object-store';
import { countRows } from './harness/db-checks';
import { entryHosts, EntryHosts } from './harness/hosts';
import type { TestApp } from './harness/test-app';
import { Agent, createWorldApp, World } from './harness/world';

const MINUTE = 60_000;

/**
 * What happens to uploads after the request: slots never confirmed are swept once they expired
 * (D70's 15 minutes, then 15 of grace), attachments of deleted records are discarded in the
 * deleting transaction and swept; one instance sweeps at a time. The clock port moves time.
 */
describe('Attachment sweeper and deleted hosts', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let hosts: EntryHosts;
  let store: ObjectStore;
  let sweeper: AttachmentSweeper;
  const clock = new FixedClock(new Date());

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock }));
    hosts = await entryHosts(staff, world.entityId);
    store = t.app.get(ObjectStore);
    sweeper = t.app.get(AttachmentSweeper);
  });
  afterAll(() => t.close());

  const base = (hostId: string) => `/api/entities/${world.entityId}/ledger/entries/${hostId}/attachments`;
  const keyOf = (hostId: string, id: string) => `entities/${world.entityId}/ledger_entry/${hostId}/${id}`;
  /** Issue 33: where the upload URL puts the bytes until confirm copies them to keyOf. */
  const uploadKeyOf = (hostId: string, id: string) => `uploads/${keyOf(hostId, id)}`;

  async function slot(hostId: string, bytes: Buffer, uploaded: boolean) {
    const res = await staff.post(`${base(hostId)}/presign`).send({ filename: 'f.pdf', contentType: 'application/pdf', byteSize: bytes.length }).expect(200);
    if (uploaded) expect((await fetch(res.body.url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: bytes })).status).toBe(200);
    return res.body.attachmentId as string;
  }
  const confirm = (hostId: string, attachmentId: string) => staff.post(`${base(hostId)}/confirm`).send({ attachmentId, filename: 'f.pdf' });

  it('sweeps expired unconfirmed slots with their objects (object, then row, audited as the system); keeps confirmed ones and slots still in time', async () => {
    clock.set(new Date());
    const host = await hosts.entry('Barrido');
    const uploadedSlot = await slot(host, randomBytes(50), true);
    const emptySlot = await slot(host, randomBytes(50), false);
    const kept = await slot(host, randomBytes(50), true);
    await confirm(host, kept).expect(200);

    // 29 minutes: the URL expired 14 minutes ago, the grace to confirm has not; nothing to sweep.
    clock.advance(29 * MINUTE);
    expect(await sweeper.sweep()).toEqual({ status: 'swept', removed: 0, failed: 0 });
    expect(await countRows(t, 'attachments', 'host_id = $1', [host])).toBe(3);

    clock.advance(1 * MINUTE);
    const auditBefore = await countRows(t, 'audit_trail');
    expect(await sweeper.sweep()).toEqual({ status: 'swept', removed: 2, failed: 0 });
    expect((await t.sql('SELECT id, state FROM attachments WHERE host_id = $1', [host])).map((r) => r.id)).toEqual([kept]);
    expect(await store.head(uploadKeyOf(host, uploadedSlot))).toBeNull();
    expect(await store.head(uploadKeyOf(host, kept))).toBeNull();
    expect(await store.head(keyOf(host, kept))).toEqual({ byteSize: 50, contentType: 'application/pdf' });
    expect(await countRows(t, 'audit_trail')).toBe(auditBefore + 2);
    const rows = await t.sql('SELECT * FROM audit_trail WHERE resource_id = ANY($1::text[]) AND declared_actor = $2 ORDER BY resource_id', [[uploadedSlot, emptySlot], 'system:attachment-sweeper']);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({
        actor_user_id: null,
        credential: null,
        declared_actor: 'system:attachment-sweeper',
        method: null,
        path: null,
        request_id: null,
        action: 'attachment.upload_expired',
        resource_type: 'attachment',
        entity_id: world.entityId,
      });
    }
    // A swept slot can no longer be confirmed: it is gone (404, D70's attachment missing).
    const late = await confirm(host, uploadedSlot);
    expect({ status: late.status, code: late.body.code }).toEqual({ status: 404, code: 'ATTACHMENT_NOT_FOUND_ERROR' });
    expect(await sweeper.sweep()).toEqual({ status: 'swept', removed: 0, failed: 0 });
  });

  it('an expired slot not yet swept cannot be confirmed: 409 ATTACHMENT_NOT_UPLOADED_ERROR', async () => {
    clock.set(new Date());
    const host = await hosts.entry('Tarde');
    const id = await slot(host, randomBytes(5), true);
    clock.advance(30 * MINUTE);
    const res = await confirm(host, id);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: 'ATTACHMENT_NOT_UPLOADED_ERROR' });
    await sweeper.sweep();
  });

  it('one instance sweeps at a time: while another holds the advisory lock, a sweep does nothing', async () => {
    clock.set(new Date());
    const host = await hosts.entry('Bloqueo');
    await slot(host, randomBytes(5), true);
    clock.advance(31 * MINUTE);
    await t.sql('BEGIN');
    try {
      await t.sql('SELECT pg_advisory_xact_lock($1)', [SWEEP_LOCK_KEY]);
      expect(await sweeper.sweep()).toEqual({ status: 'busy' });
      expect(await countRows(t, 'attachments', 'host_id = $1', [host])).toBe(1);
    } finally {
      await t.sql('ROLLBACK');
    }
    expect(await sweeper.sweep()).toEqual({ status: 'swept', removed: 1, failed: 0 });
  });

  it('a store that fails to remove an object keeps the row for the next sweep (never a row without its object, nor the reverse)', async () => {
    clock.set(new Date());
    const host = await hosts.entry('Falla');
    const id = await slot(host, randomBytes(5), true);
    clock.advance(31 * MINUTE);
    const spy = jest.spyOn(store, 'delete').mockRejectedValueOnce(new Error('store down'));
    try {
      expect(await sweeper.sweep()).toEqual({ status: 'swept', removed: 0, failed: 1 });
    } finally {
      spy.mockRestore();
    }
    expect(await countRows(t, 'attachments', 'id = $1', [id])).toBe(1);
    expect(await store.head(uploadKeyOf(host, id))).not.toBeNull();
    expect(await sweeper.sweep()).toEqual({ status: 'swept', removed: 1, failed: 0 });
    expect(await store.head(uploadKeyOf(host, id))).toBeNull();
  });

  describe('a deleted host (RecordHosts.recordsRemoved, in the deleting transaction)', () => {
    const txHost = () => t.app.get(TransactionHost) as TransactionHost<TransactionalAdapterTypeOrm>;
    const recordHosts = () => t.app.get(RecordHosts);

    /** An invoice's attachment, comment and To-do as the invoices module would leave them (rows; no invoice module yet). */
    async function invoiceWithEverything() {
      const invoiceId = randomUUID();
      const now = new Date();
      const attachmentId = randomUUID();
      const key = `entities/${world.entityId}/invoice/${invoiceId}/${attachmentId}`;
      const url = await store.presignPut({ key, contentType: 'text/csv', byteSize: 3, signedAt: new Date(), expiresInSeconds: 60 });
      expect((await fetch(url, { method: 'PUT', headers: { 'content-type': 'text/csv' }, body: 'a,b' })).status).toBe(200);
      await t.sql(
        `INSERT INTO attachments (entity_id, id, host_kind, host_id, object_key, filename, content_type, byte_size, state, expires_at, created_at, updated_at)
         VALUES ($1, $2, 'invoice', $3, $4, 'x.csv', 'text/csv', 3, 'confirmed', $5, $5, $5)`,
        [world.entityId, attachmentId, invoiceId, key, now],
      );
      const commentId = randomUUID();
      await t.sql(`INSERT INTO comments (entity_id, id, host_kind, host_id, author_user_id, text, created_at, updated_at) VALUES ($1, $2, 'invoice', $3, $4, 'c', $5, $5)`, [
        world.entityId,
        commentId,
        invoiceId,
        world.clientMember.id,
        now,
      ]);
      const todoId = randomUUID();
      await t.sql(`INSERT INTO todos (entity_id, id, text, invoice_id, created_at, updated_at) VALUES ($1, $2, 't', $3, $4, $4)`, [world.entityId, todoId, invoiceId, now]);
      return { invoiceId, attachmentId, key, commentId, todoId };
    }

    const snapshot = (ids: { attachmentId: string; commentId: string; todoId: string }) =>
      Promise.all([
        t.sql('SELECT state FROM attachments WHERE id = $1', [ids.attachmentId]),
        t.sql('SELECT id FROM comments WHERE id = $1', [ids.commentId]),
        t.sql('SELECT invoice_id FROM todos WHERE id = $1', [ids.todoId]),
      ]);

    it('discards its attachments (then swept, object first), deletes its comments, unlinks its To-dos', async () => {
      clock.set(new Date());
      const it = await invoiceWithEverything();
      await txHost().withTransaction(() => recordHosts().recordsRemoved(world.entityId, 'invoice', [it.invoiceId]));
      const [attachment, comment, todo] = await snapshot(it);
      expect(attachment).toEqual([{ state: 'discarded' }]);
      expect(comment).toEqual([]);
      expect(todo).toEqual([{ invoice_id: null }]);
      expect(await store.head(it.key)).not.toBeNull();
      expect(await sweeper.sweep()).toEqual({ status: 'swept', removed: 1, failed: 0 });
      expect(await store.head(it.key)).toBeNull();
      expect(await countRows(t, 'attachments', 'id = $1', [it.attachmentId])).toBe(0);
      expect(await countRows(t, 'audit_trail', 'resource_id = $1 AND action = $2', [it.attachmentId, 'attachment.discarded_removed'])).toBe(1);
    });

    it('all of it rolls back with the deletion when its transaction fails', async () => {
      const it = await invoiceWithEverything();
      const before = await snapshot(it);
      await expect(
        txHost().withTransaction(async () => {
          await recordHosts().recordsRemoved(world.entityId, 'invoice', [it.invoiceId]);
          throw new Error('the invoice deletion failed');
        }),
      ).rejects.toThrow('the invoice deletion failed');
      expect(await snapshot(it)).toEqual(before);
      expect(before[0]).toEqual([{ state: 'confirmed' }]);
    });

    it('a discarded attachment is gone from the host\'s answers at once', async () => {
      clock.set(new Date());
      const host = await hosts.entry('Host borrado');
      const id = await slot(host, randomBytes(5), true);
      await confirm(host, id).expect(200);
      await txHost().withTransaction(() => recordHosts().recordsRemoved(world.entityId, 'ledger_entry', [host]));
      expect((await staff.get(base(host))).body).toEqual([]);
      const url = await staff.get(`${base(host)}/${id}/url`);
      expect({ status: url.status, code: url.body.code }).toEqual({ status: 404, code: 'ATTACHMENT_NOT_FOUND_ERROR' });
      const again = await confirm(host, id);
      expect({ status: again.status, code: again.body.code }).toEqual({ status: 404, code: 'ATTACHMENT_NOT_FOUND_ERROR' });
      await sweeper.sweep();
    });
  });

  describe('issue 33: a confirmed attachment is out of the upload URL\'s reach', () => {
    const put = (url: string, bytes: Buffer) => fetch(url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: bytes });
    async function download(host: string, id: string) {
      const link = await staff.get(`${base(host)}/${id}/url`).expect(200);
      const answer = await fetch(link.body.url);
      expect(answer.status).toBe(200);
      return Buffer.from(await answer.arrayBuffer());
    }
    const keysUnder = async (prefix: string) => (await store.list(prefix, { limit: 1000 })).map((o) => o.key).sort();

    it('a PUT replayed with the upload URL after confirm, after a second confirm and after delete leaves the bytes unchanged; the sweeper removes what it left', async () => {
      clock.set(new Date());
      const host = await hosts.entry('Reemplazo');
      const original = randomBytes(64);
      const attacker = randomBytes(64);
      const presigned = await staff.post(`${base(host)}/presign`).send({ filename: 'f.pdf', contentType: 'application/pdf', byteSize: 64 }).expect(200);
      const id = presigned.body.attachmentId as string;
      expect((await put(presigned.body.url, original)).status).toBe(200);
      await confirm(host, id).expect(200);
      // Confirm moved the bytes: nothing is left under the URL's key.
      expect(await keysUnder(`uploads/${keyOf(host, id)}`)).toEqual([]);
      expect(await keysUnder(keyOf(host, id))).toEqual([keyOf(host, id)]);

      // The URL is still valid for the store (15 minutes), and the same length and type pass.
      expect((await put(presigned.body.url, attacker)).status).toBe(200);
      expect((await download(host, id)).equals(original)).toBe(true);
      // A second confirm does not copy the replayed bytes over the attachment.
      const again = await confirm(host, id);
      expect({ status: again.status, code: again.body.code }).toEqual({ status: 409, code: 'ATTACHMENT_ALREADY_EXISTS_ERROR' });
      expect((await download(host, id)).equals(original)).toBe(true);
      const [row] = await t.sql('SELECT state, byte_size FROM attachments WHERE id = $1', [id]);
      expect(row).toEqual({ state: 'confirmed', byte_size: 64 });

      // After delete, the replay recreates only an upload no row points to.
      await staff.delete(`${base(host)}/${id}`).expect(204);
      expect(await countRows(t, 'attachments', 'id = $1', [id])).toBe(0);
      expect((await put(presigned.body.url, attacker)).status).toBe(200);
      const entityPrefix = `entities/${world.entityId}/ledger_entry/${host}/`;
      expect(await keysUnder(entityPrefix)).toEqual([]);
      expect(await keysUnder(`uploads/${entityPrefix}`)).toEqual([`uploads/${keyOf(host, id)}`]);

      // Before the URL and the grace to confirm ran out (plus 5 minutes), the sweeper keeps it; after, it goes.
      clock.advance(30 * MINUTE);
      expect(await sweeper.sweepStrayUploads(`uploads/${entityPrefix}`)).toBe(0);
      clock.advance(6 * MINUTE);
      expect(await sweeper.sweepStrayUploads(`uploads/${entityPrefix}`)).toBe(1);
      expect(await keysUnder(`uploads/${entityPrefix}`)).toEqual([]);
      expect(await keysUnder(entityPrefix)).toEqual([]);
    });

    it('a replay after confirm, while the attachment stays: swept from uploads/, the attachment\'s bytes kept', async () => {
      clock.set(new Date());
      const host = await hosts.entry('Reemplazo 2');
      const original = randomBytes(32);
      const presigned = await staff.post(`${base(host)}/presign`).send({ filename: 'f.pdf', contentType: 'application/pdf', byteSize: 32 }).expect(200);
      const id = presigned.body.attachmentId as string;
      expect((await put(presigned.body.url, original)).status).toBe(200);
      await confirm(host, id).expect(200);
      expect((await put(presigned.body.url, randomBytes(32))).status).toBe(200);
      clock.advance(36 * MINUTE);
      expect(await sweeper.sweepStrayUploads(`uploads/entities/${world.entityId}/ledger_entry/${host}/`)).toBe(1);
      expect(await keysUnder(`uploads/entities/${world.entityId}/ledger_entry/${host}/`)).toEqual([]);
      expect((await download(host, id)).equals(original)).toBe(true);
    });

    it('delete asks the store with no transaction open (no pooled connection waits on it)', async () => {
      clock.set(new Date());
      const host = await hosts.entry('Borrado sin transacción');
      const id = await slot(host, randomBytes(8), true);
      const confirmed = await confirm(host, id);
      expect({ status: confirmed.status, body: confirmed.status === 200 ? null : confirmed.body }).toEqual({ status: 200, body: null });
      const idleInTransaction: number[] = [];
      const original = store.delete.bind(store);
      const spy = jest.spyOn(store, 'delete').mockImplementation(async (key: string) => {
        const [{ n }] = await t.sql(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name NOT LIKE 'citus_internal%' AND state LIKE 'idle in transaction%'`);
        idleInTransaction.push(n as number);
        return original(key);
      });
      try {
        await staff.delete(`${base(host)}/${id}`).expect(204);
      } finally {
        spy.mockRestore();
      }
      expect(idleInTransaction.length).toBeGreaterThan(0);
      expect(idleInTransaction.every((n) => n === 0)).toBe(true);
      expect(await countRows(t, 'attachments', 'id = $1', [id])).toBe(0);
      expect(await store.head(keyOf(host, id))).toBeNull();
    });

    it('a store that fails during delete: 204 and the attachment gone from every answer; the row stays discarded and the sweeper removes the object', async () => {
      clock.set(new Date());
      const host = await hosts.entry('Borrado con falla');
      const id = await slot(host, randomBytes(8), true);
      await confirm(host, id).expect(200);
      const spy = jest.spyOn(store, 'delete').mockRejectedValueOnce(new Error('store down'));
      try {
        await expectAuditedDelete(host, id);
      } finally {
        spy.mockRestore();
      }
      expect((await staff.get(base(host))).body).toEqual([]);
      expect(await t.sql('SELECT state FROM attachments WHERE id = $1', [id])).toEqual([{ state: 'discarded' }]);
      expect(await store.head(keyOf(host, id))).not.toBeNull();
      expect(await sweeper.sweep()).toEqual({ status: 'swept', removed: 1, failed: 0 });
      expect(await store.head(keyOf(host, id))).toBeNull();
      expect(await countRows(t, 'attachments', 'id = $1', [id])).toBe(0);
    });

    async function expectAuditedDelete(host: string, id: string) {
      const before = await countRows(t, 'audit_trail', "action = 'attachment.delete' AND resource_id = $1", [id]);
      await staff.delete(`${base(host)}/${id}`).expect(204);
      expect(await countRows(t, 'audit_trail', "action = 'attachment.delete' AND resource_id = $1", [id])).toBe(before + 1);
    }
  });
});
