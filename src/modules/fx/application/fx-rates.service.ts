import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { Injectable } from '@nestjs/common';
import { addDays, daysBetween, validationError } from '../../../../libs/shared-kernel/src';
import { OfferedAuditRow } from '../../../platform/audit/offered-audit-row';
import { Clock } from '../../../platform/clock/clock';
import { averageRate, EffectiveFxRate, effectiveRate, FxRate, MAX_RATE_AGE_DAYS, MAX_SYNC_DAYS } from '../domain/fx-rate';
import { FxRateProvider, FxRateRepository } from './fx-ports';

/** D79: the FX list's parameters are all optional; the default range is the last 30 days. */
const DEFAULT_DAYS = 30;

/**
 * The FX application API: syncing rates from the configured provider, listing them, and looking
 * up the rate of a day under the staleness rule. Other modules use `rateOn` (through the fx
 * module's index) to convert.
 */
@Injectable()
export class FxRatesService {
  constructor(
    private readonly provider: FxRateProvider,
    private readonly rates: FxRateRepository,
    private readonly clock: Clock,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly auditRow: OfferedAuditRow,
  ) {}

  /** The currency every rate is quoted in (1 currency = rate functional currency). */
  get functionalCurrency(): string {
    return this.provider.functionalCurrency;
  }

  private range(from: string | undefined, to: string | undefined): { from: string; to: string } {
    const end = to ?? (from && from > this.clock.today() ? from : this.clock.today());
    const start = from ?? addDays(end, -(DEFAULT_DAYS - 1));
    if (end < start) throw validationError('to', 'must be on or after from');
    return { from: start, to: end };
  }

  /**
   * D80, D80a: fetches the range (default the 30 days ending today) and stores what is new. The
   * provider is asked with no transaction open (the route is `ownTransaction`); the new rates and
   * the audit row commit together.
   */
  async sync(input: { from?: string; to?: string }): Promise<{ fetchedCount: number; storedCount: number }> {
    const { from, to } = this.range(input.from, input.to);
    if (daysBetween(from, to) + 1 > MAX_SYNC_DAYS) throw validationError('from', `must be at most ${MAX_SYNC_DAYS} days before to`);
    const fetched = await this.provider.fetchRates(from, to);
    const storedCount = await this.txHost.withTransaction(async () => {
      const stored = await this.rates.insertNew(fetched);
      await this.auditRow.record(null);
      return stored;
    });
    return { fetchedCount: fetched.length, storedCount };
  }

  /** D80, D64a: rates of the configured source, `from`..`to` inclusive, by date then currency. */
  list(query: { from?: string; to?: string; currency?: string }): Promise<FxRate[]> {
    const { from, to } = this.range(query.from, query.to);
    return this.rates.list({ from, to, currency: query.currency, source: this.provider.source });
  }

  /**
   * The rate of `currency` for `date`: the one published that day, or the last one at most
   * MAX_RATE_AGE_DAYS earlier (the answer names its `rateDate`); FX_RATE_STALE_ERROR when the
   * last one is older, FX_RATE_NOT_FOUND_ERROR when none is stored. The functional currency
   * itself is 1, published every day.
   */
  async rateOn(currency: string, date: string): Promise<EffectiveFxRate> {
    const functionalCurrency = this.provider.functionalCurrency;
    if (currency === functionalCurrency) {
      return { date, currency, functionalCurrency, rate: '1', source: this.provider.source, requestedDate: date, rateDate: date, ageDays: 0 };
    }
    return effectiveRate(currency, date, await this.rates.latestOnOrBefore(currency, date, this.provider.source));
  }

  /**
   * D91: the mean of the rate of every day `from`..`to` (each by the staleness rule of `rateOn`),
   * rounded half up to 12 decimals; the same refusals as `rateOn` for a day without a rate. One
   * read of the stored rates, whatever the length of the range.
   */
  async averageRateOver(currency: string, from: string, to: string): Promise<string> {
    if (currency === this.provider.functionalCurrency) return '1';
    const published = await this.rates.list({ from: addDays(from, -MAX_RATE_AGE_DAYS), to, currency, source: this.provider.source });
    return averageRate(currency, from, to, published);
  }
}
