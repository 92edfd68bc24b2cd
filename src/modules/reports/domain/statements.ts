import { compareText, convertMinorUnitsExact } from '../../../../libs/shared-kernel/src';
import { AccountType, isResultType, normalSideOf, sameFamily } from '../../ledger';
import type { AccountPeriodFigures } from '../../ledger';

/** An account of the chart with its raw movements (debit and credit sums) for a report. */
export interface AccountFigures {
  accountId: string;
  groupId: string | null;
  code: string;
  name: string;
  type: AccountType;
  /** Σdebit − Σcredit over the report's balance range (D6a: exact, bigint). */
  raw: bigint;
  /** Any line in the report's range (an account with a zero balance but movement is shown). */
  moved: boolean;
}

export interface GroupInfo {
  id: string;
  parentGroupId: string | null;
  codePrefix: string;
  name: string;
  type: AccountType;
}

export interface AccountNode {
  accountId: string;
  code: string;
  name: string;
  balance: bigint;
}

export interface GroupNode {
  groupId: string;
  codePrefix: string;
  name: string;
  total: bigint;
  groups: GroupNode[];
  accounts: AccountNode[];
}

export interface Section {
  total: bigint;
  groups: GroupNode[];
  accounts: AccountNode[];
}

/**
 * D57: presentation-currency conversion of leaves; identity when there is none. Every figure is a
 * bigint (D6a: sums exact at any size); the answer turns them into JSON numbers, or refuses with
 * 409 AMOUNT_OUT_OF_RANGE_ERROR a figure past 2^53 − 1 (exactAmounts).
 */
export type Convert = (functionalAmount: bigint) => bigint;

export function presentationConverter(presentation: { rate: string; fromExponent: number; toExponent: number } | null): Convert {
  if (!presentation) return (amount) => amount;
  return (amount) => convertMinorUnitsExact(amount, presentation.rate, presentation.fromExponent, presentation.toExponent);
}

/** D50: an account's balance shown in its normal-side sign. */
export function normalBalance(type: AccountType, raw: bigint): bigint {
  return normalSideOf(type) === 'debit' ? raw : -raw;
}

/**
 * D50: accounts grouped by the chart's group tree; leaves converted (D57), totals the sums of
 * converted leaves. Accounts with a zero balance and no movement, and groups left empty, are
 * left out. `sign` turns the account's normal balance into the section's sign.
 */
export function buildSection(accounts: AccountFigures[], groups: GroupInfo[], convert: Convert, sign: (a: AccountFigures) => bigint = (a) => normalBalance(a.type, a.raw)): Section {
  const shown = accounts.filter((a) => a.raw !== 0n || a.moved).sort((a, b) => compareText(a.code, b.code));
  const leaf = (a: AccountFigures): AccountNode => ({ accountId: a.accountId, code: a.code, name: a.name, balance: convert(sign(a)) });
  const groupIds = new Set(groups.map((g) => g.id));
  const byGroup = new Map<string | null, AccountNode[]>();
  for (const account of shown) {
    const key = account.groupId && groupIds.has(account.groupId) ? account.groupId : null;
    byGroup.set(key, [...(byGroup.get(key) ?? []), leaf(account)]);
  }
  const children = new Map<string | null, GroupInfo[]>();
  for (const group of groups) {
    const parent = group.parentGroupId && groupIds.has(group.parentGroupId) ? group.parentGroupId : null;
    children.set(parent, [...(children.get(parent) ?? []), group]);
  }
  const build = (group: GroupInfo): GroupNode | null => {
    const subgroups = (children.get(group.id) ?? [])
      .sort((a, b) => compareText(a.codePrefix, b.codePrefix))
      .map(build)
      .filter((g): g is GroupNode => g !== null);
    const own = byGroup.get(group.id) ?? [];
    if (subgroups.length === 0 && own.length === 0) return null;
    const total = own.reduce((s, a) => s + a.balance, 0n) + subgroups.reduce((s, g) => s + g.total, 0n);
    return { groupId: group.id, codePrefix: group.codePrefix, name: group.name, total, groups: subgroups, accounts: own };
  };
  const roots = (children.get(null) ?? [])
    .sort((a, b) => compareText(a.codePrefix, b.codePrefix))
    .map(build)
    .filter((g): g is GroupNode => g !== null);
  const loose = byGroup.get(null) ?? [];
  return { total: roots.reduce((s, g) => s + g.total, 0n) + loose.reduce((s, a) => s + a.balance, 0n), groups: roots, accounts: loose };
}

/** The groups of one section: those whose type is in the section's family. */
export function groupsOf(groups: GroupInfo[], types: AccountType[]): GroupInfo[] {
  return groups.filter((g) => types.some((t) => sameFamily(t, g.type)));
}

export interface IncomeStatement {
  income: Section;
  costOfGoodsSold: Section;
  grossProfit: bigint;
  operatingExpense: Section;
  operatingResult: bigint;
  otherIncome: Section;
  otherExpense: Section;
  netResult: bigint;
}

/** The five sections of D52, whatever their rows (grouped here, flat in a consolidation). */
export interface IncomeSections<S extends { total: bigint }> {
  income: S;
  costOfGoodsSold: S;
  operatingExpense: S;
  otherIncome: S;
  otherExpense: S;
}

/** D52: the sections in their order with the results between them, profit positive. */
export function withResults<S extends { total: bigint }>(sections: IncomeSections<S>) {
  const { income, costOfGoodsSold, operatingExpense, otherIncome, otherExpense } = sections;
  const grossProfit = income.total - costOfGoodsSold.total;
  const operatingResult = grossProfit - operatingExpense.total;
  return {
    income,
    costOfGoodsSold,
    grossProfit,
    operatingExpense,
    operatingResult,
    otherIncome,
    otherExpense,
    netResult: operatingResult + otherIncome.total - otherExpense.total,
  };
}

/** D52: sections in normal sign; profit positive. */
export function incomeStatement(accounts: AccountFigures[], groups: GroupInfo[], convert: Convert): IncomeStatement {
  const section = (type: AccountType) => buildSection(accounts.filter((a) => a.type === type), groups.filter((g) => sameFamily(g.type, type)), convert);
  return withResults({
    income: section('income'),
    costOfGoodsSold: section('cost_of_goods_sold'),
    operatingExpense: section('operating_expense'),
    otherIncome: section('other_income'),
    otherExpense: section('other_expense'),
  });
}

export interface EightColumnRow {
  accountId: string | null;
  code: string | null;
  name: string;
  type: AccountType;
  debit: bigint;
  credit: bigint;
  debtorBalance: bigint;
  creditorBalance: bigint;
  asset: bigint;
  liability: bigint;
  loss: bigint;
  profit: bigint;
}

export type EightColumns = Omit<EightColumnRow, 'accountId' | 'code' | 'name' | 'type'>;

export interface EightColumnFigures {
  accountId: string;
  code: string;
  name: string;
  type: AccountType;
  /** Σdebit − Σcredit before the exercise (balance-sheet accounts' opening; Result Accounts' prior result). */
  openingRaw: bigint;
  periodDebit: bigint;
  periodCredit: bigint;
}

/** Name of the eight-column row that takes the presentation rounding difference (D57). */
export const PRESENTATION_ROUNDING_ROW = 'Presentation rounding difference';

const COLUMNS: Array<keyof EightColumns> = ['debit', 'credit', 'debtorBalance', 'creditorBalance', 'asset', 'liability', 'loss', 'profit'];

const max0 = (value: bigint): bigint => (value > 0n ? value : 0n);

function row(base: Pick<EightColumnRow, 'accountId' | 'code' | 'name' | 'type'>, debit: bigint, credit: bigint, convert: Convert): EightColumnRow {
  const d = convert(debit);
  const c = convert(credit);
  const debtorBalance = max0(d - c);
  const creditorBalance = max0(c - d);
  const result = isResultType(base.type);
  // Only D53's fields: `base` may be an account's whole figures (group, opening, period sums).
  return {
    accountId: base.accountId,
    code: base.code,
    name: base.name,
    type: base.type,
    debit: d,
    credit: c,
    debtorBalance,
    creditorBalance,
    asset: result ? 0n : debtorBalance,
    liability: result ? 0n : creditorBalance,
    loss: result ? debtorBalance : 0n,
    profit: result ? creditorBalance : 0n,
  };
}

/**
 * D53: balance de ocho columnas. Balance-sheet accounts carry their opening balance (in the
 * column of its side) plus the period's movements; Result Accounts their period's movements; the
 * Result Accounts' balance before the exercise is one equity row. The result row balances the
 * last four columns; totals then have debit = credit, debtor = creditor, asset = liability and
 * loss = profit.
 *
 * In a presentation currency (D57) each row's debit and credit are converted and the other
 * columns derived from them, so every row keeps its own rules. Converted debits and credits can
 * then differ by rounding; that difference is one more equity row (`Presentation rounding
 * difference`, omitted when zero), as the balance sheet puts it in equity, so the four
 * identities still hold.
 */
export function eightColumnBalance(figures: EightColumnFigures[], convert: Convert) {
  const rows: EightColumnRow[] = [];
  let priorResult = 0n;
  for (const f of [...figures].sort((a, b) => compareText(a.code, b.code))) {
    if (isResultType(f.type)) {
      priorResult += f.openingRaw;
      if (f.periodDebit === 0n && f.periodCredit === 0n) continue;
      rows.push(row(f, f.periodDebit, f.periodCredit, convert));
    } else {
      const debit = f.periodDebit + max0(f.openingRaw);
      const credit = f.periodCredit + max0(-f.openingRaw);
      if (debit === 0n && credit === 0n) continue;
      rows.push(row(f, debit, credit, convert));
    }
  }
  if (priorResult !== 0n) {
    rows.push(row({ accountId: null, code: null, name: 'Prior periods result', type: 'equity' }, max0(priorResult), max0(-priorResult), convert));
  }
  // Zero in the functional currency (the ledger balances); in a presentation currency, what
  // rounding the converted rows left.
  const rounding = rows.reduce((s, r) => s + r.debit - r.credit, 0n);
  if (rounding !== 0n) {
    rows.push(row({ accountId: null, code: null, name: PRESENTATION_ROUNDING_ROW, type: 'equity' }, max0(-rounding), max0(rounding), (amount) => amount));
  }
  const subtotals = Object.fromEntries(COLUMNS.map((c) => [c, rows.reduce((s, r) => s + r[c], 0n)])) as EightColumns;
  const zero = Object.fromEntries(COLUMNS.map((c) => [c, 0n])) as EightColumns;
  const profit = subtotals.profit >= subtotals.loss;
  const amount = profit ? subtotals.profit - subtotals.loss : subtotals.loss - subtotals.profit;
  const resultRow: EightColumns = profit ? { ...zero, loss: amount, liability: amount } : { ...zero, profit: amount, asset: amount };
  const totals = Object.fromEntries(COLUMNS.map((c) => [c, subtotals[c] + resultRow[c]])) as EightColumns;
  return { rows, subtotals, result: { kind: profit ? ('profit' as const) : ('loss' as const), amount }, totals };
}

/** Balance range figures of one account: opening before the exercise and the exercise's movements (the ledger's read seam). */
export type PeriodFigures = AccountPeriodFigures;

/**
 * D51: balance-sheet accounts from inception to the cut-off; equity also shows the result of
 * the exercise and the unclosed result of prior periods (profit positive). With a presentation
 * currency, rounding differences go to equity so that the identity holds (D57).
 */
export function balanceSheet(figures: PeriodFigures[], groups: GroupInfo[], convert: Convert, presenting: boolean) {
  const balanceSheetAccounts: AccountFigures[] = figures
    .filter((f) => !isResultType(f.type))
    .map((f) => ({ ...f, raw: f.openingRaw + f.periodDebit - f.periodCredit, moved: f.periodLines > 0 }));
  const result = figures.filter((f) => isResultType(f.type));
  const section = (type: AccountType) => buildSection(balanceSheetAccounts.filter((a) => a.type === type), groupsOf(groups, [type]), convert);
  const assets = section('asset');
  const liabilities = section('liability');
  const equityAccounts = section('equity');
  // The results are sums of converted Result Account balances, exactly as the income statement
  // of the same range and presentation pair gives its net result (D57: totals of converted leaves).
  const netResult = (raw: (f: PeriodFigures) => bigint) =>
    incomeStatement(
      result.map((f) => ({ ...f, raw: raw(f), moved: false })),
      [],
      convert,
    ).netResult;
  const currentPeriodResult = netResult((f) => f.periodDebit - f.periodCredit);
  const priorPeriodsResult = netResult((f) => f.openingRaw);
  let total = equityAccounts.total + currentPeriodResult + priorPeriodsResult;
  const equity: Section & { currentPeriodResult: bigint; priorPeriodsResult: bigint; presentationRoundingDifference?: bigint } = {
    ...equityAccounts,
    currentPeriodResult,
    priorPeriodsResult,
  };
  if (presenting) {
    equity.presentationRoundingDifference = assets.total - liabilities.total - total;
    total += equity.presentationRoundingDifference;
  }
  equity.total = total;
  return { assets, liabilities, equity, totals: { assets: assets.total, liabilitiesAndEquity: liabilities.total + total } };
}
