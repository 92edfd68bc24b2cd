import type { Direction } from './invoice';

/**
 * One invoice of a period with an SII document kind (not `other`), as the tax books read it (D92):
 * amounts in the invoice's currency, minor units, exact (bigint).
 */
export interface SiiPeriodDocument {
  invoiceId: string;
  dteType: number;
  /** The folio (documentNumber), digits as stored. */
  folio: string;
  partnerId: string;
  issueDate: string;
  currency: string;
  /** Null when the invoice is in the Entity's currency. */
  exchangeRate: string | null;
  exemptAmount: bigint;
  netAmount: bigint;
  taxAmount: bigint;
  totalAmount: bigint;
}

/**
 * A month's invoices summed per direction and SII document kind: the invoices in the Entity's
 * currency in one group (`currency` and `exchangeRate` null, `count` of them), each
 * foreign-currency invoice in a group of its own (`count` 1), so a reader can convert it by D7
 * before adding it up.
 */
export interface SiiPeriodTotal {
  direction: Direction;
  dteType: number;
  currency: string | null;
  exchangeRate: string | null;
  count: number;
  exemptAmount: bigint;
  netAmount: bigint;
  taxAmount: bigint;
  totalAmount: bigint;
}

/**
 * The invoices module's read of a tax period (issue 37: the Registro de Compras y Ventas and the
 * propuesta F29), from the index on (entity_id, issue_date): never a scan of every invoice.
 */
export abstract class SiiPeriodDocuments {
  /** Every invoice of this direction issued from..to (inclusive) with an SII kind, in no order. */
  abstract documents(entityId: string, direction: Direction, from: string, to: string): Promise<SiiPeriodDocument[]>;
  /**
   * The sums of every invoice with an SII kind issued in the month from..to (its first and last
   * day; see SiiPeriodTotal), from the month's totals kept with the invoices (a few rows) and the
   * month's foreign-currency invoices: not from every invoice of the month.
   */
  abstract monthTotals(entityId: string, from: string, to: string): Promise<SiiPeriodTotal[]>;
}
