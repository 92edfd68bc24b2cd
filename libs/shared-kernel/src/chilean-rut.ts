/**
 * Chilean RUT (D23): strip dots, spaces and the hyphen, upper-case K, check the modulo-11 digit;
 * canonical form `<body>-<check digit>` with no dots and no leading zeros (76.086.428-5 ->
 * 76086428-5). Returns null when the value is not a RUT or its check digit is wrong.
 */
export function canonicalRut(input: string): string | null {
  const compact = input.replace(/[.\s-]/g, '').toUpperCase();
  const match = /^0*(\d{1,9})([0-9K])$/.exec(compact);
  if (!match) return null;
  const body = match[1].replace(/^0+/, '');
  if (body === '') return null;
  return rutCheckDigit(body) === match[2] ? `${body}-${match[2]}` : null;
}

/** The modulo-11 check digit of a RUT body: factors 2..7 from the right; 11 -> 0, 10 -> K. */
export function rutCheckDigit(body: string): string {
  let sum = 0;
  let factor = 2;
  for (let i = body.length - 1; i >= 0; i--) {
    sum += Number(body[i]) * factor;
    factor = factor === 7 ? 2 : factor + 1;
  }
  const digit = 11 - (sum % 11);
  return digit === 11 ? '0' : digit === 10 ? 'K' : String(digit);
}
