import Big from 'big.js';

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
