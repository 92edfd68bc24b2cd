import fc from 'fast-check';
import { compareText } from './text';

describe('compareText', () => {
  it('orders by code point, as PostgreSQL C collation does: upper case before lower case, accents after z', () => {
    expect(['alfa', 'Beta', 'Ñandú', 'zeta', 'Álamo', 'Alfa'].sort(compareText)).toEqual(['Alfa', 'Beta', 'alfa', 'zeta', 'Álamo', 'Ñandú']);
  });

  it('puts a prefix first and a character past U+FFFF after U+FFFD (UTF-8 byte order)', () => {
    expect(compareText('ab', 'abc')).toBe(-1);
    expect(compareText('\u{1F600}', '\uFFFD')).toBe(1);
    expect(compareText('same', 'same')).toBe(0);
  });

  it('agrees with the order of the strings as UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(compareText(a, b)).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
      }),
    );
  });
});
