import { randomUUID } from 'node:crypto';
import { checkAccessMatrix } from './harness/access-matrix';
import { countRows, expectAudited, expectRefused, whileTableLocked } from './harness/db-checks';
import { rcvFile, RcvDocument, SALES_HEADER, PURCHASES_HEADER, salesRow, purchasesRow } from './harness/rcv-files';
import type { TestApp } from './harness/test-app';
import { Agent, createEntity, createLedgerAccount, createWorldApp, freshEntity, World } from './harness/world';

const CLIENT_RUT = '96874030-K';
const SUPPLIER_RUT = '77879240-0';
const SUPPLIER2_RUT = '60910000-1';
const SELLER_RUT = '12345678-5';
const TABLES = ['rcv_imports', 'rcv_import_rows', 'audit_trail'];

/**
 * D92, issue 37: the Registro de Compras y Ventas from the books, the SII's RCV files and their
 * reconciliation, the propuesta F29. Every figure below is worked out by hand in the comments.
 */
describe('Chilean tax books (D92)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp());
  });
  afterAll(() => t.close());

  const base = (entityId: string) => `/api/entities/${entityId}/tax`;
  const register = (entityId: string, period: string, direction: string) => staff.get(`${base(entityId)}/purchase-sales-register?period=${period}&direction=${direction}`);
  const f29 = (entityId: string, query: string) => staff.get(`${base(entityId)}/f29?${query}`);
  const reconciliation = (entityId: string, period: string, direction: string) => staff.get(`${base(entityId)}/rcv-reconciliation?period=${period}&direction=${direction}`);
  const importPath = (entityId: string, period: string, direction: string) => `${base(entityId)}/rcv-imports?period=${period}&direction=${direction}`;
  const sendCsv = (entityId: string, period: string, direction: string, file: string | Buffer) =>
    staff.post(importPath(entityId, period, direction)).set('content-type', 'text/csv').send(Buffer.isBuffer(file) ? file : Buffer.from(file, 'utf8'));

  const partner = async (entityId: string, name: string, taxId: string, country = 'CL'): Promise<string> => {
    const id = randomUUID();
    await staff.post(`/api/entities/${entityId}/partners`).send({ id, name, type: 'company', country, taxId }).expect(201);
    return id;
  };

  const invoice = async (entityId: string, fields: Record<string, unknown>): Promise<string> => {
    const id = randomUUID();
    const res = await staff.post(`/api/entities/${entityId}/invoices`).send({
      id,
      direction: 'ar',
      documentKind: 'invoice',
      issueDate: '2026-06-10',
      currency: 'CLP',
      netAmount: 0,
      exemptAmount: 0,
      taxAmount: 0,
      ...fields,
    });
    expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ status: 201, body: null });
    return id;
  };

  interface Books {
    entityId: string;
    ids: Record<string, string>;
  }

  /**
   * June 2026 of an Entity: every sales kind (33 ×2, 34, 39, 41, 56, 61, 110 and 112 in USD at
   * 950.5), purchases 33, 46, 56, 61 and 34; left out: `other` and invoices of May and July.
   * Invoice 33/1001 is booked.
   */
  const books = async (): Promise<Books> => {
    const entityId = await freshEntity(world);
    const client = await partner(entityId, 'Comercial Ñuñoa Ltda.', CLIENT_RUT);
    const buyer = await partner(entityId, 'Importadora Boston Inc.', '98-7654321', 'US');
    const supplier = await partner(entityId, 'Proveedora Ñandú & Cía.', SUPPLIER_RUT);
    const supplier2 = await partner(entityId, 'Servicios Exentos SpA', SUPPLIER2_RUT);
    const seller = await partner(entityId, 'José Muñoz', SELLER_RUT);
    const ar = (documentKind: string, documentNumber: string, amounts: Record<string, unknown>, more: Record<string, unknown> = {}) =>
      invoice(entityId, { direction: 'ar', documentKind, documentNumber, partnerId: client, ...amounts, ...more });
    const ap = (documentKind: string, documentNumber: string, partnerId: string, amounts: Record<string, unknown>, more: Record<string, unknown> = {}) =>
      invoice(entityId, { direction: 'ap', documentKind, documentNumber, partnerId, ...amounts, ...more });
    const ids: Record<string, string> = {};
    ids.s33a = await ar('invoice', '1001', { netAmount: 100000, taxAmount: 19000, totalAmount: 119000 });
    ids.s33b = await ar('invoice', '998', { netAmount: 50000, taxAmount: 9500, totalAmount: 59500 }, { issueDate: '2026-06-30' });
    ids.s34 = await ar('exempt_invoice', '20', { exemptAmount: 30000, totalAmount: 30000 }, { issueDate: '2026-06-01' });
    ids.s39 = await ar('receipt', '5001', { netAmount: 8403, taxAmount: 1597, totalAmount: 10000 });
    ids.s41 = await ar('exempt_receipt', '7001', { exemptAmount: 5000, totalAmount: 5000 });
    ids.s56 = await ar('debit_note', '300', { netAmount: 2000, taxAmount: 380, totalAmount: 2380 });
    ids.s61 = await ar('credit_note', '400', { netAmount: 10000, taxAmount: 1900, totalAmount: 11900 });
    // USD 1,000.25 at 950.5: 100025 / 100 × 950.5 = 950,737.625 → 950,738 pesos (D7, half up).
    ids.s110 = await ar('export_invoice', '50', { exemptAmount: 100025, totalAmount: 100025 }, { partnerId: buyer, currency: 'USD', exchangeRate: '950.5' });
    // USD 100.00 at 950.5 = 95,050 pesos.
    ids.s112 = await ar('export_credit_note', '9', { exemptAmount: 10000, totalAmount: 10000 }, { partnerId: buyer, currency: 'USD', exchangeRate: '950.5' });
    // Left out: `other`, and invoices of May and July.
    await ar('other', 'NV-1', { netAmount: 1000, taxAmount: 190, totalAmount: 1190 });
    await ar('invoice', '1002', { netAmount: 7000, taxAmount: 1330, totalAmount: 8330 }, { issueDate: '2026-07-01' });
    await ar('invoice', '990', { netAmount: 7000, taxAmount: 1330, totalAmount: 8330 }, { issueDate: '2026-05-31' });

    ids.p33 = await ap('invoice', '9001', supplier, { netAmount: 200000, taxAmount: 38000, totalAmount: 238000 });
    ids.p46 = await ap('purchase_invoice', '300', seller, { netAmount: 40000, taxAmount: 7600, totalAmount: 47600 });
    ids.p56 = await ap('debit_note', '12', supplier, { netAmount: 1000, taxAmount: 190, totalAmount: 1190 });
    ids.p61 = await ap('credit_note', '13', supplier, { netAmount: 5000, taxAmount: 950, totalAmount: 5950 });
    ids.p34 = await ap('exempt_invoice', '77', supplier2, { exemptAmount: 15000, totalAmount: 15000 });
    await ap('other', 'BH-5', supplier, { netAmount: 1000, totalAmount: 1000 });
    await ap('invoice', '9002', supplier, { netAmount: 1000, taxAmount: 190, totalAmount: 1190 }, { issueDate: '2026-07-01' });

    // Booked or not, an invoice counts.
    const account = (code: string, type: string, tracking: string, subtype: string | null = null) => createLedgerAccount(staff, entityId, { code, type, tracking, subtype });
    await account('1105', 'asset', 'open_item', 'receivable');
    const income = await account('4101', 'income', 'balance');
    const vat = await account('2110', 'liability', 'balance');
    await staff.post(`/api/entities/${entityId}/invoices/${ids.s33a}/book`).send({ entryId: randomUUID(), counterAccountId: income, taxAccountId: vat }).expect(200);
    return { entityId, ids };
  };

  // What the SII received in June, against the books above: 33/998 agrees; 33/1001 differs;
  // 33/2002 is not in the books; 34/20 agrees though written with dots and a leading zero;
  // 61/400 agrees (positive amounts both sides); the other sales are not in the SII's file.
  const siiSales: RcvDocument[] = [
    { type: 33, rut: CLIENT_RUT, name: 'Comercial Ñuñoa Ltda.', folio: 998, date: '30/06/2026', net: 50000, tax: 9500, total: 59500 },
    { type: 33, rut: CLIENT_RUT, name: 'Comercial Ñuñoa Ltda.', folio: 1001, date: '10/06/2026', net: 90000, tax: 17100, total: 107100 },
    { type: 33, rut: '96874030-k', name: 'Comercial Ñuñoa Ltda.', folio: 2002, date: '11/06/2026', net: 1000, tax: 190, total: 1190 },
    { type: 34, rut: '96.874.030-K', name: 'Comercial Ñuñoa Ltda.', folio: '0020', date: '01/06/2026', exempt: 30000, total: 30000 },
    { type: 61, rut: CLIENT_RUT, name: 'Comercial Ñuñoa Ltda.', folio: 400, date: '10/06/2026', net: 10000, tax: 1900, total: 11900 },
  ];

  let june: Books;
  beforeAll(async () => {
    june = await books();
  });

  describe('the Registro de Compras y Ventas (item 1)', () => {
    it('lists every sales invoice of the period with an SII kind, booked or not, by dteType then folio, in pesos', async () => {
      const res = await register(june.entityId, '2026-06', 'sales').expect(200);
      const { ids } = june;
      const row = (invoiceId: string, dteType: number, folio: number, partnerTaxId: string, partnerName: string, issueDate: string, exempt: number, net: number, tax: number, total: number) => ({
        invoiceId,
        dteType,
        folio,
        partnerTaxId,
        partnerName,
        issueDate,
        exemptAmount: exempt,
        netAmount: net,
        taxAmount: tax,
        totalAmount: total,
      });
      const client = ['96874030-K', 'Comercial Ñuñoa Ltda.'] as const;
      const buyer = ['98-7654321', 'Importadora Boston Inc.'] as const;
      expect(res.body).toEqual({
        period: '2026-06',
        direction: 'sales',
        rows: [
          // Folio 998 before 1001: folios are ordered as integers.
          row(ids.s33b, 33, 998, ...client, '2026-06-30', 0, 50000, 9500, 59500),
          row(ids.s33a, 33, 1001, ...client, '2026-06-10', 0, 100000, 19000, 119000),
          row(ids.s34, 34, 20, ...client, '2026-06-01', 30000, 0, 0, 30000),
          row(ids.s39, 39, 5001, ...client, '2026-06-10', 0, 8403, 1597, 10000),
          row(ids.s41, 41, 7001, ...client, '2026-06-10', 5000, 0, 0, 5000),
          row(ids.s56, 56, 300, ...client, '2026-06-10', 0, 2000, 380, 2380),
          // Credit notes are positive in the rows.
          row(ids.s61, 61, 400, ...client, '2026-06-10', 0, 10000, 1900, 11900),
          row(ids.s110, 110, 50, ...buyer, '2026-06-10', 950738, 0, 0, 950738),
          row(ids.s112, 112, 9, ...buyer, '2026-06-10', 95050, 0, 0, 95050),
        ],
        summary: [
          { dteType: 33, count: 2, exemptAmount: 0, netAmount: 150000, taxAmount: 28500, totalAmount: 178500 },
          { dteType: 34, count: 1, exemptAmount: 30000, netAmount: 0, taxAmount: 0, totalAmount: 30000 },
          { dteType: 39, count: 1, exemptAmount: 0, netAmount: 8403, taxAmount: 1597, totalAmount: 10000 },
          { dteType: 41, count: 1, exemptAmount: 5000, netAmount: 0, taxAmount: 0, totalAmount: 5000 },
          { dteType: 56, count: 1, exemptAmount: 0, netAmount: 2000, taxAmount: 380, totalAmount: 2380 },
          // Credit notes negative in the summary, their count positive.
          { dteType: 61, count: 1, exemptAmount: 0, netAmount: -10000, taxAmount: -1900, totalAmount: -11900 },
          { dteType: 110, count: 1, exemptAmount: 950738, netAmount: 0, taxAmount: 0, totalAmount: 950738 },
          { dteType: 112, count: 1, exemptAmount: -95050, netAmount: 0, taxAmount: 0, totalAmount: -95050 },
        ],
      });
    });

    it('lists the purchases (33, 46 the Entity issued as buyer, 56, 61, 34), not `other` nor July', async () => {
      const res = await register(june.entityId, '2026-06', 'purchases').expect(200);
      expect(res.body.rows.map((r: { dteType: number; folio: number; partnerTaxId: string }) => [r.dteType, r.folio, r.partnerTaxId])).toEqual([
        [33, 9001, SUPPLIER_RUT],
        [34, 77, SUPPLIER2_RUT],
        [46, 300, SELLER_RUT],
        [56, 12, SUPPLIER_RUT],
        [61, 13, SUPPLIER_RUT],
      ]);
      expect(res.body.summary).toEqual([
        { dteType: 33, count: 1, exemptAmount: 0, netAmount: 200000, taxAmount: 38000, totalAmount: 238000 },
        { dteType: 34, count: 1, exemptAmount: 15000, netAmount: 0, taxAmount: 0, totalAmount: 15000 },
        { dteType: 46, count: 1, exemptAmount: 0, netAmount: 40000, taxAmount: 7600, totalAmount: 47600 },
        { dteType: 56, count: 1, exemptAmount: 0, netAmount: 1000, taxAmount: 190, totalAmount: 1190 },
        { dteType: 61, count: 1, exemptAmount: 0, netAmount: -5000, taxAmount: -950, totalAmount: -5950 },
      ]);
    });

    it('is empty for a month without invoices, and leaves the invoices of the next month to it', async () => {
      expect((await register(june.entityId, '2026-08', 'sales').expect(200)).body).toEqual({ period: '2026-08', direction: 'sales', rows: [], summary: [] });
      const july = await register(june.entityId, '2026-07', 'sales').expect(200);
      expect(july.body.rows.map((r: { folio: number }) => r.folio)).toEqual([1002]);
    });

    it('refuses a bad period or direction with 400 VALIDATION_ERROR', async () => {
      for (const query of ['period=2026-13&direction=sales', 'period=2026-6&direction=sales', 'period=2026-06&direction=ar', 'direction=sales', 'period=2026-06', 'period=2026-06&direction=sales&extra=1']) {
        const res = await staff.get(`${base(june.entityId)}/purchase-sales-register?${query}`);
        expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'VALIDATION_ERROR' });
      }
    });
  });

  describe('the propuesta F29 (item 3)', () => {
    it('gives every code of a month whose credits exceed its debits (077), with the PPM', async () => {
      const res = await f29(june.entityId, 'period=2026-06&ppmRate=0.25').expect(200);
      expect(res.body).toEqual({
        period: '2026-06',
        codes: {
          '503': 2, // facturas 33: 998 and 1001
          '502': 28500, // 19,000 + 9,500
          '110': 1,
          '111': 1597,
          '512': 1,
          '513': 380,
          '509': 1,
          '510': 1900,
          '142': 890688, // exempt: 34: 30,000 + 41: 5,000 + 110: 950,738 − 112: 95,050
          '538': 28577, // 28,500 + 1,597 + 380 − 1,900
          '519': 2, // 33 and 46
          '520': 45600, // 38,000 + 7,600
          '527': 1,
          '528': 950,
          '531': 1,
          '532': 190,
          '504': 0,
          '537': 44840, // 45,600 + 190 − 950 + 0
          '089': 0,
          '077': 16263, // 44,840 − 28,577
          // net + exempt of the sales: 150,000 + 30,000 + 8,403 + 5,000 + 2,000 − 10,000 + 950,738 − 95,050
          '563': 1041091,
          '115': '0.25',
          '062': 2603, // 1,041,091 × 0.25 / 100 = 2,602.7275 → 2,603
          '091': 2603, // 0 + 2,603
        },
      });
    });

    it('gives a month whose debits exceed its credits (089), the carried credit (504) and the PPM rounded half up', async () => {
      const entityId = await freshEntity(world);
      const client = await partner(entityId, 'Cliente Agosto SpA', CLIENT_RUT);
      const supplier = await partner(entityId, 'Proveedor Agosto SpA', SUPPLIER_RUT);
      await invoice(entityId, { documentKind: 'invoice', documentNumber: '1', partnerId: client, issueDate: '2026-08-31', netAmount: 1000, taxAmount: 190, totalAmount: 1190 });
      await invoice(entityId, { direction: 'ap', documentKind: 'invoice', documentNumber: '2', partnerId: supplier, issueDate: '2026-08-01', netAmount: 200, taxAmount: 38, totalAmount: 238 });
      // 538 = 190; 537 = 38 + 50 = 88; 089 = 102; 563 = 1,000; 062 = 1,000 × 0.15 / 100 = 1.5 → 2 (half up); 091 = 104.
      const res = await f29(entityId, 'period=2026-08&carriedCredit=50&ppmRate=0.15').expect(200);
      expect(res.body.codes).toMatchObject({ '502': 190, '503': 1, '538': 190, '519': 1, '520': 38, '504': 50, '537': 88, '089': 102, '077': 0, '563': 1000, '115': '0.15', '062': 2, '091': 104 });
      // 1,000 × 0.149 / 100 = 1.49 → 1.
      expect((await f29(entityId, 'period=2026-08&carriedCredit=50&ppmRate=0.149').expect(200)).body.codes).toMatchObject({ '062': 1, '091': 103, '115': '0.149' });
      // 1,000 × 0.25 / 100 = 2.5 → 3.
      expect((await f29(entityId, 'period=2026-08&ppmRate=0.25').expect(200)).body.codes).toMatchObject({ '062': 3, '504': 0, '537': 38, '089': 152, '091': 155 });
      // Defaults: no carried credit, PPM rate "0".
      expect((await f29(entityId, 'period=2026-08').expect(200)).body.codes).toMatchObject({ '504': 0, '115': '0', '062': 0, '089': 152, '091': 152 });
      // A carried credit larger than the debit turns it into a remanente.
      expect((await f29(entityId, 'period=2026-08&carriedCredit=1000').expect(200)).body.codes).toMatchObject({ '537': 1038, '089': 0, '077': 848, '091': 0 });
    });

    it('keeps the month totals it reads in the statements that write invoices: edits, a move to another month, a change of currency, deletion', async () => {
      const entityId = await freshEntity(world);
      const client = await partner(entityId, 'Cliente Octubre SpA', CLIENT_RUT);
      const a = await invoice(entityId, { documentKind: 'invoice', documentNumber: '1', partnerId: client, issueDate: '2026-10-05', netAmount: 1000, taxAmount: 190, totalAmount: 1190 });
      const b = await invoice(entityId, { documentKind: 'invoice', documentNumber: '2', partnerId: client, issueDate: '2026-10-06', netAmount: 2000, taxAmount: 380, totalAmount: 2380 });
      const c = await invoice(entityId, { documentKind: 'receipt', documentNumber: '3', partnerId: client, issueDate: '2026-10-07', netAmount: 100, taxAmount: 19, totalAmount: 119 });
      const patch = (id: string, body: Record<string, unknown>) => staff.patch(`/api/entities/${entityId}/invoices/${id}`).send(body).expect(200);
      await patch(a, { netAmount: 3000, taxAmount: 570, totalAmount: 3570 });
      await patch(b, { issueDate: '2026-11-01' });
      await patch(c, { documentKind: 'credit_note' });
      // To USD: out of the totals, converted on its own (USD 10.00 at 900 = 9,000 net, 1,710 tax).
      const d = await invoice(entityId, { documentKind: 'invoice', documentNumber: '4', partnerId: client, issueDate: '2026-10-08', netAmount: 500, taxAmount: 95, totalAmount: 595 });
      await patch(d, { currency: 'USD', exchangeRate: '900', netAmount: 1000, taxAmount: 190, totalAmount: 1190 });
      const e = await invoice(entityId, { documentKind: 'invoice', documentNumber: '5', partnerId: client, issueDate: '2026-10-09', netAmount: 7000, taxAmount: 1330, totalAmount: 8330 });
      await staff.delete(`/api/entities/${entityId}/invoices/${e}`).expect(204);
      // October: 33 {a: 570, d: 1,710} → 503 = 2, 502 = 2,280; 61 {c: 19} → 509 = 1, 510 = 19; 538 = 2,261.
      const october = await f29(entityId, 'period=2026-10').expect(200);
      expect(october.body.codes).toMatchObject({ '503': 2, '502': 2280, '509': 1, '510': 19, '110': 0, '111': 0, '538': 2261, '563': 3000 + 9000 - 100 });
      const november = await f29(entityId, 'period=2026-11').expect(200);
      expect(november.body.codes).toMatchObject({ '503': 1, '502': 380, '563': 2000 });
      // The kept totals are those of the invoices, slot by slot summed.
      const kept = await t.sql(
        `SELECT to_char(month, 'YYYY-MM') AS month, direction, document_kind, sum(invoice_count)::int AS n, sum(net_amount)::text AS net, sum(tax_amount)::text AS tax, sum(total_amount)::text AS total
           FROM invoice_month_totals WHERE entity_id = $1 GROUP BY 1, 2, 3 HAVING sum(invoice_count) <> 0 ORDER BY 1, 2, 3`,
        [entityId],
      );
      const actual = await t.sql(
        `SELECT to_char(issue_date, 'YYYY-MM') AS month, direction, document_kind, count(*)::int AS n, sum(net_amount)::text AS net, sum(tax_amount)::text AS tax, sum(total_amount)::text AS total
           FROM invoices WHERE entity_id = $1 AND exchange_rate IS NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
        [entityId],
      );
      expect(kept).toEqual(actual);
    });

    it('gives every code as 0 (115 "0") for a month with nothing, keyed as printed', async () => {
      const res = await f29(june.entityId, 'period=2026-09').expect(200);
      const codes = ['503', '502', '110', '111', '512', '513', '509', '510', '142', '538', '519', '520', '527', '528', '531', '532', '504', '537', '089', '077', '563', '115', '062', '091'];
      expect(Object.keys(res.body.codes).sort()).toEqual([...codes].sort());
      expect(res.body.codes).toEqual(Object.fromEntries(codes.map((code) => [code, code === '115' ? '0' : 0])));
    });

    it('refuses a bad carriedCredit or ppmRate with 400 VALIDATION_ERROR', async () => {
      for (const query of ['carriedCredit=-1', 'carriedCredit=1.5', 'carriedCredit=abc', 'carriedCredit=9007199254740992', 'carriedCredit=', 'ppmRate=-0.25', 'ppmRate=1e2', 'ppmRate=0.1234567890123', 'ppmRate=abc', 'ppmRate=', 'carriedCredit=1&carriedCredit=2']) {
        const res = await f29(june.entityId, `period=2026-06&${query}`);
        expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'VALIDATION_ERROR' });
      }
      expect((await f29(june.entityId, 'period=2026-06&ppmRate=0&carriedCredit=0').expect(200)).body.codes['115']).toBe('0');
    });
    it('answers the register and the F29 as CSV and XLSX files (D93), and refuses an unknown format', async () => {
      const csv = await register(june.entityId, '2026-06', 'sales').query({ format: 'csv' }).buffer(true).parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => done(null, Buffer.concat(chunks)));
      });
      expect(csv.status).toBe(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      const text = (csv.body as Buffer).toString('utf8').replace(/^\uFEFF/, '');
      const lines = text.split('\r\n');
      expect(lines[0]).toBe('section,invoiceId,dteType,folio,partnerTaxId,partnerName,issueDate,count,exemptAmount,netAmount,taxAmount,totalAmount');
      expect(lines[1]).toBe(`rows,${june.ids.s33b},33,998,96874030-K,Comercial Ñuñoa Ltda.,2026-06-30,,0,50000,9500,59500`);
      expect(lines).toContain('summary,,61,,,,,1,0,-10000,-1900,-11900');
      const f29csv = await f29(june.entityId, 'period=2026-06&ppmRate=0.25&format=csv').expect(200);
      expect(f29csv.text).toContain('\r\n077,16263,\r\n');
      expect(f29csv.text).toContain('\r\n115,,0.25\r\n');
      const xlsx = await f29(june.entityId, 'period=2026-06&format=xlsx').buffer(true).parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => done(null, Buffer.concat(chunks)));
      });
      expect(xlsx.status).toBe(200);
      expect((xlsx.body as Buffer).subarray(0, 2).toString('latin1')).toBe('PK');
      for (const bad of ['pdf', 'CSV', '']) {
        const res = await f29(june.entityId, `period=2026-06&format=${bad}`);
        expect({ bad, status: res.status, code: res.body.code }).toEqual({ bad, status: 400, code: 'VALIDATION_ERROR' });
      }
    });
  });

  describe('the RCV import and reconciliation (item 2)', () => {
    it('answers 404 RCV_IMPORT_NOT_FOUND_ERROR before any import of the period and direction', async () => {
      const res = await reconciliation(june.entityId, '2026-06', 'sales').expect(404);
      expect(res.body).toMatchObject({ code: 'RCV_IMPORT_NOT_FOUND_ERROR', statusCode: 404 });
    });

    it('imports the sales layout (43 columns, UTF-8, as text/csv) with its audit row, 201', async () => {
      const res = await expectAudited(t, sendCsv(june.entityId, '2026-05', 'sales', rcvFile('sales', siiSales.slice(0, 1))), 201, {
        action: 'rcv.import',
        entity_id: june.entityId,
        resource_type: 'rcv_import',
      });
      expect(res.body).toEqual({ id: expect.any(String), period: '2026-05', direction: 'sales', rowCount: 1 });
      const audit = await t.sql(`SELECT resource_id FROM audit_trail WHERE request_id = $1`, [res.headers['x-request-id']]);
      expect(audit).toEqual([{ resource_id: res.body.id }]);
    });

    it('reconciles the latest import of the period with the register: each status, with counts, as positive figures', async () => {
      // An older import of the same period, superseded by the next.
      await sendCsv(june.entityId, '2026-06', 'sales', rcvFile('sales', siiSales.slice(0, 2))).expect(201);
      const imported = await staff
        .post(importPath(june.entityId, '2026-06', 'sales'))
        .attach('file', Buffer.from(rcvFile('sales', siiSales), 'utf8'), { filename: 'RCV_VENTA_76086428-5_202606.csv', contentType: 'text/csv' })
        .expect(201);
      expect(imported.body).toMatchObject({ period: '2026-06', direction: 'sales', rowCount: 5 });
      const res = await reconciliation(june.entityId, '2026-06', 'sales').expect(200);
      const amounts = (exempt: number, net: number, tax: number, total: number) => ({ exemptAmount: exempt, netAmount: net, taxAmount: tax, totalAmount: total });
      const buyer = '98-7654321';
      expect(res.body).toEqual({
        period: '2026-06',
        direction: 'sales',
        counts: { matched: 3, missing_in_books: 1, missing_in_sii: 5, amount_mismatch: 1 },
        rows: [
          { dteType: 33, folio: 998, partnerTaxId: CLIENT_RUT, status: 'matched', sii: amounts(0, 50000, 9500, 59500), books: amounts(0, 50000, 9500, 59500) },
          { dteType: 33, folio: 1001, partnerTaxId: CLIENT_RUT, status: 'amount_mismatch', sii: amounts(0, 90000, 17100, 107100), books: amounts(0, 100000, 19000, 119000) },
          { dteType: 33, folio: 2002, partnerTaxId: CLIENT_RUT, status: 'missing_in_books', sii: amounts(0, 1000, 190, 1190), books: null },
          { dteType: 34, folio: 20, partnerTaxId: CLIENT_RUT, status: 'matched', sii: amounts(30000, 0, 0, 30000), books: amounts(30000, 0, 0, 30000) },
          { dteType: 39, folio: 5001, partnerTaxId: CLIENT_RUT, status: 'missing_in_sii', sii: null, books: amounts(0, 8403, 1597, 10000) },
          { dteType: 41, folio: 7001, partnerTaxId: CLIENT_RUT, status: 'missing_in_sii', sii: null, books: amounts(5000, 0, 0, 5000) },
          { dteType: 56, folio: 300, partnerTaxId: CLIENT_RUT, status: 'missing_in_sii', sii: null, books: amounts(0, 2000, 380, 2380) },
          { dteType: 61, folio: 400, partnerTaxId: CLIENT_RUT, status: 'matched', sii: amounts(0, 10000, 1900, 11900), books: amounts(0, 10000, 1900, 11900) },
          { dteType: 110, folio: 50, partnerTaxId: buyer, status: 'missing_in_sii', sii: null, books: amounts(950738, 0, 0, 950738) },
          { dteType: 112, folio: 9, partnerTaxId: buyer, status: 'missing_in_sii', sii: null, books: amounts(95050, 0, 0, 95050) },
        ],
      });
      // The other direction has no import of its own.
      await reconciliation(june.entityId, '2026-06', 'purchases').expect(404);
    });

    it('reads the purchases layout (27 columns) in ISO-8859-1 with headers differing in case, accents and spaces, and negative credit notes', async () => {
      const header = PURCHASES_HEADER.replace('Razon Social', 'Razón  Social').replace('Monto IVA Recuperable', 'MONTO IVA recuperable').replace('Tipo Doc', 'TIPO DOC').replace('Folio', ' folio ');
      const rows = [
        purchasesRow(1, { type: 33, rut: '77.879.240-0', name: 'Proveedora Ñandú & Cía.', folio: 9001, date: '10/06/2026', net: 200000, tax: 38000, total: 238000 }),
        purchasesRow(2, { type: 46, rut: SELLER_RUT, name: 'José Muñoz', folio: 300, date: '10/06/2026', net: 40000, tax: 7600, total: 47600 }),
        // A credit note written negative: compared as a positive figure.
        purchasesRow(3, { type: 61, rut: SUPPLIER_RUT, name: 'Proveedora Ñandú & Cía.', folio: 13, date: '10/06/2026', net: -5000, tax: -950, total: -5950 }),
        purchasesRow(4, { type: 34, rut: SUPPLIER2_RUT, name: 'Servicios Exentos SpA', folio: 77, date: '10/06/2026', exempt: 15001, total: 15001 }),
      ];
      const latin1 = Buffer.from([header, ...rows].join('\n') + '\n', 'latin1');
      expect(latin1.includes(Buffer.from('Ñ', 'latin1'))).toBe(true);
      const res = await sendCsv(june.entityId, '2026-06', 'purchases', latin1).expect(201);
      expect(res.body).toMatchObject({ direction: 'purchases', rowCount: 4 });
      expect(await t.sql(`SELECT partner_name, partner_tax_id, folio::text, issue_date::text FROM rcv_import_rows WHERE entity_id = $1 AND import_id = $2 ORDER BY line`, [june.entityId, res.body.id])).toEqual([
        { partner_name: 'Proveedora Ñandú & Cía.', partner_tax_id: SUPPLIER_RUT, folio: '9001', issue_date: '2026-06-10' },
        { partner_name: 'José Muñoz', partner_tax_id: SELLER_RUT, folio: '300', issue_date: '2026-06-10' },
        { partner_name: 'Proveedora Ñandú & Cía.', partner_tax_id: SUPPLIER_RUT, folio: '13', issue_date: '2026-06-10' },
        { partner_name: 'Servicios Exentos SpA', partner_tax_id: SUPPLIER2_RUT, folio: '77', issue_date: '2026-06-10' },
      ]);
      const recon = await reconciliation(june.entityId, '2026-06', 'purchases').expect(200);
      expect(recon.body.counts).toEqual({ matched: 3, missing_in_books: 0, missing_in_sii: 1, amount_mismatch: 1 });
      expect(recon.body.rows.map((r: { dteType: number; folio: number; status: string }) => [r.dteType, r.folio, r.status])).toEqual([
        [33, 9001, 'matched'],
        [34, 77, 'amount_mismatch'],
        [46, 300, 'matched'],
        [56, 12, 'missing_in_sii'],
        [61, 13, 'matched'],
      ]);
      expect(recon.body.rows[4].sii).toEqual({ exemptAmount: 0, netAmount: 5000, taxAmount: 950, totalAmount: 5950 });
    });

    it('reads the sales layout in UTF-8 with a byte-order mark, and a file of the header alone (0 rows)', async () => {
      const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${SALES_HEADER}\n${salesRow(1, siiSales[0])}\n`, 'utf8')]);
      expect((await sendCsv(june.entityId, '2026-04', 'sales', withBom).expect(201)).body.rowCount).toBe(1);
      expect((await sendCsv(june.entityId, '2026-04', 'sales', `${SALES_HEADER}\r\n`).expect(201)).body.rowCount).toBe(0);
      const recon = await reconciliation(june.entityId, '2026-04', 'sales').expect(200);
      expect(recon.body).toEqual({ period: '2026-04', direction: 'sales', counts: { matched: 0, missing_in_books: 0, missing_in_sii: 0, amount_mismatch: 0 }, rows: [] });
    });

    it('reads quoted fields (a `;` inside a name) and names the right line after a field spanning two lines', async () => {
      const quoted = salesRow(1, { ...siiSales[0], name: '"Comercial; Ñuñoa ""Norte"""' });
      const res = await sendCsv(june.entityId, '2026-01', 'sales', `${SALES_HEADER}\r\n${quoted}\r\n`).expect(201);
      expect(await t.sql(`SELECT partner_name FROM rcv_import_rows WHERE entity_id = $1 AND import_id = $2`, [june.entityId, res.body.id])).toEqual([{ partner_name: 'Comercial; Ñuñoa "Norte"' }]);
      const spanning = salesRow(1, { ...siiSales[0], name: '"Comercial\nÑuñoa"' });
      const bad = salesRow(2, { ...siiSales[1], date: '1/6/2026' });
      const refused = await expectRefused(t, TABLES, sendCsv(june.entityId, '2026-01', 'sales', `${SALES_HEADER}\n${spanning}\n${bad}\n`), 400, 'VALIDATION_ERROR');
      expect(refused.body.params.row).toBe(4);
    });

    it('refuses a malformed file with 400 naming the row, writing nothing', async () => {
      const good = salesRow(1, siiSales[0]);
      const cases: Array<[string, string, number]> = [
        ['a bad date', `${SALES_HEADER}\n${good}\n${salesRow(2, { ...siiSales[1], date: '2026-06-10' })}\n`, 3],
        ['an impossible date', `${SALES_HEADER}\n${salesRow(1, { ...siiSales[1], date: '31/02/2026' })}\n`, 2],
        ['a RUT with a wrong check digit', `${SALES_HEADER}\n${good}\n${good}\n${salesRow(3, { ...siiSales[1], rut: '96874030-1' })}\n`, 4],
        ['folio 0', `${SALES_HEADER}\n${salesRow(1, { ...siiSales[1], folio: '000' })}\n`, 2],
        ['a non-number amount', `${SALES_HEADER}\n${salesRow(1, { ...siiSales[1], net: '90.000' })}\n`, 2],
        ['a bad document type', `${SALES_HEADER}\n${salesRow(1, { ...siiSales[1], type: 'FAC' })}\n`, 2],
        ['a header without Folio', `${SALES_HEADER.replace('Folio;', 'Numero;')}\n${good}\n`, 1],
        ['a comma-separated file', `Tipo Doc,Rut cliente,Razon Social,Folio,Fecha Docto,Monto Exento,Monto Neto,Monto IVA,Monto total\n33,${CLIENT_RUT},X,1,01/06/2026,0,100,19,119\n`, 1],
        ['an unclosed quote', `${SALES_HEADER}\n${good}\n${salesRow(2, { ...siiSales[1], name: '"Comercial' })}\n`, 3],
        ['a NUL in a name', `${SALES_HEADER}\n${salesRow(1, { ...siiSales[1], name: 'A\u0000B' })}\n`, 2],
      ];
      for (const [label, file, row] of cases) {
        const res = await expectRefused(t, TABLES, sendCsv(june.entityId, '2026-03', 'sales', file), 400, 'VALIDATION_ERROR');
        expect({ label, row: res.body.params.row, message: res.body.message.includes(`row ${row}`) }).toEqual({ label, row, message: true });
      }
      // No file at all.
      await expectRefused(t, TABLES, staff.post(importPath(june.entityId, '2026-03', 'sales')).set('content-type', 'text/csv').send(''), 400, 'VALIDATION_ERROR');
      await expectRefused(t, TABLES, staff.post(importPath(june.entityId, '2026-03', 'sales')).send({}), 400, 'VALIDATION_ERROR');
      // A bad period or direction, the file being fine.
      await expectRefused(t, TABLES, sendCsv(june.entityId, '2026-3', 'sales', `${SALES_HEADER}\n${good}\n`), 400, 'VALIDATION_ERROR');
      await expectRefused(t, TABLES, sendCsv(june.entityId, '2026-03', 'ventas', `${SALES_HEADER}\n${good}\n`), 400, 'VALIDATION_ERROR');
      await reconciliation(june.entityId, '2026-03', 'sales').expect(404);
    });

    it('counts imports as heavy work (D2b): past HEAVY_READS_PER_USER at once, 429 TOO_MANY_CONCURRENT_READS_ERROR with Retry-After, nothing written', async () => {
      const file = rcvFile('sales', siiSales);
      const before = await countRows(t, 'rcv_imports', 'entity_id = $1', [june.entityId]);
      // Two imports hold this User's two slots, waiting on the imports' table; a third is refused meanwhile.
      const [first, second] = await whileTableLocked(
        t,
        'rcv_imports',
        2,
        () => Promise.all([sendCsv(june.entityId, '2025-12', 'sales', file), sendCsv(june.entityId, '2025-12', 'sales', file)]),
        async () => {
          const third = await expectRefused(t, TABLES, sendCsv(june.entityId, '2025-12', 'sales', file), 429, 'TOO_MANY_CONCURRENT_READS_ERROR');
          expect(third.headers['retry-after']).toBe('1');
        },
      );
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(await countRows(t, 'rcv_imports', 'entity_id = $1', [june.entityId])).toBe(before + 2);
    });

    it('bounds hostile input: a huge field, too many fields, too many rows, too many bytes', async () => {
      const good = salesRow(1, siiSales[0]);
      const huge = await expectRefused(t, TABLES, sendCsv(june.entityId, '2026-02', 'sales', `${SALES_HEADER}\n${good}\n${salesRow(2, { ...siiSales[1], name: 'x'.repeat(2_000_000) })}\n`), 400, 'VALIDATION_ERROR');
      expect(huge.body.params.row).toBe(3);
      const long = await expectRefused(t, TABLES, sendCsv(june.entityId, '2026-02', 'sales', `${SALES_HEADER}\n${salesRow(1, { ...siiSales[1], name: 'x'.repeat(1_001) })}\n`), 400, 'VALIDATION_ERROR');
      expect(long.body.params.row).toBe(2);
      const wide = await expectRefused(t, TABLES, sendCsv(june.entityId, '2026-02', 'sales', `${SALES_HEADER}\n${good}${';'.repeat(200)}\n`), 400, 'VALIDATION_ERROR');
      expect(wide.body.params.row).toBe(2);
      // 100,001 documents (about 4 MB): one past the bound.
      const minimal = 'Tipo Doc;Rut cliente;Razon Social;Folio;Fecha Docto;Monto Exento;Monto Neto;Monto IVA;Monto total';
      const many = [minimal, ...Array.from({ length: 100_001 }, (_, i) => `33;${CLIENT_RUT};C;${i + 1};01/06/2026;0;100;19;119`)].join('\n');
      expect(Buffer.byteLength(many)).toBeLessThan(5_242_880);
      const tooMany = await expectRefused(t, TABLES, sendCsv(june.entityId, '2026-02', 'sales', many), 400, 'VALIDATION_ERROR');
      expect(tooMany.body.params.row).toBe(100_002);
      // 5 MB is 5,242,880 bytes: one byte more is 413, as a body or as a form's file.
      const padded = (size: number) => {
        const head = Buffer.from(`${SALES_HEADER}\n${good}\n`, 'utf8');
        return Buffer.concat([head, Buffer.alloc(size - head.length, '\n')]);
      };
      await expectRefused(t, TABLES, sendCsv(june.entityId, '2026-02', 'sales', padded(5_242_881)), 413, 'PAYLOAD_TOO_LARGE_ERROR');
      await expectRefused(t, TABLES, staff.post(importPath(june.entityId, '2026-02', 'sales')).attach('file', padded(5_242_881), 'rcv.csv'), 413, 'PAYLOAD_TOO_LARGE_ERROR');
      // Exactly 5,242,880 bytes is taken.
      expect((await sendCsv(june.entityId, '2026-02', 'sales', padded(5_242_880)).expect(201)).body.rowCount).toBe(1);
    });
  });

  describe('jurisdiction and access (D92, D16)', () => {
    it('refuses an Entity not in Chile or not in CLP with 409 TAX_JURISDICTION_NOT_SUPPORTED_ERROR, before anything else of the request', async () => {
      const usd = (await createEntity(staff, world.organizationId, { currency: 'USD' })).id;
      const foreign = (await createEntity(staff, world.organizationId, { country: 'PE', taxId: '20100070970', currency: 'PEN' })).id;
      for (const entityId of [usd, foreign]) {
        for (const req of [
          register(entityId, '2026-06', 'sales'),
          register(entityId, 'bad', 'nothing'),
          f29(entityId, 'period=2026-06'),
          f29(entityId, 'period=x&carriedCredit=-1'),
          reconciliation(entityId, '2026-06', 'sales'),
          staff.get(`${base(entityId)}/rcv-reconciliation`),
        ]) {
          const res = await req;
          expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: 'TAX_JURISDICTION_NOT_SUPPORTED_ERROR' });
        }
        await expectRefused(t, TABLES, sendCsv(entityId, '2026-06', 'sales', rcvFile('sales', siiSales)), 409, 'TAX_JURISDICTION_NOT_SUPPORTED_ERROR');
        await expectRefused(t, TABLES, sendCsv(entityId, 'bad', 'sales', 'not a file'), 409, 'TAX_JURISDICTION_NOT_SUPPORTED_ERROR');
      }
      expect(await countRows(t, 'rcv_imports', 'entity_id = ANY($1::uuid[])', [[usd, foreign]])).toBe(0);
    });

    it('GET purchase-sales-register', () => checkAccessMatrix(t, world, { method: 'get', path: (id) => `${base(id)}/purchase-sales-register?period=2026-06&direction=sales` }));
    it('GET f29', () => checkAccessMatrix(t, world, { method: 'get', path: (id) => `${base(id)}/f29?period=2026-06` }));
    it('GET rcv-reconciliation', () => checkAccessMatrix(t, world, { method: 'get', path: (id) => `${base(id)}/rcv-reconciliation?period=2026-06&direction=sales` }));
    it('POST rcv-imports', () => checkAccessMatrix(t, world, { method: 'post', path: (id) => importPath(id, '2026-06', 'sales') }));
  });
});
