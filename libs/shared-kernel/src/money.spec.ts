import fc from 'fast-check';
import { DomainError } from './domain-error';
import { canonicalRate, convertMinorUnits, convertMinorUnitsExact, exactAmounts, isRate } from './money';

describe('money (D6, D7)', () => {
  it('converts between exponents with round half up', () => {
    // 100.00 USD at 950.5 CLP per USD = 95,050 CLP
    expect(convertMinorUnits(10000, '950.5', 2, 0)).toBe(95050);
    // 1 CLF (4 decimals) at 39,000.12 CLP = 39,000 CLP (0.12 rounds down)
    expect(convertMinorUnits(10000, '39000.12', 4, 0)).toBe(39000);
    expect(convertMinorUnits(1, '0.5', 0, 0)).toBe(1);
    expect(convertMinorUnits(1, '0.49', 0, 0)).toBe(0);
    expect(convertMinorUnits(333, '1', 2, 2)).toBe(333);
  });

  it('is exact: converting at rate 1 between equal exponents changes nothing', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (amount) => convertMinorUnits(amount, '1', 2, 2) === amount));
  });

  it('accepts only positive decimal strings with at most 12 + 12 digits', () => {
    for (const ok of ['1', '0.5', '950.123456789012', '123456789012']) expect(isRate(ok)).toBe(true);
    for (const bad of ['0', '0.000', '-1', '1e3', '1.', '.5', '1234567890123', '1.1234567890123', 1.5, '']) expect(isRate(bad)).toBe(false);
  });

  it('writes every rate in one canonical form', () => {
    const cases: Array<[string, string]> = [
      ['950.50', '950.5'],
      ['0950.500', '950.5'],
      ['950.000', '950'],
      ['950', '950'],
      ['0.5', '0.5'],
      ['000.000000000001', '0.000000000001'],
      ['123456789012.123456789012', '123456789012.123456789012'],
    ];
    for (const [input, canonical] of cases) expect(canonicalRate(input)).toBe(canonical);
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,12}(\.[0-9]{1,12})?$/), (rate) => {
        const once = canonicalRate(rate);
        return canonicalRate(once) === once && /^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/.test(once);
      }),
    );
  });

  it('converts exact amounts of any size with round half away from zero (D6a)', () => {
    expect(convertMinorUnitsExact(27021597764222974n, '1', 0, 0)).toBe(27021597764222974n);
    expect(convertMinorUnitsExact(-3n, '0.5', 0, 0)).toBe(-2n);
    expect(convertMinorUnitsExact(3n, '0.5', 0, 0)).toBe(2n);
    expect(convertMinorUnitsExact(9007199254740991n, '123456789012.123456789012', 0, 2)).toBe(111199989798271416649277249417n);
    fc.assert(fc.property(fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), (amount) => convertMinorUnitsExact(amount, '1', 2, 2) === amount));
  });

  it('answers every figure as an exact number, or refuses one past 2^53 - 1 with AMOUNT_OUT_OF_RANGE_ERROR naming it (D6a)', () => {
    expect(exactAmounts({ a: [{ total: 9007199254740991n }, { total: -9007199254740991n }], n: 1, s: 'x', z: null })).toEqual({ a: [{ total: 9007199254740991 }, { total: -9007199254740991 }], n: 1, s: 'x', z: null });
    let error: unknown;
    try {
      exactAmounts({ assets: { groups: [{ total: 1n }, { total: 9007199254740992n }] } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'AMOUNT_OUT_OF_RANGE_ERROR', params: { field: 'assets.groups[1].total' } });
  });
});
