import fc from 'fast-check';
import { ACCOUNT_TYPES, AccountType } from '../../ledger';
import { isResultType } from '../../ledger';
import { balanceSheet, eightColumnBalance, GroupInfo, GroupNode, incomeStatement, PeriodFigures, PRESENTATION_ROUNDING_ROW, presentationConverter, Section } from './statements';

const ACCOUNTS = ACCOUNT_TYPES.flatMap((type, i) => [0, 1].map((n) => ({ accountId: `${type}-${n}`, code: `${i + 1}${n}`, name: `${type} ${n}`, type, groupId: null })));
const identity = presentationConverter(null);

/** Random balanced entries, each before or inside the exercise, summed per account as the SQL does. */
const ledger = fc
  .array(
    fc.record({
      before: fc.boolean(),
      // D6a: amounts near the limit too, whose sums pass 2^53 (exact only as bigint).
      amount: fc.oneof(fc.bigInt({ min: 1n, max: 1_000_000n }), fc.bigInt({ min: 2n ** 53n - 1000n, max: 2n ** 53n - 1n })),
      debit: fc.nat(ACCOUNTS.length - 1),
      credit: fc.nat(ACCOUNTS.length - 1),
    }),
    { maxLength: 40 },
  )
  .map((entries) => {
    const figures = new Map<string, PeriodFigures>(ACCOUNTS.map((a) => [a.accountId, { ...a, type: a.type as AccountType, openingRaw: 0n, periodDebit: 0n, periodCredit: 0n, periodLines: 0 }]));
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
      fc.property(ledger, fc.constantFrom('0.001', '1.5', '0.000123', '950.25', '123456789012.123456789012'), (figures, rate) => {
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

  it('give eight-column rows with exactly the fields of D53, in its order', () => {
    fc.assert(
      fc.property(ledger, (figures) => {
        for (const r of eightColumnBalance(figures, identity).rows) {
          expect(Object.keys(r)).toEqual(['accountId', 'code', 'name', 'type', 'debit', 'credit', 'debtorBalance', 'creditorBalance', 'asset', 'liability', 'loss', 'profit']);
        }
      }),
    );
  });

  it('give an eight-column balance in a presentation currency whose rows are converted and whose four pairs are equal', () => {
    fc.assert(
      fc.property(ledger, fc.constantFrom('0.001', '0.3', '1.5', '0.000123', '950.25', '123456789012.123456789012'), (figures, rate) => {
        const convert = presentationConverter({ rate, fromExponent: 0, toExponent: 2 });
        const functional = eightColumnBalance(figures, identity);
        const { rows, subtotals, result, totals } = eightColumnBalance(figures, convert);
        // Every row of the functional report is there, its debit and credit converted, the rest derived.
        expect(rows.slice(0, functional.rows.length).map((r) => [r.accountId, r.name, r.debit, r.credit])).toEqual(
          functional.rows.map((r) => [r.accountId, r.name, convert(r.debit), convert(r.credit)]),
        );
        for (const r of rows) {
          expect(r.debtorBalance).toBe(r.debit > r.credit ? r.debit - r.credit : 0n);
          expect(r.creditorBalance).toBe(r.credit > r.debit ? r.credit - r.debit : 0n);
          expect(r.asset + r.liability + r.loss + r.profit).toBe(r.debtorBalance + r.creditorBalance);
        }
        // At most one more row: the rounding difference, in equity, never zero.
        expect(rows.slice(functional.rows.length).map((r) => [r.name, r.type, r.debit + r.credit > 0n])).toEqual(
          rows.length > functional.rows.length ? [[PRESENTATION_ROUNDING_ROW, 'equity', true]] : [],
        );
        expect(result.amount).toBe(subtotals.profit >= subtotals.loss ? subtotals.profit - subtotals.loss : subtotals.loss - subtotals.profit);
        expect(totals.debit).toBe(totals.credit);
        expect(totals.debtorBalance).toBe(totals.creditorBalance);
        expect(totals.asset).toBe(totals.liability);
        expect(totals.loss).toBe(totals.profit);
      }),
    );
  });

  it('give a balance sheet whose period results equal the converted income statements', () => {
    fc.assert(
      fc.property(ledger, fc.constantFrom('0.001', '0.3', '0.000123', '950.25', '123456789012.123456789012'), (figures, rate) => {
        const convert = presentationConverter({ rate, fromExponent: 0, toExponent: 2 });
        const sheet = balanceSheet(figures, [], convert, true);
        const results = figures.filter((f) => isResultType(f.type));
        const current = incomeStatement(results.map((f) => ({ ...f, raw: f.periodDebit - f.periodCredit, moved: f.periodLines > 0 })), [], convert);
        const prior = incomeStatement(results.map((f) => ({ ...f, raw: f.openingRaw, moved: false })), [], convert);
        expect(sheet.equity.currentPeriodResult).toBe(current.netResult);
        expect(sheet.equity.priorPeriodsResult).toBe(prior.netResult);
        expect(sheet.equity.total).toBe(
          sheet.equity.accounts.reduce((s, a) => s + a.balance, 0n) + sheet.equity.currentPeriodResult + sheet.equity.priorPeriodsResult + (sheet.equity.presentationRoundingDifference ?? 0n),
        );
        expect(sheet.totals.assets).toBe(sheet.totals.liabilitiesAndEquity);
      }),
    );
  });

  it('give group totals that are exactly the sums of their children, near the limits and at any presentation rate (D6a, D57)', () => {
    // Two levels of groups over every family, so that each section has nested totals.
    const groups: GroupInfo[] = ACCOUNT_TYPES.flatMap((type, i) => [
      { id: `${type}-g`, parentGroupId: null, codePrefix: `${i + 1}`, name: `${type} group`, type },
      { id: `${type}-s`, parentGroupId: `${type}-g`, codePrefix: `${i + 1}1`, name: `${type} subgroup`, type },
    ]);
    const grouped = (figures: PeriodFigures[]) => figures.map((f) => ({ ...f, groupId: f.code.endsWith('1') ? `${f.type}-s` : `${f.type}-g` }));
    const checkNode = (node: GroupNode): void => {
      expect(node.total).toBe(node.accounts.reduce((s, a) => s + a.balance, 0n) + node.groups.reduce((s, g) => s + g.total, 0n));
      node.groups.forEach(checkNode);
    };
    const checkSection = (section: Section) => {
      expect(section.total).toBe(section.accounts.reduce((s, a) => s + a.balance, 0n) + section.groups.reduce((s, g) => s + g.total, 0n));
      section.groups.forEach(checkNode);
    };
    fc.assert(
      fc.property(ledger, fc.constantFrom('1', '0.000123', '950.25', '123456789012.123456789012'), (figures, rate) => {
        const convert = presentationConverter({ rate, fromExponent: 0, toExponent: 2 });
        const sheet = balanceSheet(grouped(figures), groups, convert, true);
        [sheet.assets, sheet.liabilities].forEach(checkSection);
        sheet.equity.groups.forEach(checkNode);
        expect(sheet.equity.total).toBe(
          sheet.equity.accounts.reduce((s, a) => s + a.balance, 0n) +
            sheet.equity.groups.reduce((s, g) => s + g.total, 0n) +
            sheet.equity.currentPeriodResult +
            sheet.equity.priorPeriodsResult +
            (sheet.equity.presentationRoundingDifference ?? 0n),
        );
        expect(sheet.totals.assets).toBe(sheet.totals.liabilitiesAndEquity);
        const results = grouped(figures).filter((f) => isResultType(f.type)).map((f) => ({ ...f, raw: f.periodDebit - f.periodCredit, moved: f.periodLines > 0 }));
        const statement = incomeStatement(results, groups, convert);
        [statement.income, statement.costOfGoodsSold, statement.operatingExpense, statement.otherIncome, statement.otherExpense].forEach(checkSection);
        expect(statement.netResult).toBe(statement.income.total - statement.costOfGoodsSold.total - statement.operatingExpense.total + statement.otherIncome.total - statement.otherExpense.total);
        const eight = eightColumnBalance(figures, convert);
        for (const column of ['debit', 'credit', 'debtorBalance', 'creditorBalance', 'asset', 'liability', 'loss', 'profit'] as const) {
          expect(eight.subtotals[column]).toBe(eight.rows.reduce((s, r) => s + r[column], 0n));
        }
      }),
    );
  });
});
