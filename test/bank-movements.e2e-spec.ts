import { randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import { checkAccessMatrix } from './harness/access-matrix';
import { countRows, expectAudited, expectRefused } from './harness/db-checks';
import type { TestApp } from './harness/test-app';
import { Agent, createLedgerAccount, createWorldApp, freshEntity, ISO_DATETIME, World } from './harness/world';

const TABLES = ['bank_accounts', 'bank_movements', 'audit_trail'];

interface Movement {
  id: string;
  movementDate: string;
  description: string;
  amount: number;
  side: 'debit' | 'credit';
  reference: string | null;
  source: string;
  ledgerEntryId: string | null;
}

describe('Bank movements (D65, D76, D78)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp());
  });
  afterAll(() => t.close());

  const refused = (req: Test, status: number, code: string) => expectRefused(t, TABLES, req, status, code);
  const setUp = async (entityId?: string) => {
    entityId ??= await freshEntity(world);
    const cash = await createLedgerAccount(staff, entityId, { code: `11${Math.floor(Math.random() * 9000) + 1000}`, type: 'asset', tracking: 'balance' });
    const accountId = randomUUID();
    await staff.post(`/api/entities/${entityId}/bank-accounts`).send({ id: accountId, name: 'Banco', kind: 'bank', ledgerAccountId: cash, currency: 'CLP' }).expect(201);
    const base = `/api/entities/${entityId}/bank-accounts/${accountId}`;
    return { entityId, accountId, cash, movementsPath: `${base}/movements`, importPath: `${base}/movements/import` };
  };
  const manual = (overrides: Record<string, unknown> = {}) => ({ id: randomUUID(), movementDate: '2026-03-05', description: 'Transferencia', amount: 15_000, side: 'debit', ...overrides });
  const importCsv = (path: string, csv: string) => staff.post(path).set('content-type', 'text/csv').send(csv);
  const importForm = (path: string, csv: string | Buffer, filename = 'cartola.csv') =>
    staff.post(path).attach('file', Buffer.isBuffer(csv) ? csv : Buffer.from(csv, 'utf8'), { filename, contentType: 'text/csv' });
  const all = async (path: string, query: Record<string, string> = {}): Promise<Movement[]> => (await staff.get(path).query({ limit: '100', ...query }).expect(200)).body.rows;

  describe('POST .../movements (manual, D76)', () => {
    it('creates a manual movement: 201 with the D65 shape, audited', async () => {
      const { entityId, accountId, movementsPath } = await setUp();
      const body = manual({ reference: 'F-123' });
      const res = await expectAudited(t, staff.post(movementsPath).send(body), 201, { action: 'bank_movement.create', resource_type: 'bank_movement', resource_id: body.id, entity_id: entityId });
      expect(res.body).toEqual({
        id: body.id,
        entityId,
        bankAccountId: accountId,
        movementDate: '2026-03-05',
        description: 'Transferencia',
        amount: 15_000,
        side: 'debit',
        reference: 'F-123',
        counterpartyName: null,
        counterpartyTaxId: null,
        source: 'manual',
        providerMovementId: null,
        ledgerEntryId: null,
        createdAt: expect.stringMatching(ISO_DATETIME),
        updatedAt: expect.stringMatching(ISO_DATETIME),
      });
      expect((await staff.get(`/api/entities/${entityId}/bank-movements/${body.id}`).expect(200)).body).toEqual(res.body);
    });

    it.each([
      ['a counterparty name (D76a)', { counterpartyName: 'X' }],
      ['a counterparty tax id (D76a)', { counterpartyTaxId: '76086428-5' }],
      ['a source', { source: 'feed' }],
      ['a zero amount', { amount: 0 }],
      ['a negative amount', { amount: -5 }],
      ['a fractional amount', { amount: 1.5 }],
      ['an amount as a string (D2b)', { amount: '100' }],
      ['an impossible date', { movementDate: '2026-02-30' }],
      ['a DD-MM-YYYY date', { movementDate: '05-03-2026' }],
      ['a bad side', { side: 'in' }],
      ['a blank description', { description: '   ' }],
      ['a missing id', { id: undefined }],
    ])('refuses %s with 400 VALIDATION_ERROR and writes nothing', async (_label, overrides) => {
      const { movementsPath } = await setUp();
      await refused(staff.post(movementsPath).send(manual(overrides)), 400, 'VALIDATION_ERROR');
    });

    it("refuses a movement on another Entity's bank account, or a missing one, with 404 BANK_ACCOUNT_NOT_FOUND_ERROR", async () => {
      const mine = await setUp();
      const theirs = await setUp();
      const foreign = `/api/entities/${mine.entityId}/bank-accounts/${theirs.accountId}/movements`;
      await refused(staff.post(foreign).send(manual()), 404, 'BANK_ACCOUNT_NOT_FOUND_ERROR');
      await refused(staff.post(`/api/entities/${mine.entityId}/bank-accounts/${randomUUID()}/movements`).send(manual()), 404, 'BANK_ACCOUNT_NOT_FOUND_ERROR');
      await refused(staff.get(foreign), 404, 'BANK_ACCOUNT_NOT_FOUND_ERROR');
      await refused(importCsv(`/api/entities/${mine.entityId}/bank-accounts/${theirs.accountId}/movements/import`, 'date,description,amount\n2026-01-01,x,5\n'), 404, 'BANK_ACCOUNT_NOT_FOUND_ERROR');
    });

    it('refuses a reused id with 409 BANK_MOVEMENT_ALREADY_EXISTS_ERROR', async () => {
      const { movementsPath } = await setUp();
      const body = manual();
      await staff.post(movementsPath).send(body).expect(201);
      await refused(staff.post(movementsPath).send({ ...body, amount: 1 }), 409, 'BANK_MOVEMENT_ALREADY_EXISTS_ERROR');
    });
  });

  describe('GET .../movements', () => {
    it('pages newest first with a keyset cursor, filters from/to inclusively (D64a) and by booked', async () => {
      const { entityId, movementsPath } = await setUp();
      const dates = ['2026-01-01', '2026-01-15', '2026-01-31', '2026-02-01', '2026-02-15'];
      for (const movementDate of dates) await staff.post(movementsPath).send(manual({ movementDate })).expect(201);
      await t.sql(`UPDATE bank_movements SET ledger_entry_id = $2 WHERE entity_id = $1 AND movement_date = '2026-01-15'`, [entityId, randomUUID()]);

      const first = await staff.get(movementsPath).query({ limit: '2' }).expect(200);
      expect(first.body.rows.map((m: Movement) => m.movementDate)).toEqual(['2026-02-15', '2026-02-01']);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const second = await staff.get(movementsPath).query({ limit: '2', cursor: first.body.nextCursor }).expect(200);
      expect(second.body.rows.map((m: Movement) => m.movementDate)).toEqual(['2026-01-31', '2026-01-15']);
      const third = await staff.get(movementsPath).query({ limit: '2', cursor: second.body.nextCursor }).expect(200);
      expect(third.body).toEqual({ rows: [expect.objectContaining({ movementDate: '2026-01-01' })], nextCursor: null });

      expect((await all(movementsPath, { from: '2026-01-15', to: '2026-02-01' })).map((m) => m.movementDate)).toEqual(['2026-02-01', '2026-01-31', '2026-01-15']);
      expect((await all(movementsPath, { booked: 'true' })).map((m) => m.movementDate)).toEqual(['2026-01-15']);
      expect(await all(movementsPath, { booked: 'false' })).toHaveLength(4);
    });

    it.each([
      ['a forged cursor', { cursor: 'bm90LWEtY3Vyc29y' }],
      ['a bad booked', { booked: 'yes' }],
      ['a bad date', { from: '2026-13-01' }],
      ['to before from', { from: '2026-02-01', to: '2026-01-01' }],
      ['a limit over 100', { limit: '101' }],
    ])('refuses %s with 400 VALIDATION_ERROR', async (_label, query) => {
      const { movementsPath } = await setUp();
      const res = await staff.get(movementsPath).query(query);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    });
  });

  describe('GET and DELETE .../bank-movements/:id', () => {
    it('deletes an unbooked movement: 200 with the movement, audited', async () => {
      const { entityId, movementsPath } = await setUp();
      const body = manual();
      const created = (await staff.post(movementsPath).send(body).expect(201)).body;
      const res = await expectAudited(t, staff.delete(`/api/entities/${entityId}/bank-movements/${body.id}`), 200, { action: 'bank_movement.delete', resource_id: body.id });
      expect(res.body).toEqual(created);
      expect(await countRows(t, 'bank_movements', 'entity_id = $1', [entityId])).toBe(0);
      expect((await staff.get(`/api/entities/${entityId}/bank-accounts`).expect(200)).body[0].unreconciledCount).toBe(0);
    });

    it('refuses deleting a booked movement with 409 BANK_MOVEMENT_BOOKED_ERROR', async () => {
      const { entityId, movementsPath } = await setUp();
      const body = manual();
      await staff.post(movementsPath).send(body).expect(201);
      await t.sql(`UPDATE bank_movements SET ledger_entry_id = $2 WHERE entity_id = $1`, [entityId, randomUUID()]);
      await refused(staff.delete(`/api/entities/${entityId}/bank-movements/${body.id}`), 409, 'BANK_MOVEMENT_BOOKED_ERROR');
    });

    it("answers 404 BANK_MOVEMENT_NOT_FOUND_ERROR for a missing movement or another Entity's", async () => {
      const mine = await setUp();
      const theirs = await setUp();
      const body = manual();
      await staff.post(theirs.movementsPath).send(body).expect(201);
      for (const id of [randomUUID(), body.id]) {
        await refused(staff.get(`/api/entities/${mine.entityId}/bank-movements/${id}`), 404, 'BANK_MOVEMENT_NOT_FOUND_ERROR');
        await refused(staff.delete(`/api/entities/${mine.entityId}/bank-movements/${id}`), 404, 'BANK_MOVEMENT_NOT_FOUND_ERROR');
      }
    });
  });

  describe('POST .../movements/import (D78)', () => {
    it('imports a text/csv statement: 201 { landedCount, skippedCount }, signs give sides, rows in file order', async () => {
      const { entityId, importPath, movementsPath } = await setUp();
      const csv = 'date,description,amount,reference\n2026-03-01,Abono cliente,150000,F-1\n02-03-2026,Pago proveedor,-45.300,\n03/03/2026,"Comisión, mantención",-1.234.567,X9\n';
      const res = await expectAudited(t, importCsv(importPath, csv), 201, { action: 'bank_movement.import', entity_id: entityId });
      expect(res.body).toEqual({ landedCount: 3, skippedCount: 0 });
      const rows = await all(movementsPath);
      expect(rows.map((m) => [m.movementDate, m.description, m.amount, m.side, m.reference, m.source, m.ledgerEntryId])).toEqual([
        ['2026-03-03', 'Comisión, mantención', 1_234_567, 'credit', 'X9', 'import', null],
        ['2026-03-02', 'Pago proveedor', 45_300, 'credit', null, 'import', null],
        ['2026-03-01', 'Abono cliente', 150_000, 'debit', 'F-1', 'import', null],
      ]);
      expect((await staff.get(`/api/entities/${entityId}/bank-accounts`).expect(200)).body[0].unreconciledCount).toBe(3);
    });

    it('imports a multipart file with a BOM, CRLF, ; separators and no reference column', async () => {
      const { importPath, movementsPath } = await setUp();
      const csv = '\uFEFFDate;Description;Amount\r\n01-04-2026;"Pago; con punto y coma";-2.000\r\n02-04-2026;Depósito;3000\r\n';
      expect((await importForm(importPath, csv).expect(201)).body).toEqual({ landedCount: 2, skippedCount: 0 });
      expect((await all(movementsPath)).map((m) => [m.description, m.amount, m.side, m.reference])).toEqual([
        ['Depósito', 3000, 'debit', null],
        ['Pago; con punto y coma', 2000, 'credit', null],
      ]);
    });

    it('takes rows without the optional reference under the four-column header', async () => {
      const { importPath, movementsPath } = await setUp();
      expect((await importCsv(importPath, 'date,description,amount,reference\n2026-04-01,a,5,R1\n2026-04-02,b,-6\n').expect(201)).body).toEqual({ landedCount: 2, skippedCount: 0 });
      expect((await all(movementsPath)).map((m) => [m.description, m.reference])).toEqual([
        ['b', null],
        ['a', 'R1'],
      ]);
    });

    it('reads a windows-1252 file', async () => {
      const { importPath, movementsPath } = await setUp();
      const bytes = Buffer.from('date,description,amount\n2026-04-01,Comisi\xf3n,-100\n', 'latin1');
      await importForm(importPath, bytes).expect(201);
      expect((await all(movementsPath))[0].description).toBe('Comisión');
    });

    it('skips duplicates by content: a re-import lands nothing; identical rows inside one file both land', async () => {
      const { importPath, movementsPath } = await setUp();
      const csv = 'date,description,amount\n2026-03-01,Café,-1500\n2026-03-01,Café,-1500\n2026-03-02,Sueldo,900000\n';
      expect((await importCsv(importPath, csv).expect(201)).body).toEqual({ landedCount: 3, skippedCount: 0 });
      expect((await importCsv(importPath, csv).expect(201)).body).toEqual({ landedCount: 0, skippedCount: 3 });
      const overlapping = 'date,description,amount\n2026-03-02,Sueldo,900000\n2026-03-03,Arriendo,-400000\n';
      expect((await importForm(importPath, overlapping).expect(201)).body).toEqual({ landedCount: 1, skippedCount: 1 });
      expect(await all(movementsPath)).toHaveLength(4);
    });

    it('two imports of the same file at once land each movement once', async () => {
      const { entityId, importPath } = await setUp();
      const lines = Array.from({ length: 200 }, (_, i) => `2026-05-${String((i % 28) + 1).padStart(2, '0')},Movimiento ${i},${i % 2 ? '-' : ''}${i + 1}`);
      const csv = `date,description,amount\n${lines.join('\n')}\n`;
      const [a, b] = await Promise.all([importCsv(importPath, csv), importCsv(importPath, csv)]);
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(a.body.landedCount + b.body.landedCount).toBe(200);
      expect(a.body.skippedCount + b.body.skippedCount).toBe(200);
      expect(await countRows(t, 'bank_movements', 'entity_id = $1', [entityId])).toBe(200);
      const [{ n }] = await t.sql<{ n: number }>('SELECT unreconciled_count AS n FROM bank_accounts WHERE entity_id = $1', [entityId]);
      expect(n).toBe(200);
    });

    it.each([
      ['a wrong header', 'fecha,glosa,monto\n2026-01-01,x,5\n', 1, /header/],
      ['a header with an extra column', 'date,description,amount,reference,balance\n2026-01-01,x,5,,9\n', 1, /header/],
      ['a bad date', 'date,description,amount\n2026-01-01,ok,5\n2026-02-30,x,5\n', 3, /date/],
      ['a US date', 'date,description,amount\n01/31/2026,x,5\n', 2, /date/],
      ['a decimal amount', 'date,description,amount\n2026-01-01,x,5\n2026-01-02,x,10.5\n', 3, /amount/],
      ['a comma decimal amount', 'date,description,amount\n2026-01-02,x,"10,50"\n', 2, /amount/],
      ['a wrongly grouped amount', 'date,description,amount\n2026-01-02,x,1.23\n', 2, /amount/],
      ['a zero amount', 'date,description,amount\n2026-01-02,x,0\n', 2, /zero/],
      ['an amount past 2^53', 'date,description,amount\n2026-01-02,x,9007199254740992\n', 2, /amount/],
      ['a missing field', 'date,description,amount\n2026-01-02,x\n', 2, /fields/],
      ['an extra field', 'date,description,amount,reference\n2026-01-02,x,5,r,extra\n', 2, /fields/],
      ['an empty description', 'date,description,amount\n2026-01-02,,5\n', 2, /description/],
      ['a NUL in a description', 'date,description,amount\n2026-01-02,a\u0000b,5\n', 2, /NUL/],
      ['a control character in a reference', 'date,description,amount,reference\n2026-01-02,x,5,a\u0007b\n', 2, /control/],
      ['an unclosed quote', 'date,description,amount\n2026-01-02,"x,5\n', 2, /malformed/],
      ['a bad row after blank lines (the file line is named)', 'date,description,amount\r\n\r\n2026-01-01,ok,5\r\n\r\n2026-02-30,x,5\r\n', 5, /date/],
      ['a description on two lines (the line it starts on is named)', 'date,description,amount\n\n2026-01-01,"two\nlines",5\n', 3, /description/],
      ['a stray quote after a blank line', 'date,description,amount\n\n2026-01-02,a"b,5\n', 3, /malformed/],
    ])('refuses %s with 400 BANK_IMPORT_ROW_INVALID_ERROR naming the row, and lands nothing', async (_label, csv, row, reason) => {
      const { importPath } = await setUp();
      const res = await refused(importCsv(importPath, csv), 400, 'BANK_IMPORT_ROW_INVALID_ERROR');
      expect(res.body.params).toEqual({ row, reason: expect.stringMatching(reason) });
    });

    it('refuses an empty file with 400 VALIDATION_ERROR, as text/csv or as a form file', async () => {
      const { importPath } = await setUp();
      await refused(importCsv(importPath, ''), 400, 'VALIDATION_ERROR');
      await refused(importForm(importPath, '\r\n  \n'), 400, 'VALIDATION_ERROR');
    });

    it('refuses a form without the file field, and a JSON body, with 400', async () => {
      const { importPath } = await setUp();
      await refused(staff.post(importPath).field('other', 'x'), 400, 'VALIDATION_ERROR');
      await refused(staff.post(importPath).attach('statement', Buffer.from('date,description,amount\n'), 'a.csv'), 400, 'VALIDATION_ERROR');
      await refused(staff.post(importPath).send({ file: 'date,description,amount' }), 400, 'VALIDATION_ERROR');
    });

    it('refuses a file over 5 MB with 413 PAYLOAD_TOO_LARGE_ERROR, as text/csv or as a form file', async () => {
      const { importPath } = await setUp();
      const big = `date,description,amount\n${'2026-01-01,x,5\n'.repeat(Math.ceil(5_242_881 / 15))}`;
      await refused(importCsv(importPath, big), 413, 'PAYLOAD_TOO_LARGE_ERROR');
      await refused(importForm(importPath, big), 413, 'PAYLOAD_TOO_LARGE_ERROR');
    });

    it('lands a header-only file as nothing', async () => {
      const { importPath } = await setUp();
      expect((await importCsv(importPath, 'date,description,amount\n').expect(201)).body).toEqual({ landedCount: 0, skippedCount: 0 });
    });
  });

  describe('access', () => {
    let paths: { movementsPath: string; importPath: string; accountId: string };
    beforeAll(async () => {
      paths = await setUp(world.entityId);
    });
    const swap = (entityId: string, path: string) => path.replace(world.entityId, entityId);

    it('GET .../movements', () => checkAccessMatrix(t, world, { method: 'get', path: (e) => swap(e, paths.movementsPath) }));
    it('POST .../movements', () => checkAccessMatrix(t, world, { method: 'post', path: (e) => swap(e, paths.movementsPath), body: () => manual() }));
    it('POST .../movements/import', () => checkAccessMatrix(t, world, { method: 'post', path: (e) => swap(e, paths.importPath) }));
    it('GET /bank-movements/:id', async () => {
      const body = manual();
      await staff.post(paths.movementsPath).send(body).expect(201);
      await checkAccessMatrix(t, world, { method: 'get', path: (e) => `/api/entities/${e}/bank-movements/${body.id}` });
    });
    it('DELETE /bank-movements/:id', async () => {
      const body = manual();
      await staff.post(paths.movementsPath).send(body).expect(201);
      await checkAccessMatrix(t, world, { method: 'delete', path: (e) => `/api/entities/${e}/bank-movements/${body.id}` });
    });
  });
});
