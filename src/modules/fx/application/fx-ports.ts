import type { FxRate, FxSource } from '../domain/fx-rate';

/**
 * D80: an FX provider publishes daily rates of foreign currencies against the functional
 * currency of the Entities it serves. Adapters: `offline` (bundled and generated rates, the
 * embedded default) and `cmf` (the Chilean CMF API).
 */
export abstract class FxRateProvider {
  abstract readonly source: FxSource;
  abstract readonly functionalCurrency: string;
  /** Every rate published from `from` through `to` (inclusive ISO dates); days without one are absent. */
  abstract fetchRates(from: string, to: string): Promise<FxRate[]>;
}

/** Stored rates (global reference data, not Entity data). */
export abstract class FxRateRepository {
  /** Inserts the rates not stored before (same date, currency and source); returns how many. */
  abstract insertNew(rates: FxRate[]): Promise<number>;
  abstract list(query: { from: string; to: string; currency?: string; source: FxSource }): Promise<FxRate[]>;
  /** The last rate of `currency` published on or before `date` by `source`. */
  abstract latestOnOrBefore(currency: string, date: string, source: FxSource): Promise<FxRate | null>;
}
