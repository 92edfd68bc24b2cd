/** A lone (unpaired) UTF-16 surrogate: JSON can carry one (`"\ud800"`), UTF-8 and PostgreSQL cannot. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * Why a string cannot be stored as PostgreSQL text as it was sent, or null when it can: U+0000
 * is refused by PostgreSQL (an error, so a 500 if it gets there), and a lone surrogate would be
 * silently replaced by U+FFFD on the way (what is stored would not be what was sent).
 */
export function textProblem(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain a NUL character';
  if (LONE_SURROGATE.test(value)) return 'must be well-formed Unicode (no lone surrogate)';
  return null;
}

/**
 * Text order for everything the service sorts in code: by code point, as PostgreSQL's C collation
 * (the embedded server's) orders the lists it sorts. `localeCompare` would follow the server's
 * locale, so a report and a list could order the same names differently (`alfa`, `Beta`).
 */
export function compareText(a: string, b: string): number {
  // Code points, not UTF-16 units: a character past U+FFFF sorts after U+E000..U+FFFF, as in UTF-8.
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done || y.done) return x.done ? (y.done ? 0 : -1) : 1;
    const difference = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (difference !== 0) return difference < 0 ? -1 : 1;
  }
}
