import { Injectable } from '@nestjs/common';
import { addDays, convertMinorUnitsExact, exactAmount, validationError } from '../../../../libs/shared-kernel/src';
import { Clock } from '../../../platform/clock/clock';
import { BankAccountsService } from '../../banking';
import { InvoiceQueries } from '../../invoices';
import { ReferenceDataService } from '../../reference';
import { monthSpans, RevenueCell, revenueCells, RevenueInvoice } from '../domain/revenue-realization';
import { DashboardQueries } from './dashboard-ports';
import { monthStart } from '../../ledger';
import { OneSnapshot, Presentation, ReportsService } from './reports.service';

/** The months of home's income chart (D81a): 6 calendar months ending with the current one. */
const HOME_MONTHS = 6;
/** Home's daily balances: the 60 days ending today. */
const HOME_DAYS = 60;
/** The longest revenue realization range, in months (a bound on the work of one answer). */
const MAX_REALIZATION_MONTHS = 240;

function monthsBefore(month: string, count: number): string {
  const [y, m] = month.split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 - count, 1));
  return d.toISOString().slice(0, 10);
}

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
    const firstMonth = monthsBefore(lastMonth, HOME_MONTHS - 1);
    const results = await this.queries.monthlyResults(entityId, scope.bookId, firstMonth, lastMonth);
    const monthlyIncome = Array.from({ length: HOME_MONTHS }, (_, i) => {
      const month = monthsBefore(lastMonth, HOME_MONTHS - 1 - i);
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
  async revenueRealization(entityId: string, query: { from: string; to: string; bookId?: string } & Presentation) {
    if (query.to < query.from) throw validationError('to', 'must be on or after from');
    if (monthsBetween(query.from, query.to) > MAX_REALIZATION_MONTHS) {
      throw validationError('to', `must be at most ${MAX_REALIZATION_MONTHS} months after from`);
    }
    const scope = await this.reports.scope(entityId, query.bookId, query);
    const functionalExponent = this.reference.findCurrency(scope.currency)?.minorUnits ?? 0;
    const rows = await this.queries.realizationInvoices(entityId, scope.bookId, query.from, query.to);

    const invoices: RevenueInvoice[] = rows.map((r) => {
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

    // Each (invoice, month) cell is a leaf: converted once (D57), every row a sum of leaves.
    const convert = (value: bigint) => (scope.presentation ? scope.convert(value) : value); // exact at any size (D6a)
    const cells: RevenueCell[] = revenueCells(invoices, query.from, query.to).map((c) => ({
      ...c,
      recognized: convert(c.recognized),
      billed: convert(c.billed),
      collected: convert(c.collected),
      outstanding: convert(c.outstanding),
    }));
    const spans = monthSpans(query.from, query.to);
    const lastMonth = spans[spans.length - 1].month;
    const sum = (list: RevenueCell[], field: 'recognized' | 'billed' | 'collected' | 'outstanding') => list.reduce((s, c) => s + c[field], 0n);

    const byMonth = new Map<string, RevenueCell[]>();
    const byInvoice = new Map<string, RevenueCell[]>();
    const push = (map: Map<string, RevenueCell[]>, key: string, c: RevenueCell) => {
      const list = map.get(key);
      if (list) list.push(c);
      else map.set(key, [c]);
    };
    for (const c of cells) {
      push(byMonth, c.month, c);
      push(byInvoice, c.invoiceId, c);
    }
    const months = spans.map((span) => {
      const list = byMonth.get(span.month) ?? [];
      return {
        month: span.month,
        from: span.from,
        to: span.to,
        recognized: exactAmount(sum(list, 'recognized'), 'months.recognized'),
        billed: exactAmount(sum(list, 'billed'), 'months.billed'),
        collected: exactAmount(sum(list, 'collected'), 'months.collected'),
        outstanding: exactAmount(sum(list, 'outstanding'), 'months.outstanding'),
      };
    });
    const invoiceRows = rows
      .map((r, index) => {
        const list = byInvoice.get(r.invoiceId) ?? [];
        const invoice = invoices[index];
        return {
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
        };
      })
      .filter((r) => byInvoice.has(r.invoiceId));
    return {
      from: query.from,
      to: query.to,
      currency: scope.currency,
      bookId: scope.bookId,
      presentation: scope.presentation,
      totals: {
        recognized: exactAmount(sum(cells, 'recognized'), 'totals.recognized'),
        billed: exactAmount(sum(cells, 'billed'), 'totals.billed'),
        collected: exactAmount(sum(cells, 'collected'), 'totals.collected'),
        outstanding: months[months.length - 1].outstanding,
      },
      months,
      invoices: invoiceRows,
    };
  }
}

function monthsBetween(from: string, to: string): number {
  const [fy, fm] = from.split('-').map(Number);
  const [ty, tm] = to.split('-').map(Number);
  return (ty - fy) * 12 + (tm - fm) + 1;
}

