import Big from 'big.js';
import { addDays, canonicalRate, daysBetween, errorCatalog } from '../../../../libs/shared-kernel/src';

/**
 * Every code FX rates answers, with its HTTP status: the one place each is declared. The compiler
 * checks the table (D3: a *_NOT_FOUND_ERROR is 404) and that every error built here names a code
 * of it.
 */
export const FX_ERROR_STATUS = {
  FX_PROVIDER_ERROR: 502,
  FX_RATE_NOT_FOUND_ERROR: 404,
  FX_RATE_STALE_ERROR: 409,
} as const;

export const fxError = errorCatalog(FX_ERROR_STATUS);

/** D80: the currencies the FX providers publish against the Chilean peso. */
export const FX_CURRENCIES = ['USD', 'EUR', 'CLF'] as const;
export type FxCurrency = (typeof FX_CURRENCIES)[number];

/** Where a stored rate came from: the provider that published it. */
export type FxSource = 'offline' | 'cmf';

/** One published rate: 1 `currency` = `rate` `functionalCurrency` on `date`. */
export interface FxRate {
  date: string;
  currency: string;
  functionalCurrency: string;
  /** A plain decimal string (D7), never a float. */
  rate: string;
  source: FxSource;
}

/**
 * A rate looked up for a day: the rate published on `rateDate`, the last one on or before the
 * day asked (`date`), at most MAX_RATE_AGE_DAYS earlier.
 */
export interface EffectiveFxRate extends FxRate {
  /** The day asked for. */
  requestedDate: string;
  /** The day the rate was published (equal to `requestedDate` unless none was published that day). */
  rateDate: string;
  /** Whole days from `rateDate` to `requestedDate` (0 when published that day). */
  ageDays: number;
}

/**
 * No rate is published on weekends and holidays (dollar, euro). A day without one takes the last
 * rate published at most this many days earlier (a long weekend plus holidays fits); an older
 * one is refused, never silently used (ERPNext's "last rate however old" is the counter-example).
 */
export const MAX_RATE_AGE_DAYS = 7;

/** The longest range one sync fetches (the CMF allows 10,000 requests a month per key). */
export const MAX_SYNC_DAYS = 3660;

export const fxRateNotFound = (params: { currency: string; date: string }) =>
  fxError('FX_RATE_NOT_FOUND_ERROR', `No ${params.currency} rate is stored on or before ${params.date}`, params);

export const fxRateStale = (params: { currency: string; date: string; lastRateDate: string; maxAgeDays: number }) =>
  fxError(
    'FX_RATE_STALE_ERROR',
    `The last ${params.currency} rate on or before ${params.date} was published on ${params.lastRateDate}, more than ${params.maxAgeDays} days earlier`,
    params,
  );

export const fxProviderError = (params: { source: FxSource; reason: string }) =>
  fxError('FX_PROVIDER_ERROR', `The FX provider ${params.source} failed: ${params.reason}`, params);

/**
 * The staleness rule: the last published rate (`latest`, on or before `date`, or null when none
 * is stored) answers for `date` when it is at most MAX_RATE_AGE_DAYS older; otherwise a refusal.
 */
export function effectiveRate(currency: string, date: string, latest: FxRate | null): EffectiveFxRate {
  if (!latest) throw fxRateNotFound({ currency, date });
  const ageDays = daysBetween(latest.date, date);
  if (ageDays < 0) throw new Error(`a rate of ${latest.date} cannot answer for the earlier ${date}`);
  if (ageDays > MAX_RATE_AGE_DAYS) throw fxRateStale({ currency, date, lastRateDate: latest.date, maxAgeDays: MAX_RATE_AGE_DAYS });
  return { ...latest, requestedDate: date, rateDate: latest.date, ageDays };
}

/**
 * A number as the CMF writes it (`38.500,12`: dots group thousands, a comma before the
 * decimals) as a plain decimal string (`38500.12`), exactly: by text, never through a float.
 * Anything else (a sign, letters, misplaced dots, empty) is null.
 */
export function parseChileanDecimal(text: string): string | null {
  const trimmed = text.trim();
  const match = /^(\d{1,3}(?:\.\d{3})*|\d+)(?:,(\d+))?$/.exec(trimmed);
  if (!match) return null;
  const whole = match[1].replace(/\./g, '').replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

/**
 * D91: the average rate of a range, the mean of the rate of every day `from`..`to`, each day's
 * rate found by the staleness rule among `published` (the rates of the currency from
 * MAX_RATE_AGE_DAYS before `from` to `to`, any order), rounded half up to 12 decimals, in the
 * canonical form. A day without a rate refuses as `effectiveRate` does.
 */
export function averageRate(currency: string, from: string, to: string, published: FxRate[]): string {
  const byDate = [...published].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  let sum = new Big(0);
  let days = 0;
  let next = 0;
  let latest: FxRate | null = null;
  for (let day = from; day <= to; day = addDays(day, 1)) {
    while (next < byDate.length && byDate[next].date <= day) latest = byDate[next++];
    sum = sum.plus(effectiveRate(currency, day, latest).rate);
    days++;
  }
  return canonicalRate(sum.div(days).round(12, Big.roundHalfUp).toFixed(12));
}
