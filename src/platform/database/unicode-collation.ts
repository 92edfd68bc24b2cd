/**
 * ILIKE folds case by the collation of its operands, by default the database's LC_CTYPE: under
 * the C locale (the embedded server's, and many a container's) only ASCII letters are folded, so
 * `ÉLAN` would not match `élan`, nor `Ñandú` match `ñandú`. A collation that knows Unicode case,
 * when the server has one usable in this database (PostgreSQL 17's builtin `pg_c_utf8`, else
 * ICU's `und-x-icu`), makes ILIKE fold every letter. It orders nothing here: only the pattern of
 * an ILIKE takes it.
 */
export const UNICODE_COLLATION_QUERY = `
  SELECT collname FROM pg_collation
   WHERE collnamespace = 'pg_catalog'::regnamespace AND collname IN ('pg_c_utf8', 'und-x-icu')
     AND collencoding IN (-1, (SELECT encoding FROM pg_database WHERE datname = current_database()))
   ORDER BY collname = 'pg_c_utf8' DESC
   LIMIT 1`;

/** ` COLLATE "name"` for a row of UNICODE_COLLATION_QUERY, or nothing (plain ILIKE) without one. */
export function collateClause(rows: Array<{ collname: string }>): string {
  const name = rows[0]?.collname;
  return name === 'pg_c_utf8' || name === 'und-x-icu' ? ` COLLATE "${name}"` : '';
}

let unicodeCollate: Promise<string> | undefined;

/**
 * The collate clause for this service's database, read once per process with `query` (a failed
 * read is tried again next time). Every case-insensitive search (journal, entries, partners) takes it.
 */
export function unicodeCollateClause(query: (sql: string) => Promise<Array<{ collname: string }>>): Promise<string> {
  unicodeCollate ??= query(UNICODE_COLLATION_QUERY).then(collateClause, (error: unknown) => {
    unicodeCollate = undefined;
    throw error;
  });
  return unicodeCollate;
}

/**
 * `column ILIKE pattern` under `collate`, written as what ILIKE computes in a UTF-8 database
 * (both sides through lower() under that collation, then LIKE): the same rows, and the form the
 * trigram indexes over lower(column) (migration HistoryReads) serve.
 */
export function foldedLike(column: string, pattern: string, collate: string): string {
  return `lower(${column}${collate}) LIKE lower(${pattern}${collate})`;
}
