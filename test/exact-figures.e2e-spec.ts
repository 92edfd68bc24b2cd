import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { FixedClock } from '../src/platform/clock/clock';
import { countRows, expectRefused } from './harness/db-checks';
import { createTestApp, TestApp } from './harness/test-app';
import { Agent, createEntity, createOrganization, signInStaff } from './harness/world';

const MAX = 2n ** 53n - 1n;
const RUNS = Number(process.env.EXACT_FIGURES_RUNS ?? 8);

/**
 * D6a: figures are exact at any size. Random postings of amounts near the limit (and small ones)
 * go through the API; the balance sheet, income statement, eight-column balance and general
 * ledger must then be exactly what bigint arithmetic gives, or refuse with 409
 * AMOUNT_OUT_OF_RANGE_ERROR naming the figure when one cannot be an exact JSON number; in a
 * presentation currency (up to 123456789012.123456789012 per unit) group totals, sections and
 * the eight-column subtotals still add up exactly.
 */
describe('exact figures near the limits (D6a)', () => {
  jest.setTimeout(600_000);
  const clock = new FixedClock(new Date('2026-06-15T16:00:00.000Z'));
  let t: TestApp;
  let staff: Agent;
  let organizationId: string;
  beforeAll(async () => {
    t = await createTestApp({ clock });
    staff = await signInStaff(t);
    organizationId = await createOrganization(staff);
  });
  afterAll(() => t.close());

  const ACCOUNTS = [
    { key: 'cash', code: '1101', type: 'asset', grouped: true },
    { key: 'bank', code: '1102', type: 'asset', grouped: true },
    { key: 'loan', code: '2101', type: 'liability', grouped: false },
    { key: 'sales', code: '4101', type: 'income', grouped: false },
    { key: 'rent', code: '6101', type: 'operating_expense', grouped: false },
  ] as const;
  type Key = (typeof ACCOUNTS)[number]['key'];
  const normalSign = (type: string) => (['asset', 'operating_expense'].includes(type) ? 1n : -1n);

  const amount = fc.oneof(fc.bigInt({ min: 1n, max: 1000n }), fc.bigInt({ min: MAX - 1000n, max: MAX }));
  const posting = fc.record({
    amount,
    debit: fc.constantFrom<Key>('cash', 'bank', 'loan', 'sales', 'rent'),
    credit: fc.constantFrom<Key>('cash', 'bank', 'loan', 'sales', 'rent'),
  }).filter((p) => p.debit !== p.credit);

  function sumOf(values: Iterable<bigint>): bigint {
    let s = 0n;
    for (const v of values) s += v;
    return s;
  }

  it('answers every report exactly, or 409 AMOUNT_OUT_OF_RANGE_ERROR naming the figure, for postings near the limits', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(posting, { minLength: 1, maxLength: 5 }), fc.constantFrom('1', '0.000123', '123456789012.123456789012'), async (postings, rate) => {
        const entityId = (await createEntity(staff, organizationId)).id;
        const base = `/api/entities/${entityId}`;
        const groupId = randomUUID();
        await staff.post(`${base}/ledger/account-groups`).send({ id: groupId, codePrefix: '11', name: 'Current assets', type: 'asset' }).expect(201);
        const ids = {} as Record<Key, string>;
        for (const a of ACCOUNTS) {
          ids[a.key] = randomUUID();
          await staff
            .post(`${base}/ledger/accounts`)
            .send({ id: ids[a.key], name: a.key, code: a.code, type: a.type, tracking: 'balance', groupId: a.grouped ? groupId : null })
            .expect(201);
        }
        const raw = new Map<Key, bigint>(ACCOUNTS.map((a) => [a.key, 0n]));
        const cashRunning: bigint[] = [];
        for (const [i, p] of postings.entries()) {
          const res = await staff.post(`${base}/ledger/entries`).send({
            id: randomUUID(),
            entryDate: `2026-06-0${i + 1}`,
            memo: 'near the limit',
            newLedgerEntryLines: [
              { side: 'debit', ledgerAccountId: ids[p.debit], amount: Number(p.amount) },
              { side: 'credit', ledgerAccountId: ids[p.credit], amount: Number(p.amount) },
            ],
          });
          expect(res.status).toBe(201);
          raw.set(p.debit, raw.get(p.debit)! + p.amount);
          raw.set(p.credit, raw.get(p.credit)! - p.amount);
          // General ledger of cash: its line of each posting, one posting a day.
          if (p.debit === 'cash') cashRunning.push((cashRunning.at(-1) ?? 0n) + p.amount);
          if (p.credit === 'cash') cashRunning.push((cashRunning.at(-1) ?? 0n) - p.amount);
        }
        const fits = (...values: bigint[]) => values.every((v) => v <= MAX && v >= -MAX);
        const balance = (key: Key) => raw.get(key)! * normalSign(ACCOUNTS.find((a) => a.key === key)!.type);
        const assets = balance('cash') + balance('bank');
        const net = balance('sales') - balance('rent');

        // The balance sheet in the functional currency: exact, or 409 with the figure named.
        const period = { exerciseStart: '2026-01-01', cutoffDate: '2026-12-31' };
        const sheet = await staff.get(`${base}/reports/balance-sheet`).query(period);
        const sheetFigures = [balance('cash'), balance('bank'), assets, balance('loan'), net, balance('loan') + net];
        if (fits(...sheetFigures)) {
          expect(sheet.status).toBe(200);
          expect(BigInt(sheet.body.assets.total)).toBe(assets);
          expect(BigInt(sheet.body.assets.groups[0]?.total ?? 0)).toBe(assets);
          expect(BigInt(sheet.body.equity.currentPeriodResult)).toBe(net);
          expect(sheet.body.totals.assets).toBe(sheet.body.totals.liabilitiesAndEquity);
        } else {
          expect({ status: sheet.status, code: sheet.body.code, field: typeof sheet.body.params.field }).toEqual({ status: 409, code: 'AMOUNT_OUT_OF_RANGE_ERROR', field: 'string' });
        }

        // The general ledger of cash: every running balance exact (a line of 1 moves it by 1).
        const ledger = await staff.get(`${base}/ledger/general-ledger`).query({ accountId: ids.cash, limit: 100 });
        if (fits(...cashRunning)) {
          expect(ledger.status).toBe(200);
          expect(ledger.body.lines.map((l: { runningBalance: number }) => BigInt(l.runningBalance))).toEqual(cashRunning);
        } else {
          expect({ status: ledger.status, code: ledger.body.code }).toEqual({ status: 409, code: 'AMOUNT_OUT_OF_RANGE_ERROR' });
          expect(ledger.body.params.field).toMatch(/^(lines\[\d+\]\.runningBalance|openingBalance|closingBalance)$/);
        }

        // In a presentation currency: whatever is answered adds up exactly.
        const presentation = { presentationCurrency: 'USD', presentationRate: rate };
        for (const [path, query] of [
          ['/reports/balance-sheet', period],
          ['/reports/income-statement', { from: '2026-01-01', to: '2026-12-31' }],
          ['/ledger/reports/eight-column-balance', period],
        ] as const) {
          const res = await staff.get(`${base}${path}`).query({ ...query, ...presentation });
          if (res.status === 409) {
            expect({ code: res.body.code, field: typeof res.body.params.field }).toEqual({ code: 'AMOUNT_OUT_OF_RANGE_ERROR', field: 'string' });
            continue;
          }
          expect(res.status).toBe(200);
          const body = res.body;
          const checkNode = (node: { total: number; groups: unknown[]; accounts: Array<{ balance: number }> }): void => {
            const groups = node.groups as Array<typeof node>;
            expect(BigInt(node.total)).toBe(sumOf(node.accounts.map((a) => BigInt(a.balance))) + sumOf(groups.map((g) => BigInt(g.total))));
            groups.forEach(checkNode);
          };
          if (path === '/reports/balance-sheet') {
            checkNode(body.assets);
            checkNode(body.liabilities);
            expect(body.totals.assets).toBe(body.totals.liabilitiesAndEquity);
          } else if (path === '/reports/income-statement') {
            for (const section of ['income', 'costOfGoodsSold', 'operatingExpense', 'otherIncome', 'otherExpense']) checkNode(body[section]);
            expect(BigInt(body.netResult)).toBe(
              BigInt(body.income.total) - BigInt(body.costOfGoodsSold.total) - BigInt(body.operatingExpense.total) + BigInt(body.otherIncome.total) - BigInt(body.otherExpense.total),
            );
          } else {
            for (const column of ['debit', 'credit', 'debtorBalance', 'creditorBalance', 'asset', 'liability', 'loss', 'profit']) {
              expect(BigInt(body.subtotals[column])).toBe(sumOf(body.rows.map((r: Record<string, number>) => BigInt(r[column]))));
            }
            expect(body.totals.debit).toBe(body.totals.credit);
            expect(body.totals.asset).toBe(body.totals.liability);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a posting that would take a stored total past 2^63 - 1 with 409 AMOUNT_OUT_OF_RANGE_ERROR, writing nothing', async () => {
    const entityId = (await createEntity(staff, organizationId)).id;
    const base = `/api/entities/${entityId}`;
    const cash = randomUUID();
    const sales = randomUUID();
    await staff.post(`${base}/ledger/accounts`).send({ id: cash, name: 'cash', code: '1101', type: 'asset', tracking: 'balance' }).expect(201);
    await staff.post(`${base}/ledger/accounts`).send({ id: sales, name: 'sales', code: '4101', type: 'income', tracking: 'balance' }).expect(201);
    // The stored totals as about a thousand entries of the largest amount would leave them.
    await t.sql(`UPDATE ledger_account_monthly_totals SET debit = 9223372036854775000 WHERE entity_id = $1`, [entityId]).catch(() => undefined);
    await t.sql(
      `INSERT INTO ledger_account_monthly_totals (entity_id, account_id, book_key, month, slot, debit, credit, line_count)
       SELECT $1, $2, '00000000-0000-0000-0000-000000000000', '2026-06-01', s, 9223372036854775000, 0, 1000 FROM generate_series(0, 63) s
       ON CONFLICT DO NOTHING`,
      [entityId, cash],
    );
    const before = await countRows(t, 'ledger_entries');
    const res = await expectRefused(
      t,
      ['ledger_entries', 'ledger_lines', 'ledger_account_monthly_totals', 'audit_trail'],
      staff.post(`${base}/ledger/entries`).send({
        id: randomUUID(),
        entryDate: '2026-06-01',
        memo: 'one too many',
        newLedgerEntryLines: [
          { side: 'debit', ledgerAccountId: cash, amount: Number(MAX) },
          { side: 'credit', ledgerAccountId: sales, amount: Number(MAX) },
        ],
      }),
      409,
      'AMOUNT_OUT_OF_RANGE_ERROR',
    );
    expect(res.body.params.field).toBe('accountTotal');
    expect(await countRows(t, 'ledger_entries')).toBe(before);
  });
});
