import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { FixedClock } from '../src/platform/clock/clock';
import { createTestApp, TestApp } from './harness/test-app';
import { Agent, buildWorld, createEntity, World } from './harness/world';

const clock = new FixedClock(new Date('2026-06-15T15:00:00Z'));

/**
 * D90 item 4: every report leaves out the closing entries dated inside its range and counts those
 * dated before it. Figures worked out by hand, before and after closing 2024 and 2025.
 *
 * The ledger (no Books), CLP:
 *   E1 2024-01-10 D Caja 10000 / C Capital 10000
 *   E2 2024-03-15 D Arriendo 3000 / C Caja 3000
 *   E3 2024-11-30 D Clientes 1000 / C Ventas 1000
 *   F1 2025-02-01 D Caja 8000 / C Ventas 8000
 *   F2 2025-07-01 D Arriendo 1200 / C Caja 1200
 *   F3 2025-12-31 D Caja 500 / C Ventas 500
 *   G1 2026-02-01 D Caja 100 / C Ventas 100
 * 2024 result 1000 - 3000 = -2000 (a loss); 2025 result 8500 - 1200 = 7300 (a profit).
 * Closing 2024 (dated 2024-12-31): D Ventas 1000, C Arriendo 3000, D Resultados acumulados 2000.
 * Closing 2025 (dated 2025-12-31): D Ventas 8500, C Arriendo 1200, C Resultados acumulados 7300.
 * Caja: 7000 at the end of 2024, 14300 at the end of 2025, 14400 in 2026; Clientes 1000 throughout.
 */
describe('reports and year-end closings (D90 item 4)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let entityId: string;
  const a: Record<string, string> = {};

  const url = (path: string, entity = entityId) => `/api/entities/${entity}${path}`;
  const post = async (entity: string, entryDate: string, debit: string, credit: string, amount: number) => {
    const res = await staff
      .post(url('/ledger/entries', entity))
      .send({ id: randomUUID(), entryDate, memo: `${debit}/${credit}`, newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: a[debit], amount }, { side: 'credit', ledgerAccountId: a[credit], amount }] });
    expect(res.status).toBe(201);
    return res.body;
  };
  const chart = async (entity: string, prefix = '') => {
    for (const [key, code, type] of [
      ['caja', '1101', 'asset'],
      ['clientes', '1201', 'asset'],
      ['deuda', '2101', 'liability'],
      ['capital', '3101', 'equity'],
      ['resultados', '3201', 'equity'],
      ['ventas', '4101', 'income'],
      ['costo', '5101', 'cost_of_goods_sold'],
      ['arriendo', '6101', 'operating_expense'],
      ['otros', '7101', 'other_income'],
    ]) {
      a[prefix + key] = randomUUID();
      await staff.post(url('/ledger/accounts', entity)).send({ id: a[prefix + key], code, name: key, type, tracking: 'balance' }).expect(201);
    }
  };
  const get = async (path: string, query: Record<string, string>, entity = entityId) => {
    const res = await staff.get(url(path, entity)).query(query);
    expect({ path, status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ path, status: 200, body: 'ok' });
    return res.body;
  };
  /** A section's accounts as [code, balance]. */
  const balances = (section: { accounts: Array<{ code: string; balance: number }>; groups: Array<{ accounts: Array<{ code: string; balance: number }> }> }) =>
    [...section.accounts, ...section.groups.flatMap((g) => g.accounts)].map((x) => [x.code, x.balance]);
  const balanceSheet = async (exerciseStart: string, cutoffDate: string, entity = entityId) => {
    const body = await get('/reports/balance-sheet', { exerciseStart, cutoffDate }, entity);
    expect(body.totals.assets).toBe(body.totals.liabilitiesAndEquity);
    return {
      assets: body.totals.assets,
      equity: balances(body.equity),
      currentPeriodResult: body.equity.currentPeriodResult,
      priorPeriodsResult: body.equity.priorPeriodsResult,
      total: body.equity.total,
    };
  };
  const incomeStatement = async (from: string, to: string, entity = entityId) => {
    const body = await get('/reports/income-statement', { from, to }, entity);
    return { income: body.income.total, operatingExpense: body.operatingExpense.total, netResult: body.netResult };
  };
  const eightColumn = async (exerciseStart: string, cutoffDate: string) => {
    const body = await get('/ledger/reports/eight-column-balance', { exerciseStart, cutoffDate });
    return {
      rows: (body.rows as Array<{ code: string | null; debit: number; credit: number }>).map((r) => [r.code, r.debit, r.credit]),
      result: body.result,
      totals: body.totals,
    };
  };
  const generalLedger = async (account: string, from: string, to: string) => {
    const body = await get('/ledger/general-ledger', { accountId: a[account], from, to, limit: '100' });
    return { openingBalance: body.openingBalance, closingBalance: body.closingBalance, lineCount: body.lineCount };
  };

  /** Every figure the reports give of the ledger, for one moment (before or after a closing). */
  const figures = async () => ({
    bs2024: await balanceSheet('2024-01-01', '2024-12-31'),
    bs2025: await balanceSheet('2025-01-01', '2025-12-31'),
    bs2026: await balanceSheet('2026-01-01', '2026-03-31'),
    is2024: await incomeStatement('2024-01-01', '2024-12-31'),
    is2025: await incomeStatement('2025-01-01', '2025-12-31'),
    isTwoYears: await incomeStatement('2024-01-01', '2025-12-31'),
    isAcross: await incomeStatement('2025-07-01', '2026-03-31'),
    is2026: await incomeStatement('2026-01-01', '2026-03-31'),
    ec2025: await eightColumn('2025-01-01', '2025-12-31'),
    glVentas2025: await generalLedger('ventas', '2025-01-01', '2025-12-31'),
    glVentas2026: await generalLedger('ventas', '2026-01-01', '2026-12-31'),
    glResultados2026: await generalLedger('resultados', '2026-01-01', '2026-12-31'),
  });

  beforeAll(async () => {
    t = await createTestApp({ clock });
    world = await buildWorld(t);
    staff = world.staff;
    entityId = (await createEntity(staff, world.organizationId)).id;
    await chart(entityId);
    await post(entityId, '2024-01-10', 'caja', 'capital', 10000);
    await post(entityId, '2024-03-15', 'arriendo', 'caja', 3000);
    await post(entityId, '2024-11-30', 'clientes', 'ventas', 1000);
    await post(entityId, '2025-02-01', 'caja', 'ventas', 8000);
    await post(entityId, '2025-07-01', 'arriendo', 'caja', 1200);
    await post(entityId, '2025-12-31', 'caja', 'ventas', 500);
    await post(entityId, '2026-02-01', 'caja', 'ventas', 100);
    await staff.patch(url('/ledger-lock-date')).send({ ledgerLockDate: '2025-12-31' }).expect(200);
  });

  afterAll(() => t?.close());

  // Figures unchanged by the closings (D90 item 4): the closed years' own reports.
  const SAME = {
    bs2024: { assets: 8000, equity: [['3101', 10000]], currentPeriodResult: -2000, priorPeriodsResult: 0, total: 8000 },
    is2024: { income: 1000, operatingExpense: 3000, netResult: -2000 },
    is2025: { income: 8500, operatingExpense: 1200, netResult: 7300 },
    isTwoYears: { income: 9500, operatingExpense: 4200, netResult: 5300 },
    // 2025-07-01..2026-03-31: F2, F3, G1 (the 2025 closing entry is inside the range: left out).
    isAcross: { income: 600, operatingExpense: 1200, netResult: -600 },
    is2026: { income: 100, operatingExpense: 0, netResult: 100 },
  };
  let before: Awaited<ReturnType<typeof figures>>;

  it('before any closing: the prior years stay in priorPeriodsResult', async () => {
    before = await figures();
    expect(before).toMatchObject({
      ...SAME,
      bs2025: { assets: 15300, equity: [['3101', 10000]], currentPeriodResult: 7300, priorPeriodsResult: -2000, total: 15300 },
      bs2026: { assets: 15400, equity: [['3101', 10000]], currentPeriodResult: 100, priorPeriodsResult: 5300, total: 15400 },
      ec2025: { result: { kind: 'profit', amount: 7300 } },
      // Ventas: -1000 before 2025, -8500 in it; -9500 before 2026, -100 in it.
      glVentas2025: { openingBalance: -1000, closingBalance: -9500, lineCount: 2 },
      glVentas2026: { openingBalance: -9500, closingBalance: -9600, lineCount: 1 },
      glResultados2026: { openingBalance: 0, closingBalance: 0, lineCount: 0 },
    });
    expect(before.ec2025.rows).toEqual([
      ['1101', 7000 + 8000 + 500, 1200],
      ['1201', 1000, 0],
      ['3101', 0, 10000],
      ['4101', 0, 8500],
      ['6101', 1200, 0],
      // 2024's result, a loss: a debit on the prior periods' row.
      [null, 2000, 0],
    ]);
  });

  it('after closing 2024 and 2025: the closed years read as before, the next year carries the results in retained earnings', async () => {
    const close = (exerciseStart: string, exerciseEnd: string) =>
      staff.post(url('/ledger/closings')).send({ id: randomUUID(), exerciseStart, exerciseEnd, retainedEarningsAccountId: a.resultados });
    expect((await close('2024-01-01', '2024-12-31')).body).toMatchObject({ result: -2000 });
    expect((await close('2025-01-01', '2025-12-31')).body).toMatchObject({ result: 7300 });
    const after = await figures();
    expect(after).toMatchObject({
      ...SAME,
      // 2025: the 2024 closing entry (before the range) counts: Resultados -2000 and no prior result;
      // the 2025 closing entry (inside it) is left out: the year still shows its own result.
      bs2025: { assets: 15300, equity: [['3101', 10000], ['3201', -2000]], currentPeriodResult: 7300, priorPeriodsResult: 0, total: 15300 },
      // 2026: both closings before the range: Resultados -2000 + 7300 = 5300, priorPeriodsResult 0.
      bs2026: { assets: 15400, equity: [['3101', 10000], ['3201', 5300]], currentPeriodResult: 100, priorPeriodsResult: 0, total: 15400 },
      // The 2025 eight-column balance: the pre-closing trial balance of 2025 (its result still 7300).
      ec2025: { result: { kind: 'profit', amount: 7300 } },
      // The ledger books list the closing entry like any entry; the openings count the closings before the range.
      glVentas2025: { openingBalance: 0, closingBalance: 0, lineCount: 3 },
      glVentas2026: { openingBalance: 0, closingBalance: -100, lineCount: 1 },
      // Debit-positive as in D55: D 2000 (2024) and C 7300 (2025).
      glResultados2026: { openingBalance: -5300, closingBalance: -5300, lineCount: 0 },
    });
    expect(after.ec2025.rows).toEqual([
      ['1101', 7000 + 8000 + 500, 1200],
      ['1201', 1000, 0],
      ['3101', 0, 10000],
      // The 2024 closing entry counts (before the range): Resultados acumulados debit 2000, no prior result row.
      ['3201', 2000, 0],
      ['4101', 0, 8500],
      ['6101', 1200, 0],
    ]);
    expect(after.ec2025.totals).toEqual(before.ec2025.totals);
  });

  it('reopen 2025, then close it again: the figures go back and forth', async () => {
    const closings = (await get('/ledger/closings', {})).closings as Array<{ id: string; exerciseEnd: string; status: string }>;
    const latest = closings.find((c) => c.exerciseEnd === '2025-12-31' && c.status === 'active')!;
    await staff.delete(url(`/ledger/closings/${latest.id}`)).expect(200);
    // 2026 now: Resultados -2000 (2024's closing), 2025's result back in priorPeriodsResult.
    expect(await balanceSheet('2026-01-01', '2026-03-31')).toEqual({ assets: 15400, equity: [['3101', 10000], ['3201', -2000]], currentPeriodResult: 100, priorPeriodsResult: 7300, total: 15400 });
    expect(await incomeStatement('2025-01-01', '2025-12-31')).toEqual(SAME.is2025);
    await staff.post(url('/ledger/closings')).send({ id: randomUUID(), exerciseStart: '2025-01-01', exerciseEnd: '2025-12-31', retainedEarningsAccountId: a.resultados }).expect(201);
    expect(await balanceSheet('2026-01-01', '2026-03-31')).toEqual({ assets: 15400, equity: [['3101', 10000], ['3201', 5300]], currentPeriodResult: 100, priorPeriodsResult: 0, total: 15400 });
  });

  it("home's monthly income leaves out a closing entry dated in its months", async () => {
    // An exercise from February 2025 to January 2026, closed on 2026-01-31 (inside home's six months).
    const other = (await createEntity(staff, world.organizationId)).id;
    await chart(other, 'h.');
    await post(other, '2025-06-10', 'h.caja', 'h.ventas', 900);
    await post(other, '2026-01-15', 'h.caja', 'h.ventas', 300);
    await post(other, '2026-01-20', 'h.arriendo', 'h.caja', 120);
    const home = async () => ((await get('/reports/home', {}, other)).monthlyIncome as Array<{ month: string }>).find((m) => m.month === '2026-01');
    const beforeHome = await home();
    expect(beforeHome).toEqual({ month: '2026-01', income: 300, expenses: 120, result: 180 });
    await staff.patch(url('/ledger-lock-date', other)).send({ ledgerLockDate: '2026-01-31' }).expect(200);
    const closing = await staff
      .post(url('/ledger/closings', other))
      .send({ id: randomUUID(), exerciseStart: '2025-02-01', exerciseEnd: '2026-01-31', retainedEarningsAccountId: a['h.resultados'] })
      .expect(201);
    expect(closing.body.result).toBe(900 + 300 - 120);
    expect(await home()).toEqual(beforeHome);
  });

  /**
   * Property: random ledgers, closings of consecutive exercises and report ranges. Every balance
   * sheet balances (assets = liabilities + equity), before and after each closing and reopening,
   * and a closed exercise's income statement is the one it had before its closing.
   */
  it('assets = liabilities + equity for any ledger, closings and range; a closed exercise reads as before its closing', async () => {
    const keys = ['caja', 'clientes', 'deuda', 'capital', 'ventas', 'costo', 'arriendo', 'otros'];
    const entry = fc.record({ day: fc.integer({ min: 0, max: 1094 }), debit: fc.constantFrom(...keys), credit: fc.constantFrom(...keys), amount: fc.integer({ min: 1, max: 100_000 }) });
    const range = fc.record({ start: fc.integer({ min: 0, max: 1250 }), days: fc.integer({ min: 0, max: 800 }) });
    // Exercise boundaries: the last day of some month (offsets into 2023-2025), sorted, distinct.
    const ends = fc.uniqueArray(fc.integer({ min: 1, max: 36 }), { minLength: 1, maxLength: 3 }).map((xs) => [...xs].sort((x, y) => x - y));
    const dayOf = (offset: number) => new Date(Date.UTC(2023, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);
    const monthEnd = (months: number) => new Date(Date.UTC(2023, months, 0)).toISOString().slice(0, 10);
    const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 12 }), ends, fc.array(range, { minLength: 2, maxLength: 4 }), fc.boolean(), async (entries, exerciseEnds, ranges, reopen) => {
        const entity = (await createEntity(staff, world.organizationId)).id;
        const prefix = `${entity}.`;
        await chart(entity, prefix);
        for (const e of entries) {
          if (e.debit === e.credit) continue;
          await post(entity, dayOf(e.day), prefix + e.debit, prefix + e.credit, e.amount);
        }
        const checkRanges = async () => {
          for (const r of ranges) {
            const start = dayOf(r.start);
            const cutoff = dayOf(Math.min(r.start + r.days, 1260));
            const res = await staff.get(url('/reports/balance-sheet', entity)).query({ exerciseStart: start, cutoffDate: cutoff });
            expect(res.status).toBe(200);
            expect({ start, cutoff, assets: res.body.totals.assets }).toEqual({ start, cutoff, assets: res.body.totals.liabilitiesAndEquity });
          }
        };
        await checkRanges();
        let exerciseStart = '2023-01-01';
        const closed: Array<{ id: string; from: string; to: string; statement: unknown }> = [];
        for (const months of exerciseEnds) {
          const exerciseEnd = monthEnd(months);
          const statement = await get('/reports/income-statement', { from: exerciseStart, to: exerciseEnd }, entity);
          await staff.patch(url('/ledger-lock-date', entity)).send({ ledgerLockDate: exerciseEnd }).expect(200);
          const res = await staff
            .post(url('/ledger/closings', entity))
            .send({ id: randomUUID(), exerciseStart, exerciseEnd, retainedEarningsAccountId: a[`${prefix}resultados`] });
          expect(res.status).toBe(201);
          expect(res.body.result).toBe(statement.netResult);
          closed.push({ id: res.body.id, from: exerciseStart, to: exerciseEnd, statement });
          await checkRanges();
          exerciseStart = nextDay(exerciseEnd);
        }
        for (const c of closed) expect(await get('/reports/income-statement', { from: c.from, to: c.to }, entity)).toEqual(c.statement);
        if (reopen) {
          await staff.delete(url(`/ledger/closings/${closed[closed.length - 1].id}`, entity)).expect(200);
          await checkRanges();
          for (const c of closed) expect(await get('/reports/income-statement', { from: c.from, to: c.to }, entity)).toEqual(c.statement);
        }
      }),
      { numRuns: Number(process.env.CLOSINGS_PROPERTY_RUNS ?? 6) },
    );
  }, 600_000);
});
