import { addDays, isMonthEnd, monthStart, nextMonthStart } from '../../../../libs/shared-kernel/src';

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
