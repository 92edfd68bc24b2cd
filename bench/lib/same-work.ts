import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { LoadResult, percentile } from './load';

/**
 * The same-work ceiling of a posting (issue 25): the statements the service sends PostgreSQL for
 * one `POST .../ledger/entries`, captured from the server's own log (`log_statement = all`) while
 * the bench posts a few entries one at a time, then replayed from raw `pg` clients with no service
 * between. What the service adds on top of its database work is then the distance between the API
 * and this ceiling.
 */

/** One statement as the server logged it: a named prepared statement (`execute NAME`) or a simple query. */
export interface CapturedStatement {
  name: string | null;
  text: string;
  /** Parameter values as the log shows them (text form); null is SQL NULL. */
  values: Array<string | null>;
}

/** A posting: its statements in the order they ran. */
export type CapturedPosting = CapturedStatement[];

const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const MARK_BEGIN = 'bench-capture-begin';
const MARK_END = 'bench-capture-end';

/** `$1 = 'a''b', $2 = NULL` into ['a\'b', null] (PostgreSQL quotes values and doubles quotes). */
function parseParameters(detail: string): Array<string | null> {
  const values: Array<string | null> = [];
  const re = /\$(\d+) = (NULL|'((?:[^']|'')*)')/g;
  for (let m = re.exec(detail); m; m = re.exec(detail)) values[Number(m[1]) - 1] = m[2] === 'NULL' ? null : m[3].replace(/''/g, "'");
  return values;
}

/**
 * The statements of each posting between the bench's markers in a server log (default
 * log_line_prefix `%m [%p] `). Each posting runs alone, so the statements between two markers of
 * the bench's own connection are that posting's; they are split by the marker the bench sends
 * between postings.
 */
export function parseCapturedPostings(log: string): CapturedPosting[] {
  // A message starts with the prefix; continuation lines of a multi-line statement do not.
  const messages: string[] = [];
  for (const line of log.split('\n')) {
    if (/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \S+ \[\d+\] /.test(line)) messages.push(line.replace(/^\S+ \S+ \S+ \[\d+\] /, ''));
    else if (messages.length > 0) messages[messages.length - 1] += `\n${line}`;
  }
  const postings: CapturedPosting[] = [];
  let current: CapturedPosting | null = null;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (message.includes(MARK_BEGIN)) {
      current = [];
      continue;
    }
    if (message.includes(MARK_END)) {
      if (current && current.length > 0) postings.push(current);
      current = null;
      continue;
    }
    if (!current) continue;
    const simple = /^LOG:\s+statement: ([\s\S]*)$/.exec(message);
    if (simple) {
      current.push({ name: null, text: simple[1].trim(), values: [] });
      continue;
    }
    const prepared = /^LOG:\s+execute (\S+?): ([\s\S]*)$/.exec(message);
    if (prepared) {
      const detail = messages[i + 1]?.startsWith('DETAIL:  Parameters:') || messages[i + 1]?.startsWith('DETAIL:  parameters:') ? messages[++i] : '';
      current.push({ name: prepared[1] === '<unnamed>' ? null : prepared[1], text: prepared[2].trim(), values: parseParameters(detail) });
    }
  }
  return postings;
}

/**
 * Starts logging every statement, runs `post` (which posts entries one by one, calling `between`
 * before each), stops logging, and returns the postings' statements.
 */
export async function capturePostings(
  databaseUrl: string,
  logged: () => string,
  post: (between: () => Promise<void>) => Promise<void>,
): Promise<CapturedPosting[]> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  const mark = (label: string) => pool.query(`SELECT '${label}'`);
  try {
    await pool.query("ALTER SYSTEM SET log_statement = 'all'");
    await pool.query('SELECT pg_reload_conf()');
    // The postmaster passes the reload on to the backends, which take it before their next command.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await post(async () => {
      await mark(MARK_END);
      await mark(MARK_BEGIN);
    });
    await mark(MARK_END);
  } finally {
    await pool.query('ALTER SYSTEM RESET log_statement');
    await pool.query('SELECT pg_reload_conf()');
    await pool.end();
  }
  // The log reaches us through a pipe: give the last lines a moment.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return parseCapturedPostings(logged());
}

/** Ids that exist before the postings (the Entity, its accounts, the key, the user...): kept as captured. */
async function standingIds(databaseUrl: string): Promise<Set<string>> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const { rows } = await pool.query<{ id: string }>(`
      SELECT id::text FROM entities UNION ALL SELECT id::text FROM ledger_accounts UNION ALL SELECT id::text FROM api_keys
      UNION ALL SELECT id::text FROM users UNION ALL SELECT id::text FROM organizations
      UNION ALL SELECT entity_id::text FROM ledger_accounts`);
    return new Set(rows.map((r) => r.id.toLowerCase()));
  } finally {
    await pool.end();
  }
}

/**
 * For the values of a captured statement, a function that gives them with every id a posting
 * made (entry, lines, audit row, request id; alone, inside array literals or JSON) replaced by a
 * fresh one, the same fresh id wherever one id recurs (`made`); standing ids are kept. Each value
 * is split once into its constant parts and the ids to replace, so a replay costs little.
 */
export async function idRenewer(databaseUrl: string): Promise<(values: Array<string | null>) => (made: Map<string, string>) => Array<string | null>> {
  const standing = await standingIds(databaseUrl);
  type Piece = string | { id: string };
  const compile = (value: string | null): Piece[] | string | null => {
    if (value === null) return null;
    const pieces: Piece[] = [];
    let at = 0;
    for (const m of value.matchAll(UUIDS)) {
      if (standing.has(m[0].toLowerCase())) continue;
      pieces.push(value.slice(at, m.index), { id: m[0] });
      at = m.index! + m[0].length;
    }
    if (pieces.length === 0) return value;
    pieces.push(value.slice(at));
    return pieces;
  };
  return (values) => {
    const compiled = values.map(compile);
    return (made) =>
      compiled.map((v) => {
        if (v === null || typeof v === 'string') return v;
        let out = '';
        for (const piece of v) {
          if (typeof piece === 'string') out += piece;
          else {
            let id = made.get(piece.id);
            if (!id) made.set(piece.id, (id = randomUUID()));
            out += id;
          }
        }
        return out;
      });
  };
}

/**
 * Replays the captured postings, in turn, from `connections` raw `pg` clients for `seconds`:
 * every statement as it was sent (named ones prepared once per connection, as the service's are),
 * with every id that a posting made (entry, lines, audit row, request id) replaced by a fresh one,
 * so each replay writes a new entry and only the standing rows (Entity, accounts, key) are shared.
 */
export async function sameWorkCeiling(databaseUrl: string, postings: CapturedPosting[], connections: number, seconds: number): Promise<LoadResult> {
  if (postings.length === 0) throw new Error('no posting was captured');
  const renew = await idRenewer(databaseUrl);
  const pool = new Pool({ connectionString: databaseUrl, max: connections });
  const latencies: number[] = [];
  let failures = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  let sequence = 0;
  const plans = postings.map((posting) => posting.map((s) => ({ ...s, compiled: renew(s.values) })));
  const worker = async () => {
    const client = await pool.connect();
    try {
      while (performance.now() < deadline) {
        const posting = plans[sequence++ % plans.length];
        const made = new Map<string, string>();
        const t0 = performance.now();
        try {
          for (const s of posting) {
            if (s.name) await client.query({ name: s.name, text: s.text, values: s.compiled(made) });
            else if (s.values.length > 0) await client.query(s.text, s.compiled(made));
            else await client.query(s.text);
          }
          latencies.push(performance.now() - t0);
        } catch (error) {
          failures++;
          if (failures === 1) process.stderr.write(`same-work replay failed: ${(error as Error).message}\n`);
          await client.query('ROLLBACK').catch(() => undefined);
        }
      }
    } finally {
      client.release();
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  await pool.end();
  const secondsTaken = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    failures,
    seconds: secondsTaken,
    requestsPerSecond: latencies.length / secondsTaken,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  };
}

/** The statements of one captured posting, shortened, for the bench's output. */
export function describePosting(posting: CapturedPosting): string {
  return posting
    .map((s) => `    ${s.name ? `execute ${s.name}` : 'statement'} (${s.values.length} parameters): ${s.text.replace(/\s+/g, ' ').slice(0, 150)}`)
    .join('\n');
}
