import fc from 'fast-check';
import { PartHost, sql, Sql, StatementPart, withParts } from './statement-parts';

/** Each placeholder of the text replaced by its value's printed form: what PostgreSQL would bind. */
function bound(statement: { sql: string; values: unknown[] }): string {
  return statement.sql.replace(/\$(\d+)\b/g, (_, n: string) => `<${String(statement.values[Number(n) - 1])}>`);
}

/** A part of these values, using them in `uses` order (each index once or more, typed `::text` or not). */
function partOf(table: string, values: string[], uses: Array<[number, boolean]>): { part: StatementPart; alone: string } {
  const part: StatementPart = ({ param }) => {
    const placeholders = values.map((value) => param(value));
    const list = uses.map(([n, typed]) => (typed ? sql`${placeholders[n - 1]}::text` : placeholders[n - 1])).reduce((a, b) => sql`${a}, ${b}`);
    return sql`INSERT INTO ${table as Sql} VALUES (${list})`;
  };
  const alone = `INSERT INTO ${table} VALUES (${uses.map(([n, typed]) => `<${values[n - 1]}>${typed ? '::text' : ''}`).join(', ')})`;
  return { part, alone };
}

describe('withParts', () => {
  const part = fc
    .array(fc.string({ minLength: 1, maxLength: 4 }).map((s) => s.replace(/[$<>]/g, 'x')), { minLength: 1, maxLength: 14 })
    .chain((values) =>
      fc.array(fc.tuple(fc.integer({ min: 1, max: values.length }), fc.boolean()), { minLength: 1, maxLength: 20 }).map((uses) => ({ values, uses })),
    );

  it('binds every placeholder of the main statement and of each part to the value it took', () => {
    fc.assert(
      fc.property(part, fc.array(part, { maxLength: 4 }), (main, parts) => {
        const m = partOf('m', main.values, main.uses);
        const ps = parts.map((p, i) => partOf(`t${i}`, p.values, p.uses));
        const combined = withParts((host) => sql`${m.part(host)} RETURNING id`, ps.map((p) => p.part));
        expect(combined.values).toHaveLength(main.values.length + parts.reduce((n, p) => n + p.values.length, 0));
        const text = bound(combined);
        expect(text).toContain(`${m.alone} RETURNING id`);
        ps.forEach((p, i) => expect(text).toContain(`part_${i} AS (${p.alone})`));
      }),
    );
  });

  it('answers the main statement alone when there are no parts', () => {
    const main: StatementPart = ({ param }) => sql`UPDATE m SET a = ${param(1)} RETURNING id`;
    expect(withParts(main, [])).toEqual({ sql: 'UPDATE m SET a = $1 RETURNING id', values: [1] });
  });

  it('gives the parts the host condition to write under', () => {
    const part: StatementPart = ({ param, written }) => sql`DELETE FROM t WHERE id = ${param('x')} AND ${written}`;
    const host: PartHost = { param: () => '$7' as Sql, written: sql`EXISTS (SELECT 1 FROM entry)` };
    expect(part(host)).toBe('DELETE FROM t WHERE id = $7 AND EXISTS (SELECT 1 FROM entry)');
  });
});

describe('sql', () => {
  it('refuses a placeholder written into the text (parameters come from the host)', () => {
    expect(() => sql`SELECT 1 FROM t WHERE id = $1`).toThrow(/host\.param/);
  });

  it('takes only Sql interpolations (a plain string does not typecheck)', () => {
    const condition = 'EXISTS (SELECT 1 FROM entry)';
    // @ts-expect-error a condition spelled by hand is not the host's
    const text = sql`UPDATE t SET a = 1 WHERE ${condition}`;
    expect(text).toContain(condition);
  });
});
