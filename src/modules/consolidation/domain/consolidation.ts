import { compareText, convertMinorUnitsExact } from '../../../../libs/shared-kernel/src';
import { AccountType, isResultType, normalSideOf, sameFamily } from '../../ledger';
import { withResults } from '../../reports';
import { accountTypeConflict } from './consolidation-errors';

/** One account of a member's chart with its raw balances (Σdebit − Σcredit) around the report's range. */
export interface MemberAccount {
  code: string;
  name: string;
  type: AccountType;
  /** Lines dated before the range. */
  beforeRaw: bigint;
  /** Lines dated in the range. */
  rangeRaw: bigint;
  /** The intercompany part of `beforeRaw` (lines naming a partner whose taxId is another member's). */
  intercompanyBeforeRaw: bigint;
  /** The intercompany part of `rangeRaw`. */
  intercompanyRangeRaw: bigint;
}

/** A member of the group: the root first, then its descendants depth-first by name (D91). */
export interface Member {
  entityId: string;
  name: string;
  currency: string;
  /** ISO 4217 minor-unit exponent of `currency`. */
  exponent: number;
  /** Root-currency units per member-currency unit (D7); "1" for the root's currency. */
  closingRate: string | null;
  averageRate: string;
  accounts: MemberAccount[];
}

export interface Group {
  currency: string;
  exponent: number;
  members: Member[];
}

export interface ConsolidatedRow {
  code: string;
  name: string;
  balance: bigint;
  byEntity: Array<{ entityId: string; balance: bigint }>;
}

export interface ConsolidatedSection {
  total: bigint;
  accounts: ConsolidatedRow[];
}

interface RowHead {
  code: string;
  name: string;
  type: AccountType;
}

/**
 * D91 item 1: the group's chart, by code: each code's name and type from the first member (in
 * member order) whose chart has it; two types of different families (D31) for one code: 409.
 */
export function groupChart(members: Member[]): Map<string, RowHead> {
  const chart = new Map<string, RowHead>();
  for (const member of members) {
    for (const account of member.accounts) {
      const first = chart.get(account.code);
      if (!first) chart.set(account.code, { code: account.code, name: account.name, type: account.type });
      else if (!sameFamily(first.type, account.type)) throw accountTypeConflict(account.code);
    }
  }
  return chart;
}

/** D7 on the absolute value, the sign kept (D91 item 3). */
export function translate(amount: bigint, rate: string, fromExponent: number, toExponent: number): bigint {
  if (rate === '1' && fromExponent === toExponent) return amount;
  const magnitude = convertMinorUnitsExact(amount < 0n ? -amount : amount, rate, fromExponent, toExponent);
  return amount < 0n ? -magnitude : magnitude;
}

/** D50: a raw balance (debit positive) in the normal-side sign of the type. */
const normal = (type: AccountType, raw: bigint): bigint => (normalSideOf(type) === 'debit' ? raw : -raw);

/** Per code, each member's translated figure (normal sign of the row's type), in member order. */
type Contributions = Map<string, Array<{ entityId: string; balance: bigint }>>;

function addContribution(contributions: Contributions, code: string, entityId: string, balance: bigint): void {
  const list = contributions.get(code);
  if (list) list.push({ entityId, balance });
  else contributions.set(code, [{ entityId, balance }]);
}

/** Flat rows by code of the codes whose type `belongs`; zero rows, and zero members of a row, left out. */
function section(chart: Map<string, RowHead>, contributions: Contributions, belongs: (type: AccountType) => boolean): ConsolidatedSection {
  const accounts: ConsolidatedRow[] = [];
  for (const head of [...chart.values()].filter((h) => belongs(h.type)).sort((a, b) => compareText(a.code, b.code))) {
    const byEntity = (contributions.get(head.code) ?? []).filter((c) => c.balance !== 0n);
    const balance = byEntity.reduce((sum, c) => sum + c.balance, 0n);
    if (balance !== 0n) accounts.push({ code: head.code, name: head.name, balance, byEntity });
  }
  return { total: accounts.reduce((sum, row) => sum + row.balance, 0n), accounts };
}

const ofFamily = (type: AccountType) => (other: AccountType) => sameFamily(type, other);

/**
 * D91 balance sheet: balance-sheet accounts from inception to the cut-off (the range is
 * exerciseStart..cutoffDate, "before" everything earlier), intercompany lines left out, each
 * member's accounts translated at its closing rate, its Result Accounts of the range at its
 * average rate, its prior periods result and its left-out sum S at the closing rate. The
 * elimination difference is −ΣS; the translation difference is what then leaves the identity
 * unbalanced, so assets = liabilities + equity exactly.
 */
export function consolidatedBalanceSheet(group: Group) {
  const chart = groupChart(group.members);
  const contributions: Contributions = new Map();
  let currentPeriodResult = 0n;
  let priorPeriodsResult = 0n;
  let eliminated = 0n;
  for (const member of group.members) {
    const closing = member.closingRate ?? '1';
    const at = (raw: bigint, rate: string) => translate(raw, rate, member.exponent, group.exponent);
    let priorRaw = 0n;
    let leftOut = 0n;
    const byCode = new Map<string, bigint>();
    for (const account of member.accounts) {
      const type = chart.get(account.code)!.type;
      leftOut += account.intercompanyBeforeRaw + account.intercompanyRangeRaw;
      const before = account.beforeRaw - account.intercompanyBeforeRaw;
      const range = account.rangeRaw - account.intercompanyRangeRaw;
      if (isResultType(type)) {
        priorRaw += before;
        // Profit positive: a Result Account's raw balance with its sign turned.
        currentPeriodResult -= at(range, member.averageRate);
      } else {
        byCode.set(account.code, (byCode.get(account.code) ?? 0n) + before + range);
      }
    }
    for (const [code, raw] of byCode) addContribution(contributions, code, member.entityId, at(normal(chart.get(code)!.type, raw), closing));
    priorPeriodsResult += at(-priorRaw, closing);
    eliminated += at(leftOut, closing);
  }
  const assets = section(chart, contributions, ofFamily('asset'));
  const liabilities = section(chart, contributions, ofFamily('liability'));
  const equityAccounts = section(chart, contributions, ofFamily('equity'));
  const eliminationDifference = -eliminated;
  const explained = equityAccounts.total + currentPeriodResult + priorPeriodsResult + eliminationDifference;
  const translationDifference = assets.total - liabilities.total - explained;
  const equity = {
    total: explained + translationDifference,
    accounts: equityAccounts.accounts,
    currentPeriodResult,
    priorPeriodsResult,
    translationDifference,
    eliminationDifference,
  };
  return { assets, liabilities, equity, totals: { assets: assets.total, liabilitiesAndEquity: liabilities.total + equity.total } };
}

/**
 * D91 income statement: D52's sections with flat rows by code, the range's Result Account
 * balances of every member after eliminations, translated at its average rate.
 */
export function consolidatedIncomeStatement(group: Group) {
  const chart = groupChart(group.members);
  const contributions: Contributions = new Map();
  for (const member of group.members) {
    const byCode = new Map<string, bigint>();
    for (const account of member.accounts) {
      if (!isResultType(chart.get(account.code)!.type)) continue;
      byCode.set(account.code, (byCode.get(account.code) ?? 0n) + account.rangeRaw - account.intercompanyRangeRaw);
    }
    for (const [code, raw] of byCode) {
      addContribution(contributions, code, member.entityId, translate(normal(chart.get(code)!.type, raw), member.averageRate, member.exponent, group.exponent));
    }
  }
  const of = (type: AccountType) => section(chart, contributions, (t) => t === type);
  return withResults({
    income: of('income'),
    costOfGoodsSold: of('cost_of_goods_sold'),
    operatingExpense: of('operating_expense'),
    otherIncome: of('other_income'),
    otherExpense: of('other_expense'),
  });
}
