import type { DataSource, QueryRunner } from 'typeorm';

export interface ReadCursor {
  /** A plain query in the cursor's snapshot (e.g. a count before the first byte is sent). */
  query<T = Record<string, unknown>>(sql: string, values?: unknown[]): Promise<T[]>;
  /** The rows of `sql`, `batchSize` at a time, read from a server-side cursor. */
  batches<T = Record<string, unknown>>(sql: string, values: unknown[], batchSize: number): AsyncGenerator<T[]>;
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
  await runner.connect();
  let running = 0;
  let backendPid: number | null = null;
  const cancel = () => {
    if (running > 0 && backendPid !== null) {
      void dataSource.query('SELECT pg_cancel_backend($1)', [backendPid]).catch(() => undefined);
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
  signal.addEventListener('abort', cancel, { once: true });
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
    };
    const result = await use(cursor);
    await runner.query('COMMIT');
    return result;
  } catch (error) {
    await runner.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    signal.removeEventListener('abort', cancel);
    await runner.release();
  }
}
