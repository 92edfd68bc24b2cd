import { finished } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { DataSource, QueryRunner } from 'typeorm';

export interface ReadCursor {
  /** A plain query in the cursor's snapshot (e.g. a count before the first byte is sent). */
  query<T = Record<string, unknown>>(sql: string, values?: unknown[]): Promise<T[]>;
  /** The rows of `sql`, `batchSize` at a time, read from a server-side cursor. */
  batches<T = Record<string, unknown>>(sql: string, values: unknown[], batchSize: number): AsyncGenerator<T[]>;
  /**
   * `COPY (select) TO STDOUT (FORMAT csv)`: the rows as PostgreSQL writes them in CSV (RFC 4180
   * quoting, LF line ends), in the chunks they come in, read as the caller asks for them (the
   * connection's socket is paused in between). `select`'s `$n` are its `values`, written into the
   * statement as literals (COPY takes no parameters). Planned as an ordered read: no sort and no
   * parallel workers, so the first rows come at once from an index in the order asked.
   */
  copyCsv(select: string, values: unknown[]): AsyncGenerator<Buffer>;
  /**
   * The rows of `select` read through `COPY ... TO STDOUT` (text format), each an array of its
   * columns as text (null for NULL), in batches of whole rows as they come: copyCsv's plan and
   * parameters, without the driver's result objects (what a million rows leave to the collector).
   */
  copyRows(select: string, values: unknown[]): AsyncGenerator<Array<Array<string | null>>>;
}

/** A field of COPY's text format: `\N` is NULL; a backslash escapes a backslash, a control character or the delimiter. */
function textField(raw: string): string | null {
  if (raw === '\\N') return null;
  if (!raw.includes('\\')) return raw;
  return raw.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c === 't' ? '\t' : c === 'b' ? '\b' : c === 'f' ? '\f' : c === 'v' ? '\v' : c));
}

/** COPY's text format, chunk by chunk: a record ends with LF (an LF in a value is escaped), its fields are split by tabs. */
export async function* copyTextRows(chunks: AsyncIterable<Buffer>): AsyncGenerator<Array<Array<string | null>>> {
  let rest: Buffer | null = null;
  for await (const chunk of chunks) {
    const bytes: Buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
    const end = bytes.lastIndexOf(0x0a);
    if (end < 0) {
      rest = Buffer.from(bytes);
      continue;
    }
    rest = end + 1 < bytes.length ? Buffer.from(bytes.subarray(end + 1)) : null;
    yield bytes
      .toString('utf8', 0, end)
      .split('\n')
      .map((line) => line.split('\t').map(textField));
  }
  if (rest && rest.length > 0) throw new Error('COPY ended inside a row');
}

/** `sql` with each `$n` replaced by values[n - 1] as a literal (strings quoted by the driver's escapeLiteral). */
export function withLiterals(client: Pick<PoolClient, 'escapeLiteral'>, sql: string, values: unknown[]): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => {
    const i = Number(n) - 1;
    if (i < 0 || i >= values.length) throw new Error(`No value for $${n}`);
    const value = values[i];
    if (value === null || value === undefined) return 'NULL';
    if (typeof value === 'number' || typeof value === 'bigint') {
      if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`Not a finite number for $${n}`);
      return `(${String(value)})`;
    }
    if (typeof value === 'boolean') return value ? 'true' : 'false';
    // Only what a text parameter would carry: a Date, array or Buffer has its own encoding in pg.
    if (typeof value !== 'string') throw new Error(`Not a text value for $${n}: ${typeof value}`);
    return client.escapeLiteral(value);
  });
}

/** The reader went away (client disconnected): what was running was cancelled in the database. */
export class ReadCancelledError extends Error {
  constructor() {
    super('The read was cancelled: the client disconnected');
    this.name = 'ReadCancelledError';
  }
}

/**
 * D2a: a large answer read from a server-side cursor (DECLARE ... FETCH) in one read-only,
 * repeatable-read transaction on its own connection, so that memory holds one batch at a time.
 * When `signal` aborts (the client disconnected) the statement running is cancelled in the
 * database (`pg_cancel_backend`) and the transaction rolled back. The connection is returned
 * to the pool when `use` settles; an async generator obtained from `batches` must be consumed or
 * returned within `use`.
 */
export async function withReadCursor<R>(dataSource: DataSource, signal: AbortSignal, use: (cursor: ReadCursor) => Promise<R>): Promise<R> {
  if (signal.aborted) throw new ReadCancelledError();
  const runner: QueryRunner = dataSource.createQueryRunner('slave');
  const client = (await runner.connect()) as PoolClient;
  let running = 0;
  let backendPid: number | null = null;
  const cancel = async (): Promise<void> => {
    if (running > 0 && backendPid !== null) {
      // `::int`: Citus adds pg_cancel_backend(bigint) (a global pid), which an untyped parameter cannot choose between.
      await dataSource.query('SELECT pg_cancel_backend($1::int)', [backendPid]).catch(() => undefined);
    }
  };
  const run = async <T>(sql: string, values: unknown[] = []): Promise<T[]> => {
    if (signal.aborted) throw new ReadCancelledError();
    running++;
    try {
      return (await runner.query(sql, values)) as T[];
    } catch (error) {
      if (signal.aborted) throw new ReadCancelledError();
      throw error;
    } finally {
      running--;
    }
  };
  /** `COPY (select) TO STDOUT` in `format`, its chunks as the caller reads them (see copyCsv). */
  async function* copyOut(select: string, values: unknown[], format: 'csv' | 'text'): AsyncGenerator<Buffer> {
    const statement = `COPY (${withLiterals(client, select, values)}) TO STDOUT (FORMAT ${format})`;
    // For this statement only: an ordered read from the index, its first rows at once (a cursor's
    // plan, which COPY cannot ask for), not a sort of the whole range or parallel workers.
    await run('SET LOCAL enable_sort = off; SET LOCAL max_parallel_workers_per_gather = 0');
    if (signal.aborted) throw new ReadCancelledError();
    const stream = client.query(copyTo(statement));
    running++;
    let done = false;
    try {
      for await (const chunk of stream.iterator({ destroyOnReturn: false })) yield chunk as Buffer;
      done = true;
    } catch (error) {
      done = true;
      if (signal.aborted) throw new ReadCancelledError();
      throw error;
    } finally {
      if (!done) {
        // The caller stopped early: the statement is cancelled in the database and what is still
        // coming read and dropped, so the connection is ready again for ROLLBACK. The stream is
        // watched before the cancel: its "canceling statement" error may come while it is asked.
        const ended = finished(stream).catch(() => undefined);
        await cancel();
        stream.resume();
        await ended;
      }
      running--;
    }
    await run('RESET enable_sort; RESET max_parallel_workers_per_gather');
  }
  const onAbort = () => void cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  let cursors = 0;
  try {
    await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    backendPid = ((await runner.query('SELECT pg_backend_pid() AS pid')) as Array<{ pid: number }>)[0].pid;
    const cursor: ReadCursor = {
      query: run,
      async *batches<T>(sql: string, values: unknown[], batchSize: number): AsyncGenerator<T[]> {
        const name = `read_cursor_${++cursors}`;
        await run(`DECLARE ${name} NO SCROLL CURSOR FOR ${sql}`, values);
        const fetch = () => {
          const rows = run<T>(`FETCH FORWARD ${Math.max(1, Math.floor(batchSize))} FROM ${name}`);
          // Marked handled: a batch asked for ahead and never awaited (the caller gone) rejects quietly.
          rows.catch(() => undefined);
          return rows;
        };
        // The next batch is asked for before this one is handed over: the database reads it while
        // the caller formats and writes this one (two cores at work, not one at a time).
        let next: Promise<T[]> | null = fetch();
        try {
          for (;;) {
            const rows: T[] = await next;
            next = null;
            if (rows.length === 0) return;
            next = fetch();
            yield rows;
          }
        } finally {
          // A batch still coming when the caller stopped: awaited (its error dropped) before the cursor closes.
          if (next) await next.catch(() => undefined);
          if (!signal.aborted) await run(`CLOSE ${name}`).catch(() => undefined);
        }
      },
      async *copyRows(select: string, values: unknown[]): AsyncGenerator<Array<Array<string | null>>> {
        yield* copyTextRows(copyOut(select, values, 'text'));
      },
      copyCsv: (select: string, values: unknown[]) => copyOut(select, values, 'csv'),
    };
    const result = await use(cursor);
    await runner.query('COMMIT');
    return result;
  } catch (error) {
    await runner.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
    await runner.release();
  }
}
