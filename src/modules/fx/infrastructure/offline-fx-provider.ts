import { FxRateProvider } from '../application/fx-ports';
import { addDays } from '../../../../libs/shared-kernel/src';
import { FX_CURRENCIES, FxRate, FxSource } from '../domain/fx-rate';
import bundle from './offline-rates.json';

/** Whole-peso centre and spread (in hundredths) of the generated rates, by currency. */
const GENERATED: Record<string, { centre: number; spread: number }> = {
  USD: { centre: 950_00, spread: 40_00 },
  EUR: { centre: 1_030_00, spread: 45_00 },
  CLF: { centre: 39_500_00, spread: 300_00 },
};

/** FNV-1a: the same day and currency always give the same number, on every machine. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** A generated rate in hundredths, written as a plain decimal string (`950.07`, `951.1`, `950`). */
export function generatedRate(currency: string, date: string): string {
  const { centre, spread } = GENERATED[currency];
  const hundredths = centre - spread + (hash(`${currency}:${date}`) % (2 * spread + 1));
  const whole = Math.floor(hundredths / 100);
  const fraction = String(hundredths % 100).padStart(2, '0').replace(/0+$/, '');
  return fraction === '' ? String(whole) : `${whole}.${fraction}`;
}

const bundled = bundle.rates as Record<string, Record<string, string>>;

/**
 * D80a: answers every day of any range for USD, EUR and CLF (UF) in CLP: the bundled rate where
 * there is one, otherwise a deterministic generated one. No network; the embedded default.
 */
export class OfflineFxProvider extends FxRateProvider {
  readonly source: FxSource = 'offline';
  readonly functionalCurrency = bundle.functionalCurrency;

  fetchRates(from: string, to: string): Promise<FxRate[]> {
    const rates: FxRate[] = [];
    for (let date = from; date <= to; date = addDays(date, 1)) {
      for (const currency of FX_CURRENCIES) {
        const rate = bundled[currency]?.[date] ?? generatedRate(currency, date);
        rates.push({ date, currency, functionalCurrency: this.functionalCurrency, rate, source: this.source });
      }
    }
    return Promise.resolve(rates);
  }
}
