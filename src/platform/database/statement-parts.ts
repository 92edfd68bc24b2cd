/**
 * A data-modifying statement (INSERT, UPDATE or DELETE, no RETURNING needed) that another
 * module's statement runs as one of its CTEs, in the same round trip and transaction: a read
 * model kept with the change it follows, an audit row. Its placeholders are numbered from `$1`
 * as if it ran alone; `withParts` numbers them anew. Its text must not hold a `$` other than its
 * placeholders (no dollar quoting).
 */
export interface StatementPart {
  sql: string;
  values: unknown[];
}

const PLACEHOLDER = /\$(\d+)\b/g;

/** Texts already shifted, by offset then text: a hot statement's parts are the same texts every time. */
const shiftedTexts = new Map<number, Map<string, string>>();

/** `sql` with each placeholder `$n` become `$(n + offset)` (texts met before answered from a cache). */
export function shiftPlaceholders(sql: string, offset: number): string {
  if (offset === 0) return sql;
  let byText = shiftedTexts.get(offset);
  if (!byText) shiftedTexts.set(offset, (byText = new Map()));
  let text = byText.get(sql);
  if (text === undefined) {
    text = sql.replace(PLACEHOLDER, (_, n: string) => `$${Number(n) + offset}`);
    // Bounded: parts are built from a few constant texts (a runaway caller would only lose the cache).
    if (byText.size < 256) byText.set(sql, text);
  }
  return text;
}

/**
 * One statement: `main` (a data-modifying statement with `RETURNING`, its placeholders from `$1`)
 * and each part as a CTE after it, answering main's RETURNING rows. PostgreSQL runs every
 * data-modifying CTE to completion whether or not it is read, on the same snapshot; so a part
 * must not touch the rows of main (nor of another part).
 */
export function withParts(main: StatementPart, parts: StatementPart[]): StatementPart {
  if (parts.length === 0) return main;
  const values = [...main.values];
  const ctes = parts.map((part, i) => {
    const sql = `part_${i} AS (${shiftPlaceholders(part.sql, values.length)})`;
    values.push(...part.values);
    return sql;
  });
  return { sql: `WITH main AS (${main.sql}), ${ctes.join(', ')} SELECT * FROM main`, values };
}
