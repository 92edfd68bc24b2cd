import fc from 'fast-check';
import { DomainError } from '../../../../libs/shared-kernel/src';
import { AccountType, Tracking } from './account-types';
import { assertEntryDate, LedgerEntry, LineInput, PostingContext } from './ledger-entry';

const now = new Date('2026-06-01T12:00:00Z');
const ACCOUNTS: Record<string, { type: AccountType; tracking: Tracking }> = {
  bank: { type: 'asset', tracking: 'balance' },
  receivable: { type: 'asset', tracking: 'open_item' },
  sales: { type: 'income', tracking: 'balance' },
  vat: { type: 'liability', tracking: 'balance' },
  rent: { type: 'operating_expense', tracking: 'balance' },
};
const VALUES: Record<string, { dimensionId: string }> = { cc1: { dimensionId: 'cost-center' }, cc2: { dimensionId: 'cost-center' }, p1: { dimensionId: 'project' } };
const EXPONENTS: Record<string, number> = { CLP: 0, USD: 2, CLF: 4 };

const context: PostingContext = {
  functionalCurrency: 'CLP',
  account: (id) => ACCOUNTS[id],
  partnerExists: (id) => id === 'partner-1',
  partnerNotFound: (partnerId) => new DomainError('PARTNER_NOT_FOUND_ERROR', 'No partner with this id in the Entity', { partnerId }, 404),
  dimensionValue: (id) => VALUES[id],
  exponent: (c) => EXPONENTS[c],
};

let lineSeq = 0;
const line = (side: 'debit' | 'credit', ledgerAccountId: string, amount: number, extra: Partial<LineInput> = {}): LineInput => ({
  id: `l${++lineSeq}`,
  side,
  ledgerAccountId,
  amount,
  description: null,
  partnerId: null,
  dimensionValueIds: [],
  transactionCurrency: null,
  transactionAmount: null,
  exchangeRate: null,
  ...extra,
});
const header = { entityId: 'e', id: 'entry', bookId: null, entryDate: '2026-05-31', memo: ' Venta ', notes: null, status: 'active' as const, source: 'manual' as const };
const post = (lines: LineInput[]) => LedgerEntry.post(header, lines, context, now);
const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return null;
  } catch (e) {
    return (e as { code?: string }).code;
  }
};

/** Any number of debit and credit amounts that sum to the same total. */
const balancedLines = fc
  .tuple(fc.array(fc.integer({ min: 1, max: 1_000_000_000 }), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 5 }))
  .map(([debits, creditCount]) => {
    const total = debits.reduce((a, b) => a + b, 0);
    const credits: number[] = [];
    let left = total;
    for (let i = 0; i < creditCount - 1 && left > 1; i++) {
      const part = Math.max(1, Math.floor(left / (creditCount - i)));
      credits.push(part);
      left -= part;
    }
    credits.push(left);
    return [...debits.map((a) => line('debit', 'bank', a)), ...credits.map((a) => line('credit', 'sales', a))];
  });

describe('LedgerEntry', () => {
  it('any generated valid entry balances', () => {
    fc.assert(
      fc.property(balancedLines, (lines) => {
        const entry = post(lines);
        expect(entry.debitTotal()).toBe(entry.creditTotal());
        expect(entry.lines).toHaveLength(lines.length);
      }),
    );
  });

  it('any change of one amount that unbalances it is refused', () => {
    fc.assert(
      fc.property(balancedLines, fc.nat(), fc.integer({ min: 1, max: 1000 }), (lines, which, delta) => {
        const mutated = lines.map((l, i) => (i === which % lines.length ? { ...l, amount: l.amount + delta } : l));
        expect(codeOf(() => post(mutated))).toBe('LEDGER_ENTRY_UNBALANCED_ERROR');
      }),
    );
  });

  it('never posts MAX + 2 debited against MAX + 1 credited (floating-point sums compared them equal, and it was posted)', () => {
    const MAX = Number.MAX_SAFE_INTEGER;
    expect(MAX + 2 === MAX + 1).toBe(true);
    expect(codeOf(() => post([line('debit', 'bank', MAX), line('debit', 'bank', 2), line('credit', 'sales', MAX), line('credit', 'sales', 1)]))).toBe('VALIDATION_ERROR');
    expect(codeOf(() => post([line('debit', 'bank', MAX - 2), line('debit', 'bank', 1), line('credit', 'sales', MAX)]))).toBe('LEDGER_ENTRY_UNBALANCED_ERROR');
  });

  it('refuses totals above the largest amount (D6) with VALIDATION_ERROR on the lines, balanced or not', () => {
    const MAX = Number.MAX_SAFE_INTEGER;
    for (const lines of [
      [line('debit', 'bank', MAX), line('debit', 'bank', 1), line('credit', 'sales', MAX), line('credit', 'sales', 1)],
      [line('debit', 'bank', MAX), line('debit', 'bank', 2), line('credit', 'sales', MAX), line('credit', 'sales', 1)],
    ]) {
      try {
        post(lines);
        throw new Error('posted');
      } catch (e) {
        expect(e).toMatchObject({ code: 'VALIDATION_ERROR', params: { errors: [{ path: 'lines' }] } });
      }
    }
    expect(post([line('debit', 'bank', MAX - 1), line('debit', 'bank', 1), line('credit', 'sales', MAX)]).lines).toHaveLength(3);
  });

  it('a reversal nets every account to zero', () => {
    fc.assert(
      fc.property(balancedLines, (lines) => {
        const original = post(lines);
        const mirror = original.reverse({ id: 'rev', reversalDate: '2026-06-01', lineIds: lines.map((_, i) => `r${i}`), ledgerLockDate: null }, now);
        const net = new Map<string, number>();
        for (const l of [...original.lines, ...mirror.lines]) {
          net.set(l.ledgerAccountId, (net.get(l.ledgerAccountId) ?? 0) + (l.side === 'debit' ? l.amount : -l.amount));
        }
        for (const value of net.values()) expect(value).toBe(0);
        expect(original.status).toBe('reversed');
        expect(mirror.snapshot()).toMatchObject({ status: 'active', source: 'reversal', reversalOfEntryId: 'entry' });
      }),
    );
  });

  it('refuses totals past the largest amount (D6), where a double would round both totals to one number', () => {
    const max = Number.MAX_SAFE_INTEGER;
    const debits = [line('debit', 'bank', max), line('debit', 'bank', max - 1)];
    const credits = [line('credit', 'sales', max), line('credit', 'sales', max - 2)];
    expect(max + (max - 1) === max + (max - 2)).toBe(true); // what doubles make of the two totals
    expect(codeOf(() => post([...debits, ...credits]))).toBe('VALIDATION_ERROR');
    expect(codeOf(() => post([line('debit', 'bank', max - 1), line('debit', 'bank', 1), line('credit', 'sales', max)]))).toBeNull();
    expect(codeOf(() => post([line('debit', 'bank', max - 1), line('debit', 'bank', 1), line('credit', 'sales', max - 1)]))).toBe('LEDGER_ENTRY_UNBALANCED_ERROR');
  });

  it('needs at least two lines', () => {
    expect(codeOf(() => post([line('debit', 'bank', 1)]))).toBe('LEDGER_ENTRY_LINE_COUNT_ERROR');
  });

  it('refuses non-positive or fractional amounts', () => {
    for (const amount of [0, -5, 1.5, Number.MAX_SAFE_INTEGER + 2]) {
      expect(codeOf(() => post([line('debit', 'bank', amount), line('credit', 'sales', amount)]))).toBe('VALIDATION_ERROR');
    }
  });

  it('knows only accounts, partners and values of the Entity', () => {
    expect(codeOf(() => post([line('debit', 'nope', 1), line('credit', 'sales', 1)]))).toBe('LEDGER_ACCOUNT_NOT_FOUND_ERROR');
    expect(codeOf(() => post([line('debit', 'bank', 1, { partnerId: 'ghost' }), line('credit', 'sales', 1)]))).toBe('PARTNER_NOT_FOUND_ERROR');
    expect(codeOf(() => post([line('debit', 'rent', 1, { dimensionValueIds: ['ghost'] }), line('credit', 'bank', 1)]))).toBe('DIMENSION_VALUE_NOT_FOUND_ERROR');
  });

  it('tags Dimension Values only on Result Accounts, one per Dimension', () => {
    expect(codeOf(() => post([line('debit', 'bank', 1, { dimensionValueIds: ['cc1'] }), line('credit', 'sales', 1)]))).toBe(
      'LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR',
    );
    expect(codeOf(() => post([line('debit', 'rent', 1, { dimensionValueIds: ['cc1', 'cc2'] }), line('credit', 'bank', 1)]))).toBe(
      'LEDGER_LINE_DUPLICATE_DIMENSION_ERROR',
    );
    const entry = post([line('debit', 'rent', 1, { dimensionValueIds: ['cc1', 'p1'] }), line('credit', 'bank', 1)]);
    expect(entry.lines[0].dimensionValues).toEqual([{ id: 'cc1', dimensionId: 'cost-center' }, { id: 'p1', dimensionId: 'project' }]);
  });

  it('takes the transaction trio all or nothing, and consistent with the amount (D7)', () => {
    const usd = { transactionCurrency: 'USD', transactionAmount: 10000, exchangeRate: '950.5' };
    expect(post([line('debit', 'bank', 95050, usd), line('credit', 'sales', 95050, usd)]).lines[0]).toMatchObject(usd);
    expect(codeOf(() => post([line('debit', 'bank', 95051, usd), line('credit', 'sales', 95051)]))).toBe('LEDGER_LINE_TRANSACTION_AMOUNT_MISMATCH_ERROR');
    expect(codeOf(() => post([line('debit', 'bank', 1, { transactionCurrency: 'USD' }), line('credit', 'sales', 1)]))).toBe('VALIDATION_ERROR');
    expect(codeOf(() => post([line('debit', 'bank', 1, { ...usd, transactionCurrency: 'XYZ' }), line('credit', 'sales', 1)]))).toBe('VALIDATION_ERROR');
    expect(codeOf(() => post([line('debit', 'bank', 1, { ...usd, exchangeRate: '0.0' }), line('credit', 'sales', 1)]))).toBe('VALIDATION_ERROR');
    expect(post([line('debit', 'bank', 95050, { ...usd, exchangeRate: '0950.500' }), line('credit', 'sales', 95050)]).lines[0].exchangeRate).toBe('950.5');
  });

  it('moves between statuses only through the named transitions (D35)', () => {
    const scheduled = LedgerEntry.post({ ...header, status: 'scheduled', source: 'scheduled', entryDate: '2026-07-01' }, [line('debit', 'bank', 5), line('credit', 'sales', 5)], context, now);
    expect(codeOf(() => scheduled.unbook(now))).toBe('LEDGER_ENTRY_NOT_LIVE_ERROR');
    expect(codeOf(() => scheduled.book('2026-06-30', now))).toBe('LEDGER_SCHEDULED_ENTRY_NOT_DUE_ERROR');
    scheduled.book('2026-07-01', now);
    expect(scheduled.status).toBe('active');
    expect(codeOf(() => scheduled.cancel(now))).toBe('LEDGER_ENTRY_NOT_SCHEDULED_ERROR');

    const entry = post([line('debit', 'bank', 5), line('credit', 'sales', 5)]);
    // D36's order: the date against the original, then against the lock date; a future date is no refusal.
    expect(codeOf(() => entry.reverse({ id: 'r', reversalDate: '2026-05-31', lineIds: ['a', 'b'], ledgerLockDate: '2026-06-01' }, now))).toBe('LEDGER_REVERSAL_DATE_INVALID_ERROR');
    expect(codeOf(() => entry.reverse({ id: 'r', reversalDate: '2026-06-01', lineIds: ['a', 'b'], ledgerLockDate: '2026-06-01' }, now))).toBe('LEDGER_PERIOD_LOCKED_ERROR');
    expect(entry.status).toBe('active');
    expect(codeOf(() => entry.reverse({ id: 'r', reversalDate: '2026-05-31', lineIds: ['a', 'b'], ledgerLockDate: null }, now))).toBe('LEDGER_REVERSAL_DATE_INVALID_ERROR');
    const mirror = entry.reverse({ id: 'r', reversalDate: '2026-06-01', lineIds: ['a', 'b'], ledgerLockDate: null }, now);
    expect(codeOf(() => entry.reverse({ id: 'r2', reversalDate: '2026-06-02', lineIds: ['c', 'd'], ledgerLockDate: null }, now))).toBe('LEDGER_ENTRY_NOT_REVERSIBLE_ERROR');
    expect(codeOf(() => mirror.reverse({ id: 'r3', reversalDate: '2026-06-02', lineIds: ['e', 'f'], ledgerLockDate: null }, now))).toBe('LEDGER_ENTRY_NOT_REVERSIBLE_ERROR');
    // The state is judged before any date: a reversed original is not reversible whatever the lock date.
    expect(codeOf(() => entry.reverse({ id: 'r4', reversalDate: '2026-05-01', lineIds: ['g', 'h'], ledgerLockDate: '2026-12-31' }, now))).toBe('LEDGER_ENTRY_NOT_REVERSIBLE_ERROR');
    expect(() => entry.unbook(now)).toThrow(/unbooked together with its reversal/);
    mirror.unbook(now);
    entry.restoreAfterReversalUnbooked(now);
    expect(entry.status).toBe('active');
    entry.unbook(now);
    expect(entry.status).toBe('deleted');
    expect(codeOf(() => entry.unbook(now))).toBe('LEDGER_ENTRY_NOT_LIVE_ERROR');

    // A reversed original leaves the books with its reversal.
    const original = post([line('debit', 'bank', 7), line('credit', 'sales', 7)]);
    const reversal = original.reverse({ id: 'r5', reversalDate: '2026-06-01', lineIds: ['i', 'j'], ledgerLockDate: null }, now);
    const stranger = post([line('debit', 'bank', 7), line('credit', 'sales', 7)]);
    expect(() => original.unbook(now, stranger)).toThrow(/unbooked together with its reversal/);
    original.unbook(now, reversal);
    expect([original.status, reversal.status]).toEqual(['deleted', 'deleted']);
    expect([original.reversedByEntryId, reversal.reversalOfEntryId]).toEqual(['r5', original.id]);
  });

  it('judges dates against today and the lock date (D24, D33)', () => {
    expect(codeOf(() => assertEntryDate('2026-01-31', 'booked', '2026-06-01', '2026-01-31'))).toBe('LEDGER_PERIOD_LOCKED_ERROR');
    expect(codeOf(() => assertEntryDate('2026-06-02', 'booked', '2026-06-01', null))).toBe('LEDGER_ENTRY_DATE_IN_FUTURE_ERROR');
    expect(codeOf(() => assertEntryDate('2026-06-01', 'scheduled', '2026-06-01', null))).toBe('LEDGER_SCHEDULED_ENTRY_DATE_NOT_FUTURE_ERROR');
    expect(codeOf(() => assertEntryDate('2026-06-01', 'booked', '2026-06-01', '2026-05-31'))).toBeNull();
  });
});
