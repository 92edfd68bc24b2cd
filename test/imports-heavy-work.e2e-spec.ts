import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'supertest';
import { expectRefused, whileTableLocked } from './harness/db-checks';
import { DteSpec, envioDte, singleDte } from './harness/dte-xml';
import type { TestApp } from './harness/test-app';
import { Agent, createEntity, createLedgerAccount, createWorldApp, World } from './harness/world';

const ENTITY_RUT = '76086428-5';
const CLIENT_RUT = '96874030-K';
const DTE_TABLES = ['dtes', 'invoices', 'audit_trail'];
const BANK_TABLES = ['bank_movements', 'audit_trail'];
/** D2b: 5 MB. */
const FIVE_MB = 5_242_880;

/**
 * Issue 33 item 2 and D2b, D63a: imports are heavy work, parsed as bounded streams. The hostile
 * shapes of the hardening pass (an unclosed flood of elements, 60,000 references, a
 * 4.9 MB company name, a 4.8 MB statement with a bad last row) answer 400 naming the field or
 * row and write nothing; "5 MB" is 5,242,880 bytes; imports and heavy reads share D2a's slots.
 */
describe('Imports as heavy work (issue 33, D2b, D63a)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let member: Agent;
  let entityId: string;
  let importPath: string;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp());
    member = world.clientMember.agent;
    entityId = (await createEntity(staff, world.organizationId, { taxId: '76.086.428-5' })).id;
    importPath = `/api/entities/${entityId}/dtes/import`;
  });
  afterAll(() => t.close());

  const invoice = (folio: string, overrides: Partial<DteSpec> = {}): DteSpec => ({ type: 33, folio, issuerRut: ENTITY_RUT, issuerName: 'Servicios Ñuñoa SpA', receiverRut: CLIENT_RUT, net: 100000, tax: 19000, ...overrides });
  const sendDte = (xml: Buffer | string, agent: Agent = staff) => agent.post(importPath).set('content-type', 'application/xml').send(xml);
  const refusedDte = (xml: Buffer | string, status: number, code: string) => expectRefused(t, DTE_TABLES, sendDte(xml), status, code);

  async function bankAccount(agent: Agent = staff) {
    const cash = await createLedgerAccount(staff, entityId, { code: `11${Math.floor(Math.random() * 9000) + 1000}`, type: 'asset', tracking: 'balance' });
    const accountId = randomUUID();
    await agent.post(`/api/entities/${entityId}/bank-accounts`).send({ id: accountId, name: 'Banco', kind: 'bank', ledgerAccountId: cash, currency: 'CLP' }).expect(201);
    return `/api/entities/${entityId}/bank-accounts/${accountId}/movements/import`;
  }
  const sendCsv = (path: string, csv: string | Buffer, agent: Agent = staff) => agent.post(path).set('content-type', 'text/csv').send(csv);

  describe('hostile DTE shapes: 400 VALIDATION_ERROR naming the place, nothing written', () => {
    it('an unclosed flood of 1,600,000 elements: refused at the depth bound (24 levels), naming the document', async () => {
      const flood = `<?xml version="1.0" encoding="ISO-8859-1"?>\n<DTE version="1.0"><Documento ID="F1T33">${'<a>'.repeat(1_600_000)}`;
      expect(flood.length).toBeLessThanOrEqual(FIVE_MB);
      const res = await refusedDte(flood, 400, 'VALIDATION_ERROR');
      expect(res.body.params).toMatchObject({ document: 1, limit: 24, line: 2 });
      expect(res.body.message).toMatch(/deeper than 24 levels/);
    });

    it('60,000 Referencia on one document: refused at the 41st (DTE_v10.xsd: at most 40), naming the document and field', async () => {
      const reference = '<Referencia><TpoDocRef>33</TpoDocRef><FolioRef>1</FolioRef></Referencia>';
      const one = singleDte(invoice('700')).toString('latin1');
      const xml = one.replace('<TED ', `${reference.repeat(60_000)}<TED `);
      expect(xml.length).toBeLessThanOrEqual(FIVE_MB);
      const res = await refusedDte(Buffer.from(xml, 'latin1'), 400, 'VALIDATION_ERROR');
      expect(res.body.params).toMatchObject({ document: 1, folio: '700', field: 'Referencia', path: 'DTE.Documento.Referencia', limit: 40 });
    });

    it('a 4.9 MB RznSoc: refused as longer than 100 characters, naming the document and field', async () => {
      const xml = envioDte([invoice('701'), invoice('702', { issuerName: 'S'.repeat(4_900_000) })]);
      expect(xml.length).toBeLessThanOrEqual(FIVE_MB);
      const res = await refusedDte(xml, 400, 'VALIDATION_ERROR');
      expect(res.body.params).toMatchObject({ document: 2, folio: '702', field: 'Encabezado.Emisor.RznSoc', path: 'EnvioDTE.SetDTE.DTE[1].Documento.Encabezado.Emisor.RznSoc', limit: 100 });
    });
  });

  describe('hostile statements: 400 BANK_IMPORT_ROW_INVALID_ERROR naming the row, nothing written', () => {
    it('a 4.8 MB statement whose last row is bad', async () => {
      const path = await bankAccount();
      const rows = 86_000;
      const csv = `date,description,amount,reference\n${Array.from({ length: rows }, (_, i) => `2026-03-05,Transferencia de cliente ${i},15000,R-${i}\n`).join('')}31-02-2026,Pago,100,R\n`;
      expect(csv.length).toBeGreaterThan(4_750_000);
      expect(csv.length).toBeLessThanOrEqual(FIVE_MB);
      const res = await expectRefused(t, BANK_TABLES, sendCsv(path, csv), 400, 'BANK_IMPORT_ROW_INVALID_ERROR');
      expect(res.body.params).toEqual({ row: rows + 2, reason: 'date must be YYYY-MM-DD, DD-MM-YYYY or DD/MM/YYYY and exist' });
    });

    it('a 4.9 MB description: refused at its row without holding the record whole', async () => {
      const path = await bankAccount();
      const csv = `date,description,amount\n2026-03-05,ok,100\n2026-03-05,${'d'.repeat(4_900_000)},100\n`;
      const res = await expectRefused(t, BANK_TABLES, sendCsv(path, csv), 400, 'BANK_IMPORT_ROW_INVALID_ERROR');
      expect(res.body.params).toMatchObject({ row: 3 });
      expect(res.body.params.reason).toMatch(/malformed/);
    });
  });

  describe('"5 MB" is 5,242,880 bytes (D2b)', () => {
    it('a DTE file of exactly 5,242,880 bytes is imported; one byte more is 413 naming the limit', async () => {
      const doc = singleDte(invoice('710'));
      const exact = Buffer.concat([doc, Buffer.alloc(FIVE_MB - doc.length, ' ')]);
      expect(exact.length).toBe(5_242_880);
      expect((await sendDte(exact).expect(201)).body).toMatchObject({ importedCount: 1 });
      const over = Buffer.concat([singleDte(invoice('711')), Buffer.alloc(FIVE_MB - singleDte(invoice('711')).length + 1, ' ')]);
      const res = await refusedDte(over, 413, 'PAYLOAD_TOO_LARGE_ERROR');
      expect(res.body.params).toEqual({ limitBytes: 5_242_880 });
      expect(res.body.message).toMatch(/5 MB \(5,242,880 bytes\)/);
    });

    it('a statement of exactly 5,242,880 bytes is imported (as text/csv and as a form file); one byte more is 413', async () => {
      const path = await bankAccount();
      const head = 'date,description,amount\n2026-03-05,Abono,100\n';
      const exact = head + '\n'.repeat(FIVE_MB - head.length);
      expect(Buffer.byteLength(exact)).toBe(5_242_880);
      expect((await sendCsv(path, exact).expect(201)).body).toEqual({ landedCount: 1, skippedCount: 0 });
      expect((await staff.post(path).attach('file', Buffer.from(exact), { filename: 'cartola.csv', contentType: 'text/csv' }).expect(201)).body).toEqual({ landedCount: 0, skippedCount: 1 });
      const res = await expectRefused(t, BANK_TABLES, sendCsv(path, `${exact}\n`), 413, 'PAYLOAD_TOO_LARGE_ERROR');
      expect(res.body.params).toEqual({ limitBytes: 5_242_880 });
      expect(res.body.message).toMatch(/5 MB \(5,242,880 bytes\)/);
      await expectRefused(t, BANK_TABLES, staff.post(path).attach('file', Buffer.from(`${exact}\n`), { filename: 'cartola.csv', contentType: 'text/csv' }), 413, 'PAYLOAD_TOO_LARGE_ERROR');
    });
  });

  describe('heavy work per User and per instance (D2a, D2b)', () => {
    it('two imports of one User running, a third (DTE or statement) is 429 TOO_MANY_CONCURRENT_READS_ERROR with Retry-After; another User\'s import goes on', async () => {
      const memberStatement = await bankAccount(member);
      const staffStatement = await bankAccount(staff);
      const refusedMeanwhile: Array<{ status: number; code: string; retryAfter: string | undefined; limit: unknown }> = [];
      const answers = await whileTableLocked(
        t,
        'dtes',
        2,
        () => Promise.all([sendDte(singleDte(invoice('720')), member), sendDte(singleDte(invoice('721')), member)]),
        async () => {
          for (const request of [sendDte(singleDte(invoice('722')), member), sendCsv(memberStatement, 'date,description,amount\n2026-03-05,Abono,100\n', member)] as Test[]) {
            const res = await request;
            refusedMeanwhile.push({ status: res.status, code: res.body.code, retryAfter: res.headers['retry-after'], limit: res.body.params?.limit });
          }
          // Another User has slots of its own.
          expect((await sendCsv(staffStatement, 'date,description,amount\n2026-03-05,Abono,100\n', staff)).status).toBe(201);
        },
      );
      expect(answers.map((r) => r.status)).toEqual([201, 201]);
      expect(refusedMeanwhile).toEqual([
        { status: 429, code: 'TOO_MANY_CONCURRENT_READS_ERROR', retryAfter: '1', limit: 'perUser' },
        { status: 429, code: 'TOO_MANY_CONCURRENT_READS_ERROR', retryAfter: '1', limit: 'perUser' },
      ]);
      expect(await t.sql('SELECT folio FROM dtes WHERE entity_id = $1 AND folio = ANY($2::text[]) ORDER BY folio', [entityId, ['720', '721', '722']])).toEqual([{ folio: '720' }, { folio: '721' }]);
      // The slots are given back: the same User imports again.
      await sendDte(singleDte(invoice('722')), member).expect(201);
    });
  });

  describe('a refused import is answered without its file being read (D2b)', () => {
    let url: string;
    beforeAll(async () => {
      const server = await t.app.listen(0, '127.0.0.1');
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    /**
     * Announces a 5 MB upload and sends its first kilobyte only, never the rest: the answer comes
     * only if the service judged the request without waiting for the file.
     */
    const announced = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; code: string; retryAfter: string | undefined; limit: unknown }>((resolve, reject) => {
        const req = httpRequest(`${url}${path}`, { method: 'POST', headers: { ...headers, 'content-length': String(FIVE_MB) } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            resolve({ status: res.statusCode ?? 0, code: body.code, retryAfter: res.headers['retry-after'] as string | undefined, limit: body.params?.limit });
            req.destroy();
          });
        });
        req.on('error', reject);
        req.setTimeout(10_000, () => reject(new Error(`no answer to ${path} while its file was unsent`)));
        req.write(Buffer.alloc(1024, ' '));
      });

    it('anonymous: 401; beyond the User\'s heavy slots: 429 with Retry-After, for DTE and statement alike, nothing written', async () => {
      const statementPath = await bankAccount(member);
      expect(await announced(importPath, { 'content-type': 'application/xml' })).toMatchObject({ status: 401, code: 'UNAUTHENTICATED_ERROR' });
      expect(await announced(statementPath, { 'content-type': 'text/csv' })).toMatchObject({ status: 401, code: 'UNAUTHENTICATED_ERROR' });
      const memberKey = { 'x-api-key': world.keys.member, 'x-audit-actor': 'imports test' };
      const refused: unknown[] = [];
      const answers = await whileTableLocked(
        t,
        'dtes',
        2,
        () => Promise.all([sendDte(singleDte(invoice('750')), member), sendDte(singleDte(invoice('751')), member)]),
        async () => {
          refused.push(await announced(importPath, { ...memberKey, 'content-type': 'application/xml' }));
          refused.push(await announced(statementPath, { ...memberKey, 'content-type': 'text/csv' }));
        },
      );
      expect(answers.map((r) => r.status)).toEqual([201, 201]);
      const tooMany = { status: 429, code: 'TOO_MANY_CONCURRENT_READS_ERROR', retryAfter: '1', limit: 'perUser' };
      expect(refused).toEqual([tooMany, tooMany]);
      const accountId = statementPath.split('/')[5];
      expect(await t.sql('SELECT count(*)::int AS n FROM bank_movements WHERE bank_account_id = $1', [accountId])).toEqual([{ n: 0 }]);
    });
  });

  describe('D63a folios', () => {
    it('leading zeros are ignored: 09270702 is folio 9270702, so the same document again without them is a duplicate, skipped', async () => {
      const first = await sendDte(singleDte(invoice('09270702'))).expect(201);
      expect(first.body.dtes.map((d: { folio: string }) => d.folio)).toEqual(['9270702']);
      expect((await sendDte(singleDte(invoice('9270702'))).expect(201)).body).toEqual({ importedCount: 0, skippedCount: 1, dtes: [] });
      expect((await sendDte(envioDte([invoice('009270702'), invoice('0009270703')])).expect(201)).body).toMatchObject({ importedCount: 1, skippedCount: 1 });
    });

    it('folio 0 or a non-number: 400 VALIDATION_ERROR naming the field, nothing written', async () => {
      for (const folio of ['0', '0000', 'F-12', '12.5']) {
        const res = await refusedDte(envioDte([invoice('730'), invoice(folio)]), 400, 'VALIDATION_ERROR');
        expect(res.body.params).toMatchObject({ document: 2, field: 'Encabezado.IdDoc.Folio' });
      }
    });
  });

  describe('the XML declaration read whole (item 5)', () => {
    const after = (xml: Buffer) => xml.subarray(xml.indexOf('?>') + 2);
    it('a valid ISO-8859-1 file whose declaration is padded past 200 bytes is read as ISO-8859-1', async () => {
      const body = Buffer.concat([Buffer.from(`<?xml version="1.0"${' '.repeat(300)}encoding="ISO-8859-1"?>`), after(singleDte(invoice('740', { receiverName: 'Peñalolén Ñuble' })))]);
      const res = await sendDte(body).expect(201);
      expect(res.body.dtes[0].receiverName).toBe('Peñalolén Ñuble');
    });

    it('UTF-16 (declared or written), a bogus encoding name of 300 letters, a malformed declaration: 400 VALIDATION_ERROR, nothing written', async () => {
      const doc = after(singleDte(invoice('741')));
      await refusedDte(Buffer.concat([Buffer.from('<?xml version="1.0" encoding="UTF-16"?>'), doc]), 400, 'VALIDATION_ERROR');
      await refusedDte(Buffer.from(`\ufeff<?xml version="1.0" encoding="UTF-16"?>${doc.toString('latin1')}`, 'utf16le'), 400, 'VALIDATION_ERROR');
      const bogus = await refusedDte(Buffer.concat([Buffer.from(`<?xml version="1.0" encoding="${'x'.repeat(300)}"?>`), doc]), 400, 'VALIDATION_ERROR');
      expect(bogus.body.params).toMatchObject({ path: 'body' });
      await refusedDte(Buffer.concat([Buffer.from('<?xml version="1.0" encoding="ISO-8859-1" ?'), doc]), 400, 'VALIDATION_ERROR');
    });
  });
});
