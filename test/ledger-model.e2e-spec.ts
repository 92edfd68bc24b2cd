/**
 * A model-based property test of the ledger's lifecycle: random sequences of postings, scheduled
 * entries (create, replace, book, cancel), reversals, unbookings, date changes, matches of open
 * items, lock-date moves and the passing of days, each predicted by a small model of D24, D33,
 * D35, D36, D39 and the order of refusals in docs/DECISIONS.md. After every step the service must
 * agree with the model on the lock date, on every entry (status, date, Book, source, the reversal
 * links), on every live line (account, side, amount, open amount) and on each account's figures in
 * the eight-column balance of the Book, and the monthly totals must equal the lines; a refused
 * step must write nothing. Two steps sent at once must answer and end as one of their two
 * serial orders.
 */
import fc from 'fast-check';
import { auditRowCount, expectMonthlyTotalsMatchLines } from './harness/db-checks';
import type { TestApp } from './harness/test-app';
import { createWorldApp, freshEntity, type Agent, type World } from './harness/world';
import { buildChart, createPartner, freshRut, MovableClock, uuid, type Chart } from './blackbox/bb-helpers';

type Status = 'active' | 'reversed' | 'deleted' | 'scheduled' | 'cancelled';
type Side = 'debit' | 'credit';
interface ModelLine {
  /** Sent with the posting, so that matches can name it; a mirror line's id is the service's (null here). */
  id: string | null;
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
/** A manual allocation (matches make them); the netting of a reversal pair is implied by the pair. */
interface ModelAllocation {
  debitLineId: string;
  creditLineId: string;
  amount: number;
}
interface Model {
  today: string;
  lock: string | null;
  entries: ModelEntry[];
  allocations: ModelAllocation[];
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
  | { kind: 'passDays'; days: number }
  | { kind: 'match'; debit: number; credit: number };

/** LEDGER_MODEL_STATS=1: how often each step was answered with each status and code. */
const STATS = new Map<string, number>();
function count(label: string): void {
  if (process.env.LEDGER_MODEL_STATS) STATS.set(label, (STATS.get(label) ?? 0) + 1);
}
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
/** Four shapes of entry: a cash sale, a sale on credit to a partner (an open item), rent paid from the bank, a collection from the partner (an open item). */
function linesOf(chart: Chart, template: number, amount: number): ModelLine[] {
  const line = (account: string, side: Side, lineAmount: number, openItem = false): ModelLine => ({ id: uuid(), account, side, amount: lineAmount, openItem });
  switch (template % 4) {
    case 0:
      return [line(chart.cash, 'debit', amount), line(chart.sales, 'credit', amount)];
    case 1:
      return [line(chart.receivable, 'debit', amount + 19, true), line(chart.sales, 'credit', amount), line(chart.capital, 'credit', 19)];
    case 2:
      return [line(chart.opex, 'debit', amount), line(chart.bank, 'credit', amount)];
    default:
      return [line(chart.bank, 'debit', amount), line(chart.receivable, 'credit', amount, true)];
  }
}

/** An open-item line's open amount (D36: a reversal pair's open-item lines net each other to 0). */
function openAmountOf(model: Model, entry: ModelEntry, line: ModelLine): number | null {
  if (!line.openItem) return null;
  if (entry.status === 'reversed' || entry.reversalOf !== null) return 0;
  return line.amount - model.allocations.filter((a) => a.debitLineId === line.id || a.creditLineId === line.id).reduce((sum, a) => sum + a.amount, 0);
}

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('post' as const), offset: fc.integer({ min: -40, max: 2 }), template: fc.constantFrom(0, 1, 1, 2, 3, 3), amount: fc.integer({ min: 1, max: 1000 }), inBook: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('schedule' as const), offset: fc.integer({ min: 0, max: 12 }), template: fc.constantFrom(0, 1, 1, 2, 3, 3), amount: fc.integer({ min: 1, max: 1000 }), inBook: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replaceScheduled' as const), which: fc.nat(), offset: fc.integer({ min: -1, max: 12 }), template: fc.constantFrom(0, 1, 1, 2, 3, 3), amount: fc.integer({ min: 1, max: 1000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('book' as const), which: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), which: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('reverse' as const), which: fc.nat(), daysAfter: fc.integer({ min: 0, max: 8 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('unbook' as const), which: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('changeDate' as const), which: fc.nat(), offset: fc.integer({ min: -45, max: 2 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('match' as const), debit: fc.nat(), credit: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('lock' as const), offset: fc.option(fc.integer({ min: -45, max: 6 }), { freq: 4 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('passDays' as const), days: fc.integer({ min: 1, max: 14 }) }) },
);

/** A step resolved against the model of the moment: the very request that will be sent. */
type Action =
  | { kind: 'post' | 'schedule'; id: string; date: string; lines: ModelLine[]; bookId: string | null }
  | { kind: 'replaceScheduled'; targetId: string; date: string; lines: ModelLine[] }
  | { kind: 'book' | 'cancel' | 'unbook'; targetId: string }
  | { kind: 'reverse'; targetId: string; id: string; date: string }
  | { kind: 'changeDate'; targetId: string; date: string }
  | { kind: 'lock'; date: string | null }
  | { kind: 'match'; debitLineId: string; creditLineId: string };

/** What the generated steps name in a fresh ledger: its chart and its Book. */
interface LedgerSetup {
  chart: Chart;
  bookId: string;
}

/** The request a generated step makes of the model as it stands (null when it names an entry and there is none). */
function resolve(model: Model, step: Op, w: LedgerSetup): Action | null {
  // Two picks in three go to an entry the step suits, so that steps succeed as often as they are refused.
  const pick = (which: number, suits: (e: ModelEntry) => boolean) => {
    const suited = model.entries.filter(suits);
    const from = which % 3 !== 0 && suited.length > 0 ? suited : model.entries;
    return from.length === 0 ? null : from[Math.floor(which / 3) % from.length];
  };
  const scheduled = (e: ModelEntry) => e.status === 'scheduled';
  switch (step.kind) {
    case 'post':
    case 'schedule':
      return { kind: step.kind, id: uuid(), date: addDays(model.today, step.offset), lines: linesOf(w.chart, step.template, step.amount), bookId: step.inBook ? w.bookId : null };
    case 'replaceScheduled': {
      const target = pick(step.which, scheduled);
      return target && { kind: step.kind, targetId: target.id, date: addDays(model.today, step.offset), lines: linesOf(w.chart, step.template, step.amount) };
    }
    case 'book':
    case 'cancel':
    case 'unbook': {
      const suits = step.kind === 'unbook' ? isLive : step.kind === 'cancel' ? scheduled : (e: ModelEntry) => scheduled(e) && e.date <= model.today;
      const target = pick(step.which, suits);
      return target && { kind: step.kind, targetId: target.id };
    }
    case 'reverse': {
      const original = pick(step.which, (e) => e.status === 'active' && e.source !== 'reversal');
      return original && { kind: step.kind, targetId: original.id, id: uuid(), date: addDays(original.date, step.daysAfter) };
    }
    case 'changeDate': {
      const target = pick(step.which, isLive);
      return target && { kind: step.kind, targetId: target.id, date: addDays(model.today, step.offset) };
    }
    case 'lock':
      return { kind: step.kind, date: step.offset === null ? null : addDays(model.today, step.offset) };
    case 'match': {
      // A receivable debit and a receivable credit; three in four of live entries of one Book (or both Common Entries) with something open.
      const openItems = (side: Side) =>
        model.entries.flatMap((e) => e.lines.filter((l) => l.openItem && l.side === side && l.id !== null).map((l) => ({ entry: e, line: l })));
      const pairs = openItems('debit').flatMap((d) => openItems('credit').map((c) => ({ d, c })));
      const open = (x: { entry: ModelEntry; line: ModelLine }) => isLive(x.entry) && openAmountOf(model, x.entry, x.line)! > 0;
      const suited = pairs.filter(({ d, c }) => d.entry.bookId === c.entry.bookId && open(d) && open(c));
      const from = step.debit % 4 !== 0 && suited.length > 0 ? suited : pairs;
      const chosen = from[step.credit % Math.max(1, from.length)];
      return chosen ? { kind: step.kind, debitLineId: chosen.d.line.id!, creditLineId: chosen.c.line.id! } : null;
    }
    case 'passDays':
      return null;
  }
}

const refused = (code: string): Expected => ({ status: 409, code });

/** D35/D36: the manual allocations on an entry's lines go (their other lines are open again). */
function removeAllocationsOf(model: Model, entry: ModelEntry): void {
  const ids = new Set(entry.lines.map((l) => l.id));
  model.allocations = model.allocations.filter((a) => !ids.has(a.debitLineId) && !ids.has(a.creditLineId));
}

/** What the service must answer to an action on a ledger in the model's state, and that state afterwards. */
function predict(before: Model, a: Action): { expected: Expected; after: Model } {
  const model: Model = structuredClone(before);
  const byId = (id: string | null) => model.entries.find((e) => e.id === id)!;
  const locked = (date: string) => model.lock !== null && date <= model.lock;
  const outcome = (expected: Expected, change: () => void) => {
    if (expected.status < 400) change();
    return { expected, after: expected.status < 400 ? model : before };
  };
  switch (a.kind) {
    case 'post':
    case 'schedule': {
      const scheduled = a.kind === 'schedule';
      // The lock date is judged before today (docs/DECISIONS.md).
      const expected = locked(a.date)
        ? refused('LEDGER_PERIOD_LOCKED_ERROR')
        : !scheduled && a.date > model.today
          ? refused('LEDGER_ENTRY_DATE_IN_FUTURE_ERROR')
          : scheduled && a.date <= model.today
            ? refused('LEDGER_SCHEDULED_ENTRY_DATE_NOT_FUTURE_ERROR')
            : { status: 201 };
      return outcome(expected, () =>
        model.entries.push({
          id: a.id,
          date: a.date,
          status: scheduled ? 'scheduled' : 'active',
          source: scheduled ? 'scheduled' : 'manual',
          bookId: a.bookId,
          reversalOf: null,
          reversedBy: null,
          lines: a.lines,
        }),
      );
    }
    case 'replaceScheduled': {
      const target = byId(a.targetId);
      const expected =
        target.status !== 'scheduled'
          ? refused('LEDGER_ENTRY_NOT_SCHEDULED_ERROR')
          : locked(a.date)
            ? refused('LEDGER_PERIOD_LOCKED_ERROR')
            : a.date <= model.today
              ? refused('LEDGER_SCHEDULED_ENTRY_DATE_NOT_FUTURE_ERROR')
              : { status: 200 };
      return outcome(expected, () => {
        target.date = a.date;
        target.lines = a.lines;
      });
    }
    case 'book': {
      const target = byId(a.targetId);
      const expected =
        target.status !== 'scheduled'
          ? refused('LEDGER_ENTRY_NOT_SCHEDULED_ERROR')
          : target.date > model.today
            ? refused('LEDGER_SCHEDULED_ENTRY_NOT_DUE_ERROR')
            : { status: 200 };
      return outcome(expected, () => {
        target.status = 'active';
      });
    }
    case 'cancel': {
      const target = byId(a.targetId);
      return outcome(target.status !== 'scheduled' ? refused('LEDGER_ENTRY_NOT_SCHEDULED_ERROR') : { status: 200 }, () => {
        target.status = 'cancelled';
      });
    }
    case 'reverse': {
      const original = byId(a.targetId);
      const expected =
        original.status !== 'active' || original.source === 'reversal'
          ? refused('LEDGER_ENTRY_NOT_REVERSIBLE_ERROR')
          : a.date <= original.date
            ? refused('LEDGER_REVERSAL_DATE_INVALID_ERROR')
            : locked(a.date)
              ? refused('LEDGER_PERIOD_LOCKED_ERROR')
              : { status: 201 };
      return outcome(expected, () => {
        // D36: the allocations on the original's open-item lines are removed before the netting.
        removeAllocationsOf(model, original);
        original.status = 'reversed';
        original.reversedBy = a.id;
        model.entries.push({
          id: a.id,
          date: a.date,
          status: 'active',
          source: 'reversal',
          bookId: original.bookId,
          reversalOf: original.id,
          reversedBy: null,
          lines: original.lines.map((l) => ({ ...l, id: null, side: l.side === 'debit' ? 'credit' : 'debit' })),
        });
      });
    }
    case 'unbook': {
      const target = byId(a.targetId);
      const expected = !isLive(target) ? refused('LEDGER_ENTRY_NOT_LIVE_ERROR') : locked(target.date) ? refused('LEDGER_PERIOD_LOCKED_ERROR') : { status: 200 };
      return outcome(expected, () => {
        removeAllocationsOf(model, target);
        target.status = 'deleted';
        if (target.reversalOf !== null) {
          // D35: unbooking a reversal puts its original back to active.
          const original = byId(target.reversalOf);
          original.status = 'active';
          original.reversedBy = null;
        }
        // docs/DECISIONS.md: unbooking a reversed original unbooks its reversal with it.
        if (target.reversedBy !== null) byId(target.reversedBy).status = 'deleted';
      });
    }
    case 'changeDate': {
      const target = byId(a.targetId);
      const original = target.reversalOf !== null ? byId(target.reversalOf) : null;
      const reversal = target.reversedBy !== null ? byId(target.reversedBy) : null;
      const expected = !isLive(target)
        ? refused('LEDGER_ENTRY_NOT_LIVE_ERROR')
        : locked(target.date) || locked(a.date)
          ? refused('LEDGER_PERIOD_LOCKED_ERROR')
          : a.date > model.today
            ? refused('LEDGER_ENTRY_DATE_IN_FUTURE_ERROR')
            : (original && a.date <= original.date) || (reversal && a.date >= reversal.date)
              ? refused('LEDGER_REVERSAL_DATE_INVALID_ERROR')
              : { status: 200 };
      return outcome(expected, () => {
        target.date = a.date;
      });
    }
    case 'match': {
      const find = (lineId: string) => {
        const entry = model.entries.find((e) => e.lines.some((l) => l.id === lineId));
        return entry && { entry, line: entry.lines.find((l) => l.id === lineId)! };
      };
      const debit = find(a.debitLineId);
      const credit = find(a.creditLineId);
      // A scheduled entry's replaced lines are gone.
      if (!debit || !credit) return outcome({ status: 404, code: 'RECONCILIATION_MATCH_LINE_NOT_FOUND_ERROR' }, () => undefined);
      const amount = Math.min(openAmountOf(model, debit.entry, debit.line)!, openAmountOf(model, credit.entry, credit.line)!);
      // Match judges the selection (one account, one Book) before each line's entry (docs/DECISIONS.md).
      const expected =
        debit.entry.bookId !== credit.entry.bookId
          ? refused('RECONCILIATION_MATCH_LINES_IN_DIFFERENT_BOOKS_ERROR')
          : !isLive(debit.entry) || !isLive(credit.entry)
            ? refused('LEDGER_ENTRY_NOT_LIVE_ERROR')
            : amount <= 0
            ? refused('RECONCILIATION_MATCH_NOTHING_TO_MATCH_ERROR')
            : { status: 201 };
      return outcome(expected, () => {
        model.allocations.push({ debitLineId: a.debitLineId, creditLineId: a.creditLineId, amount });
      });
    }
    case 'lock': {
      const lock = a.date;
      const covered = lock !== null && model.entries.some((e) => e.status === 'scheduled' && e.date <= lock);
      return outcome(covered ? refused('ENTITY_LOCK_DATE_OVER_SCHEDULED_ENTRY_ERROR') : { status: 200 }, () => {
        model.lock = lock;
      });
    }
  }
}

/** Sends an action's request. */
function send(staff: Agent, entityId: string, partnerId: string, a: Action) {
  const base = `/api/entities/${entityId}`;
  const bodyLines = (lines: ModelLine[]) => lines.map((l) => ({ id: l.id, side: l.side, ledgerAccountId: l.account, amount: l.amount, ...(l.openItem ? { partnerId } : {}) }));
  switch (a.kind) {
    case 'post':
    case 'schedule':
      return staff
        .post(`${base}/ledger/${a.kind === 'schedule' ? 'scheduled-entries' : 'entries'}`)
        .send({ id: a.id, entryDate: a.date, memo: `${a.kind} ${a.date}`, ...(a.bookId ? { bookId: a.bookId } : {}), newLedgerEntryLines: bodyLines(a.lines) });
    case 'replaceScheduled':
      return staff.patch(`${base}/ledger/scheduled-entries/${a.targetId}`).send({ entryDate: a.date, memo: `replaced ${a.date}`, newLedgerEntryLines: bodyLines(a.lines) });
    case 'book':
      return staff.post(`${base}/ledger/scheduled-entries/${a.targetId}/book`);
    case 'cancel':
      return staff.delete(`${base}/ledger/scheduled-entries/${a.targetId}`);
    case 'reverse':
      return staff.post(`${base}/ledger/entries/${a.targetId}/reverse`).send({ id: a.id, reversalDate: a.date });
    case 'unbook':
      return staff.delete(`${base}/ledger/entries/${a.targetId}`);
    case 'changeDate':
      return staff.patch(`${base}/ledger/entries/${a.targetId}`).send({ entryDate: a.date });
    case 'lock':
      return staff.patch(`${base}/ledger-lock-date`).send({ ledgerLockDate: a.date });
    case 'match':
      return staff.post(`${base}/ledger/allocations/match`).send({ lineIds: [a.debitLineId, a.creditLineId] });
  }
}

const answered = (res: { status: number; body: Record<string, unknown> }): Expected =>
  res.status >= 400 ? { status: res.status, code: res.body.code as string } : { status: res.status };
const describeAction = (a: Action) => JSON.stringify({ ...a, lines: undefined });

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

  /** A fresh Entity with the small chart, a partner and a Book, its model empty on FIRST_TODAY. */
  async function freshLedger() {
    clock.setToday(FIRST_TODAY);
    const entityId = await freshEntity(world);
    const chart = await buildChart(staff, entityId);
    const partnerId = await createPartner(staff, entityId, 'Cliente SpA', freshRut());
    const bookId = uuid();
    await staff.post(`/api/entities/${entityId}/books`).send({ id: bookId, name: 'IFRS' }).expect(201);
    const model: Model = { today: FIRST_TODAY, lock: null, entries: [], allocations: [] };
    return { entityId, partnerId, w: { chart, bookId }, model };
  }

  /** Half the booking steps first let the days pass up to the earliest scheduled entry's date, so that bookings also succeed. */
  function passDaysToBook(model: Model, step: Op, trace: string[]): Model {
    if (step.kind !== 'book' || step.which % 2 !== 0) return model;
    const next = model.entries.filter((e) => e.status === 'scheduled' && e.date > model.today).sort((x, y) => x.date.localeCompare(y.date))[0];
    if (!next) return model;
    const days = Math.round((Date.parse(next.date) - Date.parse(model.today)) / 86_400_000);
    return passDays(model, days, trace);
  }

  function passDays(model: Model, days: number, trace: string[]): Model {
    const today = addDays(model.today, days);
    if (today > '2026-10-31') return model;
    clock.setToday(today);
    trace.push(`today ${today}`);
    return { ...model, today };
  }

  it('agrees with the model on entries, live lines, the eight-column balance and the monthly totals after every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 8, maxLength: 30 }), async (ops) => {
        const { entityId, partnerId, w, ...ledger } = await freshLedger();
        let model = ledger.model;
        const trace: string[] = [];
        for (const step of ops) {
          if (step.kind === 'passDays') {
            model = passDays(model, step.days, trace);
            continue;
          }
          model = passDaysToBook(model, step, trace);
          const action = resolve(model, step, w);
          if (!action) continue;
          const { expected, after } = predict(model, action);
          const auditBefore = await auditRowCount(t);
          const res = await send(staff, entityId, partnerId, action);
          const got = answered(res);
          trace.push(`${describeAction(action)} -> ${got.status} ${got.code ?? ''}`);
          count(`${action.kind} ${got.status} ${got.code ?? ''}`);
          expect({ trace, ...got }).toEqual({ trace, ...expected });
          if (got.status >= 400) expect(await auditRowCount(t)).toBe(auditBefore);
          model = after;
          await expectServiceAgrees(staff, t, entityId, w.bookId, model, trace);
        }
      }),
      { numRuns: Number(process.env.LEDGER_MODEL_RUNS ?? 12) },
    );
  }, 600_000);

  it('runs two steps sent at once as if one had come after the other (serializable)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(op, op), { minLength: 6, maxLength: 18 }), async (pairs) => {
        const { entityId, partnerId, w, ...ledger } = await freshLedger();
        let model = ledger.model;
        const trace: string[] = [];
        for (const [first, second] of pairs) {
          if (first.kind === 'passDays') {
            model = passDays(model, first.days, trace);
            continue;
          }
          model = passDaysToBook(model, first, trace);
          const a = resolve(model, first, w);
          const b = second.kind === 'passDays' ? null : resolve(model, second, w);
          if (!a || !b) continue;
          // The two serial orders and what each predicts.
          const aFirst = predict(model, a);
          const bAfterA = predict(aFirst.after, b);
          const bFirst = predict(model, b);
          const aAfterB = predict(bFirst.after, a);
          const [resA, resB] = await Promise.all([send(staff, entityId, partnerId, a), send(staff, entityId, partnerId, b)]);
          const got = { a: answered(resA), b: answered(resB) };
          const same = 'targetId' in a && 'targetId' in b && a.targetId === b.targetId ? ' (same entry)' : '';
          count(`pair ${a.kind} ${got.a.status} + ${b.kind} ${got.b.status}${same}`);
          trace.push(`${describeAction(a)} -> ${got.a.status} ${got.a.code ?? ''} | ${describeAction(b)} -> ${got.b.status} ${got.b.code ?? ''}`);
          const orders = [
            { answers: { a: aFirst.expected, b: bAfterA.expected }, after: bAfterA.after },
            { answers: { a: aAfterB.expected, b: bFirst.expected }, after: aAfterB.after },
          ].filter((o) => JSON.stringify(o.answers) === JSON.stringify(got));
          expect({ trace, serializable: orders.length > 0 }).toEqual({ trace, serializable: true });
          // Where both orders answer alike, the state must be that of one of them.
          let agreed: unknown = null;
          for (const order of orders) {
            try {
              await expectServiceAgrees(staff, t, entityId, w.bookId, order.after, trace);
              model = order.after;
              agreed = null;
              break;
            } catch (error) {
              agreed = error;
            }
          }
          if (agreed) throw agreed;
        }
      }),
      { numRuns: Number(process.env.LEDGER_MODEL_RUNS ?? 12) },
    );
  }, 600_000);
});

/** The service's lock date, entries, live lines, eight-column balance of the Book and monthly totals are the model's. */
async function expectServiceAgrees(staff: Agent, t: TestApp, entityId: string, bookId: string, model: Model, trace: string[]): Promise<void> {
  const base = `/api/entities/${entityId}`;
  const entity = await staff.get(base);
  expect({ trace, ledgerLockDate: entity.body.ledgerLockDate }).toEqual({ trace, ledgerLockDate: model.lock });
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

  // Live lines with their open amounts: amount less allocations, 0 while a reversal pair nets them (D36).
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
        key({ entryId: e.id, account: l.account, side: l.side, amount: l.amount, openAmount: openAmountOf(model, e, l) }),
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
