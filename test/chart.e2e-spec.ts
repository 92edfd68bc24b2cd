import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { CHART_TEMPLATES } from '../src/modules/ledger/application/chart-templates';
import { checkAccessMatrix } from './harness/access-matrix';
import { countRows, expectRefused, lockWaiters, sendNow, waitUntil, whileTableLocked } from './harness/db-checks';
import type { TestApp } from './harness/test-app';
import { Agent, createWorldApp, freshEntity, World } from './harness/world';

const CL_PYME = CHART_TEMPLATES.find((t) => t.key === 'cl-pyme')!;

describe('chart of accounts, groups and templates', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  const count = (table: string, entityId: string) => countRows(t, table, 'entity_id = $1', [entityId]);

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp());
  });
  afterAll(() => t.close());

  describe('templates (D32)', () => {
    it('lists cl-pyme and ifrs-sme with their counts', async () => {
      const res = await staff.get(`/api/entities/${world.entityId}/ledger/chart-templates`);
      expect(res.status).toBe(200);
      const keys = res.body.map((s: { key: string }) => s.key).sort();
      expect(keys).toEqual(['cl-pyme', 'ifrs-sme']);
      const clPyme = res.body.find((s: { key: string }) => s.key === 'cl-pyme');
      expect(clPyme).toEqual({
        key: 'cl-pyme',
        version: CL_PYME.version,
        locale: 'es-CL',
        effectiveFrom: CL_PYME.effectiveFrom,
        groupCount: CL_PYME.groups.length,
        accountCount: CL_PYME.accounts.length,
      });
      expect(clPyme.accountCount).toBeGreaterThanOrEqual(80);
    });

    it('initializes an empty chart with the counts the list reports, fresh ids and the group tree kept', async () => {
      const entityId = await freshEntity(world);
      const summary = (await staff.get(`/api/entities/${entityId}/ledger/chart-templates`)).body.find((s: { key: string }) => s.key === 'cl-pyme');
      const res = await staff
        .post(`/api/entities/${entityId}/ledger/chart-initializations`)
        .send({ id: randomUUID(), templateKey: 'cl-pyme', templateVersion: CL_PYME.version });
      expect(res.status).toBe(201);
      expect(res.body.groups).toHaveLength(summary.groupCount);
      expect(res.body.accounts).toHaveLength(summary.accountCount);
      expect(await count('ledger_accounts', entityId)).toBe(summary.accountCount);

      const groupByPrefix = new Map<string, { id: string; parentGroupId: string | null }>(res.body.groups.map((g: { codePrefix: string }) => [g.codePrefix, g]));
      const groupById = new Map<string, { codePrefix: string }>(res.body.groups.map((g: { id: string }) => [g.id, g]));
      for (const g of CL_PYME.groups) {
        const made = groupByPrefix.get(g.codePrefix)!;
        const parentPrefix = g.parentRef ? CL_PYME.groups.find((p) => p.ref === g.parentRef)!.codePrefix : null;
        expect(made.parentGroupId ? groupById.get(made.parentGroupId)!.codePrefix : null).toBe(parentPrefix);
      }
      const accountByCode = new Map<string, { groupId: string | null; type: string; normalSide: string }>(res.body.accounts.map((a: { code: string }) => [a.code, a]));
      for (const a of CL_PYME.accounts) {
        const made = accountByCode.get(a.code)!;
        expect(made.type).toBe(a.type);
        const groupPrefix = a.groupRef ? CL_PYME.groups.find((g) => g.ref === a.groupRef)!.codePrefix : null;
        expect(made.groupId ? groupById.get(made.groupId)!.codePrefix : null).toBe(groupPrefix);
      }
      // Another Entity initialized from the same template gets other ids.
      const other = await freshEntity(world);
      const again = await staff.post(`/api/entities/${other}/ledger/chart-initializations`).send({ id: randomUUID(), templateKey: 'cl-pyme', templateVersion: CL_PYME.version });
      const firstIds = new Set(res.body.accounts.map((a: { id: string }) => a.id));
      expect(again.body.accounts.some((a: { id: string }) => firstIds.has(a.id))).toBe(false);
    });

    it('refuses a second initialization (CHART_TEMPLATE_REQUIRES_EMPTY_CHART_ERROR) and a reused id first (CHART_INITIALIZATION_ALREADY_EXISTS_ERROR)', async () => {
      const entityId = await freshEntity(world);
      const id = randomUUID();
      await staff.post(`/api/entities/${entityId}/ledger/chart-initializations`).send({ id, templateKey: 'ifrs-sme', templateVersion: '2025.1' }).expect(201);
      const before = await count('ledger_accounts', entityId);
      const second = await staff.post(`/api/entities/${entityId}/ledger/chart-initializations`).send({ id: randomUUID(), templateKey: 'cl-pyme', templateVersion: CL_PYME.version });
      expect(second.status).toBe(409);
      expect(second.body.code).toBe('CHART_TEMPLATE_REQUIRES_EMPTY_CHART_ERROR');
      const reused = await staff.post(`/api/entities/${entityId}/ledger/chart-initializations`).send({ id, templateKey: 'cl-pyme', templateVersion: CL_PYME.version });
      expect(reused.status).toBe(409);
      expect(reused.body.code).toBe('CHART_INITIALIZATION_ALREADY_EXISTS_ERROR');
      expect(await count('ledger_accounts', entityId)).toBe(before);
    });

    it('refuses a chart that already has an account', async () => {
      const entityId = await freshEntity(world);
      await staff.post(`/api/entities/${entityId}/ledger/accounts`).send({ id: randomUUID(), name: 'Caja', code: '1101', type: 'asset', tracking: 'balance' }).expect(201);
      const res = await staff.post(`/api/entities/${entityId}/ledger/chart-initializations`).send({ id: randomUUID(), templateKey: 'cl-pyme', templateVersion: CL_PYME.version });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('CHART_TEMPLATE_REQUIRES_EMPTY_CHART_ERROR');
      expect(await count('ledger_accounts', entityId)).toBe(1);
    });

    it('answers 404 CHART_TEMPLATE_NOT_FOUND_ERROR for an unknown key or version, writing nothing', async () => {
      const entityId = await freshEntity(world);
      for (const body of [{ templateKey: 'nope', templateVersion: '1' }, { templateKey: 'cl-pyme', templateVersion: '1999.1' }]) {
        const res = await staff.post(`/api/entities/${entityId}/ledger/chart-initializations`).send({ id: randomUUID(), ...body });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('CHART_TEMPLATE_NOT_FOUND_ERROR');
      }
      expect(await count('ledger_account_groups', entityId)).toBe(0);
      expect(await count('chart_initializations', entityId)).toBe(0);
    });

    it('initializes once when two initializations race', async () => {
      const entityId = await freshEntity(world);
      const server = t.app.getHttpServer();
      const cookie = (await staff.get('/api/auth/session')).request.cookies;
      const send = () =>
        request(server)
          .post(`/api/entities/${entityId}/ledger/chart-initializations`)
          .set('cookie', cookie)
          .send({ id: randomUUID(), templateKey: 'cl-pyme', templateVersion: CL_PYME.version });
      const answers = await Promise.all([send(), send(), send()]);
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
      expect(await count('ledger_accounts', entityId)).toBe(CL_PYME.accounts.length);
    });

    /**
     * The group or account create has written its row and waits for its audit row; the
     * initialization is sent then, and either waits for it or answers.
     */
    async function initializingWhile(entityId: string, create: () => request.Test): Promise<[request.Response, request.Response]> {
      let initializing: ReturnType<typeof sendNow> | undefined;
      const created = await whileTableLocked(t, 'audit_trail', 1, create, async () => {
        initializing = sendNow(staff.post(`/api/entities/${entityId}/ledger/chart-initializations`).send({ id: randomUUID(), templateKey: 'cl-pyme', templateVersion: CL_PYME.version }));
        await waitUntil(async () => initializing!.answered() || (await lockWaiters(t)) >= 2);
      });
      return [created, await initializing!.response];
    }

    it.each([
      ['an account with a code the template has', 'ledger_accounts', (entityId: string) =>
        staff.post(`/api/entities/${entityId}/ledger/accounts`).send({ id: randomUUID(), name: 'Caja propia', code: CL_PYME.accounts[0].code, type: CL_PYME.accounts[0].type, tracking: 'balance' })],
      ['a group with a prefix the template has', 'ledger_account_groups', (entityId: string) =>
        staff.post(`/api/entities/${entityId}/ledger/account-groups`).send({ id: randomUUID(), codePrefix: CL_PYME.groups[0].codePrefix, name: 'Propio', type: CL_PYME.groups[0].type })],
    ])('an initialization racing the create of %s waits for it, then is refused 409 CHART_TEMPLATE_REQUIRES_EMPTY_CHART_ERROR (was a 500)', async (_label, table, create) => {
      const entityId = await freshEntity(world);
      const [created, initialized] = await initializingWhile(entityId, () => create(entityId));
      expect([created.status, initialized.status, initialized.body.code]).toEqual([201, 409, 'CHART_TEMPLATE_REQUIRES_EMPTY_CHART_ERROR']);
      expect(await count(table, entityId)).toBe(1);
      expect(await count(table === 'ledger_accounts' ? 'ledger_account_groups' : 'ledger_accounts', entityId)).toBe(0);
      expect(await count('chart_initializations', entityId)).toBe(0);
    });

    it('an account create racing an initialization that has begun waits for it, then is judged on the full chart (409 LEDGER_ACCOUNT_CODE_ALREADY_EXISTS_ERROR)', async () => {
      const entityId = await freshEntity(world);
      let creating: ReturnType<typeof sendNow> | undefined;
      const initialized = await whileTableLocked(
        t,
        'audit_trail',
        1,
        () => staff.post(`/api/entities/${entityId}/ledger/chart-initializations`).send({ id: randomUUID(), templateKey: 'cl-pyme', templateVersion: CL_PYME.version }),
        async () => {
          creating = sendNow(
            staff.post(`/api/entities/${entityId}/ledger/accounts`).send({ id: randomUUID(), name: 'Caja propia', code: CL_PYME.accounts[0].code, type: CL_PYME.accounts[0].type, tracking: 'balance' }),
          );
          await waitUntil(async () => creating!.answered() || (await lockWaiters(t)) >= 2);
        },
      );
      const created = await creating!.response;
      expect([initialized.status, created.status, created.body.code]).toEqual([201, 409, 'LEDGER_ACCOUNT_CODE_ALREADY_EXISTS_ERROR']);
      expect(await count('ledger_accounts', entityId)).toBe(CL_PYME.accounts.length);
    });
  });

  describe('account groups (D30)', () => {
    it('creates a group 201 { group } in the D30 shape', async () => {
      const entityId = await freshEntity(world);
      const id = randomUUID();
      const res = await staff.post(`/api/entities/${entityId}/ledger/account-groups`).send({ id, codePrefix: '1', name: 'Activo', type: 'asset' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ group: { id, parentGroupId: null, codePrefix: '1', name: 'Activo', type: 'asset', createdAt: expect.any(String), updatedAt: expect.any(String) } });
    });

    it('refuses reused ids and prefixes, a missing parent and a parent of another family', async () => {
      const entityId = await freshEntity(world);
      const parent = randomUUID();
      const url = `/api/entities/${entityId}/ledger/account-groups`;
      await staff.post(url).send({ id: parent, codePrefix: '1', name: 'Activo', type: 'asset' }).expect(201);
      const cases: Array<[Record<string, unknown>, number, string]> = [
        [{ id: parent, codePrefix: '9', name: 'x', type: 'asset' }, 409, 'LEDGER_ACCOUNT_GROUP_ID_ALREADY_EXISTS_ERROR'],
        [{ id: randomUUID(), codePrefix: '1', name: 'x', type: 'asset' }, 409, 'LEDGER_ACCOUNT_GROUP_ALREADY_EXISTS_ERROR'],
        [{ id: randomUUID(), parentGroupId: randomUUID(), codePrefix: '12', name: 'x', type: 'asset' }, 404, 'LEDGER_ACCOUNT_GROUP_NOT_FOUND_ERROR'],
        [{ id: randomUUID(), parentGroupId: parent, codePrefix: '13', name: 'x', type: 'liability' }, 409, 'LEDGER_ACCOUNT_GROUP_PARENT_TYPE_INCOMPATIBLE_ERROR'],
        [{ id: randomUUID(), codePrefix: '14', name: 'x', type: 'assets' }, 400, 'VALIDATION_ERROR'],
        [{ id: randomUUID(), codePrefix: '', name: 'x', type: 'asset' }, 400, 'VALIDATION_ERROR'],
      ];
      for (const [body, status, code] of cases) {
        const res = await staff.post(url).send(body);
        expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status, code });
      }
      expect(await count('ledger_account_groups', entityId)).toBe(1);
      const child = await staff.post(url).send({ id: randomUUID(), parentGroupId: parent, codePrefix: '11', name: 'Activo corriente', type: 'asset' });
      expect(child.status).toBe(201);
    });
  });

  describe('ledger accounts (D31)', () => {
    let entityId: string;
    let assetGroup: string;
    const url = () => `/api/entities/${entityId}/ledger/accounts`;

    beforeAll(async () => {
      entityId = await freshEntity(world);
      assetGroup = randomUUID();
      await staff.post(`/api/entities/${entityId}/ledger/account-groups`).send({ id: assetGroup, codePrefix: '11', name: 'Activo corriente', type: 'asset' }).expect(201);
    });

    it('creates an account 201 { account } with the derived facts', async () => {
      const id = randomUUID();
      const res = await staff.post(url()).send({ id, name: 'Clientes', code: '1105', type: 'asset', tracking: 'open_item', subtype: 'receivable', groupId: assetGroup });
      expect(res.status).toBe(201);
      expect(res.body.account).toEqual({
        id,
        groupId: assetGroup,
        code: '1105',
        name: 'Clientes',
        type: 'asset',
        tracking: 'open_item',
        subtype: 'receivable',
        normalSide: 'debit',
        hasEntries: false,
        deleteBlockedBy: null,
        isDefaultPurchaseAccount: false,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const income = await staff.post(url()).send({ id: randomUUID(), name: 'Ventas', code: '4101', type: 'income', tracking: 'balance' });
      expect(income.body.account).toMatchObject({ normalSide: 'credit', subtype: null, groupId: null });
    });

    it('never accepts normalSide (400 VALIDATION_ERROR)', async () => {
      const res = await staff.post(url()).send({ id: randomUUID(), name: 'X', code: '1199', type: 'asset', tracking: 'balance', normalSide: 'credit' });
      expect(res.status).toBe(400);
      expect(res.body.params.errors).toEqual([expect.objectContaining({ path: 'normalSide' })]);
    });

    it('refuses each rule with its code and writes nothing', async () => {
      const existing = randomUUID();
      await staff.post(url()).send({ id: existing, name: 'Caja', code: '1101', type: 'asset', tracking: 'balance', groupId: assetGroup }).expect(201);
      const before = await count('ledger_accounts', entityId);
      const cases: Array<[Record<string, unknown>, number, string]> = [
        [{ id: existing, name: 'X', code: '1190', type: 'asset', tracking: 'balance' }, 409, 'LEDGER_ACCOUNT_ALREADY_EXISTS_ERROR'],
        [{ id: randomUUID(), name: 'X', code: '1101', type: 'asset', tracking: 'balance' }, 409, 'LEDGER_ACCOUNT_CODE_ALREADY_EXISTS_ERROR'],
        [{ id: randomUUID(), name: 'X', code: '1191', type: 'asset', tracking: 'balance', groupId: randomUUID() }, 404, 'LEDGER_ACCOUNT_GROUP_NOT_FOUND_ERROR'],
        [{ id: randomUUID(), name: 'X', code: '1192', type: 'liability', tracking: 'balance', groupId: assetGroup }, 409, 'LEDGER_ACCOUNT_GROUP_TYPE_INCOMPATIBLE_ERROR'],
        [{ id: randomUUID(), name: 'X', code: '2101', type: 'asset', tracking: 'balance', groupId: assetGroup }, 400, 'VALIDATION_ERROR'],
        [{ id: randomUUID(), name: 'X', code: '1193', type: 'asset', tracking: 'open_item', subtype: 'payable' }, 409, 'LEDGER_ACCOUNT_SUBTYPE_TYPE_INCOMPATIBLE_ERROR'],
        [{ id: randomUUID(), name: 'X', code: '1194', type: 'asset', tracking: 'balance', subtype: 'receivable' }, 409, 'LEDGER_ACCOUNT_SUBTYPE_TRACKING_INCOMPATIBLE_ERROR'],
        [{ id: randomUUID(), name: 'X', code: '1195', type: 'asset', tracking: 'sometimes' }, 400, 'VALIDATION_ERROR'],
        [{ id: randomUUID(), name: '', code: '1196', type: 'asset', tracking: 'balance' }, 400, 'VALIDATION_ERROR'],
      ];
      for (const [body, status, code] of cases) {
        const res = await staff.post(url()).send(body);
        expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status, code });
      }
      expect(await count('ledger_accounts', entityId)).toBe(before);
    });

    it('answers two creates of one code at once with one 201 and one 409 LEDGER_ACCOUNT_CODE_ALREADY_EXISTS_ERROR, never a 500', async () => {
      const results = await whileTableLocked(t, 'ledger_accounts', 2, () =>
        Promise.all([1, 2].map(() => staff.post(url()).send({ id: randomUUID(), name: 'Fondo fijo', code: '1188', type: 'asset', tracking: 'balance' }))),
      );
      expect(results.map((res) => `${res.status} ${res.body.code ?? ''}`.trim()).sort()).toEqual(['201', '409 LEDGER_ACCOUNT_CODE_ALREADY_EXISTS_ERROR']);
      expect(await countRows(t, 'ledger_accounts', 'entity_id = $1 AND code = $2', [entityId, '1188'])).toBe(1);
    });

    it('updates with PATCH: at least one field, consistent changes, unique code', async () => {
      const id = randomUUID();
      await staff.post(url()).send({ id, name: 'Gastos varios', code: '5199', type: 'operating_expense', tracking: 'balance' }).expect(201);
      expect((await staff.patch(`${url()}/${id}`).send({})).status).toBe(400);
      const renamed = await staff.patch(`${url()}/${id}`).send({ name: 'Gastos generales', type: 'other_expense' });
      expect(renamed.status).toBe(200);
      expect(renamed.body.account).toMatchObject({ name: 'Gastos generales', type: 'other_expense', normalSide: 'debit' });
      // No entries yet: the type may leave its family.
      const moved = await staff.patch(`${url()}/${id}`).send({ type: 'other_income' });
      expect(moved.body.account.normalSide).toBe('credit');
      const clash = await staff.patch(`${url()}/${id}`).send({ code: '1101' });
      expect(clash.status).toBe(409);
      expect(clash.body.code).toBe('LEDGER_ACCOUNT_CODE_ALREADY_EXISTS_ERROR');
      const bad = await staff.patch(`${url()}/${id}`).send({ subtype: 'payable' });
      expect(bad.status).toBe(409);
      expect(bad.body.code).toBe('LEDGER_ACCOUNT_SUBTYPE_TYPE_INCOMPATIBLE_ERROR');
      const unchanged = (await staff.get(url())).body.find((a: { id: string }) => a.id === id);
      expect(unchanged).toMatchObject({ code: '5199', subtype: null, type: 'other_income' });
      const missing = await staff.patch(`${url()}/${randomUUID()}`).send({ name: 'x' });
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('LEDGER_ACCOUNT_NOT_FOUND_ERROR');
    });

    it('deletes an unused account 200 { deletedAccountId }; unknown 404', async () => {
      const id = randomUUID();
      await staff.post(url()).send({ id, name: 'Temporal', code: '1198', type: 'asset', tracking: 'balance' }).expect(201);
      const res = await staff.delete(`${url()}/${id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ deletedAccountId: id });
      const again = await staff.delete(`${url()}/${id}`);
      expect(again.status).toBe(404);
      expect(again.body.code).toBe('LEDGER_ACCOUNT_NOT_FOUND_ERROR');
    });

    it('reports deleteBlockedBy entries, as DELETE refuses it, for an account only lines of an unbooked entry name (hasEntries false)', async () => {
      const bank = randomUUID();
      const sales = randomUUID();
      await staff.post(url()).send({ id: bank, name: 'Banco', code: '1110', type: 'asset', tracking: 'balance', groupId: assetGroup }).expect(201);
      await staff.post(url()).send({ id: sales, name: 'Ventas', code: '4110', type: 'income', tracking: 'balance' }).expect(201);
      const entryId = randomUUID();
      await staff
        .post(`/api/entities/${entityId}/ledger/entries`)
        .send({
          id: entryId,
          entryDate: '2020-01-15',
          memo: 'Venta anulada',
          newLedgerEntryLines: [
            { side: 'debit', ledgerAccountId: bank, amount: 100 },
            { side: 'credit', ledgerAccountId: sales, amount: 100 },
          ],
        })
        .expect(201);
      const live = (await staff.get(url())).body.find((a: { id: string }) => a.id === sales);
      expect(live).toMatchObject({ hasEntries: true, deleteBlockedBy: 'entries' });
      await staff.delete(`/api/entities/${entityId}/ledger/entries/${entryId}`).expect(200);

      // "null when deletable": the list must not offer a delete the route refuses.
      const listed = (await staff.get(url())).body.find((a: { id: string }) => a.id === sales);
      expect(listed).toMatchObject({ hasEntries: false, deleteBlockedBy: 'entries' });
      const chart = (await staff.get(`/api/entities/${entityId}/ledger/chart-of-accounts`)).body.accounts.find((a: { id: string }) => a.id === sales);
      expect(chart).toMatchObject({ hasEntries: false, deleteBlockedBy: 'entries' });
      const refused = await expectRefused(t, ['ledger_accounts', 'ledger_lines', 'audit_trail'], staff.delete(`${url()}/${sales}`), 409, 'LEDGER_ACCOUNT_IN_USE_ERROR');
      expect(refused.body.params).toMatchObject({ accountId: sales, blockedBy: 'entries' });

      // hasEntries false: the type may leave its family, and PATCH answers the same facts.
      const patched = await staff.patch(`${url()}/${sales}`).send({ type: 'other_expense' });
      expect(patched.status).toBe(200);
      expect(patched.body.account).toMatchObject({ type: 'other_expense', hasEntries: false, deleteBlockedBy: 'entries' });
    });

    it('lists the chart as { groups, accounts } by code', async () => {
      const res = await staff.get(`/api/entities/${entityId}/ledger/chart-of-accounts`);
      expect(res.status).toBe(200);
      expect(res.body.groups.map((g: { id: string }) => g.id)).toEqual([assetGroup]);
      const codes = res.body.accounts.map((a: { code: string }) => a.code);
      expect(codes).toEqual([...codes].sort());
    });

    it("never reaches another Entity's accounts", async () => {
      const id = randomUUID();
      await staff.post(url()).send({ id, name: 'Propia', code: '1197', type: 'asset', tracking: 'balance' }).expect(201);
      const other = await freshEntity(world);
      const res = await staff.patch(`/api/entities/${other}/ledger/accounts/${id}`).send({ name: 'Ajena' });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('LEDGER_ACCOUNT_NOT_FOUND_ERROR');
      // D4: the same id in another Entity is no conflict.
      const same = await staff.post(`/api/entities/${other}/ledger/accounts`).send({ id, name: 'Otra', code: '1197', type: 'asset', tracking: 'balance' });
      expect(same.status).toBe(201);
    });
  });

  describe('access', () => {
    const matrixAccountId = randomUUID();
    beforeAll(async () => {
      await staff
        .post(`/api/entities/${world.entityId}/ledger/accounts`)
        .send({ id: matrixAccountId, name: 'Matrix', code: `M${randomUUID()}`, type: 'asset', tracking: 'balance' })
        .expect(201);
    });

    it.each([
      ['GET chart-templates', { method: 'get' as const, path: (id: string) => `/api/entities/${id}/ledger/chart-templates` }],
      ['GET chart-of-accounts', { method: 'get' as const, path: (id: string) => `/api/entities/${id}/ledger/chart-of-accounts` }],
      ['GET accounts', { method: 'get' as const, path: (id: string) => `/api/entities/${id}/ledger/accounts` }],
      [
        'POST accounts',
        {
          method: 'post' as const,
          path: (id: string) => `/api/entities/${id}/ledger/accounts`,
          body: () => ({ id: randomUUID(), name: 'Matrix', code: String(Math.floor(Math.random() * 1e9)), type: 'asset', tracking: 'balance' }),
        },
      ],
      [
        'POST account-groups',
        {
          method: 'post' as const,
          path: (id: string) => `/api/entities/${id}/ledger/account-groups`,
          body: () => ({ id: randomUUID(), codePrefix: `9${Math.floor(Math.random() * 1e9)}`, name: 'Matrix', type: 'asset' }),
        },
      ],
      [
        'POST chart-initializations',
        {
          method: 'post' as const,
          path: (id: string) => `/api/entities/${id}/ledger/chart-initializations`,
          // An unknown template: the callers let through get 404 CHART_TEMPLATE_NOT_FOUND_ERROR and the world's chart stays as it is.
          body: () => ({ id: randomUUID(), templateKey: 'matrix', templateVersion: '1' }),
        },
      ],
      [
        'PATCH accounts/:accountId',
        { method: 'patch' as const, path: (id: string) => `/api/entities/${id}/ledger/accounts/${matrixAccountId}`, body: () => ({ name: `Matrix ${randomUUID()}` }) },
      ],
      ['DELETE accounts/:accountId', { method: 'delete' as const, path: (id: string) => `/api/entities/${id}/ledger/accounts/${matrixAccountId}` }],
    ])('%s', async (_label, route) => {
      await checkAccessMatrix(t, world, route);
    });
  });
});
