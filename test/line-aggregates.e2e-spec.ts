import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { FixedClock } from '../src/platform/clock/clock';
import { expectLineTotalsMatchLines } from './harness/db-checks';
import { createTestApp, TestApp } from './harness/test-app';
import { Agent, buildWorld, createEntity, World } from './harness/world';

/**
 * Issue 25: ledger_open_item_totals and ledger_partner_monthly_totals are kept by the statements
 * that write lines (LINE_AGGREGATES_UPSERT), no longer by triggers. What the triggers guaranteed
 * is checked here: after any sequence of writes through the API, and after racing ones, both
 * tables equal a recomputation from the lines (expectLineTotalsMatchLines, a GROUP BY).
 */
const clock = new FixedClock(new Date('2026-06-15T15:00:00Z'));

interface Posting {
  side: 'debit' | 'credit';
  amount: number;
  partner: number;
  day: number;
  payable: boolean;
  inBook: boolean;
}
type Op =
  | { kind: 'post'; posting: Posting }
  | { kind: 'batch'; postings: Posting[] }
  | { kind: 'allocate'; debit: number; credit: number; amount: number }
  | { kind: 'deallocate' | 'unbook'; which: number }
  | { kind: 'match'; picks: number[] }
  | { kind: 'reverse'; which: number; day: number }
  | { kind: 'partner'; which: number; partner: number }
  | { kind: 'account'; which: number; to: 'receivable' | 'payable' | 'bank' }
  | { kind: 'redate'; which: number; day: number }
  | { kind: 'schedule'; posting: Posting; then: 'book' | 'replace' | 'cancel' | 'keep' };

interface Books {
  entityId: string;
  receivable: string;
  payable: string;
  bank: string;
  sales: string;
  partners: string[];
  bookId: string;
}

describe('line aggregates kept by the writing statements (issue 25)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  const base = (entityId: string) => `/api/entities/${entityId}/ledger`;

  async function setUpBooks(): Promise<Books> {
    const entityId = (await createEntity(staff, world.organizationId)).id;
    const account = async (code: string, type: string, tracking: string, subtype: string | null) => {
      const id = randomUUID();
      await staff.post(`${base(entityId)}/accounts`).send({ id, name: code, code, type, tracking, subtype }).expect(201);
      return id;
    };
    const partners: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = randomUUID();
      await staff.post(`/api/entities/${entityId}/partners`).send({ id, name: `Partner ${i}`, type: 'company', country: 'AR', taxId: randomUUID().slice(0, 12) }).expect(201);
      partners.push(id);
    }
    const bookId = randomUUID();
    await staff.post(`/api/entities/${entityId}/books`).send({ id: bookId, name: 'Tax book' }).expect(201);
    return {
      entityId,
      receivable: await account('1105', 'asset', 'open_item', 'receivable'),
      payable: await account('2101', 'liability', 'open_item', 'payable'),
      bank: await account('1102', 'asset', 'balance', null),
      sales: await account('4101', 'income', 'balance', null),
      partners,
      bookId,
    };
  }

  /** A two-line entry: `side` on an open-item account (the receivable, or the payable), its counterpart on a balance account. */
  function entryBody(b: Books, o: Posting) {
    const open = o.payable ? b.payable : b.receivable;
    const counter = o.side === 'debit' ? b.sales : b.bank;
    return {
      id: randomUUID(),
      entryDate: `2026-0${4 + (o.day % 3)}-${String(1 + (o.day % 14)).padStart(2, '0')}`,
      memo: `${o.side} ${o.amount}`,
      ...(o.inBook ? { bookId: b.bookId } : {}),
      newLedgerEntryLines: [
        { side: o.side, ledgerAccountId: open, amount: o.amount, ...(o.partner < b.partners.length ? { partnerId: b.partners[o.partner] } : {}) },
        { side: o.side === 'debit' ? 'credit' : 'debit', ledgerAccountId: counter, amount: o.amount, ...(o.partner === 0 ? { partnerId: b.partners[0] } : {}) },
      ],
    };
  }

  beforeAll(async () => {
    t = await createTestApp({ clock });
    world = await buildWorld(t);
    staff = world.staff;
  });
  afterAll(() => t.close());

  it('no trigger on ledger_lines keeps them any more', async () => {
    const triggers = await t.sql(`SELECT tgname FROM pg_trigger WHERE tgrelid = 'ledger_lines'::regclass AND NOT tgisinternal`);
    expect(triggers).toEqual([]);
    expect(await t.sql(`SELECT proname FROM pg_proc WHERE proname = 'ledger_lines_maintain_totals'`)).toEqual([]);
  });

  it('every statement in src that writes ledger_lines carries LINE_AGGREGATES_UPSERT', () => {
    // A new path that writes lines without the aggregates would silently corrupt them: the list of
    // writing statements is known, and each one's text names the upsert (or its UPDATE helper).
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts') && !path.endsWith('.spec.ts')) files.push(path);
      }
    };
    walk(join(__dirname, '..', 'src'));
    // The code from a write to the end of the function (or constant) that holds it.
    const upToEnd = (text: string, from: number) => {
      const ends = ['\n  }\n', '\n}\n', '`;\n'].map((end) => text.indexOf(end, from)).filter((i) => i >= 0);
      return text.slice(from, Math.min(...ends));
    };
    const writes: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const sites = [...text.matchAll(/(UPDATE|INSERT INTO|DELETE FROM)\s+"?ledger_lines\b|LINES_INSERT\(/gi)];
      for (const match of sites) {
        // LINES_INSERT is a fragment: each statement that uses it is checked at its use.
        if (/^export const LINES_INSERT/m.test(text.slice(text.lastIndexOf('\n', match.index) + 1, match.index + 1))) continue;
        const carries = /LINE_AGGREGATES_UPSERT|updateLinesStatement\(/.test(upToEnd(text, match.index));
        writes.push(`${file.slice(file.indexOf('src/'))}: ${match[0]} ${carries ? 'carries the aggregates' : 'MISSES the aggregates'}`);
      }
    }
    expect(writes.length).toBeGreaterThanOrEqual(5);
    expect(writes.filter((w) => w.includes('MISSES'))).toEqual([]);
  });

  it('property: after random postings, batches, allocations, unbookings, reversals, line and header edits and scheduled entries, both tables equal the lines', async () => {
    const posting: fc.Arbitrary<Posting> = fc.record({
      side: fc.constantFrom('debit' as const, 'credit' as const),
      amount: fc.integer({ min: 1, max: 500 }),
      partner: fc.nat(3),
      day: fc.nat(90),
      payable: fc.boolean(),
      inBook: fc.boolean(),
    });
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('post' as const), posting }),
      fc.record({ kind: fc.constant('batch' as const), postings: fc.array(posting, { minLength: 1, maxLength: 3 }) }),
      fc.record({ kind: fc.constant('allocate' as const), debit: fc.nat(), credit: fc.nat(), amount: fc.integer({ min: 1, max: 400 }) }),
      fc.record({ kind: fc.constant('deallocate' as const), which: fc.nat() }),
      fc.record({ kind: fc.constant('match' as const), picks: fc.array(fc.nat(), { minLength: 2, maxLength: 4 }) }),
      fc.record({ kind: fc.constant('unbook' as const), which: fc.nat() }),
      fc.record({ kind: fc.constant('reverse' as const), which: fc.nat(), day: fc.integer({ min: 1, max: 14 }) }),
      fc.record({ kind: fc.constant('partner' as const), which: fc.nat(), partner: fc.nat(3) }),
      fc.record({ kind: fc.constant('account' as const), which: fc.nat(), to: fc.constantFrom('receivable' as const, 'payable' as const, 'bank' as const) }),
      fc.record({ kind: fc.constant('redate' as const), which: fc.nat(), day: fc.nat(90) }),
      fc.record({ kind: fc.constant('schedule' as const), posting, then: fc.constantFrom('book' as const, 'replace' as const, 'cancel' as const, 'keep' as const) }),
    );
    const succeeded = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 14 }), async (ops: Op[]) => {
        // A fresh Entity per run: a counterexample stands on its own.
        const b = await setUpBooks();
        const lines: Array<{ id: string; entryId: string; side: 'debit' | 'credit'; account: string; bookId: string | null }> = [];
        const allocations: string[] = [];
        const remember = (entry: { id: string; bookId: string | null; lines: Array<{ id: string; side: 'debit' | 'credit'; ledgerAccountId: string }> }) => {
          for (const l of entry.lines) {
            if (l.ledgerAccountId === b.receivable || l.ledgerAccountId === b.payable) lines.push({ id: l.id, entryId: entry.id, side: l.side, account: l.ledgerAccountId, bookId: entry.bookId });
          }
        };
        const post = async (p: Posting) => {
          const res = await staff.post(`${base(b.entityId)}/entries`).send(entryBody(b, p));
          expect(res.status).toBe(201);
          remember(res.body);
        };
        await post({ side: 'debit', amount: 300, partner: 0, day: 10, payable: false, inBook: false });
        await post({ side: 'credit', amount: 200, partner: 0, day: 40, payable: false, inBook: true });
        const pick = (n: number, side?: 'debit' | 'credit', like?: { account: string; bookId: string | null }) => {
          const of = lines.filter((l) => (!side || l.side === side) && (!like || (l.account === like.account && l.bookId === like.bookId)));
          return of.length === 0 ? undefined : of[n % of.length];
        };
        for (const o of ops) {
          let res: { status: number; body: Record<string, unknown> } | undefined;
          if (o.kind === 'post') {
            await post(o.posting);
          } else if (o.kind === 'batch') {
            const entries = o.postings.map((p) => entryBody(b, p));
            res = await staff.post(`${base(b.entityId)}/entry-batches`).send({ entries });
            if (res.status < 300) {
              for (const e of entries) {
                const got = await staff.get(`${base(b.entityId)}/entries/${e.id}`);
                if (got.status === 200) remember(got.body);
              }
            }
          } else if (o.kind === 'allocate') {
            const debit = pick(o.debit, 'debit');
            const credit = debit && pick(o.credit, 'credit', debit);
            if (!debit || !credit) continue;
            const id = randomUUID();
            res = await staff.post(`${base(b.entityId)}/allocations`).send({ id, debitLineId: debit.id, creditLineId: credit.id, amount: o.amount });
            if (res.status === 201) allocations.push(id);
          } else if (o.kind === 'deallocate') {
            if (allocations.length === 0) continue;
            res = await staff.delete(`${base(b.entityId)}/allocations/${allocations[o.which % allocations.length]}`);
          } else if (o.kind === 'match') {
            const first = pick(o.picks[0])!;
            res = await staff.post(`${base(b.entityId)}/allocations/match`).send({ lineIds: o.picks.map((p) => pick(p, undefined, first)!.id) });
          } else if (o.kind === 'unbook') {
            res = await staff.delete(`${base(b.entityId)}/entries/${pick(o.which)!.entryId}`);
          } else if (o.kind === 'reverse') {
            res = await staff.post(`${base(b.entityId)}/entries/${pick(o.which)!.entryId}/reverse`).send({ id: randomUUID(), reversalDate: `2026-06-${String(o.day).padStart(2, '0')}` });
            if (res.status === 201) remember(res.body.reversalEntry as Parameters<typeof remember>[0]);
          } else if (o.kind === 'partner') {
            res = await staff.patch(`${base(b.entityId)}/lines/${pick(o.which)!.id}/partner`).send({ partnerId: o.partner < b.partners.length ? b.partners[o.partner] : null });
          } else if (o.kind === 'account') {
            res = await staff.patch(`${base(b.entityId)}/lines/${pick(o.which)!.id}/account`).send({ ledgerAccountId: b[o.to] });
          } else if (o.kind === 'redate') {
            res = await staff.patch(`${base(b.entityId)}/entries/${pick(o.which)!.entryId}`).send({ entryDate: `2026-0${4 + (o.day % 3)}-${String(1 + (o.day % 14)).padStart(2, '0')}` });
          } else if (o.kind === 'schedule') {
            const body = { ...entryBody(b, o.posting), entryDate: '2026-06-25' };
            res = await staff.post(`${base(b.entityId)}/scheduled-entries`).send(body);
            expect(res.status).toBe(201);
            if (o.then === 'book') {
              // Booked on its date: the clock moves there and back.
              clock.set(new Date('2026-06-25T15:00:00Z'));
              res = await staff.post(`${base(b.entityId)}/scheduled-entries/${body.id}/book`);
              clock.set(new Date('2026-06-15T15:00:00Z'));
              if (res.status === 200 || res.status === 201) remember(res.body as Parameters<typeof remember>[0]);
            } else if (o.then === 'replace') {
              const { id: _id, bookId: _book, ...replacement } = { ...entryBody(b, { ...o.posting, amount: o.posting.amount + 1 }), entryDate: '2026-06-28' };
              res = await staff.patch(`${base(b.entityId)}/scheduled-entries/${body.id}`).send(replacement);
            } else if (o.then === 'cancel') {
              res = await staff.delete(`${base(b.entityId)}/scheduled-entries/${body.id}`);
            }
          }
          if (res) expect(res.status).toBeLessThan(500);
          const kind = o.kind === 'schedule' ? `schedule-${o.then}` : o.kind;
          if (!res || res.status < 300) succeeded.set(kind, (succeeded.get(kind) ?? 0) + 1);
        }
        await expectLineTotalsMatchLines(t, b.entityId);
      }),
      {
        numRuns: 15,
        // First a sequence in which each path succeeds (lines: 0 the first debit, 1 the first
        // credit, in a Book, 2 the posted credit); the random ones follow.
        examples: [
          [
            [
              { kind: 'post', posting: { side: 'credit', amount: 100, partner: 0, day: 4, payable: false, inBook: false } },
              { kind: 'allocate', debit: 0, credit: 0, amount: 50 },
              { kind: 'deallocate', which: 0 },
              { kind: 'match', picks: [0, 1] },
              { kind: 'partner', which: 1, partner: 1 },
              { kind: 'account', which: 1, to: 'payable' },
              { kind: 'redate', which: 1, day: 3 },
              { kind: 'reverse', which: 1, day: 10 },
              { kind: 'unbook', which: 0 },
              { kind: 'batch', postings: [{ side: 'debit', amount: 10, partner: 2, day: 1, payable: false, inBook: false }] },
              ...(['book', 'replace', 'cancel', 'keep'] as const).map((then) => ({ kind: 'schedule' as const, then, posting: { side: 'debit' as const, amount: 20, partner: 1, day: 2, payable: true, inBook: true } })),
            ],
          ],
        ],
      },
    );
    // The property exercised every path it names, each at least once with success.
    expect([...succeeded.keys()].sort()).toEqual(
      ['account', 'allocate', 'batch', 'deallocate', 'match', 'partner', 'post', 'redate', 'reverse', 'schedule-book', 'schedule-cancel', 'schedule-keep', 'schedule-replace', 'unbook'],
    );
  });

  it('racing postings, allocations, deallocations and partner edits on one account and partner leave both tables exact', async () => {
    const b = await setUpBooks();
    const post = async (side: 'debit' | 'credit', amount: number) => {
      const res = await staff.post(`${base(b.entityId)}/entries`).send(entryBody(b, { side, amount, partner: 0, day: 20, payable: false, inBook: false }));
      expect([res.status, res.body.code]).toEqual([201, undefined]);
      return res.body.lines[0].id as string;
    };
    const debits = await Promise.all(Array.from({ length: 6 }, (_, i) => post('debit', 100 + i)));
    const credits = await Promise.all(Array.from({ length: 6 }, (_, i) => post('credit', 90 + i)));
    const made = await Promise.all(
      debits.map(async (debit, i) => {
        const id = randomUUID();
        const res = await staff.post(`${base(b.entityId)}/allocations`).send({ id, debitLineId: debit, creditLineId: credits[i], amount: 40 });
        expect(res.status).toBe(201);
        return id;
      }),
    );
    const results = await Promise.all([
      // New lines of the same account and partner, in the same months and slots.
      ...Array.from({ length: 8 }, (_, i) => staff.post(`${base(b.entityId)}/entries`).send(entryBody(b, { side: i % 2 ? 'credit' : 'debit', amount: 10 + i, partner: 0, day: 20, payable: false, inBook: false }))),
      // Allocations between the same lines, racing each other over their open amounts.
      ...debits.flatMap((debit, i) =>
        [0, 1].map(() => staff.post(`${base(b.entityId)}/allocations`).send({ id: randomUUID(), debitLineId: debit, creditLineId: credits[(i + 1) % credits.length], amount: 7 })),
      ),
      staff.post(`${base(b.entityId)}/allocations/match`).send({ lineIds: [debits[0], debits[1], credits[2], credits[3]] }),
      // Removals of allocations made before, and partner edits of lines being allocated.
      ...made.slice(0, 3).map((id) => staff.delete(`${base(b.entityId)}/allocations/${id}`)),
      staff.patch(`${base(b.entityId)}/lines/${debits[4]}/partner`).send({ partnerId: b.partners[1] }),
      staff.patch(`${base(b.entityId)}/lines/${credits[5]}/partner`).send({ partnerId: null }),
      staff.delete(`${base(b.entityId)}/entries/${(await t.sql<{ entry_id: string }>('SELECT entry_id FROM ledger_lines WHERE entity_id = $1 AND id = $2', [b.entityId, credits[4]]))[0].entry_id}`),
    ]);
    for (const res of results) expect(res.status).toBeLessThan(500);
    expect(results.filter((r) => r.status < 300).length).toBeGreaterThan(20);
    await expectLineTotalsMatchLines(t, b.entityId);
    // And the figures the API answers from them equal the lines'.
    const res = await staff.get(`${base(b.entityId)}/open-item-lines`).query({ accountId: b.receivable, bookId: b.bookId, partnerId: b.partners[0], limit: 1 });
    expect(res.status).toBe(200);
    const [fromLines] = await t.sql<{ n: number; total: string }>(
      `SELECT count(*)::int AS n, sum(CASE side WHEN 'debit' THEN amount - allocated_amount ELSE allocated_amount - amount END)::text AS total
         FROM ledger_lines WHERE entity_id = $1 AND account_id = $2 AND partner_id = $3 AND is_open_item AND status IN ('active', 'reversed') AND allocated_amount < amount`,
      [b.entityId, b.receivable, b.partners[0]],
    );
    expect({ lineCount: res.body.lineCount, openTotal: res.body.openTotal }).toEqual({ lineCount: fromLines.n, openTotal: Number(fromLines.total ?? 0) });
  });
});
