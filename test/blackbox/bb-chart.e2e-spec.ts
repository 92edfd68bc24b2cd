import type { TestApp } from '../harness/test-app';
import { createWorldApp, freshEntity, ISO_DATETIME, type Agent, type World } from '../harness/world';
import { buildChart, createAccount, createPartner, cr, dr, expectError, expectStatus, freshRut, MovableClock, post, uuid } from './bb-helpers';

const ACCOUNT_KEYS = ['code', 'deleteBlockedBy', 'groupId', 'hasEntries', 'id', 'isDefaultPurchaseAccount', 'name', 'normalSide', 'subtype', 'tracking', 'type'];
const GROUP_KEYS = ['codePrefix', 'createdAt', 'id', 'name', 'parentGroupId', 'type', 'updatedAt'];

describe('black box: Books and the chart of accounts', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock: new MovableClock() }));
  });
  afterAll(() => t.close());

  const base = (entityId: string) => `/api/entities/${entityId}`;

  describe('Books', () => {
    it('POST answers 201 with the Book { id, entityId, name, createdAt, updatedAt }', async () => {
      const entityId = await freshEntity(world);
      const id = uuid();
      const res = await staff.post(`${base(entityId)}/books`).send({ id, name: 'IFRS' });
      expectStatus(res, 201);
      expect(Object.keys(res.body).sort()).toEqual(['createdAt', 'entityId', 'id', 'name', 'updatedAt']);
      expect(res.body).toMatchObject({ id, entityId, name: 'IFRS' });
      expect(res.body.createdAt).toMatch(ISO_DATETIME);
    });

    it('GET lists Books in creation order; GET one answers the Book', async () => {
      const entityId = await freshEntity(world);
      const ids = [];
      for (const name of ['Zeta', 'Alpha', 'Mid']) {
        const id = uuid();
        await staff.post(`${base(entityId)}/books`).send({ id, name }).expect(201);
        ids.push(id);
      }
      const res = await staff.get(`${base(entityId)}/books`);
      expectStatus(res, 200);
      expect(res.body.map((b: { id: string }) => b.id)).toEqual(ids);
      const one = await staff.get(`${base(entityId)}/books/${ids[1]}`);
      expectStatus(one, 200);
      expect(one.body).toMatchObject({ id: ids[1], name: 'Alpha', entityId });
    });

    it('an Entity without Books lists []', async () => {
      const entityId = await freshEntity(world);
      expect((await staff.get(`${base(entityId)}/books`)).body).toEqual([]);
    });

    it('a missing Book, or one of another Entity, is 404 BOOK_NOT_FOUND_ERROR', async () => {
      const a = await freshEntity(world);
      const b = await freshEntity(world);
      const id = uuid();
      await staff.post(`${base(a)}/books`).send({ id, name: 'A' }).expect(201);
      expectError(await staff.get(`${base(b)}/books/${id}`), 404, 'BOOK_NOT_FOUND_ERROR');
      expectError(await staff.get(`${base(a)}/books/${uuid()}`), 404, 'BOOK_NOT_FOUND_ERROR');
    });

    it('a reused id is 409 BOOK_ALREADY_EXISTS_ERROR; a used name 409 BOOK_NAME_ALREADY_EXISTS_ERROR', async () => {
      const entityId = await freshEntity(world);
      const id = uuid();
      await staff.post(`${base(entityId)}/books`).send({ id, name: 'Tax' }).expect(201);
      expectError(await staff.post(`${base(entityId)}/books`).send({ id, name: 'Other' }), 409, 'BOOK_ALREADY_EXISTS_ERROR');
      expectError(await staff.post(`${base(entityId)}/books`).send({ id: uuid(), name: 'Tax' }), 409, 'BOOK_NAME_ALREADY_EXISTS_ERROR');
    });

    it('the same id and name in another Entity is no conflict (D4)', async () => {
      const a = await freshEntity(world);
      const b = await freshEntity(world);
      const id = uuid();
      await staff.post(`${base(a)}/books`).send({ id, name: 'Shared' }).expect(201);
      expectStatus(await staff.post(`${base(b)}/books`).send({ id, name: 'Shared' }), 201);
    });

    it('an empty name is 400 VALIDATION_ERROR', async () => {
      expectError(await staff.post(`${base(world.entityId)}/books`).send({ id: uuid(), name: '' }), 400, 'VALIDATION_ERROR');
    });

    it('a Book cannot be renamed or deleted (no such routes)', async () => {
      const entityId = await freshEntity(world);
      const id = uuid();
      await staff.post(`${base(entityId)}/books`).send({ id, name: 'Fixed' }).expect(201);
      expect((await staff.patch(`${base(entityId)}/books/${id}`).send({ name: 'New' })).status).toBe(404);
      expect((await staff.delete(`${base(entityId)}/books/${id}`)).status).toBe(404);
    });

    it('with Books, a book-scoped read without bookId is 409 BOOK_REQUIRED_ERROR', async () => {
      const entityId = await freshEntity(world);
      const chart = await buildChart(staff, entityId);
      await staff.post(`${base(entityId)}/books`).send({ id: uuid(), name: 'B' }).expect(201);
      const reads = [
        `/reports/balance-sheet?exerciseStart=2026-01-01&cutoffDate=2026-06-15`,
        `/reports/income-statement?from=2026-01-01&to=2026-06-15`,
        `/reports/journal`,
        `/ledger/reports/eight-column-balance?exerciseStart=2026-01-01&cutoffDate=2026-06-15`,
        `/ledger/general-ledger?accountId=${chart.cash}`,
        `/ledger/partner-ledger?accountId=${chart.receivable}&from=2026-01-01&to=2026-06-15`,
        `/ledger/open-item-lines?accountId=${chart.receivable}`,
        `/partners/pages`,
      ];
      for (const path of reads) expectError(await staff.get(`${base(entityId)}${path}`), 409, 'BOOK_REQUIRED_ERROR');
      expectStatus(await staff.get(`${base(entityId)}/partners`), 200);
    });

    it('without Books, a bookId on a read or an entry is 404 BOOK_NOT_FOUND_ERROR', async () => {
      const entityId = await freshEntity(world);
      const chart = await buildChart(staff, entityId);
      expectError(await staff.get(`${base(entityId)}/reports/journal?bookId=${uuid()}`), 404, 'BOOK_NOT_FOUND_ERROR');
      const res = await staff
        .post(`${base(entityId)}/ledger/entries`)
        .send({ id: uuid(), entryDate: '2026-06-01', memo: 'x', bookId: uuid(), newLedgerEntryLines: [dr(chart.cash, 1), cr(chart.sales, 1)] });
      expectError(res, 404, 'BOOK_NOT_FOUND_ERROR');
    });

    it('an entry naming a Book of another Entity is 404 BOOK_NOT_FOUND_ERROR', async () => {
      const a = await freshEntity(world);
      const b = await freshEntity(world);
      const chart = await buildChart(staff, a);
      await staff.post(`${base(a)}/books`).send({ id: uuid(), name: 'Mine' }).expect(201);
      const foreign = uuid();
      await staff.post(`${base(b)}/books`).send({ id: foreign, name: 'Theirs' }).expect(201);
      const res = await staff
        .post(`${base(a)}/ledger/entries`)
        .send({ id: uuid(), entryDate: '2026-06-01', memo: 'x', bookId: foreign, newLedgerEntryLines: [dr(chart.cash, 1), cr(chart.sales, 1)] });
      expectError(res, 404, 'BOOK_NOT_FOUND_ERROR');
    });
  });

  describe('chart templates and initialization (D32)', () => {
    it('lists at least cl-pyme (es-CL) and ifrs-sme (en) with their summary fields', async () => {
      const res = await staff.get(`${base(world.entityId)}/ledger/chart-templates`);
      expectStatus(res, 200);
      for (const tpl of res.body) {
        expect(Object.keys(tpl).sort()).toEqual(['accountCount', 'effectiveFrom', 'groupCount', 'key', 'locale', 'version']);
        expect(tpl.effectiveFrom).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(tpl.groupCount).toBeGreaterThan(0);
        expect(tpl.accountCount).toBeGreaterThan(0);
      }
      expect(res.body.find((x: { key: string }) => x.key === 'cl-pyme')).toMatchObject({ locale: 'es-CL' });
      expect(res.body.find((x: { key: string }) => x.key === 'ifrs-sme')).toMatchObject({ locale: 'en' });
    });

    it('initializes an empty chart: 201 { groups, accounts } with fresh ids and the template\'s counts', async () => {
      const entityId = await freshEntity(world);
      const templates = (await staff.get(`${base(entityId)}/ledger/chart-templates`)).body;
      const tpl = templates.find((x: { key: string }) => x.key === 'ifrs-sme');
      const res = await staff.post(`${base(entityId)}/ledger/chart-initializations`).send({ id: uuid(), templateKey: tpl.key, templateVersion: tpl.version });
      expectStatus(res, 201);
      expect(res.body.groups).toHaveLength(tpl.groupCount);
      expect(res.body.accounts).toHaveLength(tpl.accountCount);
      for (const account of res.body.accounts) expect(Object.keys(account)).toEqual(expect.arrayContaining(ACCOUNT_KEYS));
      const chart = await staff.get(`${base(entityId)}/ledger/chart-of-accounts`);
      expectStatus(chart, 200);
      expect(chart.body.accounts).toHaveLength(tpl.accountCount);
      expect(chart.body.groups).toHaveLength(tpl.groupCount);
      // Fresh ids: a second Entity initialized from the same template shares none.
      const other = await freshEntity(world);
      const again = await staff.post(`${base(other)}/ledger/chart-initializations`).send({ id: uuid(), templateKey: tpl.key, templateVersion: tpl.version });
      const ids = new Set(res.body.accounts.map((a: { id: string }) => a.id));
      expect(again.body.accounts.some((a: { id: string }) => ids.has(a.id))).toBe(false);
    });

    it('every initialized account sits in a group of its type family with the group\'s code prefix (D30)', async () => {
      const entityId = await freshEntity(world);
      const tpl = (await staff.get(`${base(entityId)}/ledger/chart-templates`)).body.find((x: { key: string }) => x.key === 'cl-pyme');
      const res = await staff.post(`${base(entityId)}/ledger/chart-initializations`).send({ id: uuid(), templateKey: tpl.key, templateVersion: tpl.version }).expect(201);
      const groups = new Map(res.body.groups.map((g: { id: string }) => [g.id, g]));
      for (const a of res.body.accounts) {
        if (!a.groupId) continue;
        const g = groups.get(a.groupId) as { codePrefix: string };
        expect(g).toBeDefined();
        expect(a.code.startsWith(g.codePrefix)).toBe(true);
      }
    });

    it('a chart that is not empty is 409 CHART_TEMPLATE_REQUIRES_EMPTY_CHART_ERROR', async () => {
      const entityId = await freshEntity(world);
      await createAccount(staff, entityId, { code: '1', type: 'asset' });
      const res = await staff.post(`${base(entityId)}/ledger/chart-initializations`).send({ id: uuid(), templateKey: 'ifrs-sme', templateVersion: await version('ifrs-sme') });
      expectError(res, 409, 'CHART_TEMPLATE_REQUIRES_EMPTY_CHART_ERROR');
    });

    it('a reused initialization id is 409 CHART_INITIALIZATION_ALREADY_EXISTS_ERROR, checked before the empty chart', async () => {
      const entityId = await freshEntity(world);
      const id = uuid();
      const v = await version('ifrs-sme');
      await staff.post(`${base(entityId)}/ledger/chart-initializations`).send({ id, templateKey: 'ifrs-sme', templateVersion: v }).expect(201);
      expectError(await staff.post(`${base(entityId)}/ledger/chart-initializations`).send({ id, templateKey: 'ifrs-sme', templateVersion: v }), 409, 'CHART_INITIALIZATION_ALREADY_EXISTS_ERROR');
    });

    it('an unknown template key or version is 404 CHART_TEMPLATE_NOT_FOUND_ERROR', async () => {
      const entityId = await freshEntity(world);
      expectError(await staff.post(`${base(entityId)}/ledger/chart-initializations`).send({ id: uuid(), templateKey: 'nope', templateVersion: '1' }), 404, 'CHART_TEMPLATE_NOT_FOUND_ERROR');
      expectError(
        await staff.post(`${base(entityId)}/ledger/chart-initializations`).send({ id: uuid(), templateKey: 'ifrs-sme', templateVersion: 'no-such-version' }),
        404,
        'CHART_TEMPLATE_NOT_FOUND_ERROR',
      );
    });

    it('all three fields are required (400 VALIDATION_ERROR)', async () => {
      expectError(await staff.post(`${base(world.entityId)}/ledger/chart-initializations`).send({ id: uuid(), templateKey: 'ifrs-sme' }), 400, 'VALIDATION_ERROR');
    });

    async function version(key: string): Promise<string> {
      const res = await staff.get(`${base(world.entityId)}/ledger/chart-templates`);
      return res.body.find((x: { key: string }) => x.key === key).version;
    }
  });

  describe('account groups (D30)', () => {
    it('POST answers 201 { group } in the read shape', async () => {
      const entityId = await freshEntity(world);
      const id = uuid();
      const res = await staff.post(`${base(entityId)}/ledger/account-groups`).send({ id, parentGroupId: null, codePrefix: '1', name: 'Assets', type: 'asset' });
      expectStatus(res, 201);
      expect(Object.keys(res.body)).toEqual(['group']);
      expect(Object.keys(res.body.group).sort()).toEqual(GROUP_KEYS);
      expect(res.body.group).toMatchObject({ id, parentGroupId: null, codePrefix: '1', name: 'Assets', type: 'asset' });
      const chart = await staff.get(`${base(entityId)}/ledger/chart-of-accounts`);
      expect(chart.body.groups).toEqual([res.body.group]);
    });

    it('a child group names its parent; parentGroupId may be omitted', async () => {
      const entityId = await freshEntity(world);
      const parent = uuid();
      await staff.post(`${base(entityId)}/ledger/account-groups`).send({ id: parent, codePrefix: '1', name: 'Assets', type: 'asset' }).expect(201);
      const res = await staff.post(`${base(entityId)}/ledger/account-groups`).send({ id: uuid(), parentGroupId: parent, codePrefix: '11', name: 'Current', type: 'asset' });
      expectStatus(res, 201);
      expect(res.body.group.parentGroupId).toBe(parent);
    });

    it('a reused id is 409 LEDGER_ACCOUNT_GROUP_ID_ALREADY_EXISTS_ERROR; a used prefix 409 LEDGER_ACCOUNT_GROUP_ALREADY_EXISTS_ERROR', async () => {
      const entityId = await freshEntity(world);
      const id = uuid();
      await staff.post(`${base(entityId)}/ledger/account-groups`).send({ id, codePrefix: '2', name: 'Liabilities', type: 'liability' }).expect(201);
      expectError(await staff.post(`${base(entityId)}/ledger/account-groups`).send({ id, codePrefix: '9', name: 'X', type: 'liability' }), 409, 'LEDGER_ACCOUNT_GROUP_ID_ALREADY_EXISTS_ERROR');
      expectError(await staff.post(`${base(entityId)}/ledger/account-groups`).send({ id: uuid(), codePrefix: '2', name: 'Y', type: 'liability' }), 409, 'LEDGER_ACCOUNT_GROUP_ALREADY_EXISTS_ERROR');
    });

    it('a missing parent is 404 LEDGER_ACCOUNT_GROUP_NOT_FOUND_ERROR', async () => {
      const res = await staff.post(`${base(world.entityId)}/ledger/account-groups`).send({ id: uuid(), parentGroupId: uuid(), codePrefix: '77', name: 'Orphan', type: 'asset' });
      expectError(res, 404, 'LEDGER_ACCOUNT_GROUP_NOT_FOUND_ERROR');
    });

    it('a parent of another type family is 409 LEDGER_ACCOUNT_GROUP_PARENT_TYPE_INCOMPATIBLE_ERROR', async () => {
      const entityId = await freshEntity(world);
      const parent = uuid();
      await staff.post(`${base(entityId)}/ledger/account-groups`).send({ id: parent, codePrefix: '1', name: 'Assets', type: 'asset' }).expect(201);
      const res = await staff.post(`${base(entityId)}/ledger/account-groups`).send({ id: uuid(), parentGroupId: parent, codePrefix: '12', name: 'Debts', type: 'liability' });
      expectError(res, 409, 'LEDGER_ACCOUNT_GROUP_PARENT_TYPE_INCOMPATIBLE_ERROR');
    });

    it('an unknown type, empty name or empty prefix is 400 VALIDATION_ERROR', async () => {
      const url = `${base(world.entityId)}/ledger/account-groups`;
      expectError(await staff.post(url).send({ id: uuid(), codePrefix: '9', name: 'X', type: 'revenue' }), 400, 'VALIDATION_ERROR');
      expectError(await staff.post(url).send({ id: uuid(), codePrefix: '9', name: '', type: 'asset' }), 400, 'VALIDATION_ERROR');
      expectError(await staff.post(url).send({ id: uuid(), codePrefix: '', name: 'X', type: 'asset' }), 400, 'VALIDATION_ERROR');
    });
  });

  describe('ledger accounts', () => {
    it('POST answers 201 { account } with derived facts', async () => {
      const entityId = await freshEntity(world);
      const id = uuid();
      const res = await staff.post(`${base(entityId)}/ledger/accounts`).send({ id, name: 'Cash', code: '1101', type: 'asset', tracking: 'balance' });
      expectStatus(res, 201);
      expect(Object.keys(res.body)).toEqual(['account']);
      expect(Object.keys(res.body.account)).toEqual(expect.arrayContaining(ACCOUNT_KEYS));
      expect(res.body.account).toMatchObject({
        id,
        groupId: null,
        code: '1101',
        name: 'Cash',
        type: 'asset',
        tracking: 'balance',
        subtype: null,
        normalSide: 'debit',
        hasEntries: false,
        deleteBlockedBy: null,
        isDefaultPurchaseAccount: false,
      });
    });

    it.each([
      ['asset', 'debit'],
      ['liability', 'credit'],
      ['equity', 'credit'],
      ['income', 'credit'],
      ['other_income', 'credit'],
      ['cost_of_goods_sold', 'debit'],
      ['operating_expense', 'debit'],
      ['other_expense', 'debit'],
    ])('derives normalSide of %s as %s', async (type, side) => {
      const res = await staff.post(`${base(world.entityId)}/ledger/accounts`).send({ id: uuid(), name: type, code: `N-${uuid().slice(0, 6)}`, type, tracking: 'balance' });
      expectStatus(res, 201);
      expect(res.body.account.normalSide).toBe(side);
    });

    it('sending normalSide is 400 VALIDATION_ERROR', async () => {
      const res = await staff.post(`${base(world.entityId)}/ledger/accounts`).send({ id: uuid(), name: 'x', code: 'NS1', type: 'asset', tracking: 'balance', normalSide: 'debit' });
      expectError(res, 400, 'VALIDATION_ERROR');
    });

    it('a code in use is 409 LEDGER_ACCOUNT_CODE_ALREADY_EXISTS_ERROR', async () => {
      const entityId = await freshEntity(world);
      await createAccount(staff, entityId, { code: '1101', type: 'asset' });
      const res = await staff.post(`${base(entityId)}/ledger/accounts`).send({ id: uuid(), name: 'dup', code: '1101', type: 'asset', tracking: 'balance' });
      expectError(res, 409, 'LEDGER_ACCOUNT_CODE_ALREADY_EXISTS_ERROR');
    });

    it('a reused id is 409', async () => {
      const entityId = await freshEntity(world);
      const id = await createAccount(staff, entityId, { code: '1101', type: 'asset' });
      const res = await staff.post(`${base(entityId)}/ledger/accounts`).send({ id, name: 'dup', code: '1199', type: 'asset', tracking: 'balance' });
      expect(res.status).toBe(409);
      expect(res.body.code).toMatch(/^LEDGER_ACCOUNT_.*ALREADY_EXISTS_ERROR$/);
    });

    it('a missing group is 404 LEDGER_ACCOUNT_GROUP_NOT_FOUND_ERROR', async () => {
      const res = await staff.post(`${base(world.entityId)}/ledger/accounts`).send({ id: uuid(), name: 'x', code: 'G1', type: 'asset', tracking: 'balance', groupId: uuid() });
      expectError(res, 404, 'LEDGER_ACCOUNT_GROUP_NOT_FOUND_ERROR');
    });

    it('an account of another type family than its group is 409 LEDGER_ACCOUNT_GROUP_TYPE_INCOMPATIBLE_ERROR', async () => {
      const entityId = await freshEntity(world);
      const chart = await buildChart(staff, entityId);
      const res = await staff.post(`${base(entityId)}/ledger/accounts`).send({ id: uuid(), name: 'x', code: '1190', type: 'liability', tracking: 'balance', groupId: chart.assetsGroup });
      expectError(res, 409, 'LEDGER_ACCOUNT_GROUP_TYPE_INCOMPATIBLE_ERROR');
    });

    it('an account whose code does not start with its group\'s prefix is refused', async () => {
      const entityId = await freshEntity(world);
      const chart = await buildChart(staff, entityId);
      const res = await staff.post(`${base(entityId)}/ledger/accounts`).send({ id: uuid(), name: 'x', code: '1290', type: 'asset', tracking: 'balance', groupId: chart.assetsGroup });
      expect([400, 409]).toContain(res.status);
    });

    it.each([
      ['receivable', 'liability', 'open_item', 'LEDGER_ACCOUNT_SUBTYPE_TYPE_INCOMPATIBLE_ERROR'],
      ['payable', 'asset', 'open_item', 'LEDGER_ACCOUNT_SUBTYPE_TYPE_INCOMPATIBLE_ERROR'],
      ['fixed_asset', 'income', 'balance', 'LEDGER_ACCOUNT_SUBTYPE_TYPE_INCOMPATIBLE_ERROR'],
      ['migration_clearing', 'income', 'balance', 'LEDGER_ACCOUNT_SUBTYPE_TYPE_INCOMPATIBLE_ERROR'],
      ['receivable', 'asset', 'balance', 'LEDGER_ACCOUNT_SUBTYPE_TRACKING_INCOMPATIBLE_ERROR'],
      ['fixed_asset', 'asset', 'open_item', 'LEDGER_ACCOUNT_SUBTYPE_TRACKING_INCOMPATIBLE_ERROR'],
      ['migration_clearing', 'liability', 'open_item', 'LEDGER_ACCOUNT_SUBTYPE_TRACKING_INCOMPATIBLE_ERROR'],
    ])('subtype %s on %s/%s is 409 %s', async (subtype, type, tracking, code) => {
      const res = await staff.post(`${base(world.entityId)}/ledger/accounts`).send({ id: uuid(), name: 'x', code: `S-${uuid().slice(0, 8)}`, type, tracking, subtype });
      expectError(res, 409, code);
    });

    it.each([
      ['fixed_asset', 'asset', 'balance'],
      ['receivable', 'asset', 'open_item'],
      ['unbilled_receivable', 'asset', 'open_item'],
      ['payable', 'liability', 'open_item'],
      ['internal_transfer', 'asset', 'balance'],
      ['migration_clearing', 'equity', 'balance'],
      ['migration_clearing', 'liability', 'balance'],
    ])('subtype %s on %s/%s is accepted', async (subtype, type, tracking) => {
      const res = await staff.post(`${base(world.entityId)}/ledger/accounts`).send({ id: uuid(), name: 'x', code: `S-${uuid().slice(0, 8)}`, type, tracking, subtype });
      expectStatus(res, 201);
      expect(res.body.account.subtype).toBe(subtype);
    });

    it('GET accounts lists every account in the chart shape', async () => {
      const entityId = await freshEntity(world);
      const chart = await buildChart(staff, entityId);
      const res = await staff.get(`${base(entityId)}/ledger/accounts`);
      expectStatus(res, 200);
      expect(res.body).toHaveLength(10);
      expect(res.body.map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining([chart.cash, chart.sales]));
      const cash = res.body.find((a: { id: string }) => a.id === chart.cash);
      expect(cash).toMatchObject({ code: '1101', groupId: chart.assetsGroup, type: 'asset', normalSide: 'debit' });
    });

    it('hasEntries and deleteBlockedBy follow live and scheduled lines', async () => {
      const entityId = await freshEntity(world);
      const chart = await buildChart(staff, entityId);
      const read = async (id: string) => (await staff.get(`${base(entityId)}/ledger/chart-of-accounts`)).body.accounts.find((a: { id: string }) => a.id === id);
      const entry = await post(staff, entityId, '2026-06-01', [dr(chart.cash, 10), cr(chart.sales, 10)]);
      expect(await read(chart.cash)).toMatchObject({ hasEntries: true, deleteBlockedBy: 'entries' });
      expectError(await staff.delete(`${base(entityId)}/ledger/accounts/${chart.cash}`), 409, 'LEDGER_ACCOUNT_IN_USE_ERROR');
      await staff.delete(`${base(entityId)}/ledger/entries/${entry.id}`).expect(200);
      // An unbooked entry's lines are not live: hasEntries is false. deleteBlockedBy agrees with DELETE.
      const afterUnbook = await read(chart.cash);
      expect(afterUnbook.hasEntries).toBe(false);
      const del = await staff.delete(`${base(entityId)}/ledger/accounts/${chart.cash}`);
      if (afterUnbook.deleteBlockedBy === null) expectStatus(del, 200);
      else expectError(del, 409, 'LEDGER_ACCOUNT_IN_USE_ERROR');
      await staff
        .post(`${base(entityId)}/ledger/scheduled-entries`)
        .send({ id: uuid(), entryDate: '2026-08-01', memo: 's', newLedgerEntryLines: [dr(chart.bank, 5), cr(chart.sales, 5)] })
        .expect(201);
      expect(await read(chart.bank)).toMatchObject({ hasEntries: true, deleteBlockedBy: 'entries' });
      const res = await staff.delete(`${base(entityId)}/ledger/accounts/${chart.otherIncome}`);
      expectStatus(res, 200);
      expect(res.body).toEqual({ deletedAccountId: chart.otherIncome });
      expect(await read(chart.otherIncome)).toBeUndefined();
    });

    it('a Partner\'s default purchase account is flagged and blocks delete', async () => {
      const entityId = await freshEntity(world);
      const chart = await buildChart(staff, entityId);
      await createPartner(staff, entityId, 'Supplier', freshRut(), { defaultPurchaseAccountId: chart.opex });
      const account = (await staff.get(`${base(entityId)}/ledger/chart-of-accounts`)).body.accounts.find((a: { id: string }) => a.id === chart.opex);
      expect(account).toMatchObject({ isDefaultPurchaseAccount: true, deleteBlockedBy: 'default_purchase_account', hasEntries: false });
      expectError(await staff.delete(`${base(entityId)}/ledger/accounts/${chart.opex}`), 409, 'LEDGER_ACCOUNT_IN_USE_ERROR');
    });

    it('DELETE of a missing account is 404 LEDGER_ACCOUNT_NOT_FOUND_ERROR', async () => {
      expectError(await staff.delete(`${base(world.entityId)}/ledger/accounts/${uuid()}`), 404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR');
    });

    describe('PATCH', () => {
      it('changes name and code, answering { account }', async () => {
        const entityId = await freshEntity(world);
        const id = await createAccount(staff, entityId, { code: '1101', type: 'asset' });
        const res = await staff.patch(`${base(entityId)}/ledger/accounts/${id}`).send({ name: 'Petty cash', code: '1109' });
        expectStatus(res, 200);
        expect(Object.keys(res.body)).toEqual(['account']);
        expect(res.body.account).toMatchObject({ id, name: 'Petty cash', code: '1109' });
      });

      it('an empty body is 400 VALIDATION_ERROR; a missing account 404 LEDGER_ACCOUNT_NOT_FOUND_ERROR', async () => {
        const entityId = await freshEntity(world);
        const id = await createAccount(staff, entityId, { code: '1101', type: 'asset' });
        expectError(await staff.patch(`${base(entityId)}/ledger/accounts/${id}`).send({}), 400, 'VALIDATION_ERROR');
        expectError(await staff.patch(`${base(entityId)}/ledger/accounts/${uuid()}`).send({ name: 'x' }), 404, 'LEDGER_ACCOUNT_NOT_FOUND_ERROR');
      });

      it('a code in use is 409 LEDGER_ACCOUNT_CODE_ALREADY_EXISTS_ERROR', async () => {
        const entityId = await freshEntity(world);
        await createAccount(staff, entityId, { code: '1101', type: 'asset' });
        const id = await createAccount(staff, entityId, { code: '1102', type: 'asset' });
        expectError(await staff.patch(`${base(entityId)}/ledger/accounts/${id}`).send({ code: '1101' }), 409, 'LEDGER_ACCOUNT_CODE_ALREADY_EXISTS_ERROR');
      });

      it('without entries, type, tracking and subtype may change freely; normalSide follows the type', async () => {
        const entityId = await freshEntity(world);
        const id = await createAccount(staff, entityId, { code: '1101', type: 'asset' });
        const res = await staff.patch(`${base(entityId)}/ledger/accounts/${id}`).send({ type: 'liability', tracking: 'open_item', subtype: 'payable' });
        expectStatus(res, 200);
        expect(res.body.account).toMatchObject({ type: 'liability', tracking: 'open_item', subtype: 'payable', normalSide: 'credit' });
        const cleared = await staff.patch(`${base(entityId)}/ledger/accounts/${id}`).send({ subtype: null });
        expect(cleared.body.account.subtype).toBeNull();
      });

      it('with entries, a type change within its family is allowed (income to other_income, operating_expense to cost_of_goods_sold)', async () => {
        const entityId = await freshEntity(world);
        const chart = await buildChart(staff, entityId);
        await post(staff, entityId, '2026-06-01', [dr(chart.opex, 10), cr(chart.sales, 10)]);
        expectStatus(await staff.patch(`${base(entityId)}/ledger/accounts/${chart.sales}`).send({ type: 'other_income' }), 200);
        expectStatus(await staff.patch(`${base(entityId)}/ledger/accounts/${chart.opex}`).send({ type: 'cost_of_goods_sold' }), 200);
        expectStatus(await staff.patch(`${base(entityId)}/ledger/accounts/${chart.opex}`).send({ type: 'other_expense' }), 200);
      });

      it('with entries, a type change across families is 409 LEDGER_ACCOUNT_TYPE_LOCKED_ERROR', async () => {
        const entityId = await freshEntity(world);
        const chart = await buildChart(staff, entityId);
        await post(staff, entityId, '2026-06-01', [dr(chart.cash, 10), cr(chart.sales, 10)]);
        expectError(await staff.patch(`${base(entityId)}/ledger/accounts/${chart.sales}`).send({ type: 'operating_expense' }), 409, 'LEDGER_ACCOUNT_TYPE_LOCKED_ERROR');
        expectError(await staff.patch(`${base(entityId)}/ledger/accounts/${chart.cash}`).send({ type: 'liability' }), 409, 'LEDGER_ACCOUNT_TYPE_LOCKED_ERROR');
      });

      it('with entries, tracking and subtype are locked (409 ..._TRACKING_LOCKED_ERROR, ..._SUBTYPE_LOCKED_ERROR)', async () => {
        const entityId = await freshEntity(world);
        const chart = await buildChart(staff, entityId);
        await post(staff, entityId, '2026-06-01', [dr(chart.cash, 10), cr(chart.sales, 10)]);
        expectError(await staff.patch(`${base(entityId)}/ledger/accounts/${chart.cash}`).send({ tracking: 'open_item' }), 409, 'LEDGER_ACCOUNT_TRACKING_LOCKED_ERROR');
        expectError(await staff.patch(`${base(entityId)}/ledger/accounts/${chart.cash}`).send({ subtype: 'internal_transfer' }), 409, 'LEDGER_ACCOUNT_SUBTYPE_LOCKED_ERROR');
      });

      it('a subtype incompatible with the type is 409 LEDGER_ACCOUNT_SUBTYPE_TYPE_INCOMPATIBLE_ERROR', async () => {
        const entityId = await freshEntity(world);
        const id = await createAccount(staff, entityId, { code: '4101', type: 'income' });
        expectError(await staff.patch(`${base(entityId)}/ledger/accounts/${id}`).send({ subtype: 'fixed_asset' }), 409, 'LEDGER_ACCOUNT_SUBTYPE_TYPE_INCOMPATIBLE_ERROR');
      });

      it('moving into a group of another family is 409 LEDGER_ACCOUNT_GROUP_TYPE_INCOMPATIBLE_ERROR; a missing group 404', async () => {
        const entityId = await freshEntity(world);
        const chart = await buildChart(staff, entityId);
        expectError(await staff.patch(`${base(entityId)}/ledger/accounts/${chart.sales}`).send({ groupId: chart.assetsGroup }), 409, 'LEDGER_ACCOUNT_GROUP_TYPE_INCOMPATIBLE_ERROR');
        expectError(await staff.patch(`${base(entityId)}/ledger/accounts/${chart.sales}`).send({ groupId: uuid() }), 404, 'LEDGER_ACCOUNT_GROUP_NOT_FOUND_ERROR');
      });

      it('sending normalSide is 400 VALIDATION_ERROR', async () => {
        const entityId = await freshEntity(world);
        const id = await createAccount(staff, entityId, { code: '1101', type: 'asset' });
        expectError(await staff.patch(`${base(entityId)}/ledger/accounts/${id}`).send({ normalSide: 'credit' }), 400, 'VALIDATION_ERROR');
      });
    });
  });
});
