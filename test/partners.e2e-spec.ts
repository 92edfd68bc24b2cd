import { randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import { checkAccessMatrix, MatrixRoute } from './harness/access-matrix';
import { expectRefused, rowLockWaiters, waitUntil, whileTableLocked } from './harness/db-checks';
import type { TestApp } from './harness/test-app';
import { Agent, createLedgerAccount, createWorldApp, freshEntity, ISO_DATETIME, World } from './harness/world';

interface PartnerBody {
  id: string;
  entityId: string;
  name: string;
  type: 'company' | 'individual';
  country: string;
  taxId: string;
  defaultPurchaseAccountId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Valid Chilean RUTs (D23), with their canonical forms. */
const RUT_A = { dotted: '76.086.428-5', canonical: '76086428-5' };
const RUT_B = { dotted: '12.345.678-5', canonical: '12345678-5' };
const RUT_K = { dotted: '10.000.013-k', canonical: '10000013-K' };

describe('Partners (D45)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp());
  });
  afterAll(() => t.close());

  const partnersPath = (entityId: string) => `/api/entities/${entityId}/partners`;
  const partnerBody = (overrides: Record<string, unknown> = {}) => ({
    id: randomUUID(),
    name: 'Distribuidora Austral SpA',
    type: 'company',
    country: 'CL',
    taxId: RUT_A.dotted,
    ...overrides,
  });
  const createPartner = async (entityId: string, overrides: Record<string, unknown> = {}): Promise<PartnerBody> => {
    const res = await staff.post(partnersPath(entityId)).send(partnerBody(overrides));
    expect(res.status).toBe(201);
    return res.body;
  };
  const createAccount = async (entityId: string, code = '5101'): Promise<string> => {
    const id = randomUUID();
    const res = await staff
      .post(`/api/entities/${entityId}/ledger/accounts`)
      .send({ id, name: `Purchases ${code}`, code, type: 'operating_expense', tracking: 'balance' });
    expect(res.status).toBe(201);
    expect(res.body.account.id).toBe(id);
    return id;
  };

  const partnerRows = (entityId: string) =>
    t.sql('SELECT id, name, type, country, tax_id, default_purchase_account_id, updated_at FROM partners WHERE entity_id = $1 ORDER BY id', [entityId]);
  /** Sends a request that must be refused, and checks that neither the Partners nor the audit trail changed. */
  const refusedWithoutWrites = (req: Test, status: number, code: string) => expectRefused(t, ['partners', 'audit_trail'], req, status, code);

  describe('POST /partners', () => {
    it('creates a partner, answers 201 with the partner row and stores a Chilean RUT canonical', async () => {
      const entityId = await freshEntity(world);
      const id = randomUUID();
      const res = await staff.post(partnersPath(entityId)).send({ id, name: 'Distribuidora Austral SpA', type: 'company', country: 'CL', taxId: RUT_A.dotted });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id,
        entityId,
        name: 'Distribuidora Austral SpA',
        type: 'company',
        country: 'CL',
        taxId: RUT_A.canonical,
        defaultPurchaseAccountId: null,
        createdAt: expect.stringMatching(ISO_DATETIME),
        updatedAt: expect.stringMatching(ISO_DATETIME),
      });
      expect(await partnerRows(entityId)).toEqual([expect.objectContaining({ id, tax_id: RUT_A.canonical, default_purchase_account_id: null })]);
      const audit = await t.sql('SELECT action, resource_type, resource_id FROM audit_trail WHERE entity_id = $1 AND resource_type = $2', [entityId, 'partner']);
      expect(audit).toEqual([{ action: 'partner.create', resource_type: 'partner', resource_id: id }]);
    });

    it('upper-cases the K check digit of a RUT', async () => {
      const entityId = await freshEntity(world);
      const partner = await createPartner(entityId, { taxId: RUT_K.dotted, type: 'individual' });
      expect(partner).toMatchObject({ taxId: RUT_K.canonical, type: 'individual' });
    });

    it('keeps a non-Chilean tax id as sent (trimmed)', async () => {
      const entityId = await freshEntity(world);
      const partner = await createPartner(entityId, { country: 'AR', taxId: ' 30-71234567-1 ' });
      expect(partner).toMatchObject({ country: 'AR', taxId: '30-71234567-1' });
    });

    it('refuses a bad RUT for country CL with 400 PARTNER_TAX_ID_INVALID_ERROR and writes nothing', async () => {
      const entityId = await freshEntity(world);
      await refusedWithoutWrites(staff.post(partnersPath(entityId)).send(partnerBody({ taxId: '76.086.428-4' })), 400, 'PARTNER_TAX_ID_INVALID_ERROR');
      await refusedWithoutWrites(staff.post(partnersPath(entityId)).send(partnerBody({ taxId: 'abc' })), 400, 'PARTNER_TAX_ID_INVALID_ERROR');
    });

    it.each([
      ['an unknown country', { country: 'XX' }],
      ['a lower-case country', { country: 'cl' }],
      ['a bad type', { type: 'government' }],
      ['an empty name', { name: '' }],
      ['a blank name', { name: '   ' }],
      ['a blank tax id', { country: 'US', taxId: '   ' }],
      ['a missing id', { id: undefined }],
      ['a malformed defaultPurchaseAccountId', { defaultPurchaseAccountId: 'nope' }],
      ['an unknown property', { email: 'a@b.test' }],
    ])('refuses %s with 400 VALIDATION_ERROR and writes nothing', async (_label, overrides) => {
      const entityId = await freshEntity(world);
      await refusedWithoutWrites(staff.post(partnersPath(entityId)).send(partnerBody(overrides)), 400, 'VALIDATION_ERROR');
    });

    it('refuses a reused id with 409 PARTNER_ALREADY_EXISTS_ERROR and writes nothing', async () => {
      const entityId = await freshEntity(world);
      const partner = await createPartner(entityId);
      await refusedWithoutWrites(
        staff.post(partnersPath(entityId)).send(partnerBody({ id: partner.id, taxId: RUT_B.dotted, name: 'Other' })),
        409,
        'PARTNER_ALREADY_EXISTS_ERROR',
      );
    });

    it('answers two creates of one tax id at once (in two formattings) with one 201 and one 409 PARTNER_TAX_ID_ALREADY_EXISTS_ERROR, never a 500', async () => {
      const entityId = await freshEntity(world);
      const results = await whileTableLocked(t, 'partners', 2, () =>
        Promise.all([staff.post(partnersPath(entityId)).send(partnerBody()), staff.post(partnersPath(entityId)).send(partnerBody({ taxId: RUT_A.canonical }))]),
      );
      expect(results.map((res) => `${res.status} ${res.body.code ?? ''}`.trim()).sort()).toEqual(['201', '409 PARTNER_TAX_ID_ALREADY_EXISTS_ERROR']);
      expect(await partnerRows(entityId)).toHaveLength(1);
    });

    it('refuses a tax id in use in the Entity, in another formatting, with 409 PARTNER_TAX_ID_ALREADY_EXISTS_ERROR; another Entity may use it', async () => {
      const entityId = await freshEntity(world);
      await createPartner(entityId, { taxId: RUT_A.canonical });
      await refusedWithoutWrites(
        staff.post(partnersPath(entityId)).send(partnerBody({ taxId: RUT_A.dotted, name: 'Same RUT' })),
        409,
        'PARTNER_TAX_ID_ALREADY_EXISTS_ERROR',
      );
      const other = await freshEntity(world);
      const elsewhere = await createPartner(other, { taxId: RUT_A.dotted });
      expect(elsewhere.taxId).toBe(RUT_A.canonical);
    });

    it('refuses a defaultPurchaseAccountId of a missing account with 404 LEDGER_ACCOUNT_NOT_FOUND_ERROR and writes nothing', async () => {
      const entityId = await freshEntity(world);
      const other = await freshEntity(world);
      const foreignAccount = await createAccount(other);
      for (const accountId of [randomUUID(), foreignAccount]) {
        await refusedWithoutWrites(
          staff.post(partnersPath(entityId)).send(partnerBody({ defaultPurchaseAccountId: accountId })),
          404,
          'LEDGER_ACCOUNT_NOT_FOUND_ERROR',
        );
      }
    });
  });

  describe('the default purchase account', () => {
    it('is stored, marks the account and blocks its delete with 409 LEDGER_ACCOUNT_IN_USE_ERROR until the partner clears it', async () => {
      const entityId = await freshEntity(world);
      const accountId = await createAccount(entityId);
      const partner = await createPartner(entityId, { defaultPurchaseAccountId: accountId });
      expect(partner.defaultPurchaseAccountId).toBe(accountId);
      expect(await partnerRows(entityId)).toEqual([expect.objectContaining({ id: partner.id, default_purchase_account_id: accountId })]);

      const accounts = await staff.get(`/api/entities/${entityId}/ledger/accounts`);
      expect(accounts.status).toBe(200);
      expect(accounts.body.find((a: { id: string }) => a.id === accountId)).toMatchObject({ isDefaultPurchaseAccount: true, deleteBlockedBy: 'default_purchase_account' });

      const refused = await staff.delete(`/api/entities/${entityId}/ledger/accounts/${accountId}`);
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('LEDGER_ACCOUNT_IN_USE_ERROR');

      const cleared = await staff.patch(`${partnersPath(entityId)}/${partner.id}`).send({ defaultPurchaseAccountId: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toEqual({ ...partner, defaultPurchaseAccountId: null, updatedAt: expect.stringMatching(ISO_DATETIME) });

      const after = await staff.get(`/api/entities/${entityId}/ledger/accounts`);
      expect(after.body.find((a: { id: string }) => a.id === accountId)).toMatchObject({ isDefaultPurchaseAccount: false, deleteBlockedBy: null });
      const deleted = await staff.delete(`/api/entities/${entityId}/ledger/accounts/${accountId}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ deletedAccountId: accountId });
    });

    it('holds its account while the partner is written: a delete racing the create waits and is refused, never a 500', async () => {
      const entityId = await freshEntity(world);
      const accountId = await createAccount(entityId);
      const partnerId = randomUUID();
      let deleting: Promise<{ status: number; body: { code?: string; params?: unknown } }> | undefined;
      // The create has read its account and waits to insert the partner; the delete starts then.
      const created = await whileTableLocked(
        t,
        'partners',
        1,
        () => staff.post(partnersPath(entityId)).send(partnerBody({ id: partnerId, defaultPurchaseAccountId: accountId })),
        async () => {
          deleting = Promise.resolve(staff.delete(`/api/entities/${entityId}/ledger/accounts/${accountId}`));
          await waitUntil(async () => (await rowLockWaiters(t)) >= 1);
        },
      );
      expect(created.status).toBe(201);
      const refused = await deleting!;
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'LEDGER_ACCOUNT_IN_USE_ERROR', params: { accountId, blockedBy: 'default_purchase_account' } });
      expect(await partnerRows(entityId)).toEqual([expect.objectContaining({ id: partnerId, default_purchase_account_id: accountId })]);
      expect(await t.sql('SELECT id FROM ledger_accounts WHERE entity_id = $1 AND id = $2', [entityId, accountId])).toHaveLength(1);
    });

    it('can be set with PATCH; a missing account is refused with 404 LEDGER_ACCOUNT_NOT_FOUND_ERROR', async () => {
      const entityId = await freshEntity(world);
      const accountId = await createAccount(entityId);
      const partner = await createPartner(entityId);
      await refusedWithoutWrites(
        staff.patch(`${partnersPath(entityId)}/${partner.id}`).send({ defaultPurchaseAccountId: randomUUID() }),
        404,
        'LEDGER_ACCOUNT_NOT_FOUND_ERROR',
      );
      const res = await staff.patch(`${partnersPath(entityId)}/${partner.id}`).send({ defaultPurchaseAccountId: accountId });
      expect(res.status).toBe(200);
      expect(res.body.defaultPurchaseAccountId).toBe(accountId);
    });
  });

  describe('GET /partners and GET /partners/pages', () => {
    let entityId: string;
    let partners: PartnerBody[];

    beforeAll(async () => {
      entityId = await freshEntity(world);
      partners = [];
      // Created out of name order; taxIds are not Chilean, so any string serves.
      for (const [name, taxId] of [
        ['Echo Ltda', 'E-500'],
        ['Alpha SpA', 'A-100'],
        ['Delta SA', 'D-400'],
        ['Bravo SpA', 'B-200'],
        ['Charlie Ltda', 'C-300'],
      ]) {
        partners.push(await createPartner(entityId, { name, taxId, country: 'PE' }));
      }
    });

    const byName = () => [...partners].sort((a, b) => (a.name < b.name ? -1 : 1));

    it('GET /partners lists every partner of the Entity by name', async () => {
      const res = await staff.get(partnersPath(entityId));
      expect(res.status).toBe(200);
      expect(res.body.map((p: PartnerBody) => p.name)).toEqual(byName().map((p) => p.name));
      expect(res.body).toEqual(expect.arrayContaining(partners));
    });

    it('pages with limit=2 visit every partner exactly once, in name order, with open balances', async () => {
      const seen: Array<PartnerBody & { receivableOpenBalance: number; payableOpenBalance: number }> = [];
      const pageSizes: number[] = [];
      let cursor: string | null = null;
      do {
        const res = await staff.get(`${partnersPath(entityId)}/pages`).query(cursor ? { limit: 2, cursor } : { limit: 2 });
        expect(res.status).toBe(200);
        expect(Object.keys(res.body).sort()).toEqual(['nextCursor', 'rows']);
        pageSizes.push(res.body.rows.length);
        seen.push(...res.body.rows);
        cursor = res.body.nextCursor;
        expect(pageSizes.length).toBeLessThanOrEqual(5);
      } while (cursor);
      expect(pageSizes).toEqual([2, 2, 1]);
      expect(seen.map((row) => row.id)).toEqual(byName().map((p) => p.id));
      for (const row of seen) {
        const partner = partners.find((p) => p.id === row.id)!;
        expect(row).toEqual({ ...partner, receivableOpenBalance: 0, payableOpenBalance: 0 });
      }
    });

    it('answers nextCursor null on a page that holds the rest exactly', async () => {
      const res = await staff.get(`${partnersPath(entityId)}/pages`).query({ limit: 5 });
      expect(res.status).toBe(200);
      expect(res.body.rows).toHaveLength(5);
      expect(res.body.nextCursor).toBeNull();
    });

    it('search filters by part of the name or the tax id, ignoring case', async () => {
      const byNamePart = await staff.get(`${partnersPath(entityId)}/pages`).query({ search: 'SPA' });
      expect(byNamePart.status).toBe(200);
      expect(byNamePart.body.rows.map((r: PartnerBody) => r.name)).toEqual(['Alpha SpA', 'Bravo SpA']);
      const byTaxId = await staff.get(`${partnersPath(entityId)}/pages`).query({ search: 'd-4' });
      expect(byTaxId.body.rows.map((r: PartnerBody) => r.name)).toEqual(['Delta SA']);
      const wildcard = await staff.get(`${partnersPath(entityId)}/pages`).query({ search: '%' });
      expect(wildcard.body.rows).toEqual([]);
    });

    it('search ignores the case of every letter, not only A to Z', async () => {
      const other = await freshEntity(world);
      const partner = await createPartner(other, { name: 'Ñandú Comercial Ltda', taxId: 'Ñ-1', country: 'PE' });
      for (const search of ['ñandú', 'ÑANDÚ', 'ñ-1']) {
        const res = await staff.get(`${partnersPath(other)}/pages`).query({ search });
        expect({ search, ids: res.body.rows.map((r: PartnerBody) => r.id) }).toEqual({ search, ids: [partner.id] });
      }
    });

    it('search pages too', async () => {
      const first = await staff.get(`${partnersPath(entityId)}/pages`).query({ search: 'ltda', limit: 1 });
      expect(first.body.rows.map((r: PartnerBody) => r.name)).toEqual(['Charlie Ltda']);
      const second = await staff.get(`${partnersPath(entityId)}/pages`).query({ search: 'ltda', limit: 1, cursor: first.body.nextCursor });
      expect(second.body.rows.map((r: PartnerBody) => r.name)).toEqual(['Echo Ltda']);
      expect(second.body.nextCursor).toBeNull();
    });

    it.each([
      ['a cursor that is not one', { cursor: 'not-a-cursor' }],
      ['a cursor with forbidden characters', { cursor: 'a+b/c=' }],
      ['a forged cursor whose id is no UUID', { cursor: Buffer.from(JSON.stringify(['Bravo SpA', 'not-a-uuid'])).toString('base64url') }],
      ['a forged cursor whose name holds NUL', { cursor: Buffer.from(JSON.stringify(['Bravo\u0000', randomUUID()])).toString('base64url') }],
      ['a forged cursor of another shape', { cursor: Buffer.from(JSON.stringify({ name: 'Bravo SpA' })).toString('base64url') }],
      ['limit 0', { limit: 0 }],
      ['limit 101', { limit: 101 }],
      ['a non-numeric limit', { limit: 'ten' }],
    ])('refuses %s with 400 VALIDATION_ERROR', async (_label, query) => {
      const res = await staff.get(`${partnersPath(entityId)}/pages`).query(query);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    });

    it('judges the cursor (400) before the Book the query names', async () => {
      const res = await staff.get(`${partnersPath(entityId)}/pages`).query({ cursor: 'not-a-cursor', bookId: randomUUID() });
      expect([res.status, res.body.code, res.body.params?.errors?.[0]?.path]).toEqual([400, 'VALIDATION_ERROR', 'cursor']);
    });

    it('accepts limit 100', async () => {
      const res = await staff.get(`${partnersPath(entityId)}/pages`).query({ limit: 100 });
      expect(res.status).toBe(200);
      expect(res.body.rows).toHaveLength(5);
    });
  });

  describe('open balances in the Book read (spec "Books", D45)', () => {
    it('reads common entries plus those of the named Book; GET /partners never names a Book', async () => {
      const entityId = await freshEntity(world);
      const account = (code: string, type: string, tracking: string, subtype: string | null) => createLedgerAccount(staff, entityId, { code, type, tracking, subtype });
      const receivable = await account('1105', 'asset', 'open_item', 'receivable');
      const payable = await account('2101', 'liability', 'open_item', 'payable');
      const bank = await account('1102', 'asset', 'balance', null);
      const partner = await createPartner(entityId);
      const post = (bookId: string | undefined, side: 'debit' | 'credit', accountId: string, amount: number) =>
        staff
          .post(`/api/entities/${entityId}/ledger/entries`)
          .send({
            id: randomUUID(),
            entryDate: '2020-03-01',
            memo: 'Saldo',
            ...(bookId ? { bookId } : {}),
            newLedgerEntryLines: [
              { side, ledgerAccountId: accountId, amount, partnerId: partner.id },
              { side: side === 'debit' ? 'credit' : 'debit', ledgerAccountId: bank, amount },
            ],
          })
          .expect(201);
      await post(undefined, 'debit', receivable, 1000); // common: counts in every Book
      await post(undefined, 'credit', payable, 400);
      const ifrs = randomUUID();
      const tax = randomUUID();
      await staff.post(`/api/entities/${entityId}/books`).send({ id: ifrs, name: 'IFRS' }).expect(201);
      await staff.post(`/api/entities/${entityId}/books`).send({ id: tax, name: 'Tax' }).expect(201);
      await post(ifrs, 'debit', receivable, 20);
      await post(tax, 'credit', payable, 3);

      const row = async (bookId: string) => {
        const res = await staff.get(`${partnersPath(entityId)}/pages`).query({ bookId });
        expect(res.status).toBe(200);
        return res.body.rows.find((r: PartnerBody) => r.id === partner.id);
      };
      expect(await row(ifrs)).toEqual({ ...partner, receivableOpenBalance: 1020, payableOpenBalance: 400 });
      expect(await row(tax)).toEqual({ ...partner, receivableOpenBalance: 1000, payableOpenBalance: 403 });
      const list = await staff.get(partnersPath(entityId));
      expect(list.status).toBe(200);
      expect(list.body).toEqual([partner]);
    });
  });

  describe('GET, PATCH and DELETE /partners/:partnerId', () => {
    it('GET answers 200 with the partner; an unknown or foreign partner is 404 PARTNER_NOT_FOUND_ERROR', async () => {
      const entityId = await freshEntity(world);
      const other = await freshEntity(world);
      const partner = await createPartner(entityId);
      const foreign = await createPartner(other);
      const res = await staff.get(`${partnersPath(entityId)}/${partner.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(partner);
      for (const id of [randomUUID(), foreign.id]) {
        const missing = await staff.get(`${partnersPath(entityId)}/${id}`);
        expect({ status: missing.status, code: missing.body.code }).toEqual({ status: 404, code: 'PARTNER_NOT_FOUND_ERROR' });
        await refusedWithoutWrites(staff.patch(`${partnersPath(entityId)}/${id}`).send({ name: 'X' }), 404, 'PARTNER_NOT_FOUND_ERROR');
        await refusedWithoutWrites(staff.delete(`${partnersPath(entityId)}/${id}`), 404, 'PARTNER_NOT_FOUND_ERROR');
      }
    });

    it('PATCH updates the named fields and answers 200 with the partner row', async () => {
      const entityId = await freshEntity(world);
      const partner = await createPartner(entityId);
      const res = await staff.patch(`${partnersPath(entityId)}/${partner.id}`).send({ name: 'Renamed SpA', type: 'individual', taxId: RUT_B.dotted });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...partner, name: 'Renamed SpA', type: 'individual', taxId: RUT_B.canonical, updatedAt: expect.stringMatching(ISO_DATETIME) });
      expect((await staff.get(`${partnersPath(entityId)}/${partner.id}`)).body).toEqual(res.body);
    });

    it('PATCH refuses an empty body with 400 VALIDATION_ERROR', async () => {
      const entityId = await freshEntity(world);
      const partner = await createPartner(entityId);
      await refusedWithoutWrites(staff.patch(`${partnersPath(entityId)}/${partner.id}`).send({}), 400, 'VALIDATION_ERROR');
    });

    it.each([
      ['a null name', { name: null }],
      ['a null tax id', { taxId: null }],
      ['a bad type', { type: 'government' }],
      ['an unknown property', { email: 'a@b.test' }],
    ])('PATCH refuses %s with 400 VALIDATION_ERROR', async (_label, body) => {
      const entityId = await freshEntity(world);
      const partner = await createPartner(entityId);
      await refusedWithoutWrites(staff.patch(`${partnersPath(entityId)}/${partner.id}`).send(body), 400, 'VALIDATION_ERROR');
    });

    it('PATCH judges the tax id in the new country: a move to CL needs a valid RUT', async () => {
      const entityId = await freshEntity(world);
      const partner = await createPartner(entityId, { country: 'PE', taxId: '20100047218' });
      await refusedWithoutWrites(staff.patch(`${partnersPath(entityId)}/${partner.id}`).send({ country: 'CL' }), 400, 'PARTNER_TAX_ID_INVALID_ERROR');
      await refusedWithoutWrites(
        staff.patch(`${partnersPath(entityId)}/${partner.id}`).send({ country: 'CL', taxId: '76.086.428-4' }),
        400,
        'PARTNER_TAX_ID_INVALID_ERROR',
      );
      await refusedWithoutWrites(staff.patch(`${partnersPath(entityId)}/${partner.id}`).send({ country: 'XX' }), 400, 'VALIDATION_ERROR');
      const res = await staff.patch(`${partnersPath(entityId)}/${partner.id}`).send({ country: 'CL', taxId: RUT_B.dotted });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ country: 'CL', taxId: RUT_B.canonical });
    });

    it('PATCH refuses a tax id of another partner of the Entity with 409 PARTNER_TAX_ID_ALREADY_EXISTS_ERROR', async () => {
      const entityId = await freshEntity(world);
      await createPartner(entityId, { taxId: RUT_A.dotted });
      const second = await createPartner(entityId, { taxId: RUT_B.dotted, name: 'Second' });
      await refusedWithoutWrites(
        staff.patch(`${partnersPath(entityId)}/${second.id}`).send({ taxId: RUT_A.canonical }),
        409,
        'PARTNER_TAX_ID_ALREADY_EXISTS_ERROR',
      );
    });

    it('DELETE answers 200 with the deleted partner, and it is gone', async () => {
      const entityId = await freshEntity(world);
      const partner = await createPartner(entityId);
      const res = await staff.delete(`${partnersPath(entityId)}/${partner.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(partner);
      expect(await partnerRows(entityId)).toEqual([]);
      expect((await staff.get(`${partnersPath(entityId)}/${partner.id}`)).status).toBe(404);
      expect((await staff.get(partnersPath(entityId))).body).toEqual([]);
      // Its tax id is free again.
      await createPartner(entityId);
    });
  });

  describe('access matrix', () => {
    const matrixPartnerId = randomUUID();
    beforeAll(async () => {
      await staff
        .post(`/api/entities/${world.entityId}/partners`)
        .send({ id: matrixPartnerId, name: `Matrix ${randomUUID()}`, type: 'company', country: 'US', taxId: randomUUID() })
        .expect(201);
    });

    const routes: Array<[string, MatrixRoute]> = [
      ['GET /partners', { method: 'get', path: (id) => `/api/entities/${id}/partners` }],
      [
        'POST /partners',
        {
          method: 'post',
          path: (id) => `/api/entities/${id}/partners`,
          body: () => ({ id: randomUUID(), name: `Matrix ${randomUUID()}`, type: 'company', country: 'US', taxId: randomUUID() }),
        },
      ],
      ['GET /partners/pages', { method: 'get', path: (id) => `/api/entities/${id}/partners/pages` }],
      ['GET /partners/:partnerId', { method: 'get', path: (id) => `/api/entities/${id}/partners/${matrixPartnerId}` }],
      ['PATCH /partners/:partnerId', { method: 'patch', path: (id) => `/api/entities/${id}/partners/${matrixPartnerId}`, body: () => ({ name: `Matrix ${randomUUID()}` }) }],
      ['DELETE /partners/:partnerId', { method: 'delete', path: (id) => `/api/entities/${id}/partners/${matrixPartnerId}` }],
    ];

    it.each(routes)('%s', async (_label, route) => {
      await checkAccessMatrix(t, world, route);
    });
  });
});
