import fc from 'fast-check';
import { greedyMatch, judgeAllocation, LineForAllocation, openAmountOf } from './allocation';

let seq = 0;
const line = (side: 'debit' | 'credit', amount: number, extra: Partial<LineForAllocation> = {}): LineForAllocation => ({
  id: `l${String(++seq).padStart(4, '0')}`,
  side,
  accountId: 'receivable',
  isOpenItem: true,
  bookId: null,
  status: 'active',
  entryId: `e${seq}`,
  entryDate: '2026-06-01',
  reversalOfEntryId: null,
  amount,
  allocatedAmount: 0,
  ...extra,
});
const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return null;
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('Allocation rules', () => {
  it('refuses each broken rule with its code', () => {
    const d = line('debit', 100);
    const c = line('credit', 100);
    expect(codeOf(() => judgeAllocation(d, d, 1))).toBe('RECONCILIATION_ALLOCATION_DEBIT_AND_CREDIT_LINE_IDS_CANNOT_BE_THE_SAME_ERROR');
    expect(codeOf(() => judgeAllocation(c, line('credit', 1), 1))).toBe('RECONCILIATION_ALLOCATION_DEBIT_LINE_MUST_BE_DEBIT_ERROR');
    expect(codeOf(() => judgeAllocation(d, line('debit', 1), 1))).toBe('RECONCILIATION_ALLOCATION_CREDIT_LINE_MUST_BE_CREDIT_ERROR');
    expect(codeOf(() => judgeAllocation(d, line('credit', 1, { accountId: 'other' }), 1))).toBe('RECONCILIATION_ALLOCATION_LINES_ON_DIFFERENT_ACCOUNTS_ERROR');
    expect(codeOf(() => judgeAllocation(line('debit', 1, { isOpenItem: false }), line('credit', 1, { isOpenItem: false }), 1))).toBe(
      'RECONCILIATION_ALLOCATION_ACCOUNT_MUST_BE_OPEN_ITEM_ERROR',
    );
    expect(codeOf(() => judgeAllocation(d, line('credit', 1, { bookId: 'b' }), 1))).toBe('RECONCILIATION_ALLOCATION_LINES_IN_DIFFERENT_BOOKS_ERROR');
    expect(codeOf(() => judgeAllocation(d, line('credit', 100, { reversalOfEntryId: d.entryId }), 1))).toBe('RECONCILIATION_ALLOCATION_NETS_REVERSAL_ERROR');
    expect(codeOf(() => judgeAllocation(d, line('credit', 50), 51))).toBe('RECONCILIATION_ALLOCATION_AMOUNT_EXCEEDS_OPEN_AMOUNT_ERROR');
    expect(codeOf(() => judgeAllocation(d, line('credit', 50, { status: 'deleted' }), 1))).toBe('LEDGER_ENTRY_NOT_LIVE_ERROR');
    expect(codeOf(() => judgeAllocation(d, c, 100))).toBeNull();
  });

  it('greedy matching never takes more than a line has open, and settles the smaller side whole (D39)', () => {
    const amounts = fc.array(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(amounts, amounts, fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 16 }), (debits, credits, dayOffsets) => {
        const lines = [
          ...debits.map((a, i) => line('debit', a, { entryDate: `2026-06-0${1 + (dayOffsets[i] ?? 0) % 9}` })),
          ...credits.map((a, i) => line('credit', a, { entryDate: `2026-06-0${1 + (dayOffsets[i + 8] ?? 0) % 9}` })),
        ];
        const pairs = greedyMatch(lines);
        const taken = new Map<string, number>();
        for (const p of pairs) {
          expect(p.amount).toBeGreaterThan(0);
          taken.set(p.debitLineId, (taken.get(p.debitLineId) ?? 0) + p.amount);
          taken.set(p.creditLineId, (taken.get(p.creditLineId) ?? 0) + p.amount);
        }
        for (const l of lines) expect(taken.get(l.id) ?? 0).toBeLessThanOrEqual(openAmountOf(l));
        const total = pairs.reduce((s, p) => s + p.amount, 0);
        expect(total).toBe(Math.min(debits.reduce((a, b) => a + b, 0), credits.reduce((a, b) => a + b, 0)));
      }),
    );
  });

  it('pairs the oldest debit with the oldest credit first', () => {
    const older = line('debit', 10, { entryDate: '2026-05-01' });
    const newer = line('debit', 10, { entryDate: '2026-06-01' });
    const credit = line('credit', 10, { entryDate: '2026-06-02' });
    expect(greedyMatch([newer, credit, older])).toEqual([{ debitLineId: older.id, creditLineId: credit.id, amount: 10 }]);
  });
});
