import fc from 'fast-check';
import { StatementPart, withParts } from './statement-parts';

/** Each placeholder of the text replaced by its value's printed form: what PostgreSQL would bind. */
function bound(part: StatementPart): string {
  return part.sql.replace(/\$(\d+)\b/g, (_, n: string) => `<${String(part.values[Number(n) - 1])}>`);
}

describe('withParts', () => {
  /** A part using each of its values once or twice, in any order, typed (`$n::uuid`) or not. */
  const part = fc
    .array(fc.string({ minLength: 1, maxLength: 4 }).map((s) => s.replace(/[$<>]/g, 'x')), { minLength: 1, maxLength: 14 })
    .chain((values) =>
      fc.array(fc.tuple(fc.integer({ min: 1, max: values.length }), fc.boolean()), { minLength: 1, maxLength: 20 }).map((uses) => ({
        sql: `INSERT INTO t VALUES (${uses.map(([n, typed]) => `$${n}${typed ? '::text' : ''}`).join(', ')})`,
        values,
      })),
    );

  it('binds every placeholder of the main statement and of each part to the same value as alone', () => {
    fc.assert(
      fc.property(part, fc.array(part, { maxLength: 4 }), (main, parts) => {
        const combined = withParts({ sql: main.sql.replace('INSERT INTO t', 'UPDATE m') + ' RETURNING id', values: main.values }, parts);
        expect(combined.values).toHaveLength(main.values.length + parts.reduce((n, p) => n + p.values.length, 0));
        const text = bound(combined);
        expect(text).toContain(bound({ sql: main.sql.replace('INSERT INTO t', 'UPDATE m'), values: main.values }));
        parts.forEach((p, i) => expect(text).toContain(`part_${i} AS (${bound(p)})`));
      }),
    );
  });

  it('answers the main statement alone when there are no parts', () => {
    const main = { sql: 'UPDATE m SET a = $1 RETURNING id', values: [1] };
    expect(withParts(main, [])).toBe(main);
  });
});
