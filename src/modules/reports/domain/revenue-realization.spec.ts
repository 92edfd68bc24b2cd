import fc from 'fast-check';
import { figuresOn, monthSpans, recognizedBetween, recognizedThrough, revenueCells, RevenueInvoice } from './revenue-realization';

const invoice = (over: Partial<RevenueInvoice> = {}): RevenueInvoice => ({
  invoiceId: 'i1',
  sign: 1,
  issueDate: '2026-01-15',
  periodStart: '2026-01-15',
  periodEnd: '2026-03-14',
  amount: 1_000_000n,
  receivableAmount: 1_190_000n,
  bookedOn: '2026-01-15',
  settlements: [],
  ...over,
});

describe('revenue realization (D82, D82a, D82b)', () => {
  it('cuts the first and last month to the range', () => {
    expect(monthSpans('2026-01-15', '2026-03-10')).toEqual([
      { month: '2026-01', from: '2026-01-15', to: '2026-01-31' },
      { month: '2026-02', from: '2026-02-01', to: '2026-02-28' },
      { month: '2026-03', from: '2026-03-01', to: '2026-03-10' },
    ]);
    expect(monthSpans('2026-12-31', '2027-01-01').map((s) => s.month)).toEqual(['2026-12', '2027-01']);
  });

  it('spreads by day, rounding each cumulative figure down: 1,000,000 over 59 days', () => {
    // 15 Jan..14 Mar 2026: 17 days in January, 28 in February, 14 in March.
    const i = invoice();
    expect(recognizedBetween(i, '2026-01-01', '2026-01-31')).toBe(288_135n); // floor(1e6*17/59)
    expect(recognizedBetween(i, '2026-02-01', '2026-02-28')).toBe(762_711n - 288_135n); // floor(1e6*45/59)
    expect(recognizedBetween(i, '2026-03-01', '2026-03-31')).toBe(1_000_000n - 762_711n);
    expect(recognizedThrough(i, '2026-01-14')).toBe(0n);
    expect(recognizedThrough(i, '2027-01-01')).toBe(1_000_000n);
  });

  it('never loses a minor unit: any split of the period adds up to the amount, each day 0 or more', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 9_007_199_254_740_991n }),
        fc.integer({ min: 0, max: 800 }),
        fc.array(fc.integer({ min: 0, max: 800 }), { maxLength: 6 }),
        fc.constantFrom<1 | -1>(1, -1),
        (amount, length, cuts, sign) => {
          const start = '2025-11-20';
          const day = (n: number) => new Date(Date.parse(`${start}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
          const i = invoice({ amount, sign, periodStart: start, periodEnd: day(length) });
          const edges = [...new Set(cuts.filter((c) => c < length))].sort((a, b) => a - b);
          let sum = 0n;
          let from = -3;
          for (const edge of [...edges, length + 5]) {
            const part = recognizedBetween(i, day(from), day(edge));
            expect(part * BigInt(sign) >= 0n).toBe(true);
            sum += part;
            from = edge + 1;
          }
          expect(sum).toBe(BigInt(sign) * amount);
        },
      ),
    );
  });

  it('collects by the settling date and keeps outstanding at each month end', () => {
    const i = invoice({ settlements: [{ date: '2026-02-10', amount: 500_000n }, { date: '2026-03-20', amount: 690_000n }] });
    const cells = revenueCells([i], '2026-01-01', '2026-03-31');
    expect(cells.map(({ month, billed, collected, outstanding }) => ({ month, billed, collected, outstanding }))).toEqual([
      { month: '2026-01', billed: 1_000_000n, collected: 0n, outstanding: 1_190_000n },
      { month: '2026-02', billed: 0n, collected: 500_000n, outstanding: 690_000n },
      { month: '2026-03', billed: 0n, collected: 690_000n, outstanding: 0n },
    ]);
  });

  it('counts a credit note against revenue', () => {
    const note = invoice({ sign: -1, amount: 100n, receivableAmount: 119n, periodStart: '2026-01-15', periodEnd: '2026-01-15' });
    expect(revenueCells([note], '2026-01-01', '2026-01-31')).toEqual([{ invoiceId: 'i1', month: '2026-01', recognized: -100n, billed: -100n, collected: 0n, outstanding: -119n }]);
  });
});

describe('revenueCells (issue 22: day numbers computed once)', () => {
  const day = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
  it('gives the figures of figuresOn on every month span, zero cells left out', () => {
    const invoice = fc.record({
      start: fc.integer({ min: 0, max: 500 }),
      length: fc.integer({ min: 0, max: 200 }),
      issue: fc.integer({ min: 0, max: 600 }),
      booked: fc.integer({ min: 0, max: 600 }),
      amount: fc.bigInt({ min: 0n, max: 10n ** 15n }),
      receivable: fc.bigInt({ min: 0n, max: 10n ** 15n }),
      sign: fc.constantFrom(1 as const, -1 as const),
      settlements: fc.array(fc.record({ date: fc.integer({ min: 0, max: 700 }), amount: fc.bigInt({ min: 1n, max: 10n ** 12n }) }), { maxLength: 4 }),
    });
    fc.assert(
      fc.property(fc.array(invoice, { maxLength: 6 }), fc.integer({ min: 0, max: 600 }), fc.integer({ min: 0, max: 200 }), (list, from, span) => {
        const invoices = list.map((i, n) => ({
          invoiceId: `i${n}`,
          sign: i.sign,
          issueDate: day(i.issue),
          periodStart: day(i.start),
          periodEnd: day(i.start + i.length),
          amount: i.amount,
          receivableAmount: i.receivable,
          bookedOn: day(i.booked),
          settlements: i.settlements.map((s) => ({ date: day(s.date), amount: s.amount })),
        }));
        const expected = invoices.flatMap((inv) =>
          monthSpans(day(from), day(from + span))
            .map((s) => ({ invoiceId: inv.invoiceId, month: s.month, ...figuresOn(inv, s) }))
            .filter((c) => c.recognized !== 0n || c.billed !== 0n || c.collected !== 0n || c.outstanding !== 0n),
        );
        expect(revenueCells(invoices, day(from), day(from + span))).toEqual(expected);
      }),
    );
  });
});
