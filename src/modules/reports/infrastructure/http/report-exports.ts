import { crlfRecords, csvSelectList } from '../../../../platform/exports/csv-copy';
import { csvRecord } from '../../../../platform/exports/csv-writer';
import type { TableColumn } from '../../../../platform/exports/table';
import { statementColumns, statementRows, type StatementRow } from '../../../../platform/exports/statement-rows';
import type { PartnerLedgerStream } from '../../application/reports.service';
import type { GeneralLedgerBookStream, JournalRow, LedgerLine } from '../../application/ledger-books.service';

/**
 * D93's tables of the reports: which rows and columns each export has. Tables (journal, general
 * ledger lines) have one row per JSON row and a column per field, the side and amount as `debit`
 * and `credit`; trees are flattened by statementRows; the eight-column balance adds its
 * subtotals, result and totals; the ledgers by account or partner give an opening row, the lines
 * and a closing row per group.
 */
type Row = Record<string, unknown>;

/** Each column's `sql` (optional): the cell over the relation `j` the database's CSV reads (csv-copy). */
const text = <R>(header: string, value: (r: R) => unknown, sql?: string): TableColumn<R> => ({ header, type: 'text', value: (r) => value(r) as string | null, sql });
const id = <R>(header: string, value: (r: R) => unknown, sql?: string): TableColumn<R> => ({ header, type: 'id', value: (r) => value(r) as string | null, sql });
const date = <R>(header: string, value: (r: R) => unknown, sql?: string): TableColumn<R> => ({ header, type: 'date', value: (r) => value(r) as string | null, sql });
const amount = <R>(header: string, exponent: number, value: (r: R) => unknown, sql?: string): TableColumn<R> => ({ header, type: 'amount', exponent, value: (r) => value(r) as number | null, sql });
const debit = <R extends { side?: unknown; amount?: unknown }>(exponent: number): TableColumn<R> =>
  amount('debit', exponent, (r) => (r.side === 'debit' ? r.amount : null), `CASE WHEN j.side = 'debit' THEN j.amount END`);
const credit = <R extends { side?: unknown; amount?: unknown }>(exponent: number): TableColumn<R> =>
  amount('credit', exponent, (r) => (r.side === 'credit' ? r.amount : null), `CASE WHEN j.side = 'credit' THEN j.amount END`);

/** D54's row: the Libro Diario. */
export function journalColumns(exponent: number): Array<TableColumn<JournalRow>> {
  return [
    id('entryId', (r) => r.entryId, 'j.entry_id'),
    date('entryDate', (r) => r.entryDate, 'j.entry_date'),
    text('memo', (r) => r.memo, 'j.memo'),
    text('status', (r) => r.status, 'j.status'),
    id('bookId', (r) => r.bookId, 'j.book_id'),
    id('lineId', (r) => r.lineId, 'j.line_id'),
    debit(exponent),
    credit(exponent),
    id('accountId', (r) => r.accountId, 'j.account_id'),
    text('accountCode', (r) => r.accountCode, 'j.account_code'),
    text('accountName', (r) => r.accountName, 'j.account_name'),
    id('partnerId', (r) => r.partnerId, 'j.partner_id'),
    text('partnerName', (r) => r.partnerName, 'j.partner_name'),
    text('description', (r) => r.description, 'j.description'),
  ];
}

/** D55's line. */
export function generalLedgerColumns(exponent: number): Array<TableColumn<LedgerLine>> {
  return [
    text('lineId', (r) => r.lineId),
    text('entryId', (r) => r.entryId),
    date('entryDate', (r) => r.entryDate),
    text('memo', (r) => r.memo),
    debit(exponent),
    credit(exponent),
    text('partnerId', (r) => r.partnerId),
    text('description', (r) => r.description),
    amount('runningBalance', exponent, (r) => r.runningBalance),
  ];
}

/** A row of a ledger grouped by account (Libro Mayor) or by partner (partner ledger). */
export interface GroupedLedgerRow {
  row: 'opening' | 'line' | 'closing';
  group: Row;
  line?: Row;
  /** The opening or closing balance, or the line's running balance. */
  balance: number;
}

/** The Libro Mayor: per account an opening row, its lines and a closing row. */
export function generalLedgerBookColumns(exponent: number): Array<TableColumn<GroupedLedgerRow>> {
  // The SQL of the line rows of one account, whose id, code and name are $7, $8, $9 (see bookLinesCsv).
  return [
    id('accountId', (r) => r.group.accountId, '$7::text'),
    text('code', (r) => r.group.code, '$8::text'),
    text('name', (r) => r.group.name, '$9::text'),
    text('row', (r) => r.row, `'line'`),
    id('lineId', (r) => r.line?.lineId, 'j.line_id'),
    id('entryId', (r) => r.line?.entryId, 'j.entry_id'),
    date('entryDate', (r) => r.line?.entryDate, 'j.entry_date'),
    text('memo', (r) => r.line?.memo, 'j.memo'),
    amount('debit', exponent, (r) => (r.line?.side === 'debit' ? r.line.amount : null), `CASE WHEN j.side = 'debit' THEN j.amount END`),
    amount('credit', exponent, (r) => (r.line?.side === 'credit' ? r.line.amount : null), `CASE WHEN j.side = 'credit' THEN j.amount END`),
    id('partnerId', (r) => r.line?.partnerId, 'j.partner_id'),
    text('description', (r) => r.line?.description, 'j.description'),
    amount('balance', exponent, (r) => r.balance, 'j.running_balance'),
  ];
}

export async function* generalLedgerBookRows(book: GeneralLedgerBookStream): AsyncGenerator<GroupedLedgerRow[]> {
  for await (const { account, lines } of book.accounts) {
    yield [{ row: 'opening', group: account as unknown as Row, balance: account.openingBalance }];
    for await (const batch of lines) yield batch.map((line) => ({ row: 'line' as const, group: account as unknown as Row, line: line as unknown as Row, balance: line.runningBalance }));
    yield [{ row: 'closing', group: account as unknown as Row, balance: account.closingBalance }];
  }
}

/**
 * The Libro Mayor's CSV records: per account its opening row (written here), its lines (written
 * by the database) and its closing row.
 */
export async function* generalLedgerBookCsv(book: GeneralLedgerBookStream, columns: Array<TableColumn<GroupedLedgerRow>>): AsyncGenerator<Buffer | string> {
  const selectList = csvSelectList(columns);
  for await (const { account, csvLines } of book.accounts) {
    const group = account as unknown as Row;
    yield csvRecord(columns, { row: 'opening', group, balance: account.openingBalance });
    yield* crlfRecords(csvLines(selectList));
    yield csvRecord(columns, { row: 'closing', group, balance: account.closingBalance });
  }
}

/** D56: per partner an opening row, its lines and a closing row. */
export function partnerLedgerColumns(exponent: number): Array<TableColumn<GroupedLedgerRow>> {
  return [
    text('partnerId', (r) => r.group.partnerId),
    text('partnerName', (r) => r.group.partnerName),
    text('row', (r) => r.row),
    text('lineId', (r) => r.line?.lineId),
    text('entryId', (r) => r.line?.entryId),
    date('entryDate', (r) => r.line?.entryDate),
    text('memo', (r) => r.line?.memo),
    amount('debit', exponent, (r) => (r.line?.side === 'debit' ? r.line.amount : null)),
    amount('credit', exponent, (r) => (r.line?.side === 'credit' ? r.line.amount : null)),
    amount('balance', exponent, (r) => r.balance),
    amount('openAmount', exponent, (r) => r.line?.openAmount),
  ];
}

export async function* partnerLedgerRows(answer: PartnerLedgerStream): AsyncGenerator<GroupedLedgerRow[]> {
  if ('whole' in answer) {
    for (const group of answer.whole.partners as Row[]) {
      const lines = group.lines as Row[];
      yield [
        { row: 'opening', group, balance: group.openingBalance as number },
        ...lines.map((line) => ({ row: 'line' as const, group, line, balance: line.runningBalance as number })),
        { row: 'closing', group, balance: group.closingBalance as number },
      ];
    }
    return;
  }
  let group: Row | null = null;
  for await (const piece of answer.partners) {
    if ('group' in piece) {
      group = piece.group;
      yield [{ row: 'opening', group, balance: group.openingBalance as number }];
    } else if ('lines' in piece) {
      const mine = group!;
      yield piece.lines.map((line) => ({ row: 'line' as const, group: mine, line, balance: line.runningBalance as number }));
    } else {
      yield [{ row: 'closing', group: group!, balance: group!.closingBalance as number }];
    }
  }
}

/** D53: the rows, then `subtotals`, the result row (profit: loss and liability; loss: profit and asset) and `totals`. */
const EIGHT = ['debit', 'credit', 'debtorBalance', 'creditorBalance', 'asset', 'liability', 'loss', 'profit'] as const;

export function eightColumnRows(body: { rows: Row[]; subtotals: Row; result: { kind: string; amount: number }; totals: Row }): Row[] {
  const { kind, amount: result } = body.result;
  const resultRow: Row = { row: 'result', accountId: null, code: null, name: 'result', type: kind, debit: 0, credit: 0, debtorBalance: 0, creditorBalance: 0, asset: 0, liability: 0, loss: 0, profit: 0 };
  if (kind === 'profit') Object.assign(resultRow, { loss: result, liability: result });
  else Object.assign(resultRow, { profit: result, asset: result });
  return [
    ...body.rows.map((r) => ({ row: 'account', ...r })),
    { row: 'subtotals', accountId: null, code: null, name: 'subtotals', type: null, ...body.subtotals },
    resultRow,
    { row: 'totals', accountId: null, code: null, name: 'totals', type: null, ...body.totals },
  ];
}

export function eightColumnColumns(exponent: number): Array<TableColumn<Row>> {
  return [text('row', (r) => r.row), text('accountId', (r) => r.accountId), text('code', (r) => r.code), text('name', (r) => r.name), text('type', (r) => r.type), ...EIGHT.map((k) => amount<Row>(k, exponent, (r) => r[k]))];
}

/** D52 by dimension: each column's statement (then the unassigned one) flattened, with its value. */
export interface DimensionStatementRow extends StatementRow {
  dimensionValueId: string | null;
  dimensionValueCode: string | null;
  dimensionValueName: string | null;
}

export function dimensionRows(body: { columns: Array<{ dimensionValueId: string; code: string; name: string; statement: object }>; unassigned: object }): DimensionStatementRow[] {
  return [
    ...body.columns.flatMap((c) => statementRows(c.statement).map((r) => ({ dimensionValueId: c.dimensionValueId, dimensionValueCode: c.code, dimensionValueName: c.name, ...r }))),
    ...statementRows(body.unassigned).map((r) => ({ dimensionValueId: null, dimensionValueCode: null, dimensionValueName: null, ...r })),
  ];
}

export function dimensionColumns(exponent: number): Array<TableColumn<DimensionStatementRow>> {
  return [text('dimensionValueId', (r) => r.dimensionValueId), text('dimensionValueCode', (r) => r.dimensionValueCode), text('dimensionValueName', (r) => r.dimensionValueName), ...statementColumns(exponent)];
}

/** Home (D81): one row per figure: its section, the item it is of (an account, a day, a month), the figure's name and value. */
export interface FigureRow {
  section: string;
  item: string | null;
  itemName: string | null;
  figure: string;
  amount: number | null;
  count: number | null;
}

export function homeRows(body: Row): FigureRow[] {
  const rows: FigureRow[] = [];
  const cash = body.cashPosition as { total: number; accounts: Row[] };
  for (const a of cash.accounts) rows.push({ section: 'cashPosition', item: a.bankAccountId as string, itemName: a.name as string, figure: 'balance', amount: a.balance as number, count: null });
  rows.push({ section: 'cashPosition', item: null, itemName: null, figure: 'total', amount: cash.total, count: null });
  for (const d of body.dailyBalances as Row[]) rows.push({ section: 'dailyBalances', item: d.date as string, itemName: null, figure: 'balance', amount: d.balance as number, count: null });
  for (const m of body.monthlyIncome as Row[]) {
    for (const figure of ['income', 'expenses', 'result']) rows.push({ section: 'monthlyIncome', item: m.month as string, itemName: null, figure, amount: m[figure] as number, count: null });
  }
  for (const section of ['receivables', 'payables']) {
    for (const [figure, value] of Object.entries(body[section] as Row)) rows.push({ section, item: null, itemName: null, figure, amount: value as number, count: null });
  }
  for (const [figure, value] of Object.entries(body.unbookedInvoices as Row)) rows.push({ section: 'unbookedInvoices', item: null, itemName: null, figure, amount: null, count: value as number });
  rows.push({ section: 'unreconciledMovements', item: null, itemName: null, figure: 'unreconciledMovements', amount: null, count: body.unreconciledMovements as number });
  return rows;
}

export function homeColumns(exponent: number): Array<TableColumn<FigureRow>> {
  return [
    text('section', (r) => r.section),
    text('item', (r) => r.item),
    text('itemName', (r) => r.itemName),
    text('figure', (r) => r.figure),
    amount('amount', exponent, (r) => r.amount),
    { header: 'count', type: 'integer', value: (r) => r.count },
  ];
}

/** D82: the totals row, one row per month, one per invoice. */
export function revenueRows(body: { totals: Row; months: Row[]; invoices: Row[] }): Row[] {
  return [{ row: 'totals', ...body.totals }, ...body.months.map((m) => ({ row: 'month', ...m })), ...body.invoices.map((i) => ({ row: 'invoice', ...i }))];
}

export function revenueColumns(exponent: number): Array<TableColumn<Row>> {
  return [
    text('row', (r) => r.row),
    text('month', (r) => r.month),
    date('from', (r) => r.from),
    date('to', (r) => r.to),
    text('invoiceId', (r) => r.invoiceId),
    text('documentKind', (r) => r.documentKind),
    text('documentNumber', (r) => r.documentNumber),
    text('partnerId', (r) => r.partnerId),
    date('issueDate', (r) => r.issueDate),
    date('servicePeriodStart', (r) => r.servicePeriodStart),
    date('servicePeriodEnd', (r) => r.servicePeriodEnd),
    amount('revenueAmount', exponent, (r) => r.revenueAmount),
    amount('recognized', exponent, (r) => r.recognized),
    amount('billed', exponent, (r) => r.billed),
    amount('collected', exponent, (r) => r.collected),
    amount('outstanding', exponent, (r) => r.outstanding),
  ];
}
