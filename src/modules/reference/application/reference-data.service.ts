import { Injectable } from '@nestjs/common';
import * as currencyCodes from 'currency-codes';
import * as isoCountries from 'i18n-iso-countries';
import type { Country, Currency } from '../../../../libs/contracts/src';

/** ISO 3166-1 countries and ISO 4217 currencies, from maintained packages. */
@Injectable()
export class ReferenceDataService {
  private readonly countries: readonly Country[] = Object.entries(isoCountries.getNames('en', { select: 'official' }))
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => a.code.localeCompare(b.code));

  private readonly currencies: readonly Currency[] = currencyCodes.data
    .map((currency) => ({ code: currency.code, name: currency.currency, minorUnits: currency.digits }))
    .sort((a, b) => a.code.localeCompare(b.code));

  private readonly currencyByCode = new Map(this.currencies.map((currency) => [currency.code, currency]));
  private readonly countryCodes = new Set(this.countries.map((country) => country.code));

  listCountries(): readonly Country[] {
    return this.countries;
  }

  listCurrencies(): readonly Currency[] {
    return this.currencies;
  }

  isCountry(code: string): boolean {
    return this.countryCodes.has(code);
  }

  findCurrency(code: string): Currency | undefined {
    return this.currencyByCode.get(code);
  }
}
