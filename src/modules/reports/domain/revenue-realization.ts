import { addDays, dayNumber, monthEnd, nextMonthStart } from '../../../../libs/shared-kernel/src';

/**
 * D82, D82a, D82b: revenue realization of AR invoices, in functional minor units, as exact
 * integers (bigint inside, never floats).
 *
 * Rounding rule (recognized revenue): an invoice's amount T (net + exempt, negative for a credit
 * note) is spread over the N days of its recognition period (the service period, or the issue
 * day when it has none). What is recognized through day k (1..N) is sign(T) × floor(|T| × k / N):
 * each day gets its share rounded down and what rounding leaves accrues to the later days, so
 * the last day completes T. Any split of the period (months, the report's range) adds up to the
 * cumulative figures at its edges, so the months add up exactly to T and no minor unit is lost.
 */

export interface RevenueInvoice {
  invoiceId: string;
  /** +1 for invoices and debit notes, -1 for credit notes. */
  sign: 1 | -1;
  issueDate: string;
  /** Inclusive recognition period. */
  periodStart: string;
  periodEnd: string;
  /** |net + exempt| in functional minor units. */
  amount: bigint;
  /** The receivable line: its amount (functional) and the date it was booked. */
  receivableAmount: bigint;
  bookedOn: string;
  /** Settlements of the receivable line: amount and the date of the settling entry. */
  settlements: Array<{ date: string; amount: bigint }>;
}

export interface RevenueFigures {
  recognized: bigint;
  billed: bigint;
  collected: bigint;
  outstanding: bigint;
}

export interface MonthSpan {
  /** `YYYY-MM` */
  month: string;
  /** Inclusive days of the month inside the report's range (D82b). */
  from: string;
  to: string;
}

/** The months of `from`..`to`, the first and last cut to the range (D82b). */
export function monthSpans(from: string, to: string): MonthSpan[] {
  const spans: MonthSpan[] = [];
  let start = from;
  while (start <= to) {
    const end = monthEnd(start) < to ? monthEnd(start) : to;
    spans.push({ month: start.slice(0, 7), from: start, to: end });
    const next = nextMonthStart(start);
    if (next === null) break;
    start = next;
  }
  return spans;
}

/** Recognized through the end of `date` (0 before the period, the whole amount after it). */
export function recognizedThrough(invoice: Pick<RevenueInvoice, 'periodStart' | 'periodEnd' | 'amount' | 'sign'>, date: string): bigint {
  if (date < invoice.periodStart) return 0n;
  if (date >= invoice.periodEnd) return BigInt(invoice.sign) * invoice.amount;
  const days = BigInt(dayNumber(invoice.periodEnd) - dayNumber(invoice.periodStart) + 1);
  const k = BigInt(dayNumber(date) - dayNumber(invoice.periodStart) + 1);
  return BigInt(invoice.sign) * ((invoice.amount * k) / days);
}

/** Recognized on the days `from`..`to` (inclusive). */
export function recognizedBetween(invoice: RevenueInvoice, from: string, to: string): bigint {
  return recognizedThrough(invoice, to) - recognizedThrough(invoice, addDays(from, -1));
}

/** The open amount of the receivable line at the end of `date` (0 before it was booked). */
export function openAt(invoice: RevenueInvoice, date: string): bigint {
  if (date < invoice.bookedOn) return 0n;
  let open = invoice.receivableAmount;
  for (const s of invoice.settlements) if (s.date <= date) open -= s.amount;
  return BigInt(invoice.sign) * open;
}

/** One invoice's figures on one span of days; `outstanding` at the span's last day. */
export function figuresOn(invoice: RevenueInvoice, span: { from: string; to: string }): RevenueFigures {
  const billed = invoice.issueDate >= span.from && invoice.issueDate <= span.to ? BigInt(invoice.sign) * invoice.amount : 0n;
  let collected = 0n;
  for (const s of invoice.settlements) if (s.date >= span.from && s.date <= span.to) collected += s.amount;
  return {
    recognized: recognizedBetween(invoice, span.from, span.to),
    billed,
    collected: BigInt(invoice.sign) * collected,
    outstanding: openAt(invoice, span.to),
  };
}

export interface RevenueCell extends RevenueFigures {
  invoiceId: string;
  month: string;
}

/**
 * Every (invoice, month) cell of the range with a figure that is not zero. A month row is the
 * sum of its cells, an invoice row the sum of its cells' flows and its last month's outstanding:
 * with a presentation currency each cell is converted once and everything still adds up.
 * The same figures as `figuresOn` per span, with each date turned into a day number once (an
 * answer can hold tens of thousands of invoices).
 */
export function revenueCells(invoices: RevenueInvoice[], from: string, to: string): RevenueCell[] {
  const spans = monthSpans(from, to).map((span) => ({ month: span.month, from: span.from, to: span.to, first: dayNumber(span.from), last: dayNumber(span.to) }));
  const cells: RevenueCell[] = [];
  for (const invoice of invoices) {
    const sign = BigInt(invoice.sign);
    const start = dayNumber(invoice.periodStart);
    const end = dayNumber(invoice.periodEnd);
    const days = BigInt(end - start + 1);
    const signed = sign * invoice.amount;
    const through = (day: number): bigint => (day < start ? 0n : day >= end ? signed : sign * ((invoice.amount * BigInt(day - start + 1)) / days));
    for (const span of spans) {
      const billed = invoice.issueDate >= span.from && invoice.issueDate <= span.to ? signed : 0n;
      let collected = 0n;
      let settledBy = 0n;
      for (const s of invoice.settlements) {
        if (s.date <= span.to) settledBy += s.amount;
        if (s.date >= span.from && s.date <= span.to) collected += s.amount;
      }
      const outstanding = span.to < invoice.bookedOn ? 0n : sign * (invoice.receivableAmount - settledBy);
      const recognized = through(span.last) - through(span.first - 1);
      if (recognized !== 0n || billed !== 0n || collected !== 0n || outstanding !== 0n) {
        cells.push({ invoiceId: invoice.invoiceId, month: span.month, recognized, billed, collected: sign * collected, outstanding });
      }
    }
  }
  return cells;
}
