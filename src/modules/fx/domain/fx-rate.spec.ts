import fc from 'fast-check';
import { addDays } from '../../../../libs/shared-kernel/src';
import { effectiveRate, FxRate, MAX_RATE_AGE_DAYS, parseChileanDecimal } from './fx-rate';

const rate = (date: string): FxRate => ({ date, currency: 'USD', functionalCurrency: 'CLP', rate: '950.5', source: 'offline' });

describe('parseChileanDecimal', () => {
  it.each([
    ['38.500,12', '38500.12'],
    ['950,50', '950.5'],
    ['39.703,49', '39703.49'],
    ['1.234.567,000001', '1234567.000001'],
    ['873', '873'],
    ['0,5', '0.5'],
    ['007,10', '7.1'],
    [' 1.000,00 ', '1000'],
  ])('reads %s as %s', (text, expected) => {
    expect(parseChileanDecimal(text)).toBe(expected);
  });

  it.each(['', '-950,5', '950.5', '1.23,4', '12,', ',5', 'NaN', '1e3', '950,5,1', '1..000'])('refuses %p', (text) => {
    expect(parseChileanDecimal(text)).toBeNull();
  });

  it('is exact for any digits: grouping and the comma round-trip without a float', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.stringMatching(/^\d{0,12}$/), (whole, fraction) => {
        const grouped = whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
        const text = fraction === '' ? grouped : `${grouped},${fraction}`;
        const trimmedFraction = fraction.replace(/0+$/, '');
        expect(parseChileanDecimal(text)).toBe(trimmedFraction === '' ? whole.toString() : `${whole.toString()}.${trimmedFraction}`);
      }),
    );
  });
});

describe('effectiveRate (the staleness rule)', () => {
  it('answers a day with its own rate, age 0', () => {
    expect(effectiveRate('USD', '2026-01-09', rate('2026-01-09'))).toMatchObject({ rateDate: '2026-01-09', requestedDate: '2026-01-09', ageDays: 0 });
  });

  it(`takes the last rate at most ${MAX_RATE_AGE_DAYS} days earlier and says which day it came from`, () => {
    expect(effectiveRate('USD', '2026-01-11', rate('2026-01-09'))).toMatchObject({ rateDate: '2026-01-09', ageDays: 2, rate: '950.5' });
    expect(effectiveRate('USD', addDays('2026-01-09', 7), rate('2026-01-09'))).toMatchObject({ ageDays: 7 });
  });

  it('refuses a rate older than that with FX_RATE_STALE_ERROR', () => {
    expect(() => effectiveRate('USD', '2026-01-17', rate('2026-01-09'))).toThrow(expect.objectContaining({ code: 'FX_RATE_STALE_ERROR', params: { currency: 'USD', date: '2026-01-17', lastRateDate: '2026-01-09', maxAgeDays: 7 } }));
  });

  it('refuses when nothing is stored with FX_RATE_NOT_FOUND_ERROR', () => {
    expect(() => effectiveRate('USD', '2026-01-17', null)).toThrow(expect.objectContaining({ code: 'FX_RATE_NOT_FOUND_ERROR' }));
  });
});
