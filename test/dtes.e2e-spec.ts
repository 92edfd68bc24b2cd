import { randomUUID } from 'node:crypto';
import { expectAudited, expectRefused } from './harness/db-checks';
import { DteSpec, envioDte, singleDte } from './harness/dte-xml';
import type { TestApp } from './harness/test-app';
import { Agent, createEntity, createWorldApp, World } from './harness/world';

const ENTITY_RUT = '76086428-5';
const CLIENT_RUT = '96874030-K';
const SUPPLIER_RUT = '77879240-0';
const TABLES = ['dtes', 'invoices', 'audit_trail'];

describe('DTE import (D63, D65a, D65b)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp());
  });
  afterAll(() => t.close());

  const entity = async () => (await createEntity(staff, world.organizationId, { taxId: '76.086.428-5' })).id;
  const importPath = (entityId: string) => `/api/entities/${entityId}/dtes/import`;
  const send = (entityId: string, xml: Buffer | string, type = 'application/xml') => staff.post(importPath(entityId)).set('content-type', type).send(xml);
  const refused = async (entityId: string, xml: Buffer | string, status: number, code: string, type?: string) =>
    expectRefused(t, TABLES, send(entityId, xml, type), status, code);

  const invoice = (folio: string, overrides: Partial<DteSpec> = {}): DteSpec => ({ type: 33, folio, issuerRut: ENTITY_RUT, issuerName: 'Servicios Ñuñoa SpA', receiverRut: CLIENT_RUT, net: 100000, tax: 19000, ...overrides });

  it('imports a signed ISO-8859-1 EnvioDTE of several types with accents, Ñ and a credit note referencing an invoice, 201', async () => {
    const entityId = await entity();
    const xml = envioDte(
      [
        invoice('1001', { receiverName: 'Comercial Peñalolén Ltda.', signed: true }),
        invoice('1002', { type: 34, net: undefined, tax: undefined, exempt: 50000, signed: true }),
        invoice('77', { type: 61, net: 10000, tax: 1900, references: [{ type: '33', folio: '1001', date: '2026-06-05', code: 3, reason: 'Corrige montos: descuento' }], signed: true }),
        invoice('55', { type: 56, net: 2000, tax: 380, references: [{ type: '33', folio: '1001', code: 2, reason: 'Corrige giro del receptor' }], signed: true }),
        { type: 33, folio: '9001', issuerRut: SUPPLIER_RUT, issuerName: 'Proveedora Ñandú & Cía.', receiverRut: ENTITY_RUT, net: 30000, tax: 5700, signed: true },
        { type: 46, folio: '300', issuerRut: ENTITY_RUT, issuerName: 'Servicios Ñuñoa SpA', receiverRut: '12345678-5', receiverName: 'José Muñoz', net: 40000, tax: 7600, signed: true },
      ],
      { signed: true },
    );
    expect(xml.includes(Buffer.from('Ñ', 'latin1'))).toBe(true);
    const res = await expectAudited(t, send(entityId, xml), 201, { action: 'dte.import', entity_id: entityId });
    expect(res.body.importedCount).toBe(6);
    expect(res.body.skippedCount).toBe(0);
    const byFolio = Object.fromEntries(res.body.dtes.map((d: { folio: string }) => [d.folio, d]));
    expect(byFolio['1001']).toEqual({
      id: expect.any(String),
      dteType: 33,
      folio: '1001',
      issuerTaxId: ENTITY_RUT,
      issuerName: 'Servicios Ñuñoa SpA',
      receiverTaxId: CLIENT_RUT,
      receiverName: 'Comercial Peñalolén Ltda.',
      issueDate: '2026-06-10',
      netAmount: 100000,
      exemptAmount: 0,
      taxAmount: 19000,
      totalAmount: 119000,
      foreignTotals: null,
      direction: 'ar',
      references: [],
      invoiceId: null,
    });
    expect(byFolio['1002']).toMatchObject({ dteType: 34, netAmount: 0, exemptAmount: 50000, totalAmount: 50000 });
    expect(byFolio['77']).toMatchObject({
      dteType: 61,
      direction: 'ar',
      references: [{ lineNumber: 1, documentType: '33', folio: '1001', date: '2026-06-05', code: 3, reason: 'Corrige montos: descuento' }],
    });
    expect(byFolio['55'].references[0]).toMatchObject({ code: 2, date: '2026-06-01' });
    // Received: the Entity is the receiver (ap); a factura de compra the Entity issued is a purchase (D65b).
    expect(byFolio['9001']).toMatchObject({ direction: 'ap', issuerName: 'Proveedora Ñandú & Cía.' });
    expect(byFolio['300']).toMatchObject({ direction: 'ap', receiverName: 'José Muñoz' });
    const stored = await t.sql('SELECT issuer_name, folio FROM dtes WHERE entity_id = $1 AND folio = $2', [entityId, '9001']);
    expect(stored).toEqual([{ issuer_name: 'Proveedora Ñandú & Cía.', folio: '9001' }]);
  });

  it('skips duplicates (issuer RUT, type, folio), already stored or repeated in the file; folios without their leading zeros (D63a)', async () => {
    const entityId = await entity();
    await send(entityId, singleDte(invoice('0042'))).expect(201);
    const res = await send(entityId, envioDte([invoice('0042'), invoice('43'), invoice('43'), invoice('0042', { type: 61 })]), 'text/xml').expect(201);
    expect(res.body).toMatchObject({ importedCount: 2, skippedCount: 2 });
    expect(res.body.dtes.map((d: { folio: string; dteType: number }) => [d.dteType, d.folio])).toEqual([
      [33, '43'],
      [61, '42'],
    ]);
    const again = await send(entityId, singleDte(invoice('0042'))).expect(201);
    expect(again.body).toEqual({ importedCount: 0, skippedCount: 1, dtes: [] });
  });

  it('imports an EnvioBOLETA and UTF-8 and windows-1252 files', async () => {
    const entityId = await entity();
    const boletas = envioDte(
      [
        { type: 39, folio: '1', issuerRut: ENTITY_RUT, issuerName: 'Almacén Ñuble', receiverRut: '66666666-6', receiverName: '', net: 8403, tax: 1597 },
        { type: 41, folio: '2', issuerRut: ENTITY_RUT, issuerName: 'Almacén Ñuble', receiverRut: '66666666-6', exempt: 2500 },
      ],
      { boleta: true },
    );
    const res = await send(entityId, boletas).expect(201);
    expect(res.body.dtes.map((d: Record<string, unknown>) => [d.dteType, d.issuerName, d.receiverName, d.totalAmount, d.direction])).toEqual([
      [39, 'Almacén Ñuble', null, 10000, 'ar'],
      [41, 'Almacén Ñuble', 'Receptor Ltda', 2500, 'ar'],
    ]);
    const utf8 = await send(entityId, singleDte(invoice('5', { receiverName: 'Peñalolén “Sur”' }), 'UTF-8')).expect(201);
    expect(utf8.body.dtes[0].receiverName).toBe('Peñalolén “Sur”');
    const cp = await send(entityId, singleDte(invoice('6', { receiverName: 'Ñandú' }), 'windows-1252')).expect(201);
    expect(cp.body.dtes[0].receiverName).toBe('Ñandú');
  });

  describe('bad input: 400 or 413, nothing of the file imported', () => {
    let entityId: string;
    beforeAll(async () => {
      entityId = await entity();
    });

    it('XML that is not well-formed: 400 VALIDATION_ERROR with the line and column', async () => {
      const res = await refused(entityId, '<?xml version="1.0" encoding="ISO-8859-1"?>\n<EnvioDTE>\n<SetDTE>\n</EnvioDTE>', 400, 'VALIDATION_ERROR');
      expect(res.body.params).toMatchObject({ line: 4, column: expect.any(Number) });
      expect(res.body.message).toMatch(/line 4, column/);
    });

    it('a DOCTYPE, entity declarations or external references: 400, never expanded or fetched', async () => {
      const xxe = '<?xml version="1.0"?>\n<!DOCTYPE DTE [<!ENTITY ext SYSTEM "http://127.0.0.1:1/x">]>\n<DTE><Documento>&ext;</Documento></DTE>';
      const res = await refused(entityId, xxe, 400, 'VALIDATION_ERROR');
      expect(res.body.params).toMatchObject({ line: 2, column: 1 });
      const billion = `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "${'x'.repeat(100)}"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><DTE>&b;</DTE>`;
      await refused(entityId, billion, 400, 'VALIDATION_ERROR');
    });

    it('a bad RUT check digit, a missing Folio or MntTotal, a non-integer amount: 400 naming the document and field', async () => {
      const cases: Array<[Partial<DteSpec>, string]> = [
        [{ receiverRut: '96874030-5' }, 'Encabezado.Receptor.RUTRecep'],
        [{ issuerRut: '76086428-4' }, 'Encabezado.Emisor.RUTEmisor'],
        [{ withoutFolio: true }, 'Encabezado.IdDoc.Folio'],
        [{ total: null }, 'Encabezado.Totales.MntTotal'],
        [{ net: '1000.50' }, 'Encabezado.Totales.MntNeto'],
        [{ total: '1,190' }, 'Encabezado.Totales.MntTotal'],
        [{ issueDate: '10-06-2026' }, 'Encabezado.IdDoc.FchEmis'],
      ];
      for (const [override, field] of cases) {
        const xml = envioDte([invoice('10'), invoice('11', override), invoice('12')]);
        const res = await refused(entityId, xml, 400, 'VALIDATION_ERROR');
        expect({ field, params: res.body.params }).toMatchObject({ field, params: { document: 2, field } });
        expect(res.body.message).toMatch(/^document 2/);
      }
    });

    it('a document the Entity neither issued nor received: 400 naming it', async () => {
      const res = await refused(entityId, envioDte([invoice('1'), invoice('2', { issuerRut: SUPPLIER_RUT, receiverRut: CLIENT_RUT })]), 400, 'VALIDATION_ERROR');
      expect(res.body.params).toMatchObject({ document: 2, folio: '2' });
    });

    it('another root, an empty body, a JSON body: 400; a body over 5 MB: 413 PAYLOAD_TOO_LARGE_ERROR', async () => {
      await refused(entityId, '<?xml version="1.0"?><RespuestaDTE/>', 400, 'VALIDATION_ERROR');
      await expectRefused(t, TABLES, staff.post(importPath(entityId)).set('content-type', 'application/xml'), 400, 'VALIDATION_ERROR');
      await expectRefused(t, TABLES, staff.post(importPath(entityId)).send({ xml: '<DTE/>' }), 400, 'VALIDATION_ERROR');
      const big = Buffer.concat([envioDte([invoice('1')]), Buffer.alloc(5_242_881 - envioDte([invoice('1')]).length, ' ')]);
      const res = await refused(entityId, big, 413, 'PAYLOAD_TOO_LARGE_ERROR');
      expect(res.body.message).toMatch(/5 MB/);
    });

    it('more than 2,000 documents in an EnvioDTE: 400', async () => {
      const docs = Array.from({ length: 2001 }, (_, i) => invoice(String(i + 1)));
      await refused(entityId, envioDte(docs), 400, 'VALIDATION_ERROR');
    });
  });

  describe('export documents (110-112) with decimal foreign totals, and a negative liquidación-factura (43)', () => {
    const FOREIGN_BUYER = '55555555-5';
    const exportDoc = (folio: string, overrides: Partial<DteSpec> = {}): DteSpec => ({
      type: 110,
      folio,
      issuerRut: ENTITY_RUT,
      issuerName: 'Viña Ñuble SpA',
      receiverRut: FOREIGN_BUYER,
      receiverName: 'Wine Importers LLC',
      exempt: '12500.7550',
      otherCurrency: { name: 'PESO CL', rate: '950.2500', exempt: '11878842.47', total: '11878842.47' },
      signed: true,
      ...overrides,
    });

    it('imports them from a signed EnvioDTE: foreign totals exact (strings, never floats), peso amounts integers, 201', async () => {
      const entityId = await entity();
      const xml = envioDte(
        [
          exportDoc('2001'),
          exportDoc('2002', { type: 112, exempt: '1250.5', currency: 'EURO', otherCurrency: undefined, references: [{ type: '110', folio: '2001', code: 3, reason: 'Devolución parcial' }] }),
          exportDoc('2003', { type: 111, exempt: '99999999999999.9999', otherCurrency: { name: 'PESO CL', total: '950250000000000' } }),
          { type: 43, folio: '501', issuerRut: SUPPLIER_RUT, issuerName: 'Corredora de Uvas Ñiquén Ltda.', receiverRut: ENTITY_RUT, net: 100000, tax: 19000, commissions: { net: 150000, tax: 28500 }, signed: true },
          invoice('1001', { signed: true }),
        ],
        { signed: true },
      );
      const res = await expectAudited(t, send(entityId, xml), 201, { action: 'dte.import', entity_id: entityId });
      expect(res.body).toMatchObject({ importedCount: 5, skippedCount: 0 });
      const byFolio = Object.fromEntries(res.body.dtes.map((d: { folio: string }) => [d.folio, d]));
      expect(byFolio['2001']).toEqual({
        id: expect.any(String),
        dteType: 110,
        folio: '2001',
        issuerTaxId: ENTITY_RUT,
        issuerName: 'Viña Ñuble SpA',
        receiverTaxId: FOREIGN_BUYER,
        receiverName: 'Wine Importers LLC',
        issueDate: '2026-06-10',
        netAmount: 0,
        exemptAmount: 11878842,
        taxAmount: 0,
        totalAmount: 11878842,
        foreignTotals: { currency: 'USD', currencyName: 'DOLAR USA', exemptAmount: '12500.755', totalAmount: '12500.755', exchangeRate: '950.25' },
        direction: 'ar',
        references: [],
        invoiceId: null,
      });
      // No peso figure stated: none invented.
      expect(byFolio['2002']).toMatchObject({
        dteType: 112,
        exemptAmount: null,
        totalAmount: null,
        foreignTotals: { currency: 'EUR', currencyName: 'EURO', totalAmount: '1250.5', exchangeRate: null },
        references: [{ documentType: '110', folio: '2001', code: 3 }],
      });
      // At the schema's bounds, beyond a float's 15-16 digits, exact.
      expect(byFolio['2003']).toMatchObject({ totalAmount: 950250000000000, foreignTotals: { totalAmount: '99999999999999.9999' } });
      // The liquidación-factura: commissions above the sale, a negative total, received (ap).
      expect(byFolio['501']).toMatchObject({ dteType: 43, direction: 'ap', netAmount: 100000, taxAmount: 19000, totalAmount: -59500, foreignTotals: null });
      expect(byFolio['1001']).toMatchObject({ foreignTotals: null, totalAmount: 119000 });
      // Stored exactly: numeric columns, bigint pesos.
      const stored = await t.sql('SELECT folio, foreign_total_amount::text AS total, total_amount::text AS pesos FROM dtes WHERE entity_id = $1 AND folio IN ($2, $3) ORDER BY folio', [
        entityId,
        '2003',
        '501',
      ]);
      expect(stored).toEqual([
        { folio: '2003', total: '99999999999999.9999', pesos: '950250000000000' },
        { folio: '501', total: null, pesos: '-59500' },
      ]);
      // Listed as imported.
      const listed = (await staff.get(`/api/entities/${entityId}/dtes`).expect(200)).body.find((d: { folio: string }) => d.folio === '2001');
      expect(listed).toEqual(byFolio['2001']);
    });

    it('refuses a bad foreign amount, a missing TpoMoneda, a negative total on another type: 400 naming the document and field, nothing imported', async () => {
      const entityId = await entity();
      const cases: Array<[DteSpec, string]> = [
        [exportDoc('12', { exempt: '10.12345', total: '10' }), 'Encabezado.Totales.MntExe'],
        [exportDoc('12', { total: '1,500.00' }), 'Encabezado.Totales.MntTotal'],
        [exportDoc('12', { currency: null }), 'Encabezado.Totales.TpoMoneda'],
        [exportDoc('12', { otherCurrency: { name: 'PESO CL', rate: '-1', total: '10' } }), 'Encabezado.OtraMoneda.TpoCambio'],
        [invoice('12', { total: -5 }), 'Encabezado.Totales.MntTotal'],
        [{ type: 43, folio: '12', issuerRut: SUPPLIER_RUT, receiverRut: ENTITY_RUT, net: 10, total: '-5.5' }, 'Encabezado.Totales.MntTotal'],
      ];
      for (const [doc, field] of cases) {
        const res = await refused(entityId, envioDte([exportDoc('10'), doc, exportDoc('14')]), 400, 'VALIDATION_ERROR');
        expect({ field, params: res.body.params }).toMatchObject({ field, params: { document: 2, folio: '12', field } });
        expect(res.body.message).toMatch(/^document 2 \(folio 12\)/);
      }
    });

    it('links an export DTE to the export invoice in its currency whose total is the same amount exactly (D65a)', async () => {
      const entityId = await entity();
      const partnerId = randomUUID();
      await staff.post(`/api/entities/${entityId}/partners`).send({ id: partnerId, name: 'Wine Importers LLC', type: 'company', country: 'US', taxId: '12-3456789' }).expect(201);
      const imported = await send(entityId, envioDte([exportDoc('3001', { exempt: '12500.75' }), exportDoc('3002', { exempt: '12500.7550' })])).expect(201);
      const [exact, fourDecimals] = ['3001', '3002'].map((folio) => imported.body.dtes.find((d: { folio: string }) => d.folio === folio).id as string);
      const exportInvoice = async (documentNumber: string, overrides: Record<string, unknown> = {}) =>
        (
          await staff
            .post(`/api/entities/${entityId}/invoices`)
            .send({
              id: randomUUID(),
              direction: 'ar',
              documentKind: 'export_invoice',
              documentNumber,
              issueDate: '2026-06-10',
              partnerId,
              currency: 'USD',
              exchangeRate: '950.25',
              netAmount: 0,
              exemptAmount: 1250075,
              taxAmount: 0,
              totalAmount: 1250075,
              ...overrides,
            })
            .expect(201)
        ).body.id as string;
      const usd = await exportInvoice('3001');
      const linked = await staff.put(`/api/entities/${entityId}/invoices/${usd}/dte`).send({ dteId: exact }).expect(200);
      expect(linked.body.dte).toMatchObject({ id: exact, foreignTotals: { currency: 'USD', totalAmount: '12500.75' }, invoiceId: usd });
      // 12,500.7550 USD is no amount of cents: it matches no USD invoice (never rounded to one).
      const cents = await exportInvoice('3002');
      const mismatch = await expectRefused(t, TABLES, staff.put(`/api/entities/${entityId}/invoices/${cents}/dte`).send({ dteId: fourDecimals }), 409, 'DTE_INVOICE_MISMATCH_ERROR');
      expect(mismatch.body.params.fields).toEqual(['totalAmount']);
      // Another currency with the same digits does not match either.
      const eur = await exportInvoice('3001', { currency: 'EUR', documentKind: 'export_invoice', id: randomUUID(), partnerId: await otherForeignPartner(entityId) });
      const wrongCurrency = await expectRefused(t, TABLES, staff.put(`/api/entities/${entityId}/invoices/${eur}/dte`).send({ dteId: fourDecimals }), 409, 'DTE_INVOICE_MISMATCH_ERROR');
      expect(wrongCurrency.body.params.fields).toEqual(['folio', 'currency', 'totalAmount']);
    });

    const otherForeignPartner = async (entityId: string) => {
      const id = randomUUID();
      await staff.post(`/api/entities/${entityId}/partners`).send({ id, name: 'Vins de France SARL', type: 'company', country: 'FR', taxId: 'FR12345678901' }).expect(201);
      return id;
    };
  });

  describe('GET /dtes', () => {
    it('lists every DTE as a bare array, newest issue date first, with the linked and inclusive date filters (D63, D8)', async () => {
      const entityId = await entity();
      const docs = ['2026-06-01', '2026-06-02', '2026-06-03', '2026-06-04', '2026-06-05'].map((issueDate, i) => invoice(String(i + 1), { issueDate }));
      await send(entityId, envioDte(docs)).expect(201);
      const all = await staff.get(`/api/entities/${entityId}/dtes`).expect(200);
      expect(all.body.map((d: { folio: string }) => d.folio)).toEqual(['5', '4', '3', '2', '1']);
      const ranged = await staff.get(`/api/entities/${entityId}/dtes?from=2026-06-02&to=2026-06-04&linked=false`).expect(200);
      expect(ranged.body.map((d: { folio: string }) => d.folio)).toEqual(['4', '3', '2']);
      expect((await staff.get(`/api/entities/${entityId}/dtes?linked=true`)).body).toEqual([]);
      for (const query of ['linked=yes', 'from=x', 'limit=2', 'cursor=abc']) {
        expect({ query, code: (await staff.get(`/api/entities/${entityId}/dtes?${query}`)).body.code }).toEqual({ query, code: 'VALIDATION_ERROR' });
      }
    });

    it('GET /dtes/pages pages the same list by keyset', async () => {
      const entityId = await entity();
      const docs = ['2026-06-01', '2026-06-02', '2026-06-03', '2026-06-04', '2026-06-05'].map((issueDate, i) => invoice(String(i + 1), { issueDate }));
      await send(entityId, envioDte(docs)).expect(201);
      const pages = `/api/entities/${entityId}/dtes/pages`;
      const first = await staff.get(`${pages}?limit=2`).expect(200);
      expect(first.body.rows.map((d: { folio: string }) => d.folio)).toEqual(['5', '4']);
      const second = await staff.get(`${pages}?limit=2&cursor=${first.body.nextCursor}`).expect(200);
      expect(second.body.rows.map((d: { folio: string }) => d.folio)).toEqual(['3', '2']);
      const third = await staff.get(`${pages}?limit=2&cursor=${second.body.nextCursor}`).expect(200);
      expect(third.body).toEqual({ rows: [expect.objectContaining({ folio: '1' })], nextCursor: null });
      expect((await staff.get(`${pages}?linked=false&from=2026-06-05`)).body).toEqual({ rows: [expect.objectContaining({ folio: '5' })], nextCursor: null });
      for (const query of ['linked=yes', 'from=x', 'limit=101', 'cursor=!!', `cursor=${Buffer.from('x|y').toString('base64url')}`]) {
        expect({ query, code: (await staff.get(`${pages}?${query}`)).body.code }).toEqual({ query, code: 'VALIDATION_ERROR' });
      }
    });

    it('shows no DTE of another Entity', async () => {
      const a = await entity();
      const b = await entity();
      await send(a, singleDte(invoice('1'))).expect(201);
      expect((await staff.get(`/api/entities/${b}/dtes`)).body).toEqual([]);
      const [dte] = await t.sql<{ id: string }>('SELECT id FROM dtes WHERE entity_id = $1', [a]);
      const partner = randomUUID();
      await staff.post(`/api/entities/${b}/partners`).send({ id: partner, name: 'C', type: 'company', country: 'CL', taxId: CLIENT_RUT }).expect(201);
      const inv = await staff
        .post(`/api/entities/${b}/invoices`)
        .send({ id: randomUUID(), direction: 'ar', documentKind: 'invoice', documentNumber: '1', issueDate: '2026-06-10', partnerId: partner, currency: 'CLP', netAmount: 100000, taxAmount: 19000, totalAmount: 119000 })
        .expect(201);
      await expectRefused(t, TABLES, staff.put(`/api/entities/${b}/invoices/${inv.body.id}/dte`).send({ dteId: dte.id }), 404, 'DTE_NOT_FOUND_ERROR');
    });
  });
});
