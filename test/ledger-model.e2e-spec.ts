/**
 * A model-based property test of the ledger's lifecycle: random sequences of postings, scheduled
 * entries (create, replace, book, cancel), reversals, unbookings, date changes, lock-date moves
 * and the passing of days, each predicted by a small model of D24, D33, D35, D36 and the order of
 * refusals in docs/DECISIONS.md. After every step the service must agree with the model on every
 * entry (status, date, Book, source, the reversal links), on every live line (account, side,
 * amount, open amount), on each account's figures in the eight-column balance of the Book, and the
 * monthly totals must equal the lines; a refused step must write nothing.
 */
import fc from 'fast-check';
import { auditRowCount, expectMonthlyTotalsMatchLines } from './harness/db-checks';
import type { TestApp } from './harness/test-app';
import { createWorldApp, freshEntity, type Agent, type World } from './harness/world';
import { buildChart, createPartner, freshRut, MovableClock, uuid, type Chart } from './blackbox/bb-helpers';

type Status = 'active' | 'reversed' | 'deleted' | 'scheduled' | 'cancelled';
type Side = 'debit' | 'credit';
interface ModelLine {
  account: string;
  side: Side;
  amount: number;
  openItem: boolean;
}
interface ModelEntry {
  id: string;
  date: string;
  status: Status;
  source: 'manual' | 'scheduled' | 'reversal';
  bookId: string | null;
  reversalOf: string | null;
  reversedBy: string | null;
  lines: ModelLine[];
}
interface Model {
  today: string;
  lock: string | null;
  entries: ModelEntry[];
}
/** What the service must answer: a status and, for a refusal, its code. */
interface Expected {
  status: number;
  code?: string;
}

type Op =
  | { kind: 'post'; offset: number; template: number; amount: number; inBook: boolean }
  | { kind: 'schedule'; offset: number; template: number; amount: number; inBook: boolean }
  | { kind: 'replaceScheduled'; which: number; offset: number; template: number; amount: number }
  | { kind: 'book'; which: number }
  | { kind: 'cancel'; which: number }
  | { kind: 'reverse'; which: number; daysAfter: number }
  | { kind: 'unbook'; which: number }
  | { kind: 'changeDate'; which: number; offset: number }
  | { kind: 'lock'; offset: number | null }
  | { kind: 'passDays'; days: number };

const STATS = new Map<string, number>();
const EXERCISE_START = '2026-01-01';
const EXERCISE_END = '2026-12-31';
const FIRST_TODAY = '2026-05-01';

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
const isLive = (e: ModelEntry) => e.status === 'active' || e.status === 'reversed';

/** Three shapes of entry: a cash sale, a sale on credit to a partner (an open item) and rent paid from the bank. */
function linesOf(chart: Chart, template: number, amount: number): ModelLine[] {
  switch (template % 3) {
    case 0:
      return [
        { account: chart.cash, side: 'debit', amount, openItem: false },
        { account: chart.sales, side: 'credit', amount, openItem: false },
      ];
    case 1:
      return [
        { account: chart.receivable, side: 'debit', amount: amount + 19, openItem: true },
        { account: chart.sales, side: 'credit', amount, openItem: false },
        { account: chart.capital, side: 'credit', amount: 19, openItem: false },
      ];
    default:
      return [
        { account: chart.opex, side: 'debit', amount, openItem: false },
        { account: chart.bank, side: 'credit', amount, openItem: false },
      ];
  }
}

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('post' as const), offset: fc.integer({ min: -40, max: 2 }), template: fc.nat(2), amount: fc.integer({ min: 1, max: 1000 }), inBook: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('schedule' as const), offset: fc.integer({ min: 0, max: 12 }), template: fc.nat(2), amount: fc.integer({ min: 1, max: 1000 }), inBook: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replaceScheduled' as const), which: fc.nat(), offset: fc.integer({ min: -1, max: 12 }), template: fc.nat(2), amount: fc.integer({ min: 1, max: 1000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('book' as const), which: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), which: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('reverse' as const), which: fc.nat(), daysAfter: fc.integer({ min: 0, max: 8 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('unbook' as const), which: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('changeDate' as const), which: fc.nat(), offset: fc.integer({ min: -45, max: 2 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('lock' as const), offset: fc.option(fc.integer({ min: -45, max: 6 }), { freq: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('passDays' as const), days: fc.integer({ min: 1, max: 10 }) }) },
);

describe('ledger lifecycle against a model (property)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  const clock = new MovableClock();

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock }));
  });
  afterAll(() => {
    if (process.env.LEDGER_MODEL_STATS) console.log([...STATS].sort().join('\n'));
    return t.close();
  });

  it('agrees with the model on entries, live lines, the eight-column balance and the monthly totals after every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 22 }), async (ops) => {
        clock.setToday(FIRST_TODAY);
        const entityId = await freshEntity(world);
        const base = `/api/entities/${entityId}`;
        const chart = await buildChart(staff, entityId);
        const partnerId = await createPartner(staff, entityId, 'Cliente SpA', freshRut());
        const bookId = uuid();
        await staff.post(`${base}/books`).send({ id: bookId, name: 'IFRS' }).expect(201);
        const model: Model = { today: FIRST_TODAY, lock: null, entries: [] };
        const byId = (id: string | null) => model.entries.find((e) => e.id === id)!;
        // Two picks in three go to an entry the step suits (so that steps succeed as often as they are refused).
        const pick = (which: number, suits: (e: ModelEntry) => boolean) => {
          const suited = model.entries.filter(suits);
          const from = which % 3 !== 0 && suited.length > 0 ? suited : model.entries;
          return from.length === 0 ? null : from[Math.floor(which / 3) % from.length];
        };
        const scheduled = (e: ModelEntry) => e.status === 'scheduled';
        const bodyLines = (lines: ModelLine[]) =>
          lines.map((l) => ({ side: l.side, ledgerAccountId: l.account, amount: l.amount, ...(l.openItem ? { partnerId } : {}) }));
        const trace: string[] = [];

        for (const step of ops) {
          const auditBefore = await auditRowCount(t);
          let expected: Expected;
          let res: { status: number; body: Record<string, unknown> } | null = null;
          let apply: (() => void) | null = null;

          switch (step.kind) {
            case 'post':
            case 'schedule': {
              const scheduled = step.kind === 'schedule';
              const date = addDays(model.today, step.offset);
              const lines = linesOf(chart, step.template, step.amount);
              const entry: ModelEntry = {
                id: uuid(),
                date,
                status: scheduled ? 'scheduled' : 'active',
                source: scheduled ? 'scheduled' : 'manual',
                bookId: step.inBook ? bookId : null,
                reversalOf: null,
                reversedBy: null,
                lines,
              };
              // The lock date is judged before today (docs/DECISIONS.md).
              if (model.lock !== null && date <= model.lock) expected = { status: 409, code: 'LEDGER_PERIOD_LOCKED_ERROR' };
              else if (!scheduled && date > model.today) expected = { status: 409, code: 'LEDGER_ENTRY_DATE_IN_FUTURE_ERROR' };
              else if (scheduled && date <= model.today) expected = { status: 409, code: 'LEDGER_SCHEDULED_ENTRY_DATE_NOT_FUTURE_ERROR' };
              else expected = { status: 201 };
              apply = () => model.entries.push(entry);
              res = await staff
                .post(`${base}/ledger/${scheduled ? 'scheduled-entries' : 'entries'}`)
                .send({ id: entry.id, entryDate: date, memo: `${step.kind} ${date}`, ...(step.inBook ? { bookId } : {}), newLedgerEntryLines: bodyLines(lines) });
              break;
            }
            case 'replaceScheduled': {
              const target = pick(step.which, scheduled);
              if (!target) continue;
              const date = addDays(model.today, step.offset);
              const lines = linesOf(chart, step.template, step.amount);
              if (target.status !== 'scheduled') expected = { status: 409, code: 'LEDGER_ENTRY_NOT_SCHEDULED_ERROR' };
              else if (model.lock !== null && date <= model.lock) expected = { status: 409, code: 'LEDGER_PERIOD_LOCKED_ERROR' };
              else if (date <= model.today) expected = { status: 409, code: 'LEDGER_SCHEDULED_ENTRY_DATE_NOT_FUTURE_ERROR' };
              else expected = { status: 200 };
              apply = () => {
                target.date = date;
                target.lines = lines;
              };
              res = await staff
                .patch(`${base}/ledger/scheduled-entries/${target.id}`)
                .send({ entryDate: date, memo: `replaced ${date}`, newLedgerEntryLines: bodyLines(lines) });
              break;
            }
            case 'book': {
              const target = pick(step.which, (e) => scheduled(e) && e.date <= model.today);
              if (!target) continue;
              if (target.status !== 'scheduled') expected = { status: 409, code: 'LEDGER_ENTRY_NOT_SCHEDULED_ERROR' };
              else if (target.date > model.today) expected = { status: 409, code: 'LEDGER_SCHEDULED_ENTRY_NOT_DUE_ERROR' };
              else expected = { status: 200 };
              apply = () => {
                target.status = 'active';
              };
              res = await staff.post(`${base}/ledger/scheduled-entries/${target.id}/book`);
              break;
            }
            case 'cancel': {
              const target = pick(step.which, scheduled);
              if (!target) continue;
              expected = target.status !== 'scheduled' ? { status: 409, code: 'LEDGER_ENTRY_NOT_SCHEDULED_ERROR' } : { status: 200 };
              apply = () => {
                target.status = 'cancelled';
              };
              res = await staff.delete(`${base}/ledger/scheduled-entries/${target.id}`);
              break;
            }
            case 'reverse': {
              const original = pick(step.which, (e) => e.status === 'active' && e.source !== 'reversal');
              if (!original) continue;
              const date = addDays(original.date, step.daysAfter);
              const mirror: ModelEntry = {
                id: uuid(),
                date,
                status: 'active',
                source: 'reversal',
                bookId: original.bookId,
                reversalOf: original.id,
                reversedBy: null,
                lines: original.lines.map((l) => ({ ...l, side: l.side === 'debit' ? 'credit' : 'debit' })),
              };
              if (original.status !== 'active' || original.source === 'reversal') expected = { status: 409, code: 'LEDGER_ENTRY_NOT_REVERSIBLE_ERROR' };
              else if (date <= original.date) expected = { status: 409, code: 'LEDGER_REVERSAL_DATE_INVALID_ERROR' };
              else if (model.lock !== null && date <= model.lock) expected = { status: 409, code: 'LEDGER_PERIOD_LOCKED_ERROR' };
              else expected = { status: 201 };
              apply = () => {
                original.status = 'reversed';
                original.reversedBy = mirror.id;
                model.entries.push(mirror);
              };
              res = await staff.post(`${base}/ledger/entries/${original.id}/reverse`).send({ id: mirror.id, reversalDate: date });
              break;
            }
            case 'unbook': {
              const target = pick(step.which, isLive);
              if (!target) continue;
              if (!isLive(target)) expected = { status: 409, code: 'LEDGER_ENTRY_NOT_LIVE_ERROR' };
              else if (model.lock !== null && target.date <= model.lock) expected = { status: 409, code: 'LEDGER_PERIOD_LOCKED_ERROR' };
              else expected = { status: 200 };
              apply = () => {
                target.status = 'deleted';
                if (target.reversalOf !== null) {
                  // D35: unbooking a reversal puts its original back to active.
                  const original = byId(target.reversalOf);
                  original.status = 'active';
                  original.reversedBy = null;
                }
                if (target.reversedBy !== null) {
                  // docs/DECISIONS.md: unbooking a reversed original unbooks its reversal with it.
                  byId(target.reversedBy).status = 'deleted';
                }
              };
              res = await staff.delete(`${base}/ledger/entries/${target.id}`);
              break;
            }
            case 'changeDate': {
              const target = pick(step.which, isLive);
              if (!target) continue;
              const date = addDays(model.today, step.offset);
              const original = target.reversalOf !== null ? byId(target.reversalOf) : null;
              const reversal = target.reversedBy !== null ? byId(target.reversedBy) : null;
              if (!isLive(target)) expected = { status: 409, code: 'LEDGER_ENTRY_NOT_LIVE_ERROR' };
              else if (model.lock !== null && (target.date <= model.lock || date <= model.lock)) expected = { status: 409, code: 'LEDGER_PERIOD_LOCKED_ERROR' };
              else if (date > model.today) expected = { status: 409, code: 'LEDGER_ENTRY_DATE_IN_FUTURE_ERROR' };
              else if ((original && date <= original.date) || (reversal && date >= reversal.date)) expected = { status: 409, code: 'LEDGER_REVERSAL_DATE_INVALID_ERROR' };
              else expected = { status: 200 };
              apply = () => {
                target.date = date;
              };
              res = await staff.patch(`${base}/ledger/entries/${target.id}`).send({ entryDate: date });
              break;
            }
            case 'lock': {
              const lock = step.offset === null ? null : addDays(model.today, step.offset);
              const covered = lock !== null && model.entries.some((e) => e.status === 'scheduled' && e.date <= lock);
              expected = covered ? { status: 409, code: 'ENTITY_LOCK_DATE_OVER_SCHEDULED_ENTRY_ERROR' } : { status: 200 };
              apply = () => {
                model.lock = lock;
              };
              res = await staff.patch(`${base}/ledger-lock-date`).send({ ledgerLockDate: lock });
              break;
            }
            case 'passDays': {
              const today = addDays(model.today, step.days);
              if (today > '2026-10-31') continue;
              model.today = today;
              clock.setToday(today);
              trace.push(`today ${today}`);
              continue;
            }
          }

          if (!res || !apply) throw new Error('unreachable');
          trace.push(`${JSON.stringify(step)} -> ${res.status} ${res.status >= 400 ? String(res.body.code) : ''}`);
          expect({ trace, status: res.status, code: res.status >= 400 ? res.body.code : undefined }).toEqual({ trace, ...expected });
          if (process.env.LEDGER_MODEL_STATS) STATS.set(`${step.kind} ${res.status} ${res.body.code ?? ''}`, (STATS.get(`${step.kind} ${res.status} ${res.body.code ?? ''}`) ?? 0) + 1);
          if (res.status < 400) apply();
          else expect(await auditRowCount(t)).toBe(auditBefore);

          await expectServiceAgrees(staff, t, entityId, bookId, model, trace);
        }
      }),
      { numRuns: Number(process.env.LEDGER_MODEL_RUNS ?? 12) },
    );
  }, 600_000);
});

/** The service's entries, live lines, eight-column balance of the Book and monthly totals are the model's. */
async function expectServiceAgrees(staff: Agent, t: TestApp, entityId: string, bookId: string, model: Model, trace: string[]): Promise<void> {
  const base = `/api/entities/${entityId}`;
  const list = await staff.get(`${base}/ledger/entries`).query({ status: 'all', limit: 100 });
  expect(list.status).toBe(200);
  const seen = Object.fromEntries(
    (list.body.entries as Array<Record<string, unknown>>).map((e) => [
      e.id,
      { date: e.entryDate, status: e.status, source: e.source, bookId: e.bookId, reversalOf: e.reversalOfEntryId, reversedBy: e.reversedByEntryId },
    ]),
  );
  const modelled = Object.fromEntries(
    model.entries.map((e) => [e.id, { date: e.date, status: e.status, source: e.source, bookId: e.bookId, reversalOf: e.reversalOf, reversedBy: e.reversedBy }]),
  );
  expect({ trace, entries: seen }).toEqual({ trace, entries: modelled });

  // Live lines: an open item's open amount is its amount, or 0 while it and its mirror net each other (D36).
  const lines = await staff.get(`${base}/ledger/lines`);
  expect(lines.status).toBe(200);
  const key = (l: { entryId: string; account: string; side: string; amount: number; openAmount: number | null }) =>
    `${l.entryId} ${l.account} ${l.side} ${l.amount} ${l.openAmount}`;
  const liveLines = (lines.body as Array<Record<string, unknown>>)
    .map((l) => key({ entryId: l.entryId as string, account: l.ledgerAccountId as string, side: l.side as string, amount: l.amount as number, openAmount: l.openAmount as number | null }))
    .sort();
  const expectedLines = model.entries
    .filter(isLive)
    .flatMap((e) =>
      e.lines.map((l) =>
        key({ entryId: e.id, account: l.account, side: l.side, amount: l.amount, openAmount: l.openItem ? (e.status === 'reversed' || e.reversalOf !== null ? 0 : l.amount) : null }),
      ),
    )
    .sort();
  expect({ trace, lines: liveLines }).toEqual({ trace, lines: expectedLines });

  // The eight-column balance of the Book (its entries and the Common Entries) for the exercise.
  const eight = await staff.get(`${base}/ledger/reports/eight-column-balance`).query({ exerciseStart: EXERCISE_START, cutoffDate: EXERCISE_END, bookId });
  expect(eight.status).toBe(200);
  const sums = new Map<string, { debit: number; credit: number }>();
  for (const e of model.entries) {
    if (!isLive(e) || (e.bookId !== null && e.bookId !== bookId)) continue;
    for (const l of e.lines) {
      const s = sums.get(l.account) ?? { debit: 0, credit: 0 };
      s[l.side] += l.amount;
      sums.set(l.account, s);
    }
  }
  const shown = Object.fromEntries(
    (eight.body.rows as Array<Record<string, number | string>>).filter((r) => r.debit !== 0 || r.credit !== 0).map((r) => [r.accountId, { debit: r.debit, credit: r.credit }]),
  );
  const expectedRows = Object.fromEntries([...sums].filter(([, s]) => s.debit !== 0 || s.credit !== 0));
  expect({ trace, eight: shown }).toEqual({ trace, eight: expectedRows });

  await expectMonthlyTotalsMatchLines(t, entityId);
}
