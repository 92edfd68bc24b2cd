/**
 * Statement parts: SQL one module hands to another's statement, typed so the compiler checks the
 * contract between them (issue 32) instead of a string convention.
 *
 * A part is a function of the host statement's context (`PartHost`): it takes its parameters from
 * the host's allocator (`host.param(value)`, the placeholder numbered in the host's statement, so
 * nobody renumbers texts) and writes under the host's condition (`host.written`), and answers an
 * `Sql` text built with the `sql` tag, whose interpolations may only be other `Sql` texts: a
 * placeholder, the host's condition, a constant declared with `sql`. A plain string (a condition
 * spelled by hand, a CTE name the part assumes) does not typecheck; a `$n` written into the text
 * itself is refused when the tag first runs.
 */

declare const SQL_TEXT: unique symbol;
/** SQL text built with the `sql` tag (or given by a host: a placeholder, its condition). */
export type Sql = string & { readonly [SQL_TEXT]: true };

/** What a host statement gives the parts it runs. */
export interface PartHost {
  /** A new parameter of the host statement bound to `value`: its placeholder. */
  readonly param: (value: unknown) => Sql;
  /**
   * The condition that holds in the host statement when it writes (the posting statement: its
   * entry written): each write of a part holds it, so the part writes with the host or not at all.
   */
  readonly written: Sql;
}

/**
 * A data-modifying statement (INSERT, UPDATE or DELETE, no RETURNING needed) that another
 * module's statement runs as one of its CTEs, in the same round trip and transaction: a read
 * model kept with the change it follows, a document's link to its entry. Its text must not hold
 * a `$` other than the placeholders of `host.param` (no dollar quoting).
 */
export type StatementPart = (host: PartHost) => Sql;

/**
 * A query another module's statement runs as one of its CTEs before it writes (a precondition:
 * it locks the caller's rows and yields a row only while they are as the caller read them).
 */
export type StatementQuery = (param: PartHost['param']) => Sql;

const checkedTemplates = new WeakSet<TemplateStringsArray>();
const WRITTEN_PLACEHOLDER = /\$\d/;

/**
 * Builds SQL text from literal text and `Sql` interpolations only. A template's own text may not
 * hold a placeholder (`$1`): parameters come from the host's allocator (checked once per template).
 */
export function sql(strings: TemplateStringsArray, ...values: Sql[]): Sql {
  if (!checkedTemplates.has(strings)) {
    if (strings.some((text) => WRITTEN_PLACEHOLDER.test(text))) {
      throw new Error(`A statement part writes no placeholder itself (take it from host.param): ${strings.join('…')}`);
    }
    checkedTemplates.add(strings);
  }
  let text = strings[0];
  for (let i = 0; i < values.length; i++) text += values[i] + strings[i + 1];
  return text as Sql;
}

/** A parameter allocator numbering placeholders after the `values` the host already has (pushed onto it). */
export function parameterAllocator(values: unknown[]): PartHost['param'] {
  return (value: unknown) => {
    values.push(value);
    return `$${values.length}` as Sql;
  };
}

/** A condition that always holds: the host's rows are written by its main statement before the parts. */
const ALWAYS = sql`true`;

/**
 * One statement: `main` (a data-modifying statement with `RETURNING`, built on the same allocator)
 * and each part as a CTE after it, answering main's RETURNING rows. PostgreSQL runs every
 * data-modifying CTE to completion whether or not it is read, on the same snapshot; so a part
 * must not touch the rows of main (nor of another part).
 */
export function withParts(main: StatementPart, parts: StatementPart[]): { sql: string; values: unknown[] } {
  const values: unknown[] = [];
  const host: PartHost = { param: parameterAllocator(values), written: ALWAYS };
  const mainSql = main(host);
  if (parts.length === 0) return { sql: mainSql, values };
  const ctes = parts.map((part, i) => `part_${i} AS (${part(host)})`);
  return { sql: `WITH main AS (${mainSql}), ${ctes.join(', ')} SELECT * FROM main`, values };
}

/** `sql` with each placeholder `$n` become `$(n + offset)`: for a module's own texts only (parts take theirs from the host). */
export function shiftPlaceholders(text: string, offset: number): string {
  if (offset === 0) return text;
  let byText = shiftedTexts.get(offset);
  if (!byText) shiftedTexts.set(offset, (byText = new Map()));
  let shifted = byText.get(text);
  if (shifted === undefined) {
    shifted = text.replace(PLACEHOLDER, (_, n: string) => `$${Number(n) + offset}`);
    // Bounded: built from a few constant texts (a runaway caller would only lose the cache).
    if (byText.size < 256) byText.set(text, shifted);
  }
  return shifted;
}

const PLACEHOLDER = /\$(\d+)\b/g;
/** Texts already shifted, by offset then text. */
const shiftedTexts = new Map<number, Map<string, string>>();
