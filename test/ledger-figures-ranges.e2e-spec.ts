import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { LedgerFigures, MonthlyTotalsFolding } from '../src/modules/ledger';
import { FixedClock } from '../src/platform/clock/clock';
import { TestApp } from './harness/test-app';
import { Agent, createEntity, createWorldApp, World } from './harness/world';
import { freshRut } from './blackbox/bb-helpers';

/**
 * The read seam's figures (`LedgerFigures.accountFigures`: whole months from the monthly totals,
 * the edge days from the lines) against the live lines summed one by one, for random ledgers
 * (postings in a Book and common to every Book, reversals, new dates; the past months' totals
 * folded or not) and random ranges cut anywhere in a month. The balance sheet, the income
 * statement and the eight-column balance read their balances through it. Without closing
 * entries: the closing rule (D90 item 4) has its own property in closings-reports.e2e-spec.ts.
 */
describe('LedgerFigures over any range (property)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    // Every date posted below is in the past of this day.
    ({ t, world, staff } = await createWorldApp({ clock: new FixedClock(new Date('2027-01-15T15:00:00Z')) }));
  });
  afterAll(() => t.close());

  const CODES: Array<[string, string]> = [
    ['1101', 'asset'],
    ['2101', 'liability'],
    ['3101', 'equity'],
    ['4101', 'income'],
    ['5101', 'operating_expense'],
  ];
  const FIRST_DAY = Date.UTC(2025, 0, 1);
  const day = (n: number) => new Date(FIRST_DAY + n * 86_400_000).toISOString().slice(0, 10);
  const dayArb = fc.integer({ min: 0, max: 700 });

  type Step =
    | { kind: 'post'; date: number; debit: number; credit: number; amount: number; inBook: boolean }
    | { kind: 'reverse'; which: number; date: number }
    | { kind: 'redate'; which: number; date: number };
  const step: fc.Arbitrary<Step> = fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('post' as const), date: dayArb, debit: fc.nat(4), credit: fc.nat(4), amount: fc.integer({ min: 1, max: 1_000_000_000 }), inBook: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('reverse' as const), which: fc.nat(), date: dayArb }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('redate' as const), which: fc.nat(), date: dayArb }) },
  );
  const range = fc.tuple(fc.integer({ min: -40, max: 760 }), fc.integer({ min: 0, max: 500 })).map(([start, days]) => ({ from: day(start), to: day(start + days) }));

  async function ledger() {
    const { id: entityId } = await createEntity(staff, world.organizationId, { name: `Rangos ${randomUUID().slice(0, 4)}`, taxId: freshRut(), currency: 'CLP' });
    const accounts: string[] = [];
    for (const [code, type] of CODES) {
      const id = randomUUID();
      await staff.post(`/api/entities/${entityId}/ledger/accounts`).send({ id, name: code, code, type, tracking: 'balance', subtype: null }).expect(201);
      accounts.push(id);
    }
    const bookId = randomUUID();
    await staff.post(`/api/entities/${entityId}/books`).send({ id: bookId, name: 'IFRS' }).expect(201);
    return { entityId, accounts, bookId };
  }

  /** The live lines (D50) of the Book and the common entries, summed line by line. */
  async function fromTheLines(entityId: string, bookId: string | null, from: string, to: string) {
    const rows = await t.sql<{ account_id: string; opening: string; debit: string; credit: string; lines: number }>(
      `SELECT account_id,
              coalesce(sum(CASE WHEN side = 'debit' THEN amount ELSE -amount END) FILTER (WHERE entry_date < $3::date), 0)::text AS opening,
              coalesce(sum(amount) FILTER (WHERE side = 'debit' AND entry_date BETWEEN $3::date AND $4::date), 0)::text AS debit,
              coalesce(sum(amount) FILTER (WHERE side = 'credit' AND entry_date BETWEEN $3::date AND $4::date), 0)::text AS credit,
              count(*) FILTER (WHERE entry_date BETWEEN $3::date AND $4::date)::int AS lines
         FROM ledger_lines
        WHERE entity_id = $1 AND status IN ('active', 'reversed') AND (book_id IS NULL OR book_id = $2::uuid)
        GROUP BY account_id`,
      [entityId, bookId, from, to],
    );
    return new Map(rows.map((r) => [r.account_id, { openingRaw: BigInt(r.opening), periodDebit: BigInt(r.debit), periodCredit: BigInt(r.credit), periodLines: r.lines }]));
  }

  it('equals the live lines summed one by one: the opening before `from`, the debits, credits and lines of [from, to]', async () => {
    const figures = t.app.get(LedgerFigures);
    const folding = t.app.get(MonthlyTotalsFolding);
    const done = { reverse: 0, redate: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), fc.array(range, { minLength: 1, maxLength: 6 }), fc.boolean(), async (steps, ranges, fold) => {
        const { entityId, accounts, bookId } = await ledger();
        const posted: string[] = [];
        for (const s of steps) {
          if (s.kind === 'post') {
            const id = randomUUID();
            const debit = accounts[s.debit];
            const credit = accounts[s.credit === s.debit ? (s.credit + 1) % accounts.length : s.credit];
            await staff
              .post(`/api/entities/${entityId}/ledger/entries`)
              .send({
                id,
                entryDate: day(s.date),
                memo: 'rango',
                ...(s.inBook ? { bookId } : {}),
                newLedgerEntryLines: [
                  { ledgerAccountId: debit, side: 'debit', amount: s.amount },
                  { ledgerAccountId: credit, side: 'credit', amount: s.amount },
                ],
              })
              .expect(201);
            posted.push(id);
          } else if (posted.length > 0) {
            const id = posted[s.which % posted.length];
            // An entry reversed already, or a reversal, is refused (4xx): the ledger stays as it was.
            const res =
              s.kind === 'reverse'
                ? await staff.post(`/api/entities/${entityId}/ledger/entries/${id}/reverse`).send({ id: randomUUID(), reversalDate: day(s.date) })
                : await staff.patch(`/api/entities/${entityId}/ledger/entries/${id}`).send({ entryDate: day(s.date) });
            expect(res.status).toBeLessThan(500);
            if (res.status < 300) done[s.kind]++;
          }
        }
        // Folded: the past months' posting slots summed into one row per account and month (issue 36c).
        if (fold) expect((await folding.foldAll(entityId)).accountRows > 0).toBe(posted.length > 0);
        for (const { from, to } of ranges) {
          for (const book of [bookId, null]) {
            // Without a Book named, the common entries alone (an Entity's one set of books reads the same way).
            const expected = await fromTheLines(entityId, book, from, to);
            const got = await figures.accountFigures(entityId, book, from, to, null);
            expect(got.map((a) => a.accountId).sort()).toEqual([...accounts].sort());
            for (const a of got) {
              const want = expected.get(a.accountId) ?? { openingRaw: 0n, periodDebit: 0n, periodCredit: 0n, periodLines: 0 };
              expect({ from, to, book, account: a.code, openingRaw: a.openingRaw, periodDebit: a.periodDebit, periodCredit: a.periodCredit, periodLines: a.periodLines }).toEqual({
                from,
                to,
                book,
                account: a.code,
                ...want,
              });
            }
          }
        }
      }),
      { numRuns: Number(process.env.LEDGER_FIGURES_RUNS ?? 15) },
    );
    // The runs did reverse entries and give entries new dates (into other months too).
    expect(done.reverse).toBeGreaterThan(0);
    expect(done.redate).toBeGreaterThan(0);
  }, 300_000);
});
