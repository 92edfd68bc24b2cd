import fc from 'fast-check';
import { characterCount, compareText, firstCharacters } from './text';

describe('compareText', () => {
  it('orders by code point, as PostgreSQL C collation does: upper case before lower case, accents after z', () => {
    expect(['alfa', 'Beta', 'Ñandú', 'zeta', 'Álamo', 'Alfa'].sort(compareText)).toEqual(['Alfa', 'Beta', 'alfa', 'zeta', 'Álamo', 'Ñandú']);
  });

  it('puts a prefix first and a character past U+FFFF after U+FFFD (UTF-8 byte order)', () => {
    expect(compareText('ab', 'abc')).toBe(-1);
    expect(compareText('\u{1F600}', '\uFFFD')).toBe(1);
    expect(compareText('same', 'same')).toBe(0);
  });

  it('agrees with code point order on any UTF-16 text, lone surrogates included', () => {
    const codePoints = (s: string) => [...s].map((c) => c.codePointAt(0)!);
    const byCodePoints = (a: string, b: string) => {
      const [x, y] = [codePoints(a), codePoints(b)];
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
      return Math.sign(x.length - y.length);
    };
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('a', 'b', '\uD83D', '\uDE00', '\uE000', '\uFFFD', '\u{1F600}', '\u{10FFFF}'), fc.string({ unit: 'binary', maxLength: 1 })) });
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(compareText(a, b)).toBe(byCodePoints(a, b));
        expect(compareText(a + b, a + a)).toBe(byCodePoints(a + b, a + a));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with the order of the strings as UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(compareText(a, b)).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
      }),
    );
  });
});

describe('characterCount and firstCharacters (the spec counts characters as code points)', () => {
  it('counts a character past U+FFFF as one, a lone surrogate as one', () => {
    expect('𝄞'.length).toBe(2);
    expect(characterCount('𝄞')).toBe(1);
    expect(characterCount('a😀b')).toBe(3);
    expect(characterCount('\ud800x')).toBe(2);
    expect(characterCount('x\udc00')).toBe(2);
    expect(characterCount('')).toBe(0);
    expect(firstCharacters('😀😀😀', 2)).toBe('😀😀');
    expect(firstCharacters('ab', 5)).toBe('ab');
  });

  it('agrees with iterating the string by code point, for any string (lone surrogates included)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(40), (text, max) => {
        const points = [...text];
        expect(characterCount(text)).toBe(points.length);
        expect(firstCharacters(text, max)).toBe(points.slice(0, max).join(''));
      }),
    );
  });
});
