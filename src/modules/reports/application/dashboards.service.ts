import { Injectable } from '@nestjs/common';
import { addDays, addMonths, convertMinorUnitsExact, decodeDateIdCursor, encodeDateIdCursor, exactAmount, monthStart, validationError } from '../../../../libs/shared-kernel/src';
import { Clock } from '../../../platform/clock/clock';
import { BankAccountsService } from '../../banking';
import { InvoiceQueries } from '../../invoices';
import { ReferenceDataService } from '../../reference';
import { monthSpans, RevenueCell, revenueCells, RevenueInvoice } from '../domain/revenue-realization';
import { DashboardQueries, RealizationInvoiceRow, RealizationMonthFigures } from './dashboard-ports';
import { OneSnapshot, Presentation, ReportsService } from './reports.service';

/** The months of home's income chart (D81a): 6 calendar months ending with the current one. */
const HOME_MONTHS = 6;
/** Home's daily balances: the 60 days ending today. */
const HOME_DAYS = 60;
/** The longest revenue realization range, in months (a bound on the work of one answer). */
const MAX_REALIZATION_MONTHS = 240;
/** D82c: revenue realization's `invoices` rows per answer by default. */
const REVENUE_INVOICE_PAGE = 200;
/** Rows read past a page: a selected invoice may have no figure in the range (then it is no row). */
const REVENUE_PAGE_SLACK = 20;


const CREDIT_NOTE_KINDS = new Set(['credit_note', 'export_credit_note']);

/** Home (D81, D81a) and revenue realization (D82, D82a, D82b). */
@Injectable()
export class DashboardsService {
  constructor(
    private readonly reports: ReportsService,
    private readonly queries: DashboardQueries,
    private readonly bankAccounts: BankAccountsService,
    private readonly invoices: InvoiceQueries,
    private readonly reference: ReferenceDataService,
    private readonly clock: Clock,
  ) {}

  @OneSnapshot()
  async home(entityId: string, query: { bookId?: string }) {
    const scope = await this.reports.scope(entityId, query.bookId);
    const today = this.clock.today();

    // D78 balances (live common entries, normal-side sign), as the bank account list shows them.
    const summaries = await this.bankAccounts.list(entityId);
    const accounts = summaries.map((s) => ({ bankAccountId: s.account.id, name: s.account.name, kind: s.account.kind, currency: s.account.currency, balance: s.balance }));
    const cash = summaries.filter((s) => s.account.kind === 'bank');
    const cashTotal = cash.reduce((sum, s) => sum + BigInt(s.balance), 0n);

    // End-of-day balances: today's, then each earlier day's by taking back that day's movements.
    const firstDay = addDays(today, -(HOME_DAYS - 1));
    // A ledger account mapped by two bank accounts counts for each, as in the total.
    const mapped = new Map<string, bigint>();
    for (const s of cash) mapped.set(s.account.ledgerAccountId, (mapped.get(s.account.ledgerAccountId) ?? 0n) + 1n);
    const moved = new Map<string, bigint>();
    for (const row of await this.queries.dailyMovements(entityId, [...mapped.keys()], addDays(firstDay, 1))) {
      moved.set(row.day, (moved.get(row.day) ?? 0n) + row.net * (mapped.get(row.ledgerAccountId) ?? 0n));
    }
    let balance = cashTotal;
    for (const [day, net] of moved) if (day > today) balance -= net;
    const daily: Array<{ date: string; balance: number }> = [];
    for (let i = 0; i < HOME_DAYS; i++) {
      const date = addDays(today, -i);
      daily.push({ date, balance: exactAmount(balance, 'dailyBalances.balance') });
      balance -= moved.get(date) ?? 0n;
    }
    daily.reverse();

    const lastMonth = monthStart(today);
    const firstMonth = addMonths(lastMonth, -(HOME_MONTHS - 1));
    const results = await this.queries.monthlyResults(entityId, scope.bookId, firstMonth, lastMonth);
    const monthlyIncome = Array.from({ length: HOME_MONTHS }, (_, i) => {
      const month = addMonths(lastMonth, -(HOME_MONTHS - 1 - i));
      const figures = results.get(month) ?? { income: 0n, expenses: 0n };
      return {
        month: month.slice(0, 7),
        income: exactAmount(figures.income, 'monthlyIncome.income'),
        expenses: exactAmount(figures.expenses, 'monthlyIncome.expenses'),
        result: exactAmount(figures.income - figures.expenses, 'monthlyIncome.result'),
      };
    });

    const open = await this.queries.openPositions(entityId, scope.bookId, today);
    return {
      currency: scope.currency,
      bookId: scope.bookId,
      cashPosition: { total: exactAmount(cashTotal, 'cashPosition.total'), accounts },
      dailyBalances: daily,
      monthlyIncome,
      receivables: { open: exactAmount(open.receivables.open, 'receivables.open'), overdue: exactAmount(open.receivables.overdue, 'receivables.overdue') },
      payables: { open: exactAmount(open.payables.open, 'payables.open'), overdue: exactAmount(open.payables.overdue, 'payables.overdue') },
      unbookedInvoices: await this.invoices.unbookedCounts(entityId),
      unreconciledMovements: summaries.reduce((sum, s) => sum + s.unreconciledCount, 0),
    };
  }

  @OneSnapshot()
  async revenueRealization(entityId: string, query: { from: string; to: string; bookId?: string; invoiceLimit?: number; invoiceCursor?: string } & Presentation) {
    if (query.to < query.from) throw validationError('to', 'must be on or after from');
    const after = query.invoiceCursor === undefined ? null : decodeDateIdCursor(query.invoiceCursor);
    if (query.invoiceCursor !== undefined && after === null) throw validationError('invoiceCursor', 'is not a cursor of this list');
    const invoiceLimit = query.invoiceLimit ?? REVENUE_INVOICE_PAGE;
    if (monthsBetween(query.from, query.to) > MAX_REALIZATION_MONTHS) {
      throw validationError('to', `must be at most ${MAX_REALIZATION_MONTHS} months after from`);
    }
    const scope = await this.reports.scope(entityId, query.bookId, query);
    const functionalExponent = this.reference.findCurrency(scope.currency)?.minorUnits ?? 0;
    const spans = monthSpans(query.from, query.to);
    const lastMonth = spans[spans.length - 1].month;
    // Each (invoice, month) cell is a leaf: converted once (D57), every row a sum of leaves.
    const convert = (value: bigint) => (scope.presentation ? scope.convert(value) : value); // exact at any size (D6a)
    const toInvoices = (rows: RealizationInvoiceRow[]): RevenueInvoice[] =>
      rows.map((r) => {
        const base = r.netAmount + r.exemptAmount;
        const foreign = r.currency !== scope.currency && r.exchangeRate !== null;
        // The functional amount of net + exempt, as the booking converted it (D7).
        const amount = foreign ? convertMinorUnitsExact(base, r.exchangeRate!, this.reference.findCurrency(r.currency)?.minorUnits ?? 0, functionalExponent) : base;
        const sign: 1 | -1 = r.receivableSide === 'credit' || CREDIT_NOTE_KINDS.has(r.documentKind) ? -1 : 1;
        return {
          invoiceId: r.invoiceId,
          sign,
          issueDate: r.issueDate,
          periodStart: r.servicePeriodStart ?? r.issueDate,
          periodEnd: r.servicePeriodEnd ?? r.issueDate,
          amount,
          receivableAmount: r.receivableAmount,
          bookedOn: r.bookedOn,
          settlements: r.settlements,
        };
      });
    const cellsOf = (invoices: RevenueInvoice[]): RevenueCell[] =>
      revenueCells(invoices, query.from, query.to).map((c) => ({
        ...c,
        recognized: convert(c.recognized),
        billed: convert(c.billed),
        collected: convert(c.collected),
        outstanding: convert(c.outstanding),
      }));
    const sum = (list: RevenueCell[], field: 'recognized' | 'billed' | 'collected' | 'outstanding') => list.reduce((s, c) => s + c[field], 0n);
    const byInvoiceOf = (cells: RevenueCell[]) => {
      const map = new Map<string, RevenueCell[]>();
      for (const c of cells) {
        const list = map.get(c.invoiceId);
        if (list) list.push(c);
        else map.set(c.invoiceId, [c]);
      }
      return map;
    };

    let monthFigures: RealizationMonthFigures[];
    // D82c: the page of invoice rows with a figure, by issueDate then invoice id.
    const page: Array<{ row: RealizationInvoiceRow; invoice: RevenueInvoice; cells: RevenueCell[] }> = [];
    let more = false;
    if (scope.presentation) {
      // Converted cell by cell (D57): every invoice of the range read and spread here.
      const rows = await this.queries.realizationInvoices(entityId, scope.bookId, query.from, query.to);
      const invoices = toInvoices(rows);
      const cells = cellsOf(invoices);
      const byMonth = new Map<string, RevenueCell[]>();
      for (const c of cells) {
        const list = byMonth.get(c.month);
        if (list) list.push(c);
        else byMonth.set(c.month, [c]);
      }
      monthFigures = spans.map((span) => {
        const list = byMonth.get(span.month) ?? [];
        return { recognized: sum(list, 'recognized'), billed: sum(list, 'billed'), collected: sum(list, 'collected'), outstanding: sum(list, 'outstanding') };
      });
      const byInvoice = byInvoiceOf(cells);
      const isAfter = (r: RealizationInvoiceRow) => after === null || r.issueDate > after.date || (r.issueDate === after.date && r.invoiceId > after.id);
      rows.forEach((row, index) => {
        if (!byInvoice.has(row.invoiceId) || !isAfter(row)) return;
        if (page.length === invoiceLimit) more = true;
        else page.push({ row, invoice: invoices[index], cells: byInvoice.get(row.invoiceId)! });
      });
    } else {
      // Additive figures: the months summed in SQL over every invoice; only the page's invoices read and spread here.
      const exponents = Object.fromEntries(this.reference.listCurrencies().map((c) => [c.code, c.minorUnits]));
      monthFigures = await this.queries.realizationMonths(entityId, scope.bookId, query.from, query.to, spans, {
        functionalCurrency: scope.currency,
        functionalExponent,
        exponents,
      });
      // Rows of the selection with no figure in the range are skipped: read a little past the page, and on while short.
      let key = after;
      for (;;) {
        const batch = invoiceLimit + 1 + REVENUE_PAGE_SLACK;
        const rows = await this.queries.realizationInvoices(entityId, scope.bookId, query.from, query.to, { after: key, limit: batch });
        const invoices = toInvoices(rows);
        const byInvoice = byInvoiceOf(cellsOf(invoices));
        rows.forEach((row, index) => {
          if (more || !byInvoice.has(row.invoiceId)) return;
          if (page.length === invoiceLimit) more = true;
          else page.push({ row, invoice: invoices[index], cells: byInvoice.get(row.invoiceId)! });
        });
        if (more || rows.length < batch) break;
        key = { date: rows[rows.length - 1].issueDate, id: rows[rows.length - 1].invoiceId };
      }
    }

    const months = spans.map((span, k) => ({
      month: span.month,
      from: span.from,
      to: span.to,
      recognized: exactAmount(monthFigures[k].recognized, 'months.recognized'),
      billed: exactAmount(monthFigures[k].billed, 'months.billed'),
      collected: exactAmount(monthFigures[k].collected, 'months.collected'),
      outstanding: exactAmount(monthFigures[k].outstanding, 'months.outstanding'),
    }));
    const total = (field: 'recognized' | 'billed' | 'collected') => monthFigures.reduce((s, m) => s + m[field], 0n);
    const invoiceRows = page.map(({ row: r, invoice, cells: list }) => ({
      invoiceId: r.invoiceId,
      documentKind: r.documentKind,
      documentNumber: r.documentNumber,
      partnerId: r.partnerId,
      issueDate: r.issueDate,
      servicePeriodStart: invoice.periodStart,
      servicePeriodEnd: invoice.periodEnd,
      revenueAmount: exactAmount(convert(BigInt(invoice.sign) * invoice.amount), 'invoices.revenueAmount'),
      recognized: exactAmount(sum(list, 'recognized'), 'invoices.recognized'),
      billed: exactAmount(sum(list, 'billed'), 'invoices.billed'),
      collected: exactAmount(sum(list, 'collected'), 'invoices.collected'),
      outstanding: exactAmount(list.find((c) => c.month === lastMonth)?.outstanding ?? 0n, 'invoices.outstanding'),
    }));
    const lastListed = page.length > 0 ? page[page.length - 1].row : null;
    return {
      from: query.from,
      to: query.to,
      currency: scope.currency,
      bookId: scope.bookId,
      presentation: scope.presentation,
      totals: {
        recognized: exactAmount(total('recognized'), 'totals.recognized'),
        billed: exactAmount(total('billed'), 'totals.billed'),
        collected: exactAmount(total('collected'), 'totals.collected'),
        outstanding: months[months.length - 1].outstanding,
      },
      months,
      invoices: invoiceRows,
      nextInvoiceCursor: more && lastListed ? encodeDateIdCursor({ date: lastListed.issueDate, id: lastListed.invoiceId }) : null,
    };
  }
}

function monthsBetween(from: string, to: string): number {
  const [fy, fm] = from.split('-').map(Number);
  const [ty, tm] = to.split('-').map(Number);
  return (ty - fy) * 12 + (tm - fm) + 1;
}

