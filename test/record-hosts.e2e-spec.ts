import { randomBytes, randomUUID } from 'node:crypto';
import { AttachmentSweeper } from '../src/modules/attachments';
import { ObjectStore } from '../src/platform/object-store/object-store';
import { countRows } from './harness/db-checks';
import { entryHosts, EntryHosts } from './harness/hosts';
import type { TestApp } from './harness/test-app';
import { Agent, createWorldApp, World } from './harness/world';

/**
 * The hosts other modules provide (RecordHost): invoices and bank movements. Attachments, comments and To-dos work
 * on them as on ledger entries, and deleting one removes what hangs on it in its transaction.
 */
describe('Record hosts: invoices and bank movements', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let hosts: EntryHosts;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp());
    hosts = await entryHosts(staff, world.entityId);
  });
  afterAll(() => t.close());

  const e = (path: string) => `/api/entities/${world.entityId}${path}`;

  async function attach(invoiceId: string, bytes: Buffer) {
    const slot = await staff.post(e(`/invoices/${invoiceId}/attachments/presign`)).send({ filename: 'factura.xml', contentType: 'application/xml', byteSize: bytes.length }).expect(200);
    expect((await fetch(slot.body.url, { method: 'PUT', headers: { 'content-type': 'application/xml' }, body: bytes })).status).toBe(200);
    await staff.post(e(`/invoices/${invoiceId}/attachments/confirm`)).send({ attachmentId: slot.body.attachmentId, filename: 'factura.xml' }).expect(200);
    return slot.body.attachmentId as string;
  }

  it('an invoice hosts attachments (real bytes there and back), comments and a To-do with the invoice link summary', async () => {
    const invoiceId = await hosts.invoice('7001');
    const bytes = randomBytes(321);
    const attachmentId = await attach(invoiceId, bytes);
    expect((await staff.get(e(`/invoices/${invoiceId}/attachments`))).body.map((a: { id: string }) => a.id)).toEqual([attachmentId]);
    const download = await fetch((await staff.get(e(`/invoices/${invoiceId}/attachments/${attachmentId}/url`))).body.url);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);

    const comment = await staff.post(e('/comments')).send({ id: randomUUID(), hostKind: 'invoice', hostId: invoiceId, text: 'Falta OC' });
    expect(comment.status).toBe(201);
    const todo = await staff.post(e('/todos')).send({ id: randomUUID(), text: 'Cobrar', invoiceId });
    expect(todo.status).toBe(201);
    expect(todo.body).toMatchObject({ invoiceId, link: { kind: 'invoice', id: invoiceId, direction: 'ar', documentKind: 'invoice', documentNumber: '7001', partnerName: 'Cliente Uno SpA' } });
    expect(Object.keys(todo.body.link).sort()).toEqual(['direction', 'documentKind', 'documentNumber', 'id', 'kind', 'partnerName']);
  });

  it('deleting the invoice discards its attachments (objects swept after), deletes its comments and unlinks its To-dos, in its transaction', async () => {
    const invoiceId = await hosts.invoice('7002');
    const attachmentId = await attach(invoiceId, randomBytes(10));
    await staff.post(e('/comments')).send({ id: randomUUID(), hostKind: 'invoice', hostId: invoiceId, text: 'c' }).expect(201);
    const todo = (await staff.post(e('/todos')).send({ id: randomUUID(), text: 't', invoiceId }).expect(201)).body;

    await staff.delete(e(`/invoices/${invoiceId}`)).expect(204);
    expect((await t.sql('SELECT state FROM attachments WHERE id = $1', [attachmentId]))[0].state).toBe('discarded');
    expect(await countRows(t, 'comments', 'host_id = $1', [invoiceId])).toBe(0);
    expect((await staff.get(e('/todos'))).body.find((x: { id: string }) => x.id === todo.id)).toMatchObject({ invoiceId: null, link: null });
    const gone = await staff.get(e(`/invoices/${invoiceId}/attachments`));
    expect({ status: gone.status, code: gone.body.code }).toEqual({ status: 404, code: 'ATTACHMENT_HOST_NOT_FOUND_ERROR' });

    const key = `entities/${world.entityId}/invoice/${invoiceId}/${attachmentId}`;
    expect(await t.app.get(ObjectStore).head(key)).not.toBeNull();
    await t.app.get(AttachmentSweeper).sweep();
    expect(await t.app.get(ObjectStore).head(key)).toBeNull();
    expect(await countRows(t, 'attachments', 'id = $1', [attachmentId])).toBe(0);
  });

  it('a refused deletion (a booked invoice, 409) leaves its attachments, comments and To-do links as they were', async () => {
    const invoiceId = await hosts.invoice('7003');
    const attachmentId = await attach(invoiceId, randomBytes(10));
    const todo = (await staff.post(e('/todos')).send({ id: randomUUID(), text: 't', invoiceId }).expect(201)).body;
    const cash = randomUUID();
    await staff.post(e('/ledger/accounts')).send({ id: cash, name: 'Ventas', code: '4109', type: 'income', tracking: 'balance' }).expect(201);
    const booked = await staff.post(e(`/invoices/${invoiceId}/book`)).send({ entryId: randomUUID(), counterAccountId: cash, taxAccountId: cash });
    expect({ status: booked.status, body: booked.body }).toEqual({ status: 200, body: expect.anything() });
    const refused = await staff.delete(e(`/invoices/${invoiceId}`));
    expect(refused.status).toBe(409);
    expect((await t.sql('SELECT state FROM attachments WHERE id = $1', [attachmentId]))[0].state).toBe('confirmed');
    expect((await staff.get(e('/todos'))).body.find((x: { id: string }) => x.id === todo.id)).toMatchObject({ invoiceId });
  });

  it('a bank movement hosts attachments, comments and a To-do with the movement link summary; deleting it removes them in its transaction', async () => {
    const { id: movementId, bankAccountId } = await hosts.movement();
    const base = e(`/bank-movements/${movementId}/attachments`);
    const bytes = randomBytes(64);
    const slot = await staff.post(`${base}/presign`).send({ filename: 'cartola.csv', contentType: 'text/csv', byteSize: bytes.length }).expect(200);
    expect((await fetch(slot.body.url, { method: 'PUT', headers: { 'content-type': 'text/csv' }, body: bytes })).status).toBe(200);
    await staff.post(`${base}/confirm`).send({ attachmentId: slot.body.attachmentId, filename: 'cartola.csv' }).expect(200);
    const download = await fetch((await staff.get(`${base}/${slot.body.attachmentId}/url`)).body.url);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    await staff.post(e('/comments')).send({ id: randomUUID(), hostKind: 'bank_movement', hostId: movementId, text: 'c' }).expect(201);
    const todo = (await staff.post(e('/todos')).send({ id: randomUUID(), text: 'Conciliar', bankMovementId: movementId }).expect(201)).body;
    expect(todo.link).toEqual({ kind: 'bank_movement', id: movementId, bankAccountId, movementDate: '2026-06-02', amount: 250, side: 'debit', bankAccountCurrency: 'CLP' });

    await staff.delete(e(`/bank-movements/${movementId}`)).expect(200);
    expect((await t.sql('SELECT state FROM attachments WHERE id = $1', [slot.body.attachmentId]))[0].state).toBe('discarded');
    expect(await countRows(t, 'comments', 'host_id = $1', [movementId])).toBe(0);
    expect((await staff.get(e('/todos'))).body.find((x: { id: string }) => x.id === todo.id)).toMatchObject({ bankMovementId: null, link: null });
    await t.app.get(AttachmentSweeper).sweep();
    expect(await countRows(t, 'attachments', 'id = $1', [slot.body.attachmentId])).toBe(0);
  });
});
