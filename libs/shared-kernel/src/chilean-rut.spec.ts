import fc from 'fast-check';
import { canonicalRut, rutCheckDigit } from './chilean-rut';

describe('canonicalRut (D23)', () => {
  it.each([
    ['76.086.428-5', '76086428-5'],
    ['76086428-5', '76086428-5'],
    ['760864285', '76086428-5'],
    [' 76 086 428 5 ', '76086428-5'],
    ['0076.086.428-5', '76086428-5'],
    ['12.345.678-5', '12345678-5'],
    ['11.111.111-1', '11111111-1'],
    ['10.000.013-k', '10000013-K'],
    ['1-9', '1-9'],
  ])('canonicalizes %s to %s', (input, expected) => {
    expect(canonicalRut(input)).toBe(expected);
  });

  it.each(['76.086.428-4', '', '-', 'K', 'abc', '12.345.678-K', '0-0', '1234567890-1', '76086428-'])('refuses %s', (input) => {
    expect(canonicalRut(input)).toBeNull();
  });

  it('accepts exactly one check digit per body, whatever the formatting', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999 }), (n) => {
        const body = String(n);
        const digit = rutCheckDigit(body);
        const dotted = body.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
        expect(canonicalRut(`${dotted}-${digit.toLowerCase()}`)).toBe(`${body}-${digit}`);
        for (const other of ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'K']) {
          if (other !== digit) expect(canonicalRut(`${body}-${other}`)).toBeNull();
        }
      }),
    );
  });
});
