/**
 * Month-by-month workflows of one Entity each, checking after every step the invariants an
 * accountant relies on (D50-D57), through the API only (plus the stored monthly totals):
 * the balance sheet balances, the income statement's net result is the balance sheet's current
 * period result, the eight-column balance's four identities, debits equal credits, each
 * account's general-ledger closing balance is its statement figure, the partner ledger sums to
 * the open-item account, open amounts are never negative and equal amount minus allocations,
 * and the journal lists exactly the live lines.
 */
import type { TestApp } from './harness/test-app';
import { expectMonthlyTotalsMatchLines } from './harness/db-checks';
import { createWorldApp, freshEntity, type Agent, type World } from './harness/world';
import { buildChart, createAccount, createPartner, cr, dr, expectError, freshRut, MovableClock, post, uuid, type Chart, type Line } from './blackbox/bb-helpers';

interface AccountRow {
  accountId: string;
  balance: number;
}
interface Section {
  total: number;
  groups: Section[];
  accounts: AccountRow[];
}
interface Account {
  id: string;
  code: string;
  type: string;
  tracking: string;
}

/** A response body read as loosely as JSON.parse answers it (the report shapes are checked by value). */
type Json = ReturnType<typeof JSON.parse>;

const RESULT_TYPES = ['income', 'cost_of_goods_sold', 'operating_expense', 'other_income', 'other_expense'];
const CREDIT_NORMAL = ['liability', 'equity', 'income', 'other_income'];
const EIGHT_COLUMNS = ['debit', 'credit', 'debtorBalance', 'creditorBalance', 'asset', 'liability', 'loss', 'profit'] as const;

function rowsOf(section: Section): AccountRow[] {
  const out = [...section.accounts];
  for (const g of section.groups) out.push(...rowsOf(g));
  return out;
}
/** A section's total is the sum of its accounts, and each group's total the sum of its own. */
function expectSectionAddsUp(section: Section): void {
  const sum = section.accounts.reduce((s, a) => s + a.balance, 0) + section.groups.reduce((s, g) => s + g.total, 0);
  expect(sum).toBe(section.total);
  section.groups.forEach(expectSectionAddsUp);
}

export interface Ctx {
  agent: Agent;
  t: TestApp;
  entityId: string;
}
export interface Range {
  exerciseStart: string;
  cutoff: string;
  bookId?: string;
  presentation?: { currency: string; rate: string };
}

async function getOk(agent: Agent, path: string, query: Record<string, unknown>): Promise<Json> {
  const res = await agent.get(path).query(query);
  if (res.status !== 200) throw new Error(`GET ${path} ${JSON.stringify(query)}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Every invariant of the ledger of one Book (or the Entity without Books) for one exercise. */
async function checkLedger(ctx: Ctx, r: Range): Promise<void> {
  const { agent, entityId } = ctx;
  const base = `/api/entities/${entityId}`;
  const book = r.bookId ? { bookId: r.bookId } : {};
  const pres = r.presentation ? { presentationCurrency: r.presentation.currency, presentationRate: r.presentation.rate } : {};

  // Balance sheet balances; income statement net result = current period result.
  const bs = await getOk(agent, `${base}/reports/balance-sheet`, { exerciseStart: r.exerciseStart, cutoffDate: r.cutoff, ...book, ...pres });
  const is = await getOk(agent, `${base}/reports/income-statement`, { from: r.exerciseStart, to: r.cutoff, ...book, ...pres });
  expect(bs.totals.assets).toBe(bs.totals.liabilitiesAndEquity);
  expect(bs.assets.total).toBe(bs.totals.assets);
  expect(bs.liabilities.total + bs.equity.total).toBe(bs.totals.liabilitiesAndEquity);
  expectSectionAddsUp(bs.assets);
  expectSectionAddsUp(bs.liabilities);
  const equityAccounts = bs.equity.accounts.reduce((s: number, a: AccountRow) => s + a.balance, 0) + bs.equity.groups.reduce((s: number, g: Section) => s + g.total, 0);
  expect(equityAccounts + bs.equity.currentPeriodResult + bs.equity.priorPeriodsResult + (bs.equity.presentationRoundingDifference ?? 0)).toBe(bs.equity.total);
  expect(bs.equity.currentPeriodResult).toBe(is.netResult);
  expect(is.grossProfit).toBe(is.income.total - is.costOfGoodsSold.total);
  expect(is.operatingResult).toBe(is.grossProfit - is.operatingExpense.total);
  expect(is.netResult).toBe(is.operatingResult + is.otherIncome.total - is.otherExpense.total);

  // Eight-column balance: its four identities, subtotals the sums, result = net result.
  const eight = await getOk(agent, `${base}/ledger/reports/eight-column-balance`, { exerciseStart: r.exerciseStart, cutoffDate: r.cutoff, ...book, ...pres });
  for (const col of EIGHT_COLUMNS) expect(eight.rows.reduce((s: number, row: Json) => s + row[col], 0)).toBe(eight.subtotals[col]);
  expect(eight.totals.debit).toBe(eight.totals.credit);
  expect(eight.totals.debtorBalance).toBe(eight.totals.creditorBalance);
  expect(eight.totals.asset).toBe(eight.totals.liability);
  expect(eight.totals.loss).toBe(eight.totals.profit);
  expect(eight.subtotals.debit).toBe(eight.subtotals.credit); // trial balance: debits = credits
  const signedResult = eight.result.kind === 'profit' ? eight.result.amount : -eight.result.amount;
  if (!r.presentation) expect(signedResult).toBe(is.netResult);
  if (r.presentation) return; // the rest reads booked (functional) amounts

  // Every account: general ledger closing balance = its statement figure = its eight-column row.
  const accounts: Account[] = await getOk(agent, `${base}/ledger/accounts`, {});
  const isRows = [...rowsOf(is.income), ...rowsOf(is.costOfGoodsSold), ...rowsOf(is.operatingExpense), ...rowsOf(is.otherIncome), ...rowsOf(is.otherExpense)];
  const bsRows = [...rowsOf(bs.assets), ...rowsOf(bs.liabilities), ...rowsOf(bs.equity)];
  for (const a of accounts) {
    const isResult = RESULT_TYPES.includes(a.type);
    const gl = await getOk(agent, `${base}/ledger/general-ledger`, { accountId: a.id, ...(isResult ? { from: r.exerciseStart } : {}), to: r.cutoff, limit: 100, ...book });
    const raw = gl.closingBalance - gl.openingBalance;
    const normal = (CREDIT_NORMAL.includes(a.type) ? -raw : raw) || 0;
    const shown = (isResult ? isRows : bsRows).find((row) => row.accountId === a.id)?.balance ?? 0;
    expect({ account: a.code, figure: shown }).toEqual({ account: a.code, figure: normal });
    const row = eight.rows.find((x: Json) => x.accountId === a.id);
    expect({ account: a.code, eight: row ? row.debit - row.credit : 0 }).toEqual({ account: a.code, eight: raw });
    // Walk every page: the running balance continues from the opening balance to the closing one.
    let running = gl.openingBalance;
    let count = 0;
    let page = gl;
    for (;;) {
      for (const line of page.lines) {
        running += line.side === 'debit' ? line.amount : -line.amount;
        expect(line.runningBalance).toBe(running);
        count++;
      }
      if (page.nextCursor === null) break;
      page = await getOk(agent, `${base}/ledger/general-ledger`, { accountId: a.id, ...(isResult ? { from: r.exerciseStart } : {}), to: r.cutoff, limit: 100, cursor: page.nextCursor, ...book });
    }
    expect({ account: a.code, running, count }).toEqual({ account: a.code, running: gl.closingBalance, count: gl.lineCount });

    if (a.tracking === 'open_item') {
      // Partner ledger closing balances (with the unassigned group) sum to the account's balance.
      const pl = await getOk(agent, `${base}/ledger/partner-ledger`, { accountId: a.id, from: r.exerciseStart, to: r.cutoff, includeUnassigned: true, ...book });
      const sum = pl.partners.reduce((s: number, p: Json) => s + p.closingBalance, 0);
      for (const p of pl.partners) {
        let bal = p.openingBalance;
        for (const line of p.lines) {
          bal += line.side === 'debit' ? line.amount : -line.amount;
          expect(line.runningBalance).toBe(bal);
          expect(line.openAmount === null || line.openAmount >= 0).toBe(true);
        }
        expect({ partner: p.partnerName, closing: p.closingBalance }).toEqual({ partner: p.partnerName, closing: bal });
      }
      const glAll = await getOk(agent, `${base}/ledger/general-ledger`, { accountId: a.id, to: r.cutoff, limit: 1, ...book });
      expect({ account: a.code, partnerLedger: sum }).toEqual({ account: a.code, partnerLedger: glAll.closingBalance });
      // Open amounts: never negative, amount minus its allocations; openTotal their signed sum.
      const oi = await getOk(agent, `${base}/ledger/open-item-lines`, { accountId: a.id, includeSettled: true, limit: 100, ...book });
      expect(oi.nextCursor).toBeNull();
      let signedOpen = 0;
      for (const line of oi.lines) {
        expect(line.openAmount).toBeGreaterThanOrEqual(0);
        const allocs = await getOk(agent, `${base}/ledger/allocations`, { lineId: line.id });
        const allocated = allocs.reduce((s: number, x: Json) => s + x.amount, 0);
        expect({ line: line.id, open: line.openAmount }).toEqual({ line: line.id, open: line.amount - allocated });
        signedOpen += line.side === 'debit' ? line.openAmount : -line.openAmount;
      }
      const unsettled = await getOk(agent, `${base}/ledger/open-item-lines`, { accountId: a.id, limit: 100, ...book });
      expect(unsettled.openTotal).toBe(signedOpen);
      expect(unsettled.lines.every((l: Json) => l.openAmount > 0)).toBe(true);
    }
  }

  // Partner pages: each partner's open receivable / payable balance is the sum of its open items (in this Book).
  const openBy = new Map<string, { receivable: number; payable: number }>();
  for (const a of accounts.filter((x) => x.tracking === 'open_item')) {
    const oi = await getOk(agent, `${base}/ledger/open-item-lines`, { accountId: a.id, limit: 100, ...book });
    for (const line of oi.lines) {
      if (!line.partnerId) continue;
      const agg = openBy.get(line.partnerId) ?? { receivable: 0, payable: 0 };
      const signed = line.side === 'debit' ? line.openAmount : -line.openAmount;
      if (a.type === 'asset') agg.receivable += signed;
      else agg.payable -= signed;
      openBy.set(line.partnerId, agg);
    }
  }
  const partnerPage = await getOk(agent, `${base}/partners/pages`, { limit: 100, ...book });
  for (const p of partnerPage.rows) {
    const want = openBy.get(p.id) ?? { receivable: 0, payable: 0 };
    expect({ partner: p.name, receivable: p.receivableOpenBalance, payable: p.payableOpenBalance }).toEqual({ partner: p.name, receivable: want.receivable || 0, payable: want.payable || 0 });
  }

  // Journal lists exactly the live lines (of this Book and the common entries).
  const journal: Json[] = [];
  let cursor: string | null = null;
  do {
    const page: Json = await getOk(agent, `${base}/reports/journal`, { limit: 100, ...(cursor ? { cursor } : {}), ...book });
    journal.push(...page.rows);
    cursor = page.nextCursor;
  } while (cursor);
  const lines: Json[] = await getOk(agent, `${base}/ledger/lines`, {});
  const live = lines.filter((l) => !r.bookId || l.bookId === null || l.bookId === r.bookId);
  expect(journal.map((j) => j.lineId).sort()).toEqual(live.map((l) => l.id).sort());
  expect(journal.every((j) => j.status === 'active' || j.status === 'reversed')).toBe(true);
  expect(journal.reduce((s, j) => s + (j.side === 'debit' ? j.amount : -j.amount), 0)).toBe(0);

  await expectMonthlyTotalsMatchLines(ctx.t, entityId);
}

/** Ledger-wide invariants for every Book of the Entity (or once without Books). */
async function checkAll(ctx: Ctx, exerciseStart: string, cutoff: string, bookIds: string[] = []): Promise<void> {
  if (bookIds.length === 0) await checkLedger(ctx, { exerciseStart, cutoff });
  for (const bookId of bookIds) await checkLedger(ctx, { exerciseStart, cutoff, bookId });
}

function figure(section: Section, accountId: string): number {
  return rowsOf(section).find((a) => a.accountId === accountId)?.balance ?? 0;
}

// Each story is hundreds of requests with every report checked after each month: its time grows
// with the story, not with a fault (a story nears 50 s on a loaded 2-core machine).
jest.setTimeout(120_000);

describe('workflows: month-by-month stories of one Entity', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  const clock = new MovableClock();

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock }));
  });
  afterAll(() => t.close());

  async function setup(): Promise<{ ctx: Ctx; c: Chart; base: string; vat: string; alfa: string; beta: string }> {
    const entityId = await freshEntity(world);
    const c = await buildChart(staff, entityId);
    const vat = await createAccount(staff, entityId, { code: '2102', type: 'liability', name: 'VAT payable' });
    const alfa = await createPartner(staff, entityId, 'Alfa Ltda', freshRut());
    const beta = await createPartner(staff, entityId, 'Beta SpA', freshRut());
    return { ctx: { agent: staff, t, entityId }, c, base: `/api/entities/${entityId}`, vat, alfa, beta };
  }

  it('story 1: credit sales with VAT, collections, a reversal of an allocated invoice, unbooking it, month-end lock and a correction after it', async () => {
    const { ctx, c, base, vat, alfa, beta } = await setup();
    const check = (cutoff: string) => checkAll(ctx, '2026-01-01', cutoff);
    const saleLines = (partnerId: string, net: number): Line[] => [
      dr(c.receivable, Math.round(net * 1.19), { partnerId }),
      cr(c.sales, net),
      cr(vat, Math.round(net * 0.19)),
    ];

    clock.setToday('2026-01-31');
    await post(staff, ctx.entityId, '2026-01-02', [dr(c.bank, 1_000_000), cr(c.capital, 1_000_000)]);
    await check('2026-01-31');
    const invA = await post(staff, ctx.entityId, '2026-01-10', saleLines(alfa, 100_000));
    await check('2026-01-31');
    const invB = await post(staff, ctx.entityId, '2026-01-12', saleLines(beta, 200_000));
    await check('2026-01-31');
    const collA = await post(staff, ctx.entityId, '2026-01-20', [dr(c.bank, 50_000), cr(c.receivable, 50_000, { partnerId: alfa })]);
    const allocA = uuid();
    const a1 = await staff.post(`${base}/ledger/allocations`).send({ id: allocA, debitLineId: invA.lines[0].id, creditLineId: collA.lines[1].id, amount: 50_000 });
    expect(a1.status).toBe(201);
    await check('2026-01-31');

    clock.setToday('2026-02-28');
    const collB = await post(staff, ctx.entityId, '2026-02-03', [dr(c.bank, 200_000), cr(c.receivable, 200_000, { partnerId: beta })]);
    const m = await staff.post(`${base}/ledger/allocations/match`).send({ lineIds: [invB.lines[0].id, collB.lines[1].id] });
    expect(m.status).toBe(201);
    expect(m.body.settledLines).toEqual([collB.lines[1].id]);
    expect(m.body.openTotal).toBe(38_000);
    await check('2026-02-28');

    // Reverse invoice A, which carries the allocation of the collection.
    const rev = await staff.post(`${base}/ledger/entries/${invA.id}/reverse`).send({ id: uuid(), reversalDate: '2026-02-10' });
    expect(rev.status).toBe(201);
    expect(rev.body.reversedEntry.status).toBe('reversed');
    expect(rev.body.reversalEntry.bookId).toBeNull();
    const afterRev = (await staff.get(`${base}/ledger/entries/${invA.id}`).expect(200)).body;
    expect(afterRev.lines[0].openAmount).toBe(0); // netted by its mirror
    const collAfter = (await staff.get(`${base}/ledger/entries/${collA.id}`).expect(200)).body;
    expect(collAfter.lines[1].openAmount).toBe(50_000); // the allocation is gone: collected cash open again
    expect((await staff.get(`${base}/ledger/allocations`).query({ lineId: collA.lines[1].id }).expect(200)).body).toEqual([]);
    await check('2026-02-28');
    let is = await getOk(staff, `${base}/reports/income-statement`, { from: '2026-01-01', to: '2026-02-28' });
    expect(is.income.total).toBe(200_000);

    // Unbooking the reversal puts the original back to active, open for its whole amount.
    const unbook = await staff.delete(`${base}/ledger/entries/${rev.body.reversalEntry.id}`);
    expect(unbook.status).toBe(200);
    expect(unbook.body.settledChainEntries.map((e: Json) => e.id)).toEqual([invA.id]);
    const restored = (await staff.get(`${base}/ledger/entries/${invA.id}`).expect(200)).body;
    expect(restored.status).toBe('active');
    expect(restored.reversedByEntryId).toBeNull();
    await check('2026-02-28');
    is = await getOk(staff, `${base}/reports/income-statement`, { from: '2026-01-01', to: '2026-02-28' });
    expect(is.income.total).toBe(300_000);
    // Re-allocate the collection to invoice A.
    const m2 = await staff.post(`${base}/ledger/allocations/match`).send({ lineIds: [invA.lines[0].id, collA.lines[1].id] });
    expect(m2.status).toBe(201);
    expect(m2.body.openTotal).toBe(119_000 - 50_000);
    await check('2026-02-28');

    // Month end: lock February.
    clock.setToday('2026-03-05');
    await staff.patch(`${base}/ledger-lock-date`).send({ ledgerLockDate: '2026-02-28' }).expect(200);
    await check('2026-03-05');
    const locked = await staff.post(`${base}/ledger/entries`).send({ id: uuid(), entryDate: '2026-02-27', memo: 'late', newLedgerEntryLines: [dr(c.bank, 1), cr(c.sales, 1)] });
    expectError(locked, 409, 'LEDGER_PERIOD_LOCKED_ERROR');
    expectError(await staff.post(`${base}/ledger/entries/${invB.id}/reverse`).send({ id: uuid(), reversalDate: '2026-02-20' }), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
    expectError(await staff.delete(`${base}/ledger/entries/${collB.id}`), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
    expectError(await staff.patch(`${base}/ledger/entries/${invB.id}`).send({ memo: 'edited' }), 409, 'LEDGER_PERIOD_LOCKED_ERROR');

    // The correction after the lock: a credit note to Beta dated in March, netted against its open VAT.
    const note = await post(staff, ctx.entityId, '2026-03-02', [dr(c.sales, 10_000), dr(vat, 1_900), cr(c.receivable, 11_900, { partnerId: beta })]);
    const m3 = await staff.post(`${base}/ledger/allocations/match`).send({ lineIds: [invB.lines[0].id, note.lines[2].id] });
    expect(m3.status).toBe(201);
    await check('2026-03-05');
    // February's figures did not move; March's did.
    const feb = await getOk(staff, `${base}/reports/balance-sheet`, { exerciseStart: '2026-01-01', cutoffDate: '2026-02-28' });
    expect(feb.equity.currentPeriodResult).toBe(300_000);
    const mar = await getOk(staff, `${base}/reports/balance-sheet`, { exerciseStart: '2026-01-01', cutoffDate: '2026-03-31' });
    expect(mar.equity.currentPeriodResult).toBe(290_000);
    expect(figure(mar.assets, c.receivable)).toBe(119_000 - 50_000 + 238_000 - 200_000 - 11_900);
    await checkAll(ctx, '2026-01-01', '2026-03-31');
  });

  it('story 2: monthly rent scheduled ahead, booked as the clock advances, one cancelled, one replaced, the lock date refused over a scheduled entry', async () => {
    const { ctx, c, base } = await setup();
    const landlord = await createPartner(staff, ctx.entityId, 'Landlord SA', freshRut());
    const check = (cutoff: string) => checkAll(ctx, '2026-01-01', cutoff);
    clock.setToday('2026-03-01');
    await post(staff, ctx.entityId, '2026-03-01', [dr(c.bank, 5_000_000), cr(c.capital, 5_000_000)]);
    const rent = (date: string) => ({ id: uuid(), entryDate: date, memo: `Rent ${date}`, newLedgerEntryLines: [dr(c.opex, 500_000), cr(c.payable, 500_000, { partnerId: landlord })] });
    const scheduled: Record<string, Json> = {};
    for (const date of ['2026-04-01', '2026-05-01', '2026-06-01', '2026-07-01']) {
      const res = await staff.post(`${base}/ledger/scheduled-entries`).send(rent(date));
      expect(res.status).toBe(201);
      expect(res.body.status).toBe('scheduled');
      scheduled[date] = res.body;
    }
    // Scheduled entries count in no report, even one cut off after their dates.
    await check('2026-03-01');
    await check('2026-12-31');
    let bs = await getOk(staff, `${base}/reports/balance-sheet`, { exerciseStart: '2026-01-01', cutoffDate: '2026-12-31' });
    expect(bs.equity.currentPeriodResult).toBe(0);
    expectError(await staff.post(`${base}/ledger/scheduled-entries/${scheduled['2026-04-01'].id}/book`), 409, 'LEDGER_SCHEDULED_ENTRY_NOT_DUE_ERROR');
    expectError(await staff.patch(`${base}/ledger-lock-date`).send({ ledgerLockDate: '2026-04-15' }), 409, 'ENTITY_LOCK_DATE_OVER_SCHEDULED_ENTRY_ERROR');
    expectError(await staff.patch(`${base}/ledger-lock-date`).send({ ledgerLockDate: '2026-04-01' }), 409, 'ENTITY_LOCK_DATE_OVER_SCHEDULED_ENTRY_ERROR');

    clock.setToday('2026-04-02');
    const b1 = await staff.post(`${base}/ledger/scheduled-entries/${scheduled['2026-04-01'].id}/book`);
    expect(b1.status).toBe(200);
    expect(b1.body.status).toBe('active');
    await check('2026-04-30');
    // June's rent is cancelled (the office moves), July's replaced by a split line set.
    const cancel = await staff.delete(`${base}/ledger/scheduled-entries/${scheduled['2026-06-01'].id}`);
    expect(cancel.status).toBe(200);
    expect(cancel.body.status).toBe('cancelled');
    const patched = await staff.patch(`${base}/ledger/scheduled-entries/${scheduled['2026-07-01'].id}`).send({
      entryDate: '2026-07-01',
      memo: 'Rent July, new office',
      newLedgerEntryLines: [dr(c.opex, 450_000), dr(c.otherExpense, 70_000), cr(c.payable, 520_000, { partnerId: landlord })],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.lines).toHaveLength(3);
    await check('2026-12-31');
    const schedLines = (await getOk(staff, `${base}/ledger/lines`, { status: 'scheduled' })) as Json[];
    expect(schedLines.map((l) => l.amount).sort()).toEqual([500_000, 500_000, 450_000, 70_000, 520_000].sort()); // May and the replaced July

    clock.setToday('2026-05-03');
    await staff.post(`${base}/ledger/scheduled-entries/${scheduled['2026-05-01'].id}/book`).expect(200);
    await check('2026-05-31');
    // Lock April: allowed now (May is booked, June cancelled, July ahead).
    await staff.patch(`${base}/ledger-lock-date`).send({ ledgerLockDate: '2026-04-30' }).expect(200);
    expectError(await staff.patch(`${base}/ledger-lock-date`).send({ ledgerLockDate: '2026-07-01' }), 409, 'ENTITY_LOCK_DATE_OVER_SCHEDULED_ENTRY_ERROR');
    await check('2026-05-31');
    // A scheduled entry cannot be moved into the locked period.
    expectError(
      await staff.patch(`${base}/ledger/scheduled-entries/${scheduled['2026-07-01'].id}`).send({ entryDate: '2026-05-02', memo: 'x', newLedgerEntryLines: [dr(c.opex, 1), cr(c.payable, 1)] }),
      409,
      'LEDGER_SCHEDULED_ENTRY_DATE_NOT_FUTURE_ERROR',
    );
    // Into the locked period: both refusals apply; the lock date is judged first (docs/DECISIONS.md order).
    expectError(
      await staff.patch(`${base}/ledger/scheduled-entries/${scheduled['2026-07-01'].id}`).send({ entryDate: '2026-04-20', memo: 'x', newLedgerEntryLines: [dr(c.opex, 1), cr(c.payable, 1)] }),
      409,
      'LEDGER_PERIOD_LOCKED_ERROR',
    );

    clock.setToday('2026-07-02');
    const b3 = await staff.post(`${base}/ledger/scheduled-entries/${scheduled['2026-07-01'].id}/book`);
    expect(b3.status).toBe(200);
    await check('2026-07-31');
    bs = await getOk(staff, `${base}/reports/balance-sheet`, { exerciseStart: '2026-01-01', cutoffDate: '2026-07-31' });
    expect(bs.equity.currentPeriodResult).toBe(-(500_000 * 2 + 520_000));
    expect(figure(bs.liabilities, c.payable)).toBe(1_520_000);
    // Pay the landlord everything: the payable settles.
    clock.setToday('2026-07-05');
    const pay = await post(staff, ctx.entityId, '2026-07-05', [dr(c.payable, 1_520_000, { partnerId: landlord }), cr(c.bank, 1_520_000)]);
    const payables = (await getOk(staff, `${base}/ledger/open-item-lines`, { accountId: c.payable })).lines.map((l: Json) => l.id);
    const m = await staff.post(`${base}/ledger/allocations/match`).send({ lineIds: payables });
    expect(m.status).toBe(201);
    expect(m.body.openTotal).toBe(0);
    expect(m.body.settledLines).toContain(pay.lines[0].id);
    await check('2026-07-31');
    // The cancelled entry's lines are in no report and no journal.
    const cancelledLines = (await getOk(staff, `${base}/ledger/lines`, { status: 'cancelled' })) as Json[];
    expect(cancelledLines).toHaveLength(2);
  });

  it('story 3: two Books and common entries, reports per Book, a reversal in its Book, allocations within one Book', async () => {
    const { ctx, c, base, vat, alfa } = await setup();
    clock.setToday('2026-02-15');
    // A common entry posted before Json Book exists counts in every Book once there are some.
    await post(staff, ctx.entityId, '2026-01-02', [dr(c.bank, 2_000_000), cr(c.capital, 2_000_000)]);
    await checkAll(ctx, '2026-01-01', '2026-02-15');
    const ifrs = uuid();
    const tax = uuid();
    await staff.post(`${base}/books`).send({ id: ifrs, name: 'IFRS' }).expect(201);
    await staff.post(`${base}/books`).send({ id: tax, name: 'TAX' }).expect(201);
    const books = [ifrs, tax];
    for (const path of ['/reports/balance-sheet', '/ledger/reports/eight-column-balance']) {
      expectError(await staff.get(`${base}${path}`).query({ exerciseStart: '2026-01-01', cutoffDate: '2026-02-15' }), 409, 'BOOK_REQUIRED_ERROR');
    }
    expectError(await staff.get(`${base}/reports/income-statement`).query({ from: '2026-01-01', to: '2026-02-15' }), 409, 'BOOK_REQUIRED_ERROR');
    expectError(await staff.get(`${base}/reports/journal`), 409, 'BOOK_REQUIRED_ERROR');
    expectError(await staff.get(`${base}/ledger/general-ledger`).query({ accountId: c.bank }), 409, 'BOOK_REQUIRED_ERROR');
    expectError(await staff.get(`${base}/ledger/open-item-lines`).query({ accountId: c.receivable }), 409, 'BOOK_REQUIRED_ERROR');
    await checkAll(ctx, '2026-01-01', '2026-02-15', books);

    // A common sale and its common collection.
    const sale = await post(staff, ctx.entityId, '2026-01-15', [dr(c.receivable, 595_000, { partnerId: alfa }), cr(c.sales, 500_000), cr(vat, 95_000)]);
    await checkAll(ctx, '2026-01-01', '2026-02-15', books);
    // IFRS: a provision the tax books do not know. TAX: an accelerated depreciation-like charge.
    const prov = await post(staff, ctx.entityId, '2026-01-31', [dr(c.opex, 80_000), cr(c.payable, 80_000, { partnerId: alfa })], { bookId: ifrs });
    const taxAdj = await post(staff, ctx.entityId, '2026-01-31', [dr(c.otherExpense, 30_000), cr(c.payable, 30_000, { partnerId: alfa })], { bookId: tax });
    expect(prov.bookId).toBe(ifrs);
    await checkAll(ctx, '2026-01-01', '2026-02-15', books);
    const isIfrs = await getOk(staff, `${base}/reports/income-statement`, { from: '2026-01-01', to: '2026-02-15', bookId: ifrs });
    const isTax = await getOk(staff, `${base}/reports/income-statement`, { from: '2026-01-01', to: '2026-02-15', bookId: tax });
    expect(isIfrs.netResult).toBe(500_000 - 80_000);
    expect(isTax.netResult).toBe(500_000 - 30_000);

    // Allocations only within one Book: an IFRS line against a TAX line, or a common line against an IFRS line.
    const refund = await post(staff, ctx.entityId, '2026-02-01', [dr(c.payable, 30_000, { partnerId: alfa }), cr(c.bank, 30_000)], { bookId: ifrs });
    expectError(
      await staff.post(`${base}/ledger/allocations`).send({ id: uuid(), debitLineId: refund.lines[0].id, creditLineId: taxAdj.lines[1].id, amount: 30_000 }),
      409,
      'RECONCILIATION_ALLOCATION_LINES_IN_DIFFERENT_BOOKS_ERROR',
    );
    expectError(await staff.post(`${base}/ledger/allocations/match`).send({ lineIds: [refund.lines[0].id, taxAdj.lines[1].id] }), 409, 'RECONCILIATION_MATCH_LINES_IN_DIFFERENT_BOOKS_ERROR');
    const commonCollection = await post(staff, ctx.entityId, '2026-02-05', [dr(c.bank, 300_000), cr(c.receivable, 300_000, { partnerId: alfa })]);
    const ifrsReceivable = await post(staff, ctx.entityId, '2026-02-06', [dr(c.receivable, 10_000, { partnerId: alfa }), cr(c.otherIncome, 10_000)], { bookId: ifrs });
    expectError(
      await staff.post(`${base}/ledger/allocations`).send({ id: uuid(), debitLineId: ifrsReceivable.lines[0].id, creditLineId: commonCollection.lines[1].id, amount: 10_000 }),
      409,
      'RECONCILIATION_ALLOCATION_LINES_IN_DIFFERENT_BOOKS_ERROR',
    );
    await staff.post(`${base}/ledger/allocations/match`).send({ lineIds: [sale.lines[0].id, commonCollection.lines[1].id] }).expect(201);
    await staff.post(`${base}/ledger/allocations/match`).send({ lineIds: [refund.lines[0].id, prov.lines[1].id] }).expect(201);
    await checkAll(ctx, '2026-01-01', '2026-02-15', books);

    // Reversing the IFRS provision (which carries an allocation): the reversal stays in IFRS.
    const rev = await staff.post(`${base}/ledger/entries/${prov.id}/reverse`).send({ id: uuid(), reversalDate: '2026-02-10' });
    expect(rev.status).toBe(201);
    expect(rev.body.reversalEntry.bookId).toBe(ifrs);
    await checkAll(ctx, '2026-01-01', '2026-02-15', books);
    const isIfrs2 = await getOk(staff, `${base}/reports/income-statement`, { from: '2026-01-01', to: '2026-02-15', bookId: ifrs });
    expect(isIfrs2.netResult).toBe(500_000 + 10_000);
    const isTax2 = await getOk(staff, `${base}/reports/income-statement`, { from: '2026-01-01', to: '2026-02-15', bookId: tax });
    expect(isTax2.netResult).toBe(500_000 - 30_000);
    // A scheduled IFRS accrual: replaced, then booked in its Book when due.
    const sched = await staff.post(`${base}/ledger/scheduled-entries`).send({ id: uuid(), bookId: ifrs, entryDate: '2026-03-01', memo: 'IFRS accrual', newLedgerEntryLines: [dr(c.opex, 5_000), cr(c.payable, 5_000, { partnerId: alfa })] });
    expect(sched.status).toBe(201);
    const replaced = await staff.patch(`${base}/ledger/scheduled-entries/${sched.body.id}`).send({ entryDate: '2026-03-02', memo: 'IFRS accrual', newLedgerEntryLines: [dr(c.opex, 6_000), cr(c.payable, 6_000, { partnerId: alfa })] });
    expect(replaced.status).toBe(200);
    expect(replaced.body.bookId).toBe(ifrs);
    await checkAll(ctx, '2026-01-01', '2026-03-31', books);
    clock.setToday('2026-03-05');
    const booked = await staff.post(`${base}/ledger/scheduled-entries/${sched.body.id}/book`);
    expect(booked.status).toBe(200);
    expect(booked.body.bookId).toBe(ifrs);
    await checkAll(ctx, '2026-01-01', '2026-03-31', books);
    // A TAX entry moved to another month, an IFRS line moved to another account.
    await staff.patch(`${base}/ledger/entries/${taxAdj.id}`).send({ entryDate: '2026-02-20' }).expect(200);
    await staff.patch(`${base}/ledger/lines/${ifrsReceivable.lines[1].id}/account`).send({ ledgerAccountId: c.sales }).expect(200);
    await checkAll(ctx, '2026-01-01', '2026-03-31', books);
    await checkAll(ctx, '2026-01-01', '2026-01-31', books);
    // Unbooking the common collection allocated to the common sale: open in both Books again.
    await staff.delete(`${base}/ledger/entries/${commonCollection.id}`).expect(200);
    await checkAll(ctx, '2026-01-01', '2026-03-31', books);

    // The TAX partner ledger never sees the IFRS lines.
    const plTax = await getOk(staff, `${base}/ledger/partner-ledger`, { accountId: c.payable, from: '2026-01-01', to: '2026-03-31', bookId: tax });
    expect(plTax.partners.map((p: Json) => p.closingBalance)).toEqual([-30_000]);
  });

  it('story 4: line corrections after posting (account, dimension values, partner) followed by every report, then blocked by the lock date', async () => {
    const { ctx, c, base, vat, alfa, beta } = await setup();
    const dimensionId = uuid();
    await staff.post(`${base}/dimensions`).send({ id: dimensionId, name: 'Zona' }).expect(201);
    const norte = uuid();
    const sur = uuid();
    await staff.post(`${base}/dimensions/${dimensionId}/values`).send({ id: norte, code: 'N', name: 'Norte' }).expect(201);
    await staff.post(`${base}/dimensions/${dimensionId}/values`).send({ id: sur, code: 'S', name: 'Sur' }).expect(201);
    const byDimension = async (to: string) => {
      const body = await getOk(staff, `${base}/reports/income-statement-by-dimension`, { dimensionId, from: '2026-01-01', to });
      const is = await getOk(staff, `${base}/reports/income-statement`, { from: '2026-01-01', to });
      const columns = Object.fromEntries(body.columns.map((col: Json) => [col.code, col.statement.netResult]));
      expect(body.columns.reduce((s: number, col: Json) => s + col.statement.netResult, 0) + body.unassigned.netResult).toBe(is.netResult);
      return { ...columns, unassigned: body.unassigned.netResult };
    };
    const check = async (cutoff: string) => checkAll(ctx, '2026-01-01', cutoff);

    clock.setToday('2026-03-31');
    const s1 = await post(staff, ctx.entityId, '2026-03-03', [dr(c.receivable, 119_000, { partnerId: alfa }), cr(c.sales, 100_000, { dimensionValueIds: [norte] }), cr(vat, 19_000)]);
    const s2 = await post(staff, ctx.entityId, '2026-03-04', [dr(c.receivable, 59_500, { partnerId: alfa }), cr(c.sales, 50_000), cr(vat, 9_500)]);
    const exp = await post(staff, ctx.entityId, '2026-03-05', [dr(c.opex, 20_000, { dimensionValueIds: [sur] }), cr(c.cash, 20_000)]);
    await check('2026-03-31');
    expect(await byDimension('2026-03-31')).toEqual({ N: 100_000, S: -20_000, unassigned: 50_000 });

    // Move the second sale to other income; tag it Sur; re-tag the expense Norte.
    const moved = await staff.patch(`${base}/ledger/lines/${s2.lines[1].id}/account`).send({ ledgerAccountId: c.otherIncome });
    expect(moved.status).toBe(200);
    await check('2026-03-31');
    await staff.put(`${base}/ledger/lines/${s2.lines[1].id}/dimension-values`).send({ dimensionValueIds: [sur] }).expect(200);
    await staff.put(`${base}/ledger/lines/${exp.lines[0].id}/dimension-values`).send({ dimensionValueIds: [norte] }).expect(200);
    await check('2026-03-31');
    expect(await byDimension('2026-03-31')).toEqual({ N: 80_000, S: 50_000, unassigned: 0 });
    let is = await getOk(staff, `${base}/reports/income-statement`, { from: '2026-01-01', to: '2026-03-31' });
    expect(is.income.total).toBe(100_000);
    expect(is.otherIncome.total).toBe(50_000);
    // A line moved off a Result Account keeps no tags it could not carry.
    expectError(await staff.patch(`${base}/ledger/lines/${exp.lines[0].id}/account`).send({ ledgerAccountId: c.bank }), 409, 'LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR');

    // The second invoice was Beta's: the partner ledger follows.
    await staff.patch(`${base}/ledger/lines/${s2.lines[0].id}/partner`).send({ partnerId: beta }).expect(200);
    await check('2026-03-31');
    const pl = await getOk(staff, `${base}/ledger/partner-ledger`, { accountId: c.receivable, from: '2026-01-01', to: '2026-03-31' });
    expect(pl.partners.map((p: Json) => [p.partnerName, p.closingBalance])).toEqual([
      ['Alfa Ltda', 119_000],
      ['Beta SpA', 59_500],
    ]);

    // A receivable line booked to cash by mistake, moved to the receivable: it becomes an open item.
    const miss = await post(staff, ctx.entityId, '2026-03-10', [dr(c.cash, 11_900, { partnerId: beta }), cr(c.sales, 10_000), cr(vat, 1_900)]);
    expect(miss.lines[0].openAmount).toBeNull();
    const toReceivable = await staff.patch(`${base}/ledger/lines/${miss.lines[0].id}/account`).send({ ledgerAccountId: c.receivable });
    expect(toReceivable.status).toBe(200);
    expect(toReceivable.body.openAmount).toBe(11_900);
    await check('2026-03-31');
    // And an open-item line moved off the receivable stops being one.
    const back = await staff.patch(`${base}/ledger/lines/${miss.lines[0].id}/account`).send({ ledgerAccountId: c.bank });
    expect(back.status).toBe(200);
    expect(back.body.openAmount).toBeNull();
    await check('2026-03-31');

    // A collection allocated to the first sale: that line can no longer move.
    const coll = await post(staff, ctx.entityId, '2026-03-20', [dr(c.bank, 119_000), cr(c.receivable, 119_000, { partnerId: alfa })]);
    await staff.post(`${base}/ledger/allocations/match`).send({ lineIds: [s1.lines[0].id, coll.lines[1].id] }).expect(201);
    expectError(await staff.patch(`${base}/ledger/lines/${s1.lines[0].id}/account`).send({ ledgerAccountId: c.cash }), 409, 'LEDGER_LINE_HAS_ALLOCATIONS_ERROR');
    await check('2026-03-31');

    // Lock March: every line correction is refused and nothing moves.
    clock.setToday('2026-04-05');
    await staff.patch(`${base}/ledger-lock-date`).send({ ledgerLockDate: '2026-03-31' }).expect(200);
    expectError(await staff.patch(`${base}/ledger/lines/${s2.lines[1].id}/account`).send({ ledgerAccountId: c.sales }), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
    expectError(await staff.put(`${base}/ledger/lines/${s2.lines[1].id}/dimension-values`).send({ dimensionValueIds: [] }), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
    expectError(await staff.patch(`${base}/ledger/lines/${s2.lines[0].id}/partner`).send({ partnerId: alfa }), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
    await check('2026-04-05');
    expect(await byDimension('2026-04-05')).toEqual({ N: 80_000, S: 50_000, unassigned: 10_000 });
    is = await getOk(staff, `${base}/reports/income-statement`, { from: '2026-01-01', to: '2026-04-05' });
    expect(is.netResult).toBe(140_000);
  });

  it('story 5: a foreign-currency purchase paid at another rate, reports in a presentation currency', async () => {
    const { ctx, c, base } = await setup();
    const supplier = await createPartner(staff, ctx.entityId, 'Acme Inc', freshRut());
    const check = async (cutoff: string) => {
      await checkAll(ctx, '2026-01-01', cutoff);
      for (const rate of ['0.00105', '0.001', '1.333333']) {
        await checkLedger(ctx, { exerciseStart: '2026-01-01', cutoff, presentation: { currency: 'USD', rate } });
      }
    };
    clock.setToday('2026-05-31');
    await post(staff, ctx.entityId, '2026-05-01', [dr(c.bank, 3_000_001), cr(c.capital, 3_000_001)]);
    await check('2026-05-31');
    const usd = (amount: number, rate: string) => ({ transactionCurrency: 'USD', transactionAmount: amount, exchangeRate: rate });
    // USD 1,000.00 at 950.50: CLP 950,500; payable in USD too.
    const purchase = await post(staff, ctx.entityId, '2026-05-10', [
      dr(c.opex, 950_500, usd(100_000, '950.50')),
      cr(c.payable, 950_500, { partnerId: supplier, ...usd(100_000, '950.50') }),
    ]);
    expect(purchase.lines[0].exchangeRate).toBe('950.5');
    await check('2026-05-31');
    expectError(
      await staff.post(`${base}/ledger/entries`).send({ id: uuid(), entryDate: '2026-05-11', memo: 'bad', newLedgerEntryLines: [dr(c.opex, 950_000, usd(100_000, '950.50')), cr(c.payable, 950_000)] }),
      400,
      'LEDGER_LINE_TRANSACTION_AMOUNT_MISMATCH_ERROR',
    );
    // Paid at 962.25: an exchange loss of 11,750.
    const payment = await post(staff, ctx.entityId, '2026-05-25', [
      dr(c.payable, 950_500, { partnerId: supplier, ...usd(100_000, '950.50') }),
      dr(c.otherExpense, 11_750),
      cr(c.bank, 962_250, usd(100_000, '962.25')),
    ]);
    await staff.post(`${base}/ledger/allocations/match`).send({ lineIds: [purchase.lines[1].id, payment.lines[0].id] }).expect(201);
    await check('2026-05-31');
    const is = await getOk(staff, `${base}/reports/income-statement`, { from: '2026-01-01', to: '2026-05-31', presentationCurrency: 'USD', presentationRate: '0.00105' });
    expect(is.presentation).toEqual({ currency: 'USD', rate: '0.00105' });
    // 950,500 CLP at 0.00105 = 998.025 USD -> 99,803 cents (half up); 11,750 -> 12.3375 -> 1,234 cents.
    expect(is.operatingExpense.total).toBe(99_803);
    expect(is.otherExpense.total).toBe(1_234);
    expect(is.netResult).toBe(-(99_803 + 1_234));
  });

  it('story 6: a second exercise: prior results carried in equity, the eight-column prior periods row, a closing entry', async () => {
    const { ctx, c, base, alfa } = await setup();
    const retained = await createAccount(staff, ctx.entityId, { code: '3201', type: 'equity', name: 'Retained earnings' });
    clock.setToday('2025-12-31');
    await post(staff, ctx.entityId, '2025-01-05', [dr(c.bank, 1_000_000), cr(c.capital, 1_000_000)]);
    await post(staff, ctx.entityId, '2025-06-10', [dr(c.receivable, 400_000, { partnerId: alfa }), cr(c.sales, 400_000)]);
    await post(staff, ctx.entityId, '2025-09-10', [dr(c.opex, 150_000), cr(c.bank, 150_000)]);
    await checkAll(ctx, '2025-01-01', '2025-12-31');

    clock.setToday('2026-02-28');
    await post(staff, ctx.entityId, '2026-01-15', [dr(c.bank, 400_000), cr(c.receivable, 400_000, { partnerId: alfa })]);
    await post(staff, ctx.entityId, '2026-02-10', [dr(c.cash, 90_000), cr(c.otherIncome, 90_000)]);
    await checkAll(ctx, '2026-01-01', '2026-02-28');
    await checkAll(ctx, '2025-01-01', '2026-02-28');
    let bs = await getOk(staff, `${base}/reports/balance-sheet`, { exerciseStart: '2026-01-01', cutoffDate: '2026-02-28' });
    expect(bs.equity.priorPeriodsResult).toBe(250_000);
    expect(bs.equity.currentPeriodResult).toBe(90_000);
    const bsTwoYears = await getOk(staff, `${base}/reports/balance-sheet`, { exerciseStart: '2025-01-01', cutoffDate: '2026-02-28' });
    expect(bsTwoYears.equity.priorPeriodsResult).toBe(0);
    expect(bsTwoYears.equity.currentPeriodResult).toBe(340_000);
    expect(bsTwoYears.totals).toEqual(bs.totals);
    let eight = await getOk(staff, `${base}/ledger/reports/eight-column-balance`, { exerciseStart: '2026-01-01', cutoffDate: '2026-02-28' });
    const prior = eight.rows.find((r: Json) => r.accountId === null);
    expect(prior).toMatchObject({ name: 'Prior periods result', type: 'equity', credit: 250_000, debit: 0 });

    // The 2025 result closed into retained earnings on 2025-12-31: nothing left "not yet closed".
    await post(staff, ctx.entityId, '2025-12-31', [dr(c.sales, 400_000), cr(c.opex, 150_000), cr(retained, 250_000)]);
    await checkAll(ctx, '2026-01-01', '2026-02-28');
    bs = await getOk(staff, `${base}/reports/balance-sheet`, { exerciseStart: '2026-01-01', cutoffDate: '2026-02-28' });
    expect(bs.equity.priorPeriodsResult).toBe(0);
    expect(figure(bs.equity, retained)).toBe(250_000);
    eight = await getOk(staff, `${base}/ledger/reports/eight-column-balance`, { exerciseStart: '2026-01-01', cutoffDate: '2026-02-28' });
    expect(eight.rows.find((r: Json) => r.accountId === null)).toBeUndefined();
    // Lock 2025 and keep going in 2026.
    await staff.patch(`${base}/ledger-lock-date`).send({ ledgerLockDate: '2025-12-31' }).expect(200);
    clock.setToday('2026-03-31');
    await post(staff, ctx.entityId, '2026-03-15', [dr(c.opex, 30_000), cr(c.cash, 30_000)]);
    await checkAll(ctx, '2026-01-01', '2026-03-31');
    await checkAll(ctx, '2025-01-01', '2026-03-31');
  });

  it('story 7: entry dates moved across months, unbooking an allocated collection and a reversed original, an account retyped: nothing drifts', async () => {
    const { ctx, c, base, vat, alfa } = await setup();
    const check = (cutoff: string) => checkAll(ctx, '2026-01-01', cutoff);
    clock.setToday('2026-04-30');
    await post(staff, ctx.entityId, '2026-01-02', [dr(c.bank, 1_000_000), cr(c.capital, 1_000_000)]);
    // Enough cash sales for the general ledger of cash and sales to span pages.
    for (let i = 0; i < 110; i++) {
      const day = `2026-0${1 + (i % 3)}-${String(1 + (i % 28)).padStart(2, '0')}`;
      await post(staff, ctx.entityId, day, [dr(c.cash, 1_000 + i), cr(c.sales, 1_000 + i)]);
    }
    await check('2026-04-30');
    const inv = await post(staff, ctx.entityId, '2026-01-10', [dr(c.receivable, 119_000, { partnerId: alfa }), cr(c.sales, 100_000), cr(vat, 19_000)]);
    const coll = await post(staff, ctx.entityId, '2026-02-05', [dr(c.bank, 119_000), cr(c.receivable, 119_000, { partnerId: alfa })]);
    await staff.post(`${base}/ledger/allocations/match`).send({ lineIds: [inv.lines[0].id, coll.lines[1].id] }).expect(201);
    await check('2026-04-30');

    // Dates moved across months (allocated lines included): monthly totals and reports follow.
    await staff.patch(`${base}/ledger/entries/${inv.id}`).send({ entryDate: '2026-02-15' }).expect(200);
    await check('2026-04-30');
    await check('2026-01-31');
    let jan = await getOk(staff, `${base}/reports/income-statement`, { from: '2026-01-01', to: '2026-01-31' });
    const salesJan = jan.income.total;
    await staff.patch(`${base}/ledger/entries/${coll.id}`).send({ entryDate: '2026-03-03' }).expect(200);
    await check('2026-02-28');
    await check('2026-04-30');

    // Unbooking the allocated collection: the invoice is open again.
    const unbook = await staff.delete(`${base}/ledger/entries/${coll.id}`);
    expect(unbook.status).toBe(200);
    expect((await staff.get(`${base}/ledger/entries/${inv.id}`).expect(200)).body.lines[0].openAmount).toBe(119_000);
    await check('2026-04-30');

    // Reverse the invoice, then unbook the reversed original: both go (docs/DECISIONS.md).
    const rev = await staff.post(`${base}/ledger/entries/${inv.id}/reverse`).send({ id: uuid(), reversalDate: '2026-03-31' });
    expect(rev.status).toBe(201);
    await check('2026-04-30');
    await check('2026-03-30');
    const unbookOriginal = await staff.delete(`${base}/ledger/entries/${inv.id}`);
    expect(unbookOriginal.status).toBe(200);
    expect(unbookOriginal.body.settledChainEntries.map((e: Json) => e.id)).toEqual([rev.body.reversalEntry.id]);
    expect((await staff.get(`${base}/ledger/entries/${rev.body.reversalEntry.id}`).expect(200)).body.status).toBe('deleted');
    await check('2026-04-30');

    // A reversal dated after today: out of reports cut off before it, in those after.
    const late = await post(staff, ctx.entityId, '2026-04-20', [dr(c.opex, 40_000), cr(c.bank, 40_000)]);
    const lateRev = await staff.post(`${base}/ledger/entries/${late.id}/reverse`).send({ id: uuid(), reversalDate: '2026-05-01' });
    expect(lateRev.status).toBe(201);
    await check('2026-04-30');
    await check('2026-05-31');
    const april = await getOk(staff, `${base}/reports/income-statement`, { from: '2026-04-01', to: '2026-04-30' });
    expect(april.operatingExpense.total).toBe(40_000);
    const may = await getOk(staff, `${base}/reports/income-statement`, { from: '2026-05-01', to: '2026-05-31' });
    expect(may.operatingExpense.total).toBe(-40_000);

    // Sales retyped as other income (same family): every figure moves with it, nothing else.
    const before = await getOk(staff, `${base}/reports/income-statement`, { from: '2026-01-01', to: '2026-04-30' });
    await staff.patch(`${base}/ledger/accounts/${c.sales}`).send({ type: 'other_income' }).expect(200);
    const after = await getOk(staff, `${base}/reports/income-statement`, { from: '2026-01-01', to: '2026-04-30' });
    expect(after.netResult).toBe(before.netResult);
    expect(after.otherIncome.total).toBe(before.otherIncome.total + before.income.total);
    expect(after.income.total).toBe(0);
    await check('2026-04-30');
    jan = await getOk(staff, `${base}/reports/income-statement`, { from: '2026-01-01', to: '2026-01-31' });
    expect(jan.otherIncome.total).toBe(salesJan);
  });

  it('story 8: a partner changed on an allocated line, a line left without partner, and a reversal chain across the lock date', async () => {
    const { ctx, c, base, vat, alfa, beta } = await setup();
    const check = (cutoff: string) => checkAll(ctx, '2026-01-01', cutoff);
    clock.setToday('2026-02-28');
    const inv = await post(staff, ctx.entityId, '2026-01-10', [dr(c.receivable, 119_000, { partnerId: alfa }), cr(c.sales, 100_000), cr(vat, 19_000)]);
    const coll = await post(staff, ctx.entityId, '2026-01-20', [dr(c.bank, 60_000), cr(c.receivable, 60_000, { partnerId: alfa })]);
    await staff.post(`${base}/ledger/allocations/match`).send({ lineIds: [inv.lines[0].id, coll.lines[1].id] }).expect(201);
    await check('2026-02-28');
    // The invoice was Beta's; the collection came without a partner.
    await staff.patch(`${base}/ledger/lines/${inv.lines[0].id}/partner`).send({ partnerId: beta }).expect(200);
    await staff.patch(`${base}/ledger/lines/${coll.lines[1].id}/partner`).send({ partnerId: null }).expect(200);
    await check('2026-02-28');
    const pl = await getOk(staff, `${base}/ledger/partner-ledger`, { accountId: c.receivable, from: '2026-01-01', to: '2026-02-28', includeUnassigned: true });
    expect(pl.partners.map((p: Json) => [p.partnerId, p.closingBalance])).toEqual([
      [beta, 119_000],
      [null, -60_000],
    ]);
    // Reverse the invoice in February, lock January: the original sits in the locked period.
    const rev = await staff.post(`${base}/ledger/entries/${inv.id}/reverse`).send({ id: uuid(), reversalDate: '2026-02-05' });
    expect(rev.status).toBe(201);
    await check('2026-02-28');
    await staff.patch(`${base}/ledger-lock-date`).send({ ledgerLockDate: '2026-01-31' }).expect(200);
    // Unbooking the original (dated in the locked period) is refused, and so is moving the reversal before it.
    expectError(await staff.delete(`${base}/ledger/entries/${inv.id}`), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
    expectError(await staff.patch(`${base}/ledger/entries/${rev.body.reversalEntry.id}`).send({ entryDate: '2026-01-05' }), 409, 'LEDGER_PERIOD_LOCKED_ERROR');
    await check('2026-02-28');
    // Reversal line partners follow their own lines; the allocation survives nowhere it should not.
    expect((await getOk(staff, `${base}/ledger/allocations`, { lineId: coll.lines[1].id })).length).toBe(0);
  });
});
