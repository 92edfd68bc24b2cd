import { monthEnd, validationError } from '../../../../libs/shared-kernel/src';

/** D92: `sales` is the AR side of the books, `purchases` the AP side. */
export const TAX_DIRECTIONS = ['sales', 'purchases'] as const;
export type TaxDirection = (typeof TAX_DIRECTIONS)[number];

export const invoiceDirectionOf = (direction: TaxDirection): 'ar' | 'ap' => (direction === 'sales' ? 'ar' : 'ap');

export const PERIOD_PATTERN = /^([0-9]{4})-(0[1-9]|1[0-2])$/;

/** A tax period `YYYY-MM` (D92): the first and last day of its month. */
export interface TaxPeriod {
  period: string;
  from: string;
  to: string;
}

export function taxPeriod(period: unknown): TaxPeriod {
  const match = typeof period === 'string' ? PERIOD_PATTERN.exec(period) : null;
  if (!match || match[1] === '0000') throw validationError('period', 'must be a month written YYYY-MM');
  const from = `${match[1]}-${match[2]}-01`;
  return { period: period as string, from, to: monthEnd(from) };
}

export function taxDirection(direction: unknown): TaxDirection {
  if (typeof direction !== 'string' || !(TAX_DIRECTIONS as readonly string[]).includes(direction)) {
    throw validationError('direction', `must be one of ${TAX_DIRECTIONS.join(', ')}`);
  }
  return direction as TaxDirection;
}

/** The SII's credit notes (61, and 112 for exports): negative in summaries and the F29. */
export const CREDIT_NOTE_TYPES: ReadonlySet<number> = new Set([61, 112]);

/** A folio as an integer in canonical form (D63a: leading zeros ignored). */
export function canonicalFolio(folio: string): string {
  return BigInt(folio).toString();
}

/** Orders folios written as canonical digit strings numerically. */
export function compareFolios(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}
