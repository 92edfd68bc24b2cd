import { Injectable } from '@nestjs/common';
import { FxRatesService, fxRateNotFound } from '../../fx';
import { ExchangeRates } from '../application/banking-ports';

/**
 * The FX module's rate of the movement's date under its staleness rule (D80a: the last published
 * rate at most 7 days earlier, else 409 FX_RATE_STALE_ERROR; none stored 404). The FX module
 * quotes every currency in one currency (CLP); an Entity keeping its books in another currency
 * gets 404 FX_RATE_NOT_FOUND_ERROR rather than a rate crossed through a third currency.
 */
@Injectable()
export class FxExchangeRates extends ExchangeRates {
  constructor(private readonly fx: FxRatesService) {
    super();
  }

  async rateOn(currency: string, date: string, functional: string): Promise<string> {
    const found = await this.fx.rateOn(currency, date);
    if (found.functionalCurrency !== functional) {
      throw fxRateNotFound({ currency, date });
    }
    return found.rate;
  }
}
