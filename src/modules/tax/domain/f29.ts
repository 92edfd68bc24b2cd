import Big from 'big.js';
import { RATE_PATTERN, validationError, MAX_AMOUNT } from '../../../../libs/shared-kernel/src';
import { CREDIT_NOTE_TYPES } from './tax-period';
import type { TaxAmounts } from './purchase-sales-register';

/** One direction and SII type of the period, summed in CLP (foreign documents converted first). */
export interface F29Sum extends TaxAmounts {
  direction: 'ar' | 'ap';
  dteType: number;
  count: number;
}

/** Every code of the propuesta F29 (D92 item 3), in the form's order. */
export const F29_CODES = [
  '503', '502', '110', '111', '512', '513', '509', '510', '142', '538',
  '519', '520', '527', '528', '531', '532', '504', '537',
  '089', '077', '563', '115', '062', '091',
] as const;
export type F29Code = (typeof F29_CODES)[number];

/** Each code an exact integer, but 115 (the PPM rate, a decimal string). */
export type F29Codes = { [K in F29Code]: K extends '115' ? string : bigint };

export interface F29Options {
  /** 504: the credit carried from the previous month (D92: default 0). */
  carriedCredit: bigint;
  /** 115: the PPM rate, a percentage as a decimal string (default "0"). */
  ppmRate: string;
}

/** `carriedCredit`: a non-negative integer (D6 range); absent is 0. */
export function carriedCreditOf(value: unknown): bigint {
  if (value === undefined) return 0n;
  if (typeof value !== 'string' || !/^[0-9]{1,16}$/.test(value) || BigInt(value) > BigInt(MAX_AMOUNT)) {
    throw validationError('carriedCredit', `must be a non-negative integer of at most ${MAX_AMOUNT}`);
  }
  return BigInt(value);
}

/** `ppmRate`: a D7-shaped decimal string or 0, echoed as sent; absent is "0". */
export function ppmRateOf(value: unknown): string {
  if (value === undefined) return '0';
  if (typeof value !== 'string' || !RATE_PATTERN.test(value)) {
    throw validationError('ppmRate', 'must be a percentage written as a decimal string (up to 12 digits before and after the point), or 0');
  }
  return value;
}

/** round_half_up(base × rate / 100), exact (big.js; half away from zero, as D7 rounds). */
export function ppm(base: bigint, rate: string): bigint {
  return BigInt(new Big(base.toString()).times(rate).div(100).round(0, Big.roundHalfUp).toFixed(0));
}

/**
 * D92 item 3. Sales (AR): 503/502 invoices 33, 110/111 receipts 39, 512/513 debit notes 56,
 * 509/510 credit notes 61, 142 the exempt amounts of every sales document (credit notes
 * subtract), 538 = 502 + 111 + 513 − 510. Purchases (AP): 519/520 invoices 33 and 46, 527/528
 * credit notes 61, 531/532 debit notes 56, 504 the carried credit, 537 = 520 + 532 − 528 + 504.
 * 089 = max(538 − 537, 0), 077 = max(537 − 538, 0); PPM: 563 = net + exempt of the sales
 * documents (credit notes subtract), 062 = round_half_up(563 × 115 / 100); 091 = 089 + 062.
 */
export function propuestaF29(sums: F29Sum[], options: F29Options): F29Codes {
  const count = (direction: 'ar' | 'ap', ...types: number[]) =>
    BigInt(sums.filter((s) => s.direction === direction && types.includes(s.dteType)).reduce((n, s) => n + s.count, 0));
  const tax = (direction: 'ar' | 'ap', ...types: number[]) =>
    sums.filter((s) => s.direction === direction && types.includes(s.dteType)).reduce((n, s) => n + s.taxAmount, 0n);
  const signed = (s: F29Sum, amount: bigint) => (CREDIT_NOTE_TYPES.has(s.dteType) ? -amount : amount);
  const sales = sums.filter((s) => s.direction === 'ar');

  const c502 = tax('ar', 33);
  const c111 = tax('ar', 39);
  const c513 = tax('ar', 56);
  const c510 = tax('ar', 61);
  const c538 = c502 + c111 + c513 - c510;
  const c520 = tax('ap', 33, 46);
  const c528 = tax('ap', 61);
  const c532 = tax('ap', 56);
  const c504 = options.carriedCredit;
  const c537 = c520 + c532 - c528 + c504;
  const c089 = c538 > c537 ? c538 - c537 : 0n;
  const c077 = c537 > c538 ? c537 - c538 : 0n;
  const c563 = sales.reduce((n, s) => n + signed(s, s.netAmount + s.exemptAmount), 0n);
  const c062 = ppm(c563, options.ppmRate);
  return {
    '503': count('ar', 33),
    '502': c502,
    '110': count('ar', 39),
    '111': c111,
    '512': count('ar', 56),
    '513': c513,
    '509': count('ar', 61),
    '510': c510,
    '142': sales.reduce((n, s) => n + signed(s, s.exemptAmount), 0n),
    '538': c538,
    '519': count('ap', 33, 46),
    '520': c520,
    '527': count('ap', 61),
    '528': c528,
    '531': count('ap', 56),
    '532': c532,
    '504': c504,
    '537': c537,
    '089': c089,
    '077': c077,
    '563': c563,
    '115': options.ppmRate,
    '062': c062,
    '091': c089 + c062,
  };
}
