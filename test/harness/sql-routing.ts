import { Client } from 'pg';

/**
 * D94's rule, checked on the SQL the service really sends (docs/ARCHITECTURE.md, "Statements on
 * Citus"): every SELECT scope that reads an Entity table (a subquery or CTE is its own scope) pins
 * `entity_id` to a parameter itself (`entity_id = $n`), so that Citus routes the statement to one
 * shard group. A join inside the scope may carry the pin (`l.entity_id = e.entity_id AND
 * e.entity_id = $1`); a correlation to an outer scope (`l.entity_id = a.entity_id` in a subquery)
 * does not. A statement marked `/* citus:multi-shard <why> *\/` is an exception listed in
 * docs/CITUS.md. Also refused: a simple `CASE col WHEN` in a write (Citus sends it to the workers
 * as `WHEN NULL::boolean` with bound parameters), and a function call in a write's RETURNING.
 */
export interface RoutingViolation {
  rule: 'entity_id' | 'simple_case_in_write' | 'returning';
  detail: string;
  sql: string;
}

const SUBQUERY_START = /^\s*(SELECT|WITH|INSERT|UPDATE|DELETE|VALUES)\b/i;
const TABLE_REFERENCE = /\b(FROM|JOIN|UPDATE|USING)\s+(?:ONLY\s+)?"?([a-z_][a-z0-9_]*)\b"?(?!\s*\()/gi;
const PINNED = /"?entity_id"?\s*=\s*\$\d+|\$\d+(?:::uuid)?\s*=\s*(?:"?\w+"?\.)?"?entity_id"?/i;

/** The statement without string literals and comments (their text is not SQL). */
function stripped(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/\$\$[\s\S]*?\$\$/g, "''");
}

/** The statement's scopes: the top level, and each parenthesised subquery or CTE body, each without its own subqueries. */
export function scopes(sql: string): string[] {
  const text = stripped(sql);
  const done: string[] = [];
  const stack: Array<{ text: string; scope: boolean }> = [{ text: '', scope: true }];
  const current = () => [...stack].reverse().find((s) => s.scope)!;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') {
      const scope = SUBQUERY_START.test(text.slice(i + 1, i + 40));
      stack.push({ text: '', scope });
      if (!scope) current().text += c;
      continue;
    }
    if (c === ')' && stack.length > 1) {
      const closed = stack.pop()!;
      if (closed.scope) done.push(closed.text);
      else current().text += c;
      continue;
    }
    current().text += c;
  }
  while (stack.length > 0) {
    const closed = stack.pop()!;
    if (closed.scope) done.push(closed.text);
  }
  return done;
}

export function routingViolations(sql: string, entityTables: ReadonlySet<string>): RoutingViolation[] {
  if (/\/\*\s*citus:multi-shard\b/.test(sql)) return [];
  const violations: RoutingViolation[] = [];
  for (const scope of scopes(sql)) {
    const tables = [...scope.matchAll(TABLE_REFERENCE)].map((m) => m[2].toLowerCase()).filter((t) => entityTables.has(t));
    if (tables.length > 0 && !PINNED.test(scope)) {
      violations.push({ rule: 'entity_id', detail: `${[...new Set(tables)].join(', ')} without entity_id = $n in: ${scope.replace(/\s+/g, ' ').trim().slice(0, 160)}`, sql });
    }
  }
  const text = stripped(sql);
  const writes = [...text.matchAll(/\b(?:UPDATE|INSERT\s+INTO|DELETE\s+FROM)\s+"?([a-z_][a-z0-9_]*)"?/gi)].map((m) => m[1].toLowerCase());
  if (writes.some((t) => entityTables.has(t))) {
    if (/\bCASE\s+(?!WHEN\b)[^\s(]+\s+WHEN\b/i.test(text)) violations.push({ rule: 'simple_case_in_write', detail: 'CASE col WHEN in a write', sql });
    for (const returning of text.matchAll(/\bRETURNING\b([\s\S]*?)(?:\)\s*(?:,|SELECT|UPDATE|INSERT|DELETE)|$)/gi)) {
      if (/\b(?!CASE\b|WHEN\b|THEN\b|ELSE\b|END\b|AS\b)[a-z_][a-z0-9_]*\s*\(/i.test(returning[1])) {
        violations.push({ rule: 'returning', detail: `a function in RETURNING: ${returning[1].replace(/\s+/g, ' ').trim().slice(0, 120)}`, sql });
      }
    }
  }
  return violations;
}

/** Tables whose primary key begins with entity_id (D40), read from the test's database. */
export async function entityTablesOf(sql: (text: string) => Promise<Array<Record<string, unknown>>>): Promise<Set<string>> {
  const rows = await sql(
    `SELECT c.relname AS name FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
       JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
      WHERE k.contype = 'p' AND a.attname = 'entity_id' AND c.relnamespace = current_schema()::regnamespace`,
  );
  return new Set(rows.map((r) => r.name as string));
}

/**
 * Records every statement the service's own connections (application_name `accounting`) send
 * from now on, until `stop()`. Test code's connections are not recorded.
 */
export function captureServiceSql(onStatement?: (text: string) => void): { statements: () => string[]; stop: () => void } {
  const seen = new Set<string>();
  const proto = Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: { connectionParameters?: { application_name?: string } }, ...args: unknown[]) {
    if (this.connectionParameters?.application_name === 'accounting') {
      const first = args[0];
      const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
      if (text) {
        seen.add(text);
        onStatement?.(text);
      }
    }
    return original.apply(this, args);
  };
  return {
    statements: () => [...seen],
    stop: () => {
      proto.query = original;
    },
  };
}
