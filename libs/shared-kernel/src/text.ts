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
