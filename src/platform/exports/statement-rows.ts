import type { TableColumn } from './table';

/**
 * D93's rows of a tree report (balance sheet, income statement, their consolidated forms): one row
 * per group, account and total with its section and code, and one per named figure
 * (`grossProfit`, `equity.currentPeriodResult`, `totals.assets`, ...), in the JSON's order.
 */
export interface StatementRow {
  /** The section's JSON name (`assets`, `income`); for a figure outside sections, its parent (`totals`) or empty. */
  section: string;
  row: 'group' | 'account' | 'total' | 'figure';
  /** Depth in the group tree: 0 for the section's own rows. */
  level: number;
  /** The group's codePrefix or the account's code. */
  code: string | null;
  /** The group's or account's name; a figure's JSON name. */
  name: string;
  /** groupId or accountId. */
  id: string | null;
  amount: number;
}

type Node = Record<string, unknown>;

const isSection = (value: unknown): value is Node => value !== null && typeof value === 'object' && !Array.isArray(value) && 'total' in value && Array.isArray((value as Node).accounts);

function accountRows(section: string, accounts: unknown[], level: number): StatementRow[] {
  return (accounts as Node[]).map((a) => ({
    section,
    row: 'account' as const,
    level,
    code: (a.code as string | null) ?? null,
    name: String(a.name ?? ''),
    id: (a.accountId as string | undefined) ?? null,
    amount: a.balance as number,
  }));
}

function groupRows(section: string, group: Node, level: number): StatementRow[] {
  return [
    { section, row: 'group', level, code: group.codePrefix as string, name: group.name as string, id: group.groupId as string, amount: group.total as number },
    ...((group.groups as Node[] | undefined) ?? []).flatMap((g) => groupRows(section, g, level + 1)),
    ...accountRows(section, (group.accounts as unknown[] | undefined) ?? [], level + 1),
  ];
}

function sectionRows(name: string, section: Node): StatementRow[] {
  const rows: StatementRow[] = [...((section.groups as Node[] | undefined) ?? []).flatMap((g) => groupRows(name, g, 0)), ...accountRows(name, section.accounts as unknown[], 0)];
  // The section's named figures (equity's results and differences), then its total.
  for (const [key, value] of Object.entries(section)) {
    if (typeof value === 'number' && key !== 'total') rows.push({ section: name, row: 'figure', level: 0, code: null, name: key, id: null, amount: value });
  }
  rows.push({ section: name, row: 'total', level: 0, code: null, name: 'total', id: null, amount: section.total as number });
  return rows;
}

/**
 * The rows of a statement body: each section (an object with `total` and `accounts`) in order,
 * each number as a named figure, each object of numbers (`totals`) as its figures. Header fields
 * (dates, currency, ids, `presentation`) and arrays that are not a section's are left out.
 */
export function statementRows(body: object): StatementRow[] {
  const rows: StatementRow[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (isSection(value)) rows.push(...sectionRows(key, value));
    else if (typeof value === 'number') rows.push({ section: '', row: 'figure', level: 0, code: null, name: key, id: null, amount: value });
    else if (value !== null && typeof value === 'object' && !Array.isArray(value) && key !== 'presentation') {
      const figures = Object.entries(value).filter(([, v]) => typeof v === 'number');
      if (figures.length > 0 && figures.length === Object.keys(value).length) {
        for (const [name, amount] of figures) rows.push({ section: key, row: 'figure', level: 0, code: null, name, id: null, amount: amount as number });
      }
    }
  }
  return rows;
}

/** The columns of statementRows, amounts at the report currency's exponent. */
export function statementColumns(exponent: number): Array<TableColumn<StatementRow>> {
  return [
    { header: 'section', type: 'text', value: (r) => r.section },
    { header: 'row', type: 'text', value: (r) => r.row },
    { header: 'level', type: 'integer', value: (r) => r.level },
    { header: 'code', type: 'text', value: (r) => r.code },
    { header: 'name', type: 'text', value: (r) => r.name },
    { header: 'id', type: 'text', value: (r) => r.id },
    { header: 'amount', type: 'amount', exponent, value: (r) => r.amount },
  ];
}
