import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { addDays } from '../libs/shared-kernel/src';
import { FixedClock } from '../src/platform/clock/clock';
import type { TestApp } from './harness/test-app';
import { Agent, createWorldApp, freshEntity, World } from './harness/world';

/**
 * D82c: revenue realization's month and total figures are summed in SQL over every invoice, and
 * its invoice rows come in pages. Property: on random ledgers of AR invoices (service periods,
 * credit notes, foreign currency, bookings dated later, partial payments), for random ranges, the
 * figures equal those of the cell-by-cell path (a presentation currency of the same exponent at
 * rate 1 converts nothing and goes through every invoice's cells, D57), and walking the pages
 * with any limit lists exactly that path's invoice rows, in order, each once. Ranges of whole
 * months read the months kept at write time (issue 35), the others the per-invoice statement.
 */
const NOW = new Date('2026-12-31T12:00:00Z');

interface InvoiceSpec {
  issueOffset: number;
  credit: boolean;
  foreign: boolean;
  net: number;
  exempt: number;
  period: { start: number; length: number } | null;
  bookDelay: number;
  payments: Array<{ offset: number; share: number }>;
}

const invoiceSpec: fc.Arbitrary<InvoiceSpec> = fc.record({
  issueOffset: fc.integer({ min: 0, max: 700 }),
  credit: fc.boolean(),
  foreign: fc.boolean(),
  net: fc.integer({ min: 1, max: 2_000_000 }),
  exempt: fc.integer({ min: 0, max: 50_000 }),
  period: fc.option(fc.record({ start: fc.integer({ min: -10, max: 30 }), length: fc.integer({ min: 0, max: 200 }) }), { nil: null }),
  bookDelay: fc.integer({ min: 0, max: 40 }),
  payments: fc.array(fc.record({ offset: fc.integer({ min: -5, max: 300 }), share: fc.integer({ min: 1, max: 60 }) }), { maxLength: 2 }),
});

// `whole`: the range of whole months from `from`'s month, `days / 30` months more (issue 35: those
// figures come from the months kept at write time, report_revenue_months).
const rangeSpec = fc.record({ from: fc.integer({ min: 0, max: 720 }), days: fc.integer({ min: 0, max: 400 }), whole: fc.boolean() });

/** The last day of the month `months` after `date`'s. */
function monthEndAfter(date: string, months: number): string {
  const [y, m] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m + months, 0)).toISOString().slice(0, 10);
}

describe('revenue realization: SQL month figures and pages (D82c)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock: new FixedClock(NOW) }));
  });
  afterAll(() => t?.close());

  const day = (offset: number) => addDays('2025-01-01', Math.min(offset, 725));

  it('equal the cell-by-cell figures, and the pages list its rows', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(invoiceSpec, { minLength: 1, maxLength: 9 }), fc.array(fc.tuple(rangeSpec, fc.integer({ min: 1, max: 4 })), { minLength: 1, maxLength: 3 }), async (specs, ranges) => {
        const entityId = await freshEntity(world);
        const base = `/api/entities/${entityId}`;
        const post = async (path: string, body: Record<string, unknown>) => {
          const res = await staff.post(`${base}${path}`).send(body);
          if (res.status !== 201 && res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
          return res.body;
        };
        const ids: Record<string, string> = {};
        for (const [key, code, type, extra] of [
          ['bank', '1101', 'asset', {}],
          ['receivable', '1201', 'asset', { tracking: 'open_item', subtype: 'receivable' }],
          ['sales', '4101', 'income', {}],
        ] as const) {
          ids[key] = randomUUID();
          await post('/ledger/accounts', { id: ids[key], name: key, code, type, tracking: 'balance', ...extra });
        }
        ids.partner = randomUUID();
        await post('/partners', { id: ids.partner, name: 'Cliente', type: 'company', country: 'CL', taxId: '76.086.428-5' });
        let number = 100;
        for (const spec of specs) {
          const id = randomUUID();
          const issueDate = day(spec.issueOffset);
          const period = spec.period ? { servicePeriodStart: addDays(issueDate, spec.period.start), servicePeriodEnd: addDays(issueDate, spec.period.start + spec.period.length) } : {};
          const total = spec.net + spec.exempt;
          await post('/invoices', {
            id,
            partnerId: ids.partner,
            direction: 'ar',
            documentKind: spec.credit ? 'credit_note' : 'invoice',
            documentNumber: String(number++),
            issueDate,
            netAmount: spec.net,
            exemptAmount: spec.exempt,
            taxAmount: 0,
            totalAmount: total,
            currency: spec.foreign ? 'USD' : 'CLP',
            ...(spec.foreign ? { exchangeRate: '950.55' } : {}),
            ...period,
          });
          const booked = await post(`/invoices/${id}/book`, { entryId: randomUUID(), entryDate: day(spec.issueOffset + spec.bookDelay), counterAccountId: ids.sales });
          const receivable = (booked.entry.lines as Array<{ id: string; ledgerAccountId: string; amount: number }>).find((l) => l.ledgerAccountId === ids.receivable)!;
          let open = receivable.amount;
          for (const payment of spec.payments) {
            const amount = Math.min(open, Math.max(1, Math.floor((receivable.amount * payment.share) / 100)));
            if (amount <= 0) break;
            open -= amount;
            // A payment settles an invoice (credit on the receivable), a refund a credit note (debit on it).
            const paid = await post('/ledger/entries', {
              id: randomUUID(),
              entryDate: day(spec.issueOffset + Math.max(0, payment.offset)),
              memo: 'payment',
              newLedgerEntryLines: [
                { side: spec.credit ? 'credit' : 'debit', ledgerAccountId: ids.bank, amount },
                { side: spec.credit ? 'debit' : 'credit', ledgerAccountId: ids.receivable, amount, partnerId: ids.partner },
              ],
            });
            const other = (paid.lines as Array<{ id: string; ledgerAccountId: string }>).find((l) => l.ledgerAccountId === ids.receivable)!;
            await post('/ledger/allocations', {
              id: randomUUID(),
              debitLineId: spec.credit ? other.id : receivable.id,
              creditLineId: spec.credit ? receivable.id : other.id,
              amount,
            });
          }
        }
        for (const [range, limit] of ranges) {
          const query = range.whole
            ? { from: `${day(range.from).slice(0, 7)}-01`, to: monthEndAfter(day(range.from), Math.floor(range.days / 30)) }
            : { from: day(range.from), to: addDays(day(range.from), range.days) };
          const sql = await staff.get(`${base}/reports/revenue-realization`).query(query);
          const cells = await staff.get(`${base}/reports/revenue-realization`).query({ ...query, presentationCurrency: 'JPY', presentationRate: '1', invoiceLimit: 1000 });
          expect([sql.status, cells.status]).toEqual([200, 200]);
          expect({ months: sql.body.months, totals: sql.body.totals }).toEqual({ months: cells.body.months, totals: cells.body.totals });
          const listed: unknown[] = [];
          let cursor: string | null = null;
          for (let pages = 0; pages < 20; pages++) {
            const page = await staff.get(`${base}/reports/revenue-realization`).query({ ...query, invoiceLimit: limit, ...(cursor ? { invoiceCursor: cursor } : {}) });
            expect(page.status).toBe(200);
            expect(page.body.invoices.length).toBeLessThanOrEqual(limit);
            listed.push(...page.body.invoices);
            cursor = page.body.nextInvoiceCursor;
            if (cursor === null) break;
          }
          expect(listed).toEqual(cells.body.invoices);
        }
      }),
      { numRuns: Number(process.env.REVENUE_PAGES_RUNS ?? 6) },
    );
  }, 300_000);
});
