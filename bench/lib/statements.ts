import { Pool } from 'pg';

/** PostgreSQL settings that make `pg_stat_statements` count every statement the service sends. */
export const STATEMENT_SETTINGS = ['shared_preload_libraries=pg_stat_statements', 'pg_stat_statements.track_utility=on'];

/** Creates the extension (once) and zeroes its counters: what follows is the measured window. */
export async function resetStatements(databaseUrl: string): Promise<void> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await pool.query('SELECT pg_stat_statements_reset()');
  } finally {
    await pool.end();
  }
}

/**
 * Statements (round trips: BEGIN and COMMIT count) per request since the last reset, with the
 * busiest ones, read from `pg_stat_statements` (the reading statements themselves excluded): each
 * one's mean execution time, shared buffers touched and WAL records written.
 */
export async function statementsPerRequest(databaseUrl: string, requests: number, top = 15): Promise<string> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const { rows } = await pool.query(
      `SELECT calls::int AS calls, round((total_exec_time / calls)::numeric, 3) AS mean_ms, round(shared_blks_hit::numeric / calls)::int AS blocks,
              round(wal_records::numeric / calls)::int AS wal_records, left(regexp_replace(query, '\\s+', ' ', 'g'), 140) AS query
         FROM pg_stat_statements
        WHERE query NOT ILIKE '%pg_stat_statements%'
        ORDER BY calls DESC`,
    );
    const total = rows.reduce((sum, r: { calls: number }) => sum + r.calls, 0);
    const lines = rows
      .slice(0, top)
      .map(
        (r: { calls: number; mean_ms: string; blocks: number; wal_records: number; query: string }) =>
          `    ${(r.calls / requests).toFixed(2).padStart(6)} per request  ${String(r.mean_ms).padStart(7)} ms ${String(r.blocks).padStart(5)} blocks ${String(r.wal_records).padStart(3)} WAL  ${r.query}`,
      );
    return `SQL statements: ${(total / requests).toFixed(1)} per request (${total} for ${requests} requests)\n${lines.join('\n')}`;
  } finally {
    await pool.end();
  }
}
