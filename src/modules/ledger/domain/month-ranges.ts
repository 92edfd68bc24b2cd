import { addDays } from '../../../../libs/shared-kernel/src';

/**
 * Splitting a date range into whole months (read from the monthly totals) and the days at its
 * edges (read from the lines). Dates are ISO calendar dates.
 */
export interface DateSpan {
  from: string;
  to: string;
}

/** An empty span: BETWEEN never matches. */
export const NO_DAYS: DateSpan = { from: '9999-12-31', to: '0001-01-01' };

function parse(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

function format(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function monthStart(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

/** The first day of the next month; null after December 9999, the last month a date may name. */
export function nextMonthStart(date: string): string | null {
  if (date.slice(0, 7) === '9999-12') return null;
  const d = parse(monthStart(date));
  d.setUTCMonth(d.getUTCMonth() + 1);
  return format(d);
}

export function isMonthEnd(date: string): boolean {
  const d = parse(date);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.getUTCDate() === 1;
}

export interface SplitRange {
  /** Whole months inside the range, as first days: [first, last]; null when there is none. */
  months: { first: string; last: string } | null;
  /** The days of the range outside those months (at most two spans). */
  days: [DateSpan, DateSpan];
}

/** [from, to] as whole months plus edge days. */
export function splitRange(from: string, to: string): SplitRange {
  if (to < from) return { months: null, days: [NO_DAYS, NO_DAYS] };
  const fullStart = from === monthStart(from) ? from : nextMonthStart(from);
  const fullEnd = isMonthEnd(to) ? to : addDays(monthStart(to), -1);
  if (fullStart === null || fullStart > fullEnd) return { months: null, days: [{ from, to }, NO_DAYS] };
  return {
    months: { first: fullStart, last: monthStart(fullEnd) },
    days: [fullStart > from ? { from, to: addDays(fullStart, -1) } : NO_DAYS, fullEnd < to ? { from: addDays(fullEnd, 1), to } : NO_DAYS],
  };
}

/** Everything strictly before `date`: the months before its month, and its month's earlier days. */
export function splitBefore(date: string): { monthsBefore: string; days: DateSpan } {
  const start = monthStart(date);
  return { monthsBefore: start, days: date > start ? { from: start, to: addDays(date, -1) } : NO_DAYS };
}
