import { Injectable } from '@nestjs/common';
import * as currencyCodes from 'currency-codes';
import * as isoCountries from 'i18n-iso-countries';
import type { Country, Currency } from '../../../../libs/contracts/src';
import { compareText } from '../../../../libs/shared-kernel/src';

/**
 * ISO 4217 also codes what no set of books is kept in: precious metals (XAU, XAG, XPT, XPD),
 * European bond-market units (XBA-XBD), the testing code (XTS) and "no currency" (XXX). The
 * package files each under a pseudo-country of its own ("Zz.."); real money has real countries
 * (the IMF's XDR and the CFA francs included).
 */
function isMoney(currency: { countries: string[] }): boolean {
  return !currency.countries.every((country) => country.startsWith('Zz'));
}

/** ISO 3166-1 countries and ISO 4217 currencies, from maintained packages. */
@Injectable()
export class ReferenceDataService {
  private readonly countries: readonly Country[] = Object.entries(isoCountries.getNames('en', { select: 'official' }))
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => compareText(a.code, b.code));

  private readonly currencies: readonly Currency[] = currencyCodes.data
    .filter(isMoney)
    .map((currency) => ({ code: currency.code, name: currency.currency, minorUnits: currency.digits }))
    .sort((a, b) => compareText(a.code, b.code));

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
