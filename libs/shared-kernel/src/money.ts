import Big from 'big.js';
import { DomainError } from './domain-error';

/** D6: amounts are integers in minor units within JavaScript's safe range. */
export const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;

/** D7: exchange and presentation rates. */
export const RATE_PATTERN = /^[0-9]{1,12}(\.[0-9]{1,12})?$/;

export function isRate(value: unknown): value is string {
  return typeof value === 'string' && RATE_PATTERN.test(value) && new Big(value).gt(0);
}

/**
 * The one written form of a rate (spec: a plain decimal string): no leading zeros in the whole
 * part, no trailing zeros in the fraction, no trailing point. `950.50` and `0950.5` are `950.5`;
 * `950.000` is `950`. Never exponent notation.
 */
export function canonicalRate(value: string): string {
  return new Big(value).toFixed();
}

/**
 * D7: converts minor units of one currency into minor units of another at a decimal rate,
 * round half up: round_half_up(amount / 10^fromExponent * rate * 10^toExponent).
 */
export function convertMinorUnits(amount: number, rate: string, fromExponent: number, toExponent: number): number {
  const converted = new Big(amount).times(rate).times(new Big(10).pow(toExponent - fromExponent));
  // Big's roundHalfUp rounds half away from zero; amounts here are positive.
  return Number(converted.round(0, Big.roundHalfUp).toString());
}

/** D7 with exact amounts of any size (D6a: report figures are summed as bigint). */
export function convertMinorUnitsExact(amount: bigint, rate: string, fromExponent: number, toExponent: number): bigint {
  const converted = new Big(amount.toString()).times(rate).times(new Big(10).pow(toExponent - fromExponent));
  // Half away from zero, for negative balances too (Big's roundHalfUp is symmetric).
  return BigInt(converted.round(0, Big.roundHalfUp).toFixed(0));
}

/** D6a: one figure summed exactly (bigint, or PostgreSQL's numeric as text) as a JSON number, or 409 naming `field`. */
export function exactAmount(value: bigint | string, field: string): number {
  return exactAmounts(typeof value === 'bigint' ? value : BigInt(value), field);
}

/** A JSON value with every bigint turned into a number (exactAmounts). */
export type ExactAmounts<T> = T extends bigint
  ? number
  : T extends Array<infer U>
    ? Array<ExactAmounts<U>>
    : T extends object
      ? { [K in keyof T]: ExactAmounts<T[K]> }
      : T;

/**
 * D6a: every amount of an answer is an exact JSON integer. Figures are computed as bigint; here
 * each becomes a number, and one past 2^53 − 1 in absolute value refuses the whole answer with
 * 409 AMOUNT_OUT_OF_RANGE_ERROR, `params.field` naming it (e.g. `assets.groups[0].total`).
 */
export function exactAmounts<T>(value: T, path = ''): ExactAmounts<T> {
  if (typeof value === 'bigint') {
    if (value > BigInt(MAX_AMOUNT) || value < -BigInt(MAX_AMOUNT)) {
      throw new DomainError('AMOUNT_OUT_OF_RANGE_ERROR', `The figure ${path || 'amount'} is past the largest exact amount (${MAX_AMOUNT})`, { field: path });
    }
    return Number(value) as ExactAmounts<T>;
  }
  if (Array.isArray(value)) return value.map((item, index) => exactAmounts(item, `${path}[${index}]`)) as ExactAmounts<T>;
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, exactAmounts(item, path ? `${path}.${key}` : key)])) as ExactAmounts<T>;
  }
  return value as ExactAmounts<T>;
}
