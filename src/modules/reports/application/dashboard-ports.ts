/**
 * What home (D81, D81a) and revenue realization (D82, D82a) read that the reports' ledger queries
 * do not: figures over invoices and bank accounts joined to their ledger lines. The adapter
 * (infrastructure/persistence/dashboard-queries.ts) is the reports' read model over those tables;
 * bank account lists and unbooked counts come through the banking and invoices modules' APIs.
 */
export interface OpenPositions {
  receivables: { open: bigint; overdue: bigint };
  payables: { open: bigint; overdue: bigint };
}

/** A booked AR invoice with its receivable line and the settlements of that line. */
export interface RealizationInvoiceRow {
  invoiceId: string;
  documentKind: string;
  documentNumber: string;
  partnerId: string;
  issueDate: string;
  servicePeriodStart: string | null;
  servicePeriodEnd: string | null;
  currency: string;
  exchangeRate: string | null;
  netAmount: bigint;
  exemptAmount: bigint;
  receivableSide: 'debit' | 'credit';
  receivableAmount: bigint;
  bookedOn: string;
  settlements: Array<{ date: string; amount: bigint }>;
}

/** A page of realizationInvoices: after the key (issueDate, invoiceId), at most `limit` rows. */
export interface RealizationPage {
  after: { date: string; id: string } | null;
  limit: number;
}

/** How realizationMonths converts an invoice in another currency (D7): the functional currency and each currency's minor-unit exponent. */
export interface RealizationConversion {
  functionalCurrency: string;
  functionalExponent: number;
  exponents: Record<string, number>;
}

export interface RealizationMonthFigures {
  recognized: bigint;
  billed: bigint;
  collected: bigint;
  outstanding: bigint;
}

export abstract class DashboardQueries {
  /** Σ per day and account (debit-positive) of live common lines on these ledger accounts dated on or after `from`. */
  abstract dailyMovements(entityId: string, ledgerAccountIds: string[], from: string): Promise<Array<{ day: string; ledgerAccountId: string; net: bigint }>>;
  /** Per month (`YYYY-MM-01`) of `firstMonth`..`lastMonth`: net credit of income types, net debit of expense types, in the Book. */
  abstract monthlyResults(entityId: string, bookId: string | null, firstMonth: string, lastMonth: string): Promise<Map<string, { income: bigint; expenses: bigint }>>;
  /** Open amounts of booked invoices' receivable and payable lines in the Book, and the part due before `today`. */
  abstract openPositions(entityId: string, bookId: string | null, today: string): Promise<OpenPositions>;
  /**
   * Booked AR invoices of the Book with a figure in `from`..`to` (D82b), with their settlements,
   * by issueDate then invoice id; with `page`, only the `limit` first after the key `after`.
   */
  abstract realizationInvoices(entityId: string, bookId: string | null, from: string, to: string, page?: RealizationPage): Promise<RealizationInvoiceRow[]>;
  /**
   * D82, D82c: the month figures of revenue realization over every invoice of `realizationInvoices`,
   * summed in SQL (each figure is additive over invoices without a presentation currency): per span
   * of `spans` (the range's months, in order), recognized, billed and collected, and outstanding at
   * the span's end. Amounts in the functional currency, converted by D7 as the invoice was.
   */
  abstract realizationMonths(entityId: string, bookId: string | null, from: string, to: string, spans: Array<{ from: string; to: string }>, conversion: RealizationConversion): Promise<RealizationMonthFigures[]>;
}
