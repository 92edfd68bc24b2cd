/**
 * Calendar dates and instants as the API takes them. Every value accepted here is one PostgreSQL
 * accepts too, and stays accepted after the services step a day or a month from it (a report's
 * opening balance reads up to the day before `from`): PostgreSQL refuses year 0 and impossible
 * days, which JavaScript's Date quietly rolls over (`2026-02-30` is 2 March to `Date.parse`).
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The first and the last date the API takes. */
export const MIN_ISO_DATE = '1000-01-01';
export const MAX_ISO_DATE = '9999-12-31';

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** `YYYY-MM-DD`, a day that exists, from MIN_ISO_DATE through MAX_ISO_DATE. */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return year >= 1000 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/**
 * A date-time with an explicit offset: `YYYY-MM-DDTHH:MM[:SS[.ffffff]](Z|±HH:MM)`, its date by
 * isIsoDate, hours 00-23, offsets up to ±14:00 (the widest in use).
 */
const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,6})?)?(?:Z|[+-](?:0\d|1[0-3]):[0-5]\d|[+-]14:00)$/;

export function isIsoDateTime(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = ISO_DATE_TIME.exec(value);
  return match !== null && isIsoDate(match[1]);
}

/** An instant exactly as `Date.prototype.toISOString` writes it, in the range of isIsoDate. */
export function isIsoInstant(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value) || !isIsoDate(value.slice(0, 10))) return false;
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).toISOString() === value;
}

const DAY_MS = 86_400_000;

/**
 * Calendar arithmetic on ISO dates (no time zone: each is its UTC midnight). The one copy of what
 * fx, reports, banking and bank feeds each wrote for themselves.
 */
/** Whole days since 1970-01-01 (negative before). */
export function dayNumber(date: string): number {
  return Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

/** The ISO date of a day number (dayNumber's inverse). */
export function dateOfDayNumber(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** `date` moved by `days` calendar days (negative: back). */
export function addDays(date: string, days: number): string {
  return dateOfDayNumber(dayNumber(date) + days);
}

/** Calendar days from `earlier` to `later`: negative when `later` is the earlier one. */
export function daysBetween(earlier: string, later: string): number {
  return dayNumber(later) - dayNumber(earlier);
}

/**
 * Months of ISO dates, the one copy of what the ledger (month ranges), reports (home, revenue
 * realization) and tax (periods) each wrote for themselves.
 */
/** The first day of `date`'s month. */
export function monthStart(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

/** The first day of the month `months` months after `date`'s (negative: before). */
export function addMonths(date: string, months: number): string {
  const index = Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1 + months;
  const year = Math.floor(index / 12);
  return `${String(year).padStart(4, '0')}-${String(index - year * 12 + 1).padStart(2, '0')}-01`;
}

/** The first day of the next month; null after December 9999, the last month a date may name. */
export function nextMonthStart(date: string): string | null {
  return date.slice(0, 7) === '9999-12' ? null : addMonths(date, 1);
}

/** The last day of `date`'s month. */
export function monthEnd(date: string): string {
  return `${date.slice(0, 7)}-${String(daysInMonth(Number(date.slice(0, 4)), Number(date.slice(5, 7)))).padStart(2, '0')}`;
}

/** Whether `date` is the last day of its month. */
export function isMonthEnd(date: string): boolean {
  return date === monthEnd(date);
}
