import fc from 'fast-check';
import { ACCOUNT_TYPES, AccountType } from '../../ledger/domain/account-types';
import { balanceSheet, eightColumnBalance, PeriodFigures, presentationConverter } from './statements';

const ACCOUNTS = ACCOUNT_TYPES.flatMap((type, i) => [0, 1].map((n) => ({ accountId: `${type}-${n}`, code: `${i + 1}${n}`, name: `${type} ${n}`, type, groupId: null })));
const identity = presentationConverter(null);

/** Random balanced entries, each before or inside the exercise, summed per account as the SQL does. */
const ledger = fc
  .array(
    fc.record({
      before: fc.boolean(),
      amount: fc.integer({ min: 1, max: 1_000_000 }),
      debit: fc.nat(ACCOUNTS.length - 1),
      credit: fc.nat(ACCOUNTS.length - 1),
    }),
    { maxLength: 40 },
  )
  .map((entries) => {
    const figures = new Map<string, PeriodFigures>(ACCOUNTS.map((a) => [a.accountId, { ...a, type: a.type as AccountType, openingRaw: 0, periodDebit: 0, periodCredit: 0, periodLines: 0 }]));
    for (const e of entries) {
      const debit = figures.get(ACCOUNTS[e.debit].accountId)!;
      const credit = figures.get(ACCOUNTS[e.credit].accountId)!;
      if (e.before) {
        debit.openingRaw += e.amount;
        credit.openingRaw -= e.amount;
      } else {
        debit.periodDebit += e.amount;
        credit.periodCredit += e.amount;
        debit.periodLines++;
        credit.periodLines++;
      }
    }
    return [...figures.values()];
  });

describe('statements on any valid ledger', () => {
  it('give a balance sheet whose assets equal liabilities plus equity', () => {
    fc.assert(
      fc.property(ledger, (figures) => {
        const sheet = balanceSheet(figures, [], identity, false);
        expect(sheet.totals.assets).toBe(sheet.totals.liabilitiesAndEquity);
      }),
    );
  });

  it('keep the identity in a presentation currency, rounding going to equity', () => {
    fc.assert(
      fc.property(ledger, fc.constantFrom('0.001', '1.5', '0.000123', '950.25'), (figures, rate) => {
        const sheet = balanceSheet(figures, [], presentationConverter({ rate, fromExponent: 0, toExponent: 2 }), true);
        expect(sheet.totals.assets).toBe(sheet.totals.liabilitiesAndEquity);
      }),
    );
  });

  it('give an eight-column balance whose four pairs are equal', () => {
    fc.assert(
      fc.property(ledger, (figures) => {
        const { totals } = eightColumnBalance(figures, identity);
        expect(totals.debit).toBe(totals.credit);
        expect(totals.debtorBalance).toBe(totals.creditorBalance);
        expect(totals.asset).toBe(totals.liability);
        expect(totals.loss).toBe(totals.profit);
      }),
    );
  });
});
