import { randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import { checkAccessMatrix } from './harness/access-matrix';
import { expectAudited, expectRefused, whileTableLocked } from './harness/db-checks';
import { singleDte } from './harness/dte-xml';
import type { TestApp } from './harness/test-app';
import { Agent, createEntity, createLedgerAccount, createWorldApp, freshEntity, ISO_DATETIME, World } from './harness/world';

const ENTITY_RUT = '76086428-5';
const PARTNER_RUT = '96874030-K';
const OTHER_RUT = '77879240-0';
const TABLES = ['invoices', 'dtes', 'audit_trail'];

describe('Invoices (D60, D61, D64, D65a)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp());
  });
  afterAll(() => t.close());

  const path = (entityId: string, suffix = '') => `/api/entities/${entityId}/invoices${suffix}`;
  const refused = (req: Test, status: number, code: string) => expectRefused(t, TABLES, req, status, code);

  const createPartner = async (entityId: string, overrides: Record<string, unknown> = {}): Promise<string> => {
    const id = randomUUID();
    await staff
      .post(`/api/entities/${entityId}/partners`)
      .send({ id, name: 'Distribuidora Ñandú SpA', type: 'company', country: 'CL', taxId: PARTNER_RUT, ...overrides })
      .expect(201);
    return id;
  };

  const invoiceBody = (partnerId: string, overrides: Record<string, unknown> = {}) => ({
    id: randomUUID(),
    direction: 'ar',
    documentKind: 'invoice',
    documentNumber: String(1000 + Math.floor(Math.random() * 1e8)),
    issueDate: '2026-06-10',
    dueDate: '2026-07-10',
    partnerId,
    currency: 'CLP',
    netAmount: 100000,
    exemptAmount: 0,
    taxAmount: 19000,
    totalAmount: 119000,
    description: 'Servicios de junio',
    ...overrides,
  });

  const createInvoice = async (entityId: string, partnerId: string, overrides: Record<string, unknown> = {}) => {
    const res = await staff.post(path(entityId)).send(invoiceBody(partnerId, overrides));
    expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ status: 201, body: null });
    return res.body;
  };

  /** An Entity with a partner. */
  const setup = async () => {
    const entityId = await freshEntity(world);
    const partnerId = await createPartner(entityId);
    return { entityId, partnerId };
  };

  /** Marks an invoice booked by a manual entry (booking itself is tested in invoice-booking). */
  const markBooked = async (entityId: string, invoiceId: string) => {
    const cash = await createLedgerAccount(staff, entityId, { code: `11${Math.floor(Math.random() * 1e4)}`, type: 'asset', tracking: 'balance' });
    const income = await createLedgerAccount(staff, entityId, { code: `41${Math.floor(Math.random() * 1e4)}`, type: 'income', tracking: 'balance' });
    const entryId = randomUUID();
    await staff
      .post(`/api/entities/${entityId}/ledger/entries`)
      .send({
        id: entryId,
        entryDate: '2026-06-10',
        memo: 'm',
        newLedgerEntryLines: [
          { side: 'debit', ledgerAccountId: cash, amount: 1 },
          { side: 'credit', ledgerAccountId: income, amount: 1 },
        ],
      })
      .expect(201);
    await t.sql(`UPDATE invoices SET book_status = 'booked', ledger_entry_id = $3 WHERE entity_id = $1 AND id = $2`, [entityId, invoiceId, entryId]);
    return entryId;
  };

  describe('access', () => {
    let partnerId: string;
    let invoiceId: string;
    beforeAll(async () => {
      partnerId = await createPartner(world.entityId, { taxId: '60910000-1' });
      invoiceId = (await createInvoice(world.entityId, partnerId)).id;
    });
    it('GET /invoices', () => checkAccessMatrix(t, world, { method: 'get', path: (e) => path(e) }));
    it('GET /invoices/pages', () => checkAccessMatrix(t, world, { method: 'get', path: (e) => path(e, '/pages') }));
    it('POST /invoices', () => checkAccessMatrix(t, world, { method: 'post', path: (e) => path(e), body: () => invoiceBody(partnerId) }));
    it('GET /invoices/:invoiceId', () => checkAccessMatrix(t, world, { method: 'get', path: (e) => path(e, `/${invoiceId}`) }));
    it('PATCH /invoices/:invoiceId', () => checkAccessMatrix(t, world, { method: 'patch', path: (e) => path(e, `/${invoiceId}`), body: () => ({ description: 'x' }) }));
    it('DELETE /invoices/:invoiceId', () => checkAccessMatrix(t, world, { method: 'delete', path: (e) => path(e, `/${randomUUID()}`) }));
    it('PUT /invoices/:invoiceId/dte', () => checkAccessMatrix(t, world, { method: 'put', path: (e) => path(e, `/${invoiceId}/dte`), body: () => ({ dteId: randomUUID() }) }));
    it('DELETE /invoices/:invoiceId/dte', () => checkAccessMatrix(t, world, { method: 'delete', path: (e) => path(e, `/${invoiceId}/dte`) }));
    it('GET /dtes', () => checkAccessMatrix(t, world, { method: 'get', path: (e) => `/api/entities/${e}/dtes` }));
    it('GET /dtes/pages', () => checkAccessMatrix(t, world, { method: 'get', path: (e) => `/api/entities/${e}/dtes/pages` }));
    it('POST /dtes/import', () => checkAccessMatrix(t, world, { method: 'post', path: (e) => `/api/entities/${e}/dtes/import` }));
  });

  describe('POST /invoices', () => {
    it('creates an unbooked invoice, 201 with the D60 shape, and audits it', async () => {
      const { entityId, partnerId } = await setup();
      const body = invoiceBody(partnerId, { servicePeriodStart: '2026-06-01', servicePeriodEnd: '2026-06-30' });
      const res = await expectAudited(t, staff.post(path(entityId)).send(body), 201, { action: 'invoice.create', resource_type: 'invoice', resource_id: body.id, entity_id: entityId });
      expect(res.body).toEqual({
        id: body.id,
        entityId,
        direction: 'ar',
        documentKind: 'invoice',
        documentNumber: body.documentNumber,
        issueDate: '2026-06-10',
        dueDate: '2026-07-10',
        partnerId,
        currency: 'CLP',
        exchangeRate: null,
        netAmount: 100000,
        exemptAmount: 0,
        taxAmount: 19000,
        totalAmount: 119000,
        servicePeriodStart: '2026-06-01',
        servicePeriodEnd: '2026-06-30',
        description: 'Servicios de junio',
        bookStatus: 'unbooked',
        ledgerEntryId: null,
        dte: null,
        createdAt: expect.stringMatching(ISO_DATETIME),
        updatedAt: expect.stringMatching(ISO_DATETIME),
        entry: null,
      });
      expect((await staff.get(path(entityId, `/${body.id}`))).body).toEqual(res.body);
    });

    it('takes a rate of exactly 1 on an invoice in the Entity currency as none', async () => {
      const { entityId, partnerId } = await setup();
      const res = await staff.post(path(entityId)).send(invoiceBody(partnerId, { exchangeRate: '1.000' })).expect(201);
      expect(res.body.exchangeRate).toBeNull();
    });

    it('defaults exempt and tax to 0, and keeps a foreign-currency rate in its plain form', async () => {
      const { entityId, partnerId } = await setup();
      const res = await staff
        .post(path(entityId))
        .send({ id: randomUUID(), direction: 'ap', documentKind: 'other', documentNumber: 'INV-2026/7', issueDate: '2026-06-01', partnerId, currency: 'USD', exchangeRate: '0950.500', netAmount: 12345, totalAmount: 12345 })
        .expect(201);
      expect(res.body).toMatchObject({ exemptAmount: 0, taxAmount: 0, exchangeRate: '950.5', dueDate: null, description: null, documentKind: 'other', documentNumber: 'INV-2026/7' });
    });

    it('answers 409 INVOICE_ALREADY_EXISTS_ERROR for a reused id, whatever the body', async () => {
      const { entityId, partnerId } = await setup();
      const first = await createInvoice(entityId, partnerId);
      await refused(staff.post(path(entityId)).send(invoiceBody(partnerId, { id: first.id, totalAmount: 1 })), 409, 'INVOICE_ALREADY_EXISTS_ERROR');
    });

    it('takes an id used in another Entity (D4)', async () => {
      const a = await setup();
      const b = await setup();
      const first = await createInvoice(a.entityId, a.partnerId);
      await createInvoice(b.entityId, b.partnerId, { id: first.id, documentNumber: first.documentNumber });
    });

    it('answers 409 INVOICE_DOCUMENT_NUMBER_ALREADY_EXISTS_ERROR for the same number, direction, kind and partner only', async () => {
      const { entityId, partnerId } = await setup();
      const first = await createInvoice(entityId, partnerId, { documentNumber: '555' });
      const res = await refused(staff.post(path(entityId)).send(invoiceBody(partnerId, { documentNumber: '555' })), 409, 'INVOICE_DOCUMENT_NUMBER_ALREADY_EXISTS_ERROR');
      expect(res.body.params).toEqual({ direction: 'ar', documentKind: 'invoice', partnerId, documentNumber: '555' });
      await createInvoice(entityId, partnerId, { documentNumber: '555', direction: 'ap' });
      await createInvoice(entityId, partnerId, { documentNumber: '555', documentKind: 'credit_note' });
      const other = await createPartner(entityId, { taxId: OTHER_RUT, name: 'Otro' });
      await createInvoice(entityId, other, { documentNumber: '555' });
      expect(first.documentNumber).toBe('555');
    });

    it('takes a folio as an integer (D63a): leading zeros are dropped, so 0555 is folio 555 and a duplicate of it', async () => {
      const { entityId, partnerId } = await setup();
      const first = await createInvoice(entityId, partnerId, { documentNumber: '000555' });
      expect(first.documentNumber).toBe('555');
      await refused(staff.post(path(entityId)).send(invoiceBody(partnerId, { documentNumber: '555' })), 409, 'INVOICE_DOCUMENT_NUMBER_ALREADY_EXISTS_ERROR');
      await refused(staff.post(path(entityId)).send(invoiceBody(partnerId, { documentNumber: '0555' })), 409, 'INVOICE_DOCUMENT_NUMBER_ALREADY_EXISTS_ERROR');
      const other = await createInvoice(entityId, partnerId, { documentKind: 'other', documentNumber: '0042' });
      expect(other.documentNumber).toBe('0042');
    });

    it('refuses totals that do not add up, a missing or needless rate, bad dates and folios with 400 VALIDATION_ERROR naming the field', async () => {
      const { entityId, partnerId } = await setup();
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ totalAmount: 119001 }, 'totalAmount'],
        [{ currency: 'USD' }, 'exchangeRate'],
        [{ exchangeRate: '950' }, 'exchangeRate'],
        [{ exchangeRate: '1.5' }, 'exchangeRate'],
        [{ currency: 'XYZ', exchangeRate: '1' }, 'currency'],
        [{ dueDate: '2026-06-09' }, 'dueDate'],
        [{ servicePeriodStart: '2026-06-30', servicePeriodEnd: '2026-06-01' }, 'servicePeriodEnd'],
        [{ documentNumber: 'F-12' }, 'documentNumber'],
        [{ documentNumber: '0' }, 'documentNumber'],
        [{ documentNumber: '000' }, 'documentNumber'],
        [{ netAmount: '100000' }, 'netAmount'],
        [{ netAmount: 100000.5 }, 'netAmount'],
        [{ taxAmount: -1, totalAmount: 99999 }, 'taxAmount'],
        [{ direction: 'both' }, 'direction'],
        [{ documentKind: 'factura' }, 'documentKind'],
        [{ exchangeRate: 950 }, 'exchangeRate'],
        [{ bookStatus: 'booked' }, 'bookStatus'],
        [{ issueDate: '2026-02-30' }, 'issueDate'],
      ];
      for (const [override, field] of cases) {
        const res = await refused(staff.post(path(entityId)).send(invoiceBody(partnerId, override)), 400, 'VALIDATION_ERROR');
        expect({ override, paths: res.body.params.errors.map((e: { path: string }) => e.path) }).toEqual({ override, paths: expect.arrayContaining([field]) });
      }
    });

    it('answers 404 PARTNER_NOT_FOUND_ERROR for a partner of another Entity or none', async () => {
      const a = await setup();
      const b = await setup();
      await refused(staff.post(path(a.entityId)).send(invoiceBody(b.partnerId)), 404, 'PARTNER_NOT_FOUND_ERROR');
      await refused(staff.post(path(a.entityId)).send(invoiceBody(randomUUID())), 404, 'PARTNER_NOT_FOUND_ERROR');
    });

    it('locks the Entity identity fields (D22) and keeps its partner in use (D45)', async () => {
      const { entityId, partnerId } = await setup();
      expect((await staff.get(`/api/entities/${entityId}/editability`)).body).toEqual({ identityFieldsEditable: true });
      const invoice = await createInvoice(entityId, partnerId);
      expect((await staff.get(`/api/entities/${entityId}/editability`)).body).toEqual({ identityFieldsEditable: false });
      await expectRefused(t, ['entities', 'audit_trail'], staff.patch(`/api/entities/${entityId}`).send({ currency: 'USD' }), 409, 'ENTITY_IDENTITY_FIELDS_LOCKED_ERROR');
      await expectRefused(t, ['partners', 'invoices', 'audit_trail'], staff.delete(`/api/entities/${entityId}/partners/${partnerId}`), 409, 'PARTNER_IN_USE_ERROR');
      await staff.delete(path(entityId, `/${invoice.id}`)).expect(204);
      expect((await staff.get(`/api/entities/${entityId}/editability`)).body).toEqual({ identityFieldsEditable: true });
      await staff.delete(`/api/entities/${entityId}/partners/${partnerId}`).expect(200);
    });
  });

  describe('GET /invoices and /invoices/pages', () => {
    let entityId: string;
    let partnerA: string;
    let partnerB: string;
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      ({ entityId, partnerId: partnerA } = await setup());
      partnerB = await createPartner(entityId, { taxId: OTHER_RUT, name: 'Comercial Peñalolén' });
      ids.ar1 = (await createInvoice(entityId, partnerA, { issueDate: '2026-05-01', dueDate: null, documentNumber: '1', description: 'Asesoría contable' })).id;
      ids.ar2 = (await createInvoice(entityId, partnerB, { issueDate: '2026-05-15', dueDate: null, documentNumber: '2', description: null })).id;
      ids.ap1 = (await createInvoice(entityId, partnerA, { direction: 'ap', issueDate: '2026-05-31', dueDate: null, documentNumber: '3' })).id;
      ids.cn = (await createInvoice(entityId, partnerB, { documentKind: 'credit_note', issueDate: '2026-06-01', dueDate: null, documentNumber: '4' })).id;
      await markBooked(entityId, ids.ar2);
    });
    const listIds = async (query: string) => {
      const res = await staff.get(path(entityId, `?${query}`)).expect(200);
      return res.body.map((i: { id: string }) => i.id);
    };

    it('lists every invoice newest first, filtered by direction, kind, partner, book status and inclusive dates', async () => {
      expect(await listIds('')).toEqual([ids.cn, ids.ap1, ids.ar2, ids.ar1]);
      expect(await listIds('direction=ar')).toEqual([ids.cn, ids.ar2, ids.ar1]);
      expect(await listIds('documentKind=credit_note')).toEqual([ids.cn]);
      expect(await listIds(`partnerId=${partnerB}`)).toEqual([ids.cn, ids.ar2]);
      expect(await listIds('bookStatus=booked')).toEqual([ids.ar2]);
      expect(await listIds('bookStatus=unbooked&direction=ar')).toEqual([ids.cn, ids.ar1]);
      expect(await listIds('from=2026-05-15&to=2026-05-31')).toEqual([ids.ap1, ids.ar2]);
    });

    it('refuses bad filters with 400 VALIDATION_ERROR', async () => {
      for (const query of ['direction=x', 'documentKind=x', 'partnerId=1', 'bookStatus=x', 'from=2026-13-01', 'to=x']) {
        expect({ query, code: (await staff.get(path(entityId, `?${query}`))).body.code }).toEqual({ query, code: 'VALIDATION_ERROR' });
      }
    });

    it('pages by keyset, is matched before :invoiceId, and searches number, partner name and description ignoring case', async () => {
      const first = await staff.get(path(entityId, '/pages?limit=3')).expect(200);
      expect(first.body.rows.map((r: { id: string }) => r.id)).toEqual([ids.cn, ids.ap1, ids.ar2]);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const second = await staff.get(path(entityId, `/pages?limit=3&cursor=${first.body.nextCursor}`)).expect(200);
      expect(second.body).toEqual({ rows: [expect.objectContaining({ id: ids.ar1 })], nextCursor: null });
      const search = async (q: string, extra = '') => (await staff.get(path(entityId, `/pages?search=${encodeURIComponent(q)}${extra}`)).expect(200)).body.rows.map((r: { id: string }) => r.id);
      expect(await search('ASESORÍA')).toEqual([ids.ar1]);
      expect(await search('peñalolén')).toEqual([ids.cn, ids.ar2]);
      expect(await search('PEÑALOLÉN', '&bookStatus=unbooked')).toEqual([ids.cn]);
      expect(await search('3')).toEqual([ids.ap1]);
      expect(await search('%')).toEqual([]);
      expect((await staff.get(path(entityId, '/pages?cursor=bm90LWEtY3Vyc29y'))).body.code).toBe('VALIDATION_ERROR');
      expect((await staff.get(path(entityId, '/pages?limit=101'))).body.code).toBe('VALIDATION_ERROR');
      expect((await staff.get(path(entityId, '/pages?limit=0'))).body.code).toBe('VALIDATION_ERROR');
    });
  });

  describe('GET /invoices/:invoiceId', () => {
    it('answers 404 INVOICE_NOT_FOUND_ERROR for a missing invoice or one of another Entity, 400 for a malformed id', async () => {
      const a = await setup();
      const b = await setup();
      const invoice = await createInvoice(b.entityId, b.partnerId);
      const res = await staff.get(path(a.entityId, `/${invoice.id}`)).expect(404);
      expect(res.body).toMatchObject({ code: 'INVOICE_NOT_FOUND_ERROR', params: { invoiceId: invoice.id } });
      expect((await staff.get(path(a.entityId, '/not-a-uuid'))).status).toBe(400);
    });
  });

  describe('PATCH /invoices/:invoiceId', () => {
    it('changes any field but id and direction while unbooked, with the invoice and entry in the answer', async () => {
      const { entityId, partnerId } = await setup();
      const invoice = await createInvoice(entityId, partnerId);
      const other = await createPartner(entityId, { taxId: OTHER_RUT, name: 'Otro' });
      const change = { documentKind: 'exempt_invoice', documentNumber: '77', partnerId: other, netAmount: 0, exemptAmount: 5000, taxAmount: 0, totalAmount: 5000, dueDate: null, description: '  Exenta  ' };
      const res = await expectAudited(t, staff.patch(path(entityId, `/${invoice.id}`)).send(change), 200, { action: 'invoice.update', resource_id: invoice.id });
      expect(res.body).toMatchObject({ ...change, description: 'Exenta', id: invoice.id, direction: 'ar', entry: null, bookStatus: 'unbooked' });
    });

    it('refuses naming id or direction, an empty body and broken totals with 400 VALIDATION_ERROR (D61a)', async () => {
      const { entityId, partnerId } = await setup();
      const invoice = await createInvoice(entityId, partnerId);
      for (const body of [{ id: invoice.id }, { direction: 'ap' }, {}, { totalAmount: 1 }, { currency: 'USD' }, { netAmount: '1' }]) {
        await refused(staff.patch(path(entityId, `/${invoice.id}`)).send(body), 400, 'VALIDATION_ERROR');
      }
    });

    it('answers 404 for a missing invoice or partner and 409 for a taken number', async () => {
      const { entityId, partnerId } = await setup();
      const invoice = await createInvoice(entityId, partnerId);
      await createInvoice(entityId, partnerId, { documentNumber: '900' });
      await refused(staff.patch(path(entityId, `/${randomUUID()}`)).send({ description: 'x' }), 404, 'INVOICE_NOT_FOUND_ERROR');
      await refused(staff.patch(path(entityId, `/${invoice.id}`)).send({ partnerId: randomUUID() }), 404, 'PARTNER_NOT_FOUND_ERROR');
      await refused(staff.patch(path(entityId, `/${invoice.id}`)).send({ documentNumber: '900' }), 409, 'INVOICE_DOCUMENT_NUMBER_ALREADY_EXISTS_ERROR');
    });

    it('once booked changes only description and dueDate (409 INVOICE_BOOKED_ERROR otherwise)', async () => {
      const { entityId, partnerId } = await setup();
      const invoice = await createInvoice(entityId, partnerId);
      await markBooked(entityId, invoice.id);
      const res = await refused(staff.patch(path(entityId, `/${invoice.id}`)).send({ description: 'x', netAmount: 1, totalAmount: 19001 }), 409, 'INVOICE_BOOKED_ERROR');
      expect(res.body.params.fields).toEqual(['netAmount', 'totalAmount']);
      const ok = await staff.patch(path(entityId, `/${invoice.id}`)).send({ description: 'Corregida', dueDate: '2026-08-01' }).expect(200);
      expect(ok.body).toMatchObject({ description: 'Corregida', dueDate: '2026-08-01', bookStatus: 'booked' });
    });
  });

  describe('DELETE /invoices/:invoiceId', () => {
    it('deletes an unbooked invoice with 204 and audits it; 404 when missing', async () => {
      const { entityId, partnerId } = await setup();
      const invoice = await createInvoice(entityId, partnerId);
      const res = await expectAudited(t, staff.delete(path(entityId, `/${invoice.id}`)), 204, { action: 'invoice.delete', resource_id: invoice.id });
      expect(res.body).toEqual({});
      await refused(staff.delete(path(entityId, `/${invoice.id}`)), 404, 'INVOICE_NOT_FOUND_ERROR');
    });

    it('refuses a booked invoice with 409 INVOICE_BOOKED_ERROR', async () => {
      const { entityId, partnerId } = await setup();
      const invoice = await createInvoice(entityId, partnerId);
      await markBooked(entityId, invoice.id);
      await refused(staff.delete(path(entityId, `/${invoice.id}`)), 409, 'INVOICE_BOOKED_ERROR');
    });
  });

  describe('PUT and DELETE /invoices/:invoiceId/dte (D63, D65a)', () => {
    const importXml = async (entityId: string, xml: Buffer) => {
      const res = await staff.post(`/api/entities/${entityId}/dtes/import`).set('content-type', 'application/xml').send(xml).expect(201);
      return res.body.dtes[0].id as string;
    };

    it('links a matching DTE, shows it on the invoice and the DTE list, and unlinks it', async () => {
      const { entityId, partnerId } = await setup();
      const invoice = await createInvoice(entityId, partnerId, { documentNumber: '1500' });
      const dteId = await importXml(entityId, singleDte({ type: 33, folio: '1500', issuerRut: ENTITY_RUT, receiverRut: PARTNER_RUT, net: 100000, tax: 19000 }));
      const res = await expectAudited(t, staff.put(path(entityId, `/${invoice.id}/dte`)).send({ dteId }), 200, { action: 'invoice.dte.link', resource_id: invoice.id });
      expect(res.body).toMatchObject({ id: invoice.id, entry: null, dte: { id: dteId, dteType: 33, folio: '1500', direction: 'ar', invoiceId: invoice.id, totalAmount: 119000 } });
      expect((await staff.get(`/api/entities/${entityId}/dtes?linked=true`)).body.map((d: { id: string }) => d.id)).toEqual([dteId]);
      expect((await staff.get(`/api/entities/${entityId}/dtes?linked=false`)).body).toEqual([]);
      // A linked invoice cannot be changed into one the DTE does not describe.
      await refused(staff.patch(path(entityId, `/${invoice.id}`)).send({ documentNumber: '1501' }), 409, 'DTE_INVOICE_MISMATCH_ERROR');
      const unlinked = await expectAudited(t, staff.delete(path(entityId, `/${invoice.id}/dte`)), 200, { action: 'invoice.dte.unlink' });
      expect(unlinked.body).toMatchObject({ id: invoice.id, dte: null });
      expect((await staff.get(`/api/entities/${entityId}/dtes?linked=false`)).body.map((d: { id: string }) => d.id)).toEqual([dteId]);
    });

    it('checks in order: 404 DTE_NOT_FOUND_ERROR, 409 DTE_ALREADY_LINKED_ERROR, 409 DTE_INVOICE_MISMATCH_ERROR', async () => {
      const { entityId, partnerId } = await setup();
      const invoice = await createInvoice(entityId, partnerId, { documentNumber: '1600' });
      const other = await createInvoice(entityId, partnerId, { documentNumber: '1601', netAmount: 1, taxAmount: 0, totalAmount: 1 });
      const dteId = await importXml(entityId, singleDte({ type: 33, folio: '1600', issuerRut: ENTITY_RUT, receiverRut: PARTNER_RUT, net: 100000, tax: 19000 }));
      await refused(staff.put(path(entityId, `/${invoice.id}/dte`)).send({ dteId: randomUUID() }), 404, 'DTE_NOT_FOUND_ERROR');
      await refused(staff.put(path(entityId, `/${randomUUID()}/dte`)).send({ dteId }), 404, 'INVOICE_NOT_FOUND_ERROR');
      const mismatch = await refused(staff.put(path(entityId, `/${other.id}/dte`)).send({ dteId }), 409, 'DTE_INVOICE_MISMATCH_ERROR');
      expect(mismatch.body.params.fields).toEqual(['folio', 'totalAmount']);
      await staff.put(path(entityId, `/${invoice.id}/dte`)).send({ dteId }).expect(200);
      // Linked elsewhere is judged before the mismatch.
      await refused(staff.put(path(entityId, `/${other.id}/dte`)).send({ dteId }), 409, 'DTE_ALREADY_LINKED_ERROR');
      // Linking it again to the same invoice is idempotent.
      await staff.put(path(entityId, `/${invoice.id}/dte`)).send({ dteId }).expect(200);
    });

    it('matches direction and the counterparty RUT: an AP invoice takes the DTE its partner issued', async () => {
      const { entityId, partnerId } = await setup();
      const ap = await createInvoice(entityId, partnerId, { direction: 'ap', documentNumber: '88' });
      const received = await importXml(entityId, singleDte({ type: 33, folio: '88', issuerRut: PARTNER_RUT, receiverRut: ENTITY_RUT, net: 100000, tax: 19000 }));
      const issued = await importXml(entityId, singleDte({ type: 33, folio: '88', issuerRut: ENTITY_RUT, receiverRut: OTHER_RUT, net: 100000, tax: 19000 }));
      const res = await refused(staff.put(path(entityId, `/${ap.id}/dte`)).send({ dteId: issued }), 409, 'DTE_INVOICE_MISMATCH_ERROR');
      expect(res.body.params.fields).toEqual(['direction', 'partnerTaxId']);
      await staff.put(path(entityId, `/${ap.id}/dte`)).send({ dteId: received }).expect(200);
    });
  });

  it('answers two creates of one document number at once with one 201 and one 409, one row written', async () => {
    const { entityId, partnerId } = await setup();
    const [a, b] = await whileTableLocked(t, 'invoices', 2, () =>
      Promise.all([staff.post(path(entityId)).send(invoiceBody(partnerId, { documentNumber: '4242' })), staff.post(path(entityId)).send(invoiceBody(partnerId, { documentNumber: '4242' }))]),
    );
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect([a, b].find((r) => r.status === 409)!.body.code).toBe('INVOICE_DOCUMENT_NUMBER_ALREADY_EXISTS_ERROR');
    expect(await t.sql('SELECT count(*)::int AS n FROM invoices WHERE entity_id = $1', [entityId])).toEqual([{ n: 1 }]);
  });

  it('keeps another Entity out: an Entity created elsewhere sees none of these invoices', async () => {
    const org = world.organizationId;
    const { id } = await createEntity(staff, org);
    expect((await staff.get(path(id))).body).toEqual([]);
    expect((await staff.get(`/api/entities/${id}/dtes`)).body).toEqual([]);
    expect((await staff.get(`/api/entities/${id}/dtes/pages`)).body).toEqual({ rows: [], nextCursor: null });
  });
});
