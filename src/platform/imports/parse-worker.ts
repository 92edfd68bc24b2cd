/**
 * D2b: the entry of an import-parsing worker thread (platform/imports/parse-pool.ts). A task
 * names a parser file (a module's, by absolute path without extension, so that the compiled
 * `.js` and the TypeScript source both resolve) whose export `parse(bytes)` reads the file and
 * answers the bounded, validated result or throws the module's DomainError; the bytes come
 * transferred, the result or the error goes back by structured clone. This file imports no
 * module: it only requires the file the task names.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';

export interface ParseTask {
  id: number;
  parser: string;
  bytes: ArrayBuffer;
}

/** A DomainError's fields (its class does not cross threads), or an unexpected error's text. */
export type ParseFailure = { kind: 'domain'; code: string; message: string; params: Record<string, unknown>; status?: number } | { kind: 'unexpected'; message: string; stack?: string };

export type ParseAnswer = { id: number; ok: true; value: unknown } | { id: number; ok: false; failure: ParseFailure };

type Parse = (bytes: Buffer) => unknown;

const parsers = new Map<string, Parse>();

function parserAt(path: string): Parse {
  let parse = parsers.get(path);
  if (!parse) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const loaded = require(path) as { parse?: Parse };
    if (typeof loaded.parse !== 'function') throw new Error(`${path} exports no parse function`);
    parse = loaded.parse;
    parsers.set(path, parse);
  }
  return parse;
}

function failureOf(error: unknown): ParseFailure {
  const e = error as { name?: string; code?: unknown; message?: string; params?: unknown; status?: unknown; stack?: string };
  // A DomainError (or a subclass) of any module: recognised by its shape, not its class, since
  // the parser's copy of the shared kernel is not this thread's.
  if (error instanceof Error && typeof e.code === 'string' && /_ERROR$/.test(e.code) && typeof e.params === 'object' && e.params !== null) {
    return { kind: 'domain', code: e.code, message: String(e.message), params: e.params as Record<string, unknown>, ...(typeof e.status === 'number' ? { status: e.status } : {}) };
  }
  return { kind: 'unexpected', message: String(e?.message ?? error), stack: e?.stack };
}

/**
 * Parsing is background work: on Linux the thread lowers its own scheduling priority (nice 10),
 * so that on a busy machine the main thread (health, reads, every other request) wins a core
 * first. Elsewhere, or where it is refused, the thread keeps the process's priority.
 */
function lowerOwnPriority(): void {
  try {
    const tid = Number(/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1]);
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
  } catch {
    // not Linux, or not allowed: the default priority
  }
}

if (parentPort) {
  const port = parentPort;
  if (process.env.IMPORT_PARSE_NICE !== '0') lowerOwnPriority();
  port.on('message', (task: ParseTask) => {
    void (async () => {
      let answer: ParseAnswer;
      try {
        const value = await parserAt(task.parser)(Buffer.from(task.bytes));
        answer = { id: task.id, ok: true, value };
      } catch (error) {
        answer = { id: task.id, ok: false, failure: failureOf(error) };
      }
      try {
        port.postMessage(answer);
      } catch (error) {
        // A value that does not clone (a parser's bug): answered as one.
        port.postMessage({ id: task.id, ok: false, failure: failureOf(error) } satisfies ParseAnswer);
      }
    })();
  });
}
