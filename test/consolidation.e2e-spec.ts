import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import request from 'supertest';
import { LedgerFigures } from '../src/modules/ledger';
import { FixedClock } from '../src/platform/clock/clock';
import { checkAccessMatrix } from './harness/access-matrix';
import { expectRefused } from './harness/db-checks';
import { TestApp } from './harness/test-app';
import { Agent, createEntity, createOrganization, createWorldApp, grantMembership, mintKey, onboardUser, World } from './harness/world';
import { freshRut } from './blackbox/bb-helpers';

/**
 * D91: consolidated balance sheet and income statement over the controlled tree. Every figure
 * below was worked out by hand from the entries posted, the rates and D7 (see the comments).
 */
const READ_TABLES = ['audit_trail', 'fx_rates', 'ledger_entries', 'ledger_lines'];

describe('Consolidated reports (D91)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    // Every date posted below is in the past of this day.
    ({ t, world, staff } = await createWorldApp({ clock: new FixedClock(new Date('2027-01-15T15:00:00Z')) }));
  });
  afterAll(() => t.close());

  interface Member {
    id: string;
    taxId: string;
    accounts: Record<string, string>;
  }

  async function member(name: string, opts: { currency?: string; parent?: string; organizationId?: string } = {}): Promise<Member> {
    const taxId = freshRut();
    const { id } = await createEntity(staff, opts.organizationId ?? world.organizationId, { name, taxId, currency: opts.currency ?? 'CLP' });
    if (opts.parent) await staff.patch(`/api/entities/${id}/parent`).send({ parentEntityId: opts.parent }).expect(200);
    return { id, taxId, accounts: {} };
  }

  async function account(m: Member, code: string, type: string, name = code): Promise<void> {
    const id = randomUUID();
    await staff.post(`/api/entities/${m.id}/ledger/accounts`).send({ id, name, code, type, tracking: 'balance', subtype: null }).expect(201);
    m.accounts[code] = id;
  }

  async function partnerFor(m: Member, of: Member, name: string): Promise<string> {
    const id = randomUUID();
    await staff.post(`/api/entities/${m.id}/partners`).send({ id, name, type: 'company', country: 'CL', taxId: of.taxId }).expect(201);
    return id;
  }

  type Line = [code: string, side: 'debit' | 'credit', amount: number, partnerId?: string];
  async function post(m: Member, entryDate: string, lines: Line[], bookId?: string): Promise<void> {
    const res = await staff
      .post(`/api/entities/${m.id}/ledger/entries`)
      .send({
        id: randomUUID(),
        entryDate,
        memo: 'consolidation',
        ...(bookId ? { bookId } : {}),
        newLedgerEntryLines: lines.map(([code, side, amount, partnerId]) => ({ ledgerAccountId: m.accounts[code], side, amount, ...(partnerId ? { partnerId } : {}) })),
      });
    expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ status: 201, body: null });
  }

  const bs = (entityId: string, query: string, agent: Agent = staff) => agent.get(`/api/entities/${entityId}/reports/consolidated-balance-sheet?${query}`);
  const is = (entityId: string, query: string, agent: Agent = staff) => agent.get(`/api/entities/${entityId}/reports/consolidated-income-statement?${query}`);

  type GroupForms = Record<'groupBalancesInOneStatement' | 'groupBalancesMemberByMember', (...args: unknown[]) => unknown>;

  // Every test twice: the balances read in one statement for the group (one server) and one
  // statement per member (what a Citus cluster runs, D94), the same answers either way.
  describe.each([
    ['in one statement for the group', false],
    ['one statement per member (as on a Citus cluster)', true],
  ])('balances read %s', (_form, perMember) => {
    let forms: jest.SpyInstance | null = null;
    beforeAll(() => {
      if (!perMember) return;
      const figures = t.app.get(LedgerFigures) as unknown as GroupForms;
      forms = jest.spyOn(figures, 'groupBalancesInOneStatement').mockImplementation((...args) => figures.groupBalancesMemberByMember(...args));
    });
    afterAll(() => forms?.mockRestore());

    describe('a three-level tree with a USD member and intercompany balances', () => {
      let root: Member;
      let alfa: Member;
      let beta: Member;
      let gamma: Member;

      beforeAll(async () => {
        // Member order: the root, then depth-first by name: Alfa (USD), Beta, Gamma (Beta's child).
        root = await member('Holding Raíz');
        beta = await member('Beta Ltda', { parent: root.id });
        alfa = await member('Alfa Inc', { parent: root.id, currency: 'USD' });
        gamma = await member('Gamma SpA', { parent: beta.id });
        for (const [m, names] of [
          [root, ['Caja', 'Cuentas por cobrar relacionadas', 'Proveedores', 'Cuentas por pagar relacionadas', 'Capital', 'Ventas', 'Gastos']],
          [alfa, ['Cash', 'Receivables', 'Payables', 'Related payables', 'Share capital', 'Sales', 'Expenses']],
          [beta, ['Caja Beta', 'Cobrar Beta', 'Proveedores Beta', 'Pagar relacionadas Beta', 'Capital Beta', 'Ventas Beta', 'Gastos Beta']],
          [gamma, ['Caja Gamma', 'Cobrar Gamma', 'Proveedores Gamma', 'Pagar Gamma', 'Capital Gamma', 'Ventas Gamma', 'Gastos Gamma']],
        ] as Array<[Member, string[]]>) {
          const types = ['asset', 'asset', 'liability', 'liability', 'equity', 'income', 'operating_expense'];
          const codes = ['1101', '1201', '2101', '2201', '3101', '4101', '5101'];
          for (const [i, code] of codes.entries()) await account(m, code, types[i], names[i]);
        }
        const rootSeesBeta = await partnerFor(root, beta, 'Beta Ltda');
        const rootSeesGamma = await partnerFor(root, gamma, 'Gamma SpA');
        const betaSeesRoot = await partnerFor(beta, root, 'Holding');
        const alfaSeesRoot = await partnerFor(alfa, root, 'Holding');
        const outsider = randomUUID();
        await staff.post(`/api/entities/${root.id}/partners`).send({ id: outsider, name: 'Cliente externo', type: 'company', country: 'CL', taxId: freshRut() }).expect(201);

        // Root (CLP)
        await post(root, '2025-03-01', [['1101', 'debit', 1_000_000], ['3101', 'credit', 1_000_000]]);
        await post(root, '2025-05-01', [['1101', 'debit', 200_000], ['4101', 'credit', 200_000]]);
        await post(root, '2026-02-10', [['1201', 'debit', 300_000, rootSeesBeta], ['4101', 'credit', 300_000]]); // sale to Beta: matched below
        await post(root, '2026-03-15', [['5101', 'debit', 50_000], ['1101', 'credit', 50_000]]);
        await post(root, '2026-04-01', [['1201', 'debit', 70_000, rootSeesGamma], ['1101', 'credit', 70_000]]); // loan to Gamma: one-sided
        await post(root, '2026-04-02', [['1201', 'debit', 5_000, outsider], ['1101', 'credit', 5_000]]); // an outside partner: kept
        // Beta (CLP)
        await post(beta, '2025-06-01', [['1101', 'debit', 500_000], ['3101', 'credit', 500_000]]);
        await post(beta, '2026-02-10', [['5101', 'debit', 300_000], ['2201', 'credit', 300_000, betaSeesRoot]]);
        await post(beta, '2026-05-05', [['1101', 'debit', 120_000], ['4101', 'credit', 120_000]]);
        // Gamma (CLP)
        await post(gamma, '2026-01-20', [['1101', 'debit', 80_000], ['3101', 'credit', 80_000]]);
        await post(gamma, '2026-06-01', [['5101', 'debit', 30_000], ['1101', 'credit', 30_000]]);
        await post(gamma, '2026-07-05', [['1101', 'debit', 999], ['4101', 'credit', 999]]); // after the cut-off
        // Alfa (USD, cents)
        await post(alfa, '2025-12-01', [['1101', 'debit', 100_000], ['3101', 'credit', 100_000]]);
        await post(alfa, '2026-02-01', [['5101', 'debit', 4_000], ['2201', 'credit', 4_000, alfaSeesRoot]]); // one-sided: the root recorded nothing
        await post(alfa, '2026-03-01', [['1101', 'debit', 25_055], ['4101', 'credit', 25_055]]);
        await post(alfa, '2026-04-01', [['5101', 'debit', 10_033], ['1101', 'credit', 10_033]]);
      });

      const rates = 'closingRate=USD:950.50&averageRate=USD:940.25';

      it('answers the balance sheet worked out by hand: translation, eliminations and both differences', async () => {
        const res = await bs(root.id, `exerciseStart=2026-01-01&cutoffDate=2026-06-30&${rates}`).expect(200);
        const members = [
          { entityId: root.id, name: 'Holding Raíz', currency: 'CLP', closingRate: '1', averageRate: '1' },
          { entityId: alfa.id, name: 'Alfa Inc', currency: 'USD', closingRate: '950.5', averageRate: '940.25' },
          { entityId: beta.id, name: 'Beta Ltda', currency: 'CLP', closingRate: '1', averageRate: '1' },
          { entityId: gamma.id, name: 'Gamma SpA', currency: 'CLP', closingRate: '1', averageRate: '1' },
        ];
        // Caja: root 1,000,000 + 200,000 - 50,000 - 70,000 - 5,000 = 1,075,000; Alfa 1,150.22 USD x
        // 950.5 = 1,093,284.11 -> 1,093,284; Beta 500,000 + 120,000 = 620,000; Gamma 50,000 (the July line is after the cut-off).
        // 1201: root 300,000 + 70,000 intercompany left out, 5,000 with the outside partner kept.
        // Capital: 1,000,000 + 1,000 USD x 950.5 + 500,000 + 80,000 = 2,530,500.
        // Current result: root 300,000 - 50,000 = 250,000; Alfa sales 250.55 x 940.25 = 235,579.6375
        // -> 235,580, expenses 140.33 x 940.25 = 131,945.2825 -> 131,945: 103,635; Beta 120,000 -
        // 300,000 = -180,000; Gamma -30,000: 143,635. Prior: root 200,000.
        // S: root +370,000, Beta -300,000, Alfa -40 USD x 950.5 = -38,020: eliminationDifference -31,980.
        // Translation: 2,843,284 - (2,530,500 + 143,635 + 200,000 - 31,980) = 1,129.
        expect(res.body).toEqual({
          exerciseStart: '2026-01-01',
          cutoffDate: '2026-06-30',
          currency: 'CLP',
          members,
          assets: {
            total: 2_843_284,
            accounts: [
              {
                code: '1101',
                name: 'Caja',
                balance: 2_838_284,
                byEntity: [
                  { entityId: root.id, balance: 1_075_000 },
                  { entityId: alfa.id, balance: 1_093_284 },
                  { entityId: beta.id, balance: 620_000 },
                  { entityId: gamma.id, balance: 50_000 },
                ],
              },
              { code: '1201', name: 'Cuentas por cobrar relacionadas', balance: 5_000, byEntity: [{ entityId: root.id, balance: 5_000 }] },
            ],
          },
          liabilities: { total: 0, accounts: [] },
          equity: {
            total: 2_843_284,
            accounts: [
              {
                code: '3101',
                name: 'Capital',
                balance: 2_530_500,
                byEntity: [
                  { entityId: root.id, balance: 1_000_000 },
                  { entityId: alfa.id, balance: 950_500 },
                  { entityId: beta.id, balance: 500_000 },
                  { entityId: gamma.id, balance: 80_000 },
                ],
              },
            ],
            currentPeriodResult: 143_635,
            priorPeriodsResult: 200_000,
            translationDifference: 1_129,
            eliminationDifference: -31_980,
          },
          totals: { assets: 2_843_284, liabilitiesAndEquity: 2_843_284 },
        });
      });

      it('answers the income statement at the average rates, intercompany lines left out', async () => {
        const res = await is(root.id, `from=2026-01-01&to=2026-06-30&${rates}`).expect(200);
        const section = (total: number, accounts: unknown[]) => ({ total, accounts });
        expect(res.body).toEqual({
          from: '2026-01-01',
          to: '2026-06-30',
          currency: 'CLP',
          members: [
            { entityId: root.id, name: 'Holding Raíz', currency: 'CLP', closingRate: null, averageRate: '1' },
            { entityId: alfa.id, name: 'Alfa Inc', currency: 'USD', closingRate: null, averageRate: '940.25' },
            { entityId: beta.id, name: 'Beta Ltda', currency: 'CLP', closingRate: null, averageRate: '1' },
            { entityId: gamma.id, name: 'Gamma SpA', currency: 'CLP', closingRate: null, averageRate: '1' },
          ],
          income: section(655_580, [
            {
              code: '4101',
              name: 'Ventas',
              balance: 655_580,
              byEntity: [
                { entityId: root.id, balance: 300_000 },
                { entityId: alfa.id, balance: 235_580 },
                { entityId: beta.id, balance: 120_000 },
              ],
            },
          ]),
          costOfGoodsSold: section(0, []),
          grossProfit: 655_580,
          operatingExpense: section(511_945, [
            {
              code: '5101',
              name: 'Gastos',
              balance: 511_945,
              byEntity: [
                { entityId: root.id, balance: 50_000 },
                { entityId: alfa.id, balance: 131_945 },
                { entityId: beta.id, balance: 300_000 },
                { entityId: gamma.id, balance: 30_000 },
              ],
            },
          ]),
          operatingResult: 143_635,
          otherIncome: section(0, []),
          otherExpense: section(0, []),
          netResult: 143_635,
        });
      });

      it('consolidates a subtree from its own root (Beta and Gamma; the root is an outside partner there)', async () => {
        const res = await bs(beta.id, 'exerciseStart=2026-01-01&cutoffDate=2026-06-30').expect(200);
        // Beta's payable to the root is no longer intercompany: 300,000 stays; no rate is needed.
        expect(res.body.members.map((m: { entityId: string }) => m.entityId)).toEqual([beta.id, gamma.id]);
        expect(res.body.liabilities).toEqual({ total: 300_000, accounts: [{ code: '2201', name: 'Pagar relacionadas Beta', balance: 300_000, byEntity: [{ entityId: beta.id, balance: 300_000 }] }] });
        expect(res.body.equity).toMatchObject({ currentPeriodResult: -210_000, eliminationDifference: 0, translationDifference: 0 });
        expect(res.body.totals).toEqual({ assets: 670_000, liabilitiesAndEquity: 670_000 });
      });

      it('refuses without a rate for a member currency, with 409 CONSOLIDATION_RATE_MISSING_ERROR (no stored FX rates)', async () => {
        for (const req of [
          bs(root.id, 'exerciseStart=2026-01-01&cutoffDate=2026-06-30&averageRate=USD:940.25'),
          bs(root.id, 'exerciseStart=2026-01-01&cutoffDate=2026-06-30&closingRate=USD:950.5'),
          is(root.id, 'from=2026-01-01&to=2026-06-30&closingRate=USD:950.5'),
        ]) {
          const res = await expectRefused(t, READ_TABLES, req, 409, 'CONSOLIDATION_RATE_MISSING_ERROR');
          expect(res.body.params).toEqual({ currency: 'USD' });
        }
      });

      it('refuses malformed rates and ranges with 400 VALIDATION_ERROR', async () => {
        for (const query of [
          'exerciseStart=2026-01-01&cutoffDate=2026-06-30&closingRate=USD950.5',
          'exerciseStart=2026-01-01&cutoffDate=2026-06-30&closingRate=USD:0',
          'exerciseStart=2026-01-01&cutoffDate=2026-06-30&closingRate=USD:1e3',
          'exerciseStart=2026-01-01&cutoffDate=2026-06-30&closingRate=XXX:1',
          'exerciseStart=2026-01-01&cutoffDate=2026-06-30&closingRate=USD:1&closingRate=USD:2',
          'exerciseStart=2026-07-01&cutoffDate=2026-06-30',
          'exerciseStart=2026-01-01',
        ]) {
          await expectRefused(t, READ_TABLES, bs(root.id, query), 400, 'VALIDATION_ERROR');
        }
        await expectRefused(t, READ_TABLES, is(root.id, 'from=2026-02-01&to=2026-01-31'), 400, 'VALIDATION_ERROR');
      });
    });

    describe('rates from stored FX (D80)', () => {
      let root: Member;
      let usd: Member;

      beforeAll(async () => {
        root = await member('Matriz FX');
        usd = await member('Filial USD', { parent: root.id, currency: 'USD' });
        for (const m of [root, usd]) {
          await account(m, '1101', 'asset', `Caja ${m === root ? 'matriz' : 'filial'}`);
          await account(m, '4101', 'income');
        }
        await post(usd, '2026-06-02', [['1101', 'debit', 1_001], ['4101', 'credit', 1_001]]);
        // USD rates of 2026-06-01 and 06-02; none on 06-03 (06-02's answers for it, D80a). Stored once for both passes.
        await t.sql(
          `INSERT INTO fx_rates (source, currency, date, functional_currency, rate, stored_at) VALUES
             ('offline', 'USD', '2026-06-01', 'CLP', 900, now()), ('offline', 'USD', '2026-06-02', 'CLP', 901, now())
           ON CONFLICT DO NOTHING`,
        );
      });

      it('takes the closing rate of the cut-off and the mean of each day of the range', async () => {
        // Average: (900 + 901 + 901) / 3 = 900.666666666666... -> 900.666666666667 (12 decimals, half up).
        // Sales 10.01 USD x 900.666666666667 = 9,015.6733... -> 9,016; cash 10.01 x 901 = 9,019.01 -> 9,019.
        const res = await bs(root.id, 'exerciseStart=2026-06-01&cutoffDate=2026-06-03').expect(200);
        expect(res.body.members[1]).toEqual({ entityId: usd.id, name: 'Filial USD', currency: 'USD', closingRate: '901', averageRate: '900.666666666667' });
        expect(res.body.assets).toEqual({ total: 9_019, accounts: [{ code: '1101', name: 'Caja matriz', balance: 9_019, byEntity: [{ entityId: usd.id, balance: 9_019 }] }] });
        expect(res.body.equity).toEqual({ total: 9_019, accounts: [], currentPeriodResult: 9_016, priorPeriodsResult: 0, translationDifference: 3, eliminationDifference: 0 });
        const statement = await is(root.id, 'from=2026-06-01&to=2026-06-03').expect(200);
        expect(statement.body.members[1]).toEqual({ entityId: usd.id, name: 'Filial USD', currency: 'USD', closingRate: null, averageRate: '900.666666666667' });
        expect(statement.body.netResult).toBe(9_016);
      });

      it('prefers a rate sent in the query over the stored one', async () => {
        const res = await bs(root.id, 'exerciseStart=2026-06-01&cutoffDate=2026-06-03&closingRate=USD:1000').expect(200);
        expect(res.body.members[1]).toMatchObject({ closingRate: '1000', averageRate: '900.666666666667' });
        expect(res.body.assets.total).toBe(10_010);
      });

      it('refuses a day without a rate (none stored, or the last one stale) with 409 CONSOLIDATION_RATE_MISSING_ERROR', async () => {
        // 2026-06-20: the last rate (06-02) is 18 days old; 2026-05-31: no rate on or before it.
        for (const req of [bs(root.id, 'exerciseStart=2026-06-01&cutoffDate=2026-06-20'), is(root.id, 'from=2026-05-31&to=2026-06-02'), is(root.id, 'from=2026-06-01&to=2026-06-12')]) {
          const res = await expectRefused(t, READ_TABLES, req, 409, 'CONSOLIDATION_RATE_MISSING_ERROR');
          expect(res.body.params).toEqual({ currency: 'USD' });
        }
      });
    });

    it('refuses two members giving one code types of different families with 409 CONSOLIDATION_ACCOUNT_TYPE_CONFLICT_ERROR', async () => {
      const root = await member('Conflicto');
      const child = await member('Hija conflicto', { parent: root.id });
      await account(root, '1101', 'asset');
      await account(root, '4101', 'income');
      await account(child, '4101', 'other_income'); // same family: no conflict
      await account(child, '1101', 'liability');
      const res = await expectRefused(t, READ_TABLES, bs(root.id, 'exerciseStart=2026-01-01&cutoffDate=2026-06-30'), 409, 'CONSOLIDATION_ACCOUNT_TYPE_CONFLICT_ERROR');
      expect(res.body.params).toEqual({ code: '1101' });
      await expectRefused(t, READ_TABLES, is(root.id, 'from=2026-01-01&to=2026-06-30'), 409, 'CONSOLIDATION_ACCOUNT_TYPE_CONFLICT_ERROR');
    });

    it('names a row after the first member whose chart has the code, also when that member has no line on it', async () => {
      const root = await member('Nombres');
      const child = await member('Hija nombres', { parent: root.id });
      const grandchild = await member('Nieta nombres', { parent: child.id });
      await account(root, '1101', 'asset', 'Caja matriz'); // no line: still names the row
      await account(root, '4101', 'income', 'Ventas matriz'); // no line either
      await account(child, '1101', 'asset', 'Caja hija');
      await account(child, '4101', 'other_income', 'Otros ingresos hija'); // same family as the root's income
      await account(grandchild, '1101', 'asset', 'Caja nieta');
      await account(grandchild, '4101', 'income', 'Ventas nieta');
      await post(child, '2026-02-10', [['1101', 'debit', 250], ['4101', 'credit', 250]]);
      await post(grandchild, '2026-03-05', [['1101', 'debit', 40], ['4101', 'credit', 40]]);
      const sheet = (await bs(root.id, 'exerciseStart=2026-01-01&cutoffDate=2026-06-30').expect(200)).body;
      expect(sheet.assets).toEqual({
        total: 290,
        accounts: [{ code: '1101', name: 'Caja matriz', balance: 290, byEntity: [{ entityId: child.id, balance: 250 }, { entityId: grandchild.id, balance: 40 }] }],
      });
      expect(sheet.equity.currentPeriodResult).toBe(290);
      // The row goes where the root's type puts it (income), under the root's name.
      const statement = (await is(root.id, 'from=2026-01-01&to=2026-06-30').expect(200)).body;
      expect(statement.income.accounts).toEqual([
        { code: '4101', name: 'Ventas matriz', balance: 290, byEntity: [{ entityId: child.id, balance: 250 }, { entityId: grandchild.id, balance: 40 }] },
      ]);
      expect(statement.otherIncome).toEqual({ total: 0, accounts: [] });
    });

    it('leaves out the closing entries dated inside the range and counts those before it (D90 item 4)', async () => {
      const root = await member('Cierre');
      const child = await member('Hija cierre', { parent: root.id });
      for (const m of [root, child]) {
        await account(m, '1101', 'asset');
        await account(m, '3101', 'equity');
        await account(m, '3201', 'equity', 'Resultados acumulados');
        await account(m, '4101', 'income');
      }
      await post(root, '2025-03-01', [['1101', 'debit', 700], ['4101', 'credit', 700]]);
      await post(child, '2025-04-01', [['1101', 'debit', 300], ['4101', 'credit', 300]]);
      // The root closes 2025: its closing entry (D Ventas 700 / C Resultados acumulados 700) is dated 2025-12-31.
      await staff.patch(`/api/entities/${root.id}/ledger-lock-date`).send({ ledgerLockDate: '2025-12-31' }).expect(200);
      await staff
        .post(`/api/entities/${root.id}/ledger/closings`)
        .send({ id: randomUUID(), exerciseStart: '2025-01-01', exerciseEnd: '2025-12-31', retainedEarningsAccountId: root.accounts['3201'] })
        .expect(201);
      // 2025: the closed year still shows its result (700 + 300) as the current period result.
      const closed = (await bs(root.id, 'exerciseStart=2025-01-01&cutoffDate=2025-12-31').expect(200)).body;
      expect(closed.equity).toEqual({ total: 1_000, accounts: [], currentPeriodResult: 1_000, priorPeriodsResult: 0, translationDifference: 0, eliminationDifference: 0 });
      expect((await is(root.id, 'from=2025-01-01&to=2025-12-31').expect(200)).body.netResult).toBe(1_000);
      // 2026: the root's result sits in retained earnings; the child's, never closed, is a prior periods result.
      const next = (await bs(root.id, 'exerciseStart=2026-01-01&cutoffDate=2026-06-30').expect(200)).body;
      expect(next.equity).toEqual({
        total: 1_000,
        accounts: [{ code: '3201', name: 'Resultados acumulados', balance: 700, byEntity: [{ entityId: root.id, balance: 700 }] }],
        currentPeriodResult: 0,
        priorPeriodsResult: 300,
        translationDifference: 0,
        eliminationDifference: 0,
      });
    });

    describe('Books by name', () => {
      let root: Member;
      let child: Member;
      let plain: Member;

      beforeAll(async () => {
        root = await member('Con libros');
        child = await member('Hija con libros', { parent: root.id });
        plain = await member('Nieta sin libros', { parent: child.id });
        const books: Record<string, string> = {};
        for (const [m, name] of [
          [root, 'IFRS'],
          [root, 'Tributario'],
          [child, 'IFRS'],
        ] as Array<[Member, string]>) {
          const id = randomUUID();
          await staff.post(`/api/entities/${m.id}/books`).send({ id, name }).expect(201);
          books[`${m.id}:${name}`] = id;
        }
        for (const m of [root, child, plain]) {
          await account(m, '1101', 'asset');
          await account(m, '3101', 'equity');
        }
        await post(root, '2026-01-10', [['1101', 'debit', 1_000], ['3101', 'credit', 1_000]]); // common
        await post(root, '2026-01-11', [['1101', 'debit', 500], ['3101', 'credit', 500]], books[`${root.id}:IFRS`]);
        await post(root, '2026-01-12', [['1101', 'debit', 7], ['3101', 'credit', 7]], books[`${root.id}:Tributario`]);
        await post(child, '2026-01-13', [['1101', 'debit', 300], ['3101', 'credit', 300]], books[`${child.id}:IFRS`]);
        await post(plain, '2026-01-14', [['1101', 'debit', 20], ['3101', 'credit', 20]]);
      });

      it('reads the named Book in members with Books and the one set of books of the others', async () => {
        const res = await bs(root.id, 'exerciseStart=2026-01-01&cutoffDate=2026-06-30&bookName=IFRS').expect(200);
        expect(res.body.assets.accounts[0].byEntity).toEqual([
          { entityId: root.id, balance: 1_500 },
          { entityId: child.id, balance: 300 },
          { entityId: plain.id, balance: 20 },
        ]);
        expect(res.body.totals).toEqual({ assets: 1_820, liabilitiesAndEquity: 1_820 });
      });

      it('refuses without bookName (409 BOOK_REQUIRED_ERROR) and a member without that Book (404 BOOK_NOT_FOUND_ERROR), naming the member', async () => {
        const required = await expectRefused(t, READ_TABLES, bs(root.id, 'exerciseStart=2026-01-01&cutoffDate=2026-06-30'), 409, 'BOOK_REQUIRED_ERROR');
        expect(required.body.params).toMatchObject({ entityId: root.id });
        const missing = await expectRefused(t, READ_TABLES, is(root.id, 'from=2026-01-01&to=2026-06-30&bookName=Tributario'), 404, 'BOOK_NOT_FOUND_ERROR');
        expect(missing.body.params).toMatchObject({ entityId: child.id });
        // A subtree whose members keep no Books ignores bookName.
        await bs(plain.id, 'exerciseStart=2026-01-01&cutoffDate=2026-06-30&bookName=IFRS').expect(200);
      });
    });

    it('balances for random trees, ledgers, intercompany lines and rates, and agrees with the members\' own reports without them (fast-check)', async () => {
      const CODES: Array<[string, string]> = [
        ['1101', 'asset'],
        ['1201', 'asset'],
        ['2101', 'liability'],
        ['3101', 'equity'],
        ['4101', 'income'],
        ['5101', 'operating_expense'],
      ];
      const day = fc.integer({ min: 0, max: 540 }).map((n) => new Date(Date.UTC(2025, 6, 1) + n * 86_400_000).toISOString().slice(0, 10));
      const line = fc.record({ debit: fc.nat(5), credit: fc.nat(5), amount: fc.integer({ min: 1, max: 10_000_000 }), date: day, partner: fc.nat(3) });
      const groupArb = fc.record({
        parents: fc.array(fc.nat(10), { minLength: 0, maxLength: 3 }),
        usd: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        entries: fc.array(fc.array(line, { maxLength: 5 }), { minLength: 4, maxLength: 4 }),
        closing: fc.integer({ min: 1, max: 2_000_000 }).map((n) => (n / 1000).toString()),
        average: fc.integer({ min: 1, max: 2_000_000 }).map((n) => (n / 1000).toString()),
        cutoff: day,
      });
      await fc.assert(
        fc.asyncProperty(groupArb, async (g) => {
          const members: Member[] = [await member(`Raíz ${randomUUID().slice(0, 4)}`)];
          for (const [i, parent] of g.parents.entries()) {
            members.push(await member(`M${i} ${randomUUID().slice(0, 4)}`, { parent: members[parent % members.length].id, currency: g.usd[i] ? 'USD' : 'CLP' }));
          }
          for (const m of members) for (const [code, type] of CODES) await account(m, code, type);
          const partners: string[][] = [];
          for (const m of members) {
            const mine: string[] = [];
            for (const other of members.filter((o) => o !== m)) mine.push(await partnerFor(m, other, `Relacionada ${other.id.slice(0, 4)}`));
            partners.push(mine);
          }
          for (const [i, m] of members.entries()) {
            for (const l of g.entries[i]) {
              const partnerId = partners[i].length > 0 && l.partner > 0 ? partners[i][l.partner % partners[i].length] : undefined;
              await post(m, l.date, [[CODES[l.debit][0], 'debit', l.amount, partnerId], [CODES[l.credit][0], 'credit', l.amount]]);
            }
          }
          const range = `exerciseStart=2026-01-01&cutoffDate=${g.cutoff < '2026-01-01' ? '2026-01-01' : g.cutoff}`;
          const res = await bs(members[0].id, `${range}&closingRate=USD:${g.closing}&averageRate=USD:${g.average}`);
          expect(res.status).toBe(200);
          const body = res.body;
          expect(body.totals.assets).toBe(body.totals.liabilitiesAndEquity);
          const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
          for (const section of [body.assets, body.liabilities, body.equity]) {
            for (const row of section.accounts) expect(row.balance).toBe(sum(row.byEntity.map((b: { balance: number }) => b.balance)));
          }
          expect(body.equity.total).toBe(
            sum(body.equity.accounts.map((r: { balance: number }) => r.balance)) +
              body.equity.currentPeriodResult +
              body.equity.priorPeriodsResult +
              body.equity.translationDifference +
              body.equity.eliminationDifference,
          );
          // The income statement reads the range alone (no opening): its net result is the sheet's current period result.
          const cutoff = g.cutoff < '2026-01-01' ? '2026-01-01' : g.cutoff;
          const statement = (await is(members[0].id, `from=2026-01-01&to=${cutoff}&averageRate=USD:${g.average}`).expect(200)).body;
          expect(statement.netResult).toBe(body.equity.currentPeriodResult);
          // Read one statement per member too (what a Citus cluster runs, D94): the same reports, body for body.
          if (!perMember) {
            const figures = t.app.get(LedgerFigures) as unknown as GroupForms;
            const memberByMember = jest.spyOn(figures, 'groupBalancesMemberByMember');
            const oneStatement = jest.spyOn(figures, 'groupBalancesInOneStatement').mockImplementation((...args) => figures.groupBalancesMemberByMember(...args));
            try {
              expect((await bs(members[0].id, `${range}&closingRate=USD:${g.closing}&averageRate=USD:${g.average}`).expect(200)).body).toEqual(body);
              expect((await is(members[0].id, `from=2026-01-01&to=${cutoff}&averageRate=USD:${g.average}`).expect(200)).body).toEqual(statement);
              expect(memberByMember).toHaveBeenCalledTimes(2);
            } finally {
              oneStatement.mockRestore();
              memberByMember.mockRestore();
            }
          }
          // The last member made has no descendant: consolidated from itself it is its own balance sheet.
          const alone = (await bs(members[members.length - 1].id, `${range}&closingRate=USD:${g.closing}&averageRate=USD:${g.average}`).expect(200)).body;
          const leaf = (await staff.get(`/api/entities/${members[members.length - 1].id}/reports/balance-sheet?${range}`).expect(200)).body;
          {
            // In its own currency, with no other member: no elimination, no translation, the same figures.
            expect(alone.equity.eliminationDifference).toBe(0);
            expect(alone.equity.translationDifference).toBe(0);
            expect(alone.totals.assets).toBe(leaf.totals.assets);
            expect(alone.equity.currentPeriodResult).toBe(leaf.equity.currentPeriodResult);
          }
        }),
        { numRuns: Number(process.env.CONSOLIDATION_RUNS ?? 5) },
      );
    }, 300_000);

    it('documents both routes in OpenAPI with their query parameters and response schemas', async () => {
      const doc = (await request(t.app.getHttpServer()).get('/api/docs-json').expect(200)).body as {
        paths: Record<string, { get: { parameters: Array<{ name: string }>; responses: Record<string, { content?: { 'application/json': { schema: { $ref: string } } } }> } }>;
        components: { schemas: Record<string, { properties: Record<string, unknown> }> };
      };
      for (const [route, schema, dates] of [
        ['consolidated-balance-sheet', 'ConsolidatedBalanceSheetResponse', ['exerciseStart', 'cutoffDate']],
        ['consolidated-income-statement', 'ConsolidatedIncomeStatementResponse', ['from', 'to']],
      ] as const) {
        const get = doc.paths[`/api/entities/{entityId}/reports/${route}`].get;
        expect(get.parameters.map((p) => p.name).sort()).toEqual(['entityId', 'bookName', 'closingRate', 'averageRate', 'format', ...dates].sort());
        expect(get.responses['200'].content!['application/json'].schema.$ref).toBe(`#/components/schemas/${schema}`);
        expect(Object.keys(get.responses)).toEqual(expect.arrayContaining(['403', '404', '409']));
      }
      expect(Object.keys(doc.components.schemas.ConsolidatedEquityResponse.properties)).toEqual(
        expect.arrayContaining(['total', 'accounts', 'currentPeriodResult', 'priorPeriodsResult', 'translationDifference', 'eliminationDifference']),
      );
    });

    describe('access: the caller must read every member', () => {
      let root: Member;
      let child: Member;
      let otherOrganization: string;

      beforeAll(async () => {
        otherOrganization = await createOrganization(staff);
        root = await member('Grupo acceso');
        child = await member('Hija en otra organización', { parent: root.id, organizationId: otherOrganization });
      });

      const query = 'exerciseStart=2026-01-01&cutoffDate=2026-06-30';

      it('refuses a member of the root Organization only with 403 PERMISSION_DENIED_ERROR that names no member', async () => {
        for (const agent of [world.clientMember.agent, world.viewerMember.agent]) {
          for (const req of [bs(root.id, query, agent), is(root.id, 'from=2026-01-01&to=2026-06-30', agent)]) {
            const res = await expectRefused(t, READ_TABLES, req, 403, 'PERMISSION_DENIED_ERROR');
            expect(JSON.stringify(res.body)).not.toContain(child.id);
            expect(JSON.stringify(res.body)).not.toContain('Hija');
          }
        }
        const key = request(t.app.getHttpServer()).get(`/api/entities/${root.id}/reports/consolidated-balance-sheet?${query}`).set('x-api-key', world.keys.member);
        await expectRefused(t, READ_TABLES, key, 403, 'PERMISSION_DENIED_ERROR');
      });

      it('answers a caller reading both Organizations (client, viewer, read-only key) and global staff', async () => {
        const both = await onboardUser(t, staff, 'client', 'group-reader');
        await grantMembership(staff, both.id, world.organizationId, 'viewer');
        await grantMembership(staff, both.id, otherOrganization, 'client');
        const readOnly = await mintKey(both.agent, { permissions: { erp: ['read'] } });
        await bs(root.id, query, both.agent).expect(200);
        await request(t.app.getHttpServer()).get(`/api/entities/${root.id}/reports/consolidated-income-statement?from=2026-01-01&to=2026-06-30`).set('x-api-key', readOnly.key).expect(200);
        const res = await bs(root.id, query).expect(200);
        expect(res.body.members.map((m: { entityId: string }) => m.entityId)).toEqual([root.id, child.id]);
      });

      it('refuses a key confined to the root when the group has another member; answers it for a group of one', async () => {
        const scoped = await mintKey(staff, { entityId: root.id });
        const ask = (entityId: string) => request(t.app.getHttpServer()).get(`/api/entities/${entityId}/reports/consolidated-balance-sheet?${query}`).set('x-api-key', scoped.key);
        await expectRefused(t, READ_TABLES, ask(root.id), 403, 'PERMISSION_DENIED_ERROR');
        const alone = await member('Sola');
        const own = await mintKey(staff, { entityId: alone.id });
        await request(t.app.getHttpServer()).get(`/api/entities/${alone.id}/reports/consolidated-balance-sheet?${query}`).set('x-api-key', own.key).expect(200);
      });

      it('GET consolidated-balance-sheet passes the access matrix', () =>
        checkAccessMatrix(t, world, { method: 'get', path: (entityId) => `/api/entities/${entityId}/reports/consolidated-balance-sheet?${query}` }));

      it('GET consolidated-income-statement passes the access matrix', () =>
        checkAccessMatrix(t, world, { method: 'get', path: (entityId) => `/api/entities/${entityId}/reports/consolidated-income-statement?from=2026-01-01&to=2026-06-30` }));
    });
  });
});
