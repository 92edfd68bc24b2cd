import fc from 'fast-check';
import type { AccountType } from '../../ledger';
import { consolidatedBalanceSheet, consolidatedIncomeStatement, Group, Member, MemberAccount, translate } from './consolidation';

const CHART: Array<[string, AccountType]> = [
  ['1101', 'asset'],
  ['1201', 'asset'],
  ['2101', 'liability'],
  ['3101', 'equity'],
  ['4101', 'income'],
  ['4201', 'other_income'],
  ['5101', 'operating_expense'],
  ['5201', 'cost_of_goods_sold'],
  ['5301', 'other_expense'],
];
const EXPONENT: Record<string, number> = { CLP: 0, USD: 2, CLF: 4 };

/** A D7 rate string: 1 to 6 integer digits, up to 12 decimals, greater than zero. */
const rate = fc
  .tuple(fc.integer({ min: 0, max: 999_999 }), fc.option(fc.stringMatching(/^[0-9]{1,12}$/), { nil: undefined }))
  .map(([whole, fraction]) => (fraction ? `${whole}.${fraction}` : `${whole}`))
  .filter((r) => /[1-9]/.test(r));

/** One posted pair of lines: a debit on one code and a credit on another, each maybe intercompany. */
const pair = fc.record({
  debit: fc.integer({ min: 0, max: CHART.length - 1 }),
  credit: fc.integer({ min: 0, max: CHART.length - 1 }),
  amount: fc.bigInt({ min: 1n, max: 10n ** 15n }),
  before: fc.boolean(),
  debitIntercompany: fc.boolean(),
  creditIntercompany: fc.boolean(),
});

const memberArb = fc.record({
  currency: fc.constantFrom('CLP', 'USD', 'CLF'),
  closing: rate,
  average: rate,
  codes: fc.subarray(CHART.map((_, i) => i), { minLength: 1 }),
  pairs: fc.array(pair, { maxLength: 12 }),
});

/** The members' figures as the ledger gives them: raw sums (debit positive) of balanced entries. */
type Of<A> = A extends fc.Arbitrary<infer T> ? T : never;

function group(members: Array<Of<typeof memberArb>>, withRates: boolean): Group {
  const root = members[0].currency;
  return {
    currency: root,
    exponent: EXPONENT[root],
    members: members.map((m, index) => {
      const accounts = new Map<number, MemberAccount>();
      const at = (i: number) => {
        let a = accounts.get(i);
        if (!a) {
          a = { code: CHART[i][0], name: `n${index}-${i}`, type: CHART[i][1], beforeRaw: 0n, rangeRaw: 0n, intercompanyBeforeRaw: 0n, intercompanyRangeRaw: 0n };
          accounts.set(i, a);
        }
        return a;
      };
      for (const i of m.codes) at(i);
      for (const p of m.pairs) {
        for (const [i, signed, intercompany] of [
          [m.codes[p.debit % m.codes.length], p.amount, p.debitIntercompany],
          [m.codes[p.credit % m.codes.length], -p.amount, p.creditIntercompany],
        ] as Array<[number, bigint, boolean]>) {
          const a = at(i);
          if (p.before) a.beforeRaw += signed;
          else a.rangeRaw += signed;
          if (intercompany && p.before) a.intercompanyBeforeRaw += signed;
          if (intercompany && !p.before) a.intercompanyRangeRaw += signed;
        }
      }
      const same = m.currency === root || !withRates;
      const member: Member = {
        entityId: `e${index}`,
        name: `m${index}`,
        currency: withRates ? m.currency : root,
        exponent: EXPONENT[withRates ? m.currency : root],
        closingRate: same ? '1' : m.closing,
        averageRate: same ? '1' : m.average,
        accounts: [...accounts.values()],
      };
      return member;
    }),
  };
}

const sum = (values: bigint[]) => values.reduce((s, v) => s + v, 0n);

describe('consolidated balance sheet (D91)', () => {
  it('always balances: assets = liabilities + equity, every row the sum of its members, every section of its rows', () => {
    fc.assert(
      fc.property(fc.array(memberArb, { minLength: 1, maxLength: 6 }), fc.boolean(), (members, withRates) => {
        const sheet = consolidatedBalanceSheet(group(members, withRates));
        expect(sheet.totals.assets).toBe(sheet.totals.liabilitiesAndEquity);
        expect(sheet.totals.assets).toBe(sheet.assets.total);
        const { equity } = sheet;
        expect(equity.total).toBe(sum(equity.accounts.map((r) => r.balance)) + equity.currentPeriodResult + equity.priorPeriodsResult + equity.translationDifference + equity.eliminationDifference);
        for (const section of [sheet.assets, sheet.liabilities, equity]) {
          if (section !== equity) expect(section.total).toBe(sum(section.accounts.map((r) => r.balance)));
          for (const row of section.accounts) {
            expect(row.balance).not.toBe(0n);
            expect(row.balance).toBe(sum(row.byEntity.map((b) => b.balance)));
          }
        }
        // One currency: nothing to translate; the eliminations explain the rest exactly.
        if (!withRates || members.every((m) => m.currency === members[0].currency)) expect(equity.translationDifference).toBe(0n);
      }),
      { numRuns: 300 },
    );
  });

  it('gives an elimination difference of minus the left-out lines, 0 when no line is intercompany', () => {
    fc.assert(
      fc.property(fc.array(memberArb, { minLength: 1, maxLength: 5 }), (members) => {
        const g = group(members, false);
        const leftOut = sum(g.members.flatMap((m) => m.accounts.map((a) => a.intercompanyBeforeRaw + a.intercompanyRangeRaw)));
        expect(consolidatedBalanceSheet(g).equity.eliminationDifference).toBe(-leftOut);
        const none = { ...g, members: g.members.map((m) => ({ ...m, accounts: m.accounts.map((a) => ({ ...a, intercompanyBeforeRaw: 0n, intercompanyRangeRaw: 0n })) })) };
        expect(consolidatedBalanceSheet(none).equity.eliminationDifference).toBe(0n);
      }),
    );
  });

  it('gives the income statement the net result the balance sheet shows as the current period result', () => {
    fc.assert(
      fc.property(fc.array(memberArb, { minLength: 1, maxLength: 5 }), fc.boolean(), (members, withRates) => {
        const g = group(members, withRates);
        expect(consolidatedIncomeStatement(g).netResult).toBe(consolidatedBalanceSheet(g).equity.currentPeriodResult);
      }),
    );
  });
});

describe('translate (D7 on the absolute value, sign kept)', () => {
  it('rounds half away from zero on either sign', () => {
    expect(translate(15n, '0.5', 0, 0)).toBe(8n);
    expect(translate(-15n, '0.5', 0, 0)).toBe(-8n);
    expect(translate(115022n, '950.5', 2, 0)).toBe(1_093_284n);
    expect(translate(-4000n, '950.5', 2, 0)).toBe(-38_020n);
  });
});
