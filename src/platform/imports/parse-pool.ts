import { Global, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DomainError } from '../../../libs/shared-kernel/src';
import type { RuntimeConfig } from '../config/app-config';
import { DomainErrorWithHeaders } from '../http/error-envelope';
import { UploadBodyGuard } from './deferred-upload';
import type { ParseAnswer, ParseFailure, ParseTask, ParseWorkerData } from './parse-worker';

/**
 * A module's parser that runs off the main thread: the absolute path, without extension, of a
 * file whose export `parse(bytes: Buffer)` answers `T` (plain data: it crosses threads by
 * structured clone) or throws the module's DomainError. `parserFile(__dirname, 'x-parse')`.
 */
export interface ImportParser<T> {
  readonly path: string;
  /** Never set: carries `T`. */
  readonly __result?: T;
}

export function importParser<T>(directory: string, name: string): ImportParser<T> {
  return { path: join(directory, name) };
}

/** The longest a parse may run before its worker is stopped (a bounded 5 MB parse takes a second or two on a loaded machine). */
const PARSE_TIMEOUT_MS = 60_000;
/** A worker with nothing to do for this long is stopped (its heap given back); the next import starts one. */
const IDLE_MS = 30_000;
/**
 * A worker's heap. The largest valid file (a 5 MB statement of 86,000 rows) peaks well under the
 * old generation's 192 MB; a parse past it fails (503), the service does not. A small young
 * generation (8 MB) keeps each worker's resident memory low: two parsing workers added +92 MiB
 * where V8's defaults added +141 MiB, and parsed a little faster.
 */
const WORKER_HEAP = { maxOldGenerationSizeMb: 192, maxYoungGenerationSizeMb: 8 };

interface Pending {
  task: ParseTask;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
  timer: NodeJS.Timeout | null;
  idle: NodeJS.Timeout | null;
}

/** A worker that failed (crashed, ran out of memory, overran its time): 503 with Retry-After, the file unread, nothing written. */
function parserUnavailable(reason: string): DomainError {
  return new DomainErrorWithHeaders('SERVICE_UNAVAILABLE_ERROR', 'The file could not be read: the import parser stopped; retry shortly', { dependency: 'importParser', reason }, { 'Retry-After': '1' });
}

function errorOf(failure: ParseFailure): Error {
  if (failure.kind === 'domain') return new DomainError(failure.code, failure.message, failure.params, failure.status);
  const error = new Error(`import parser: ${failure.message}`);
  if (failure.stack) error.stack = `${error.message}\n(in the parse worker) ${failure.stack}`;
  return error;
}

/**
 * How a worker is started. The service runs compiled (`dist`, `.js`): the worker's own compiled
 * file. From the TypeScript sources (jest with SWC, `node -r @swc-node/register` for the bench
 * and the CLI), a worker cannot start from a `.ts` file: a bootstrap registers @swc-node/register
 * in the worker first, then requires the source.
 */
function startWorker(data: ParseWorkerData): Worker {
  const options = { resourceLimits: WORKER_HEAP, stdout: false, stderr: false, workerData: data };
  if (__filename.endsWith('.ts')) {
    const register = require.resolve('@swc-node/register');
    const entry = join(__dirname, 'parse-worker.ts');
    return new Worker(`require(${JSON.stringify(register)}); require(${JSON.stringify(entry)});`, { ...options, eval: true, execArgv: [] });
  }
  return new Worker(join(__dirname, 'parse-worker.js'), options);
}

/**
 * D2b: imports are parsed off the main thread, so that health and every other request go on
 * while a 5 MB file is read. At most HEAVY_READS_TOTAL workers (the heavy-work limit of the
 * instance: an import holds a heavy slot while it is parsed, so no more parses can be asked at
 * once), started when needed and stopped when idle; a parse beyond them waits for one. The
 * bytes are copied once into the worker; its answer is the module's parse result, or the
 * module's DomainError as it threw it (same code, message, params), or, when the worker itself
 * fails, 503 SERVICE_UNAVAILABLE_ERROR.
 */
@Injectable()
export class ImportParsePool implements OnApplicationShutdown {
  private readonly logger = new Logger('ImportParsePool');
  private readonly size: number;
  private readonly nice: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(config: ConfigService<RuntimeConfig, true>) {
    // No more parsers than the heavy-work limit admits, nor than the cores can run (each may hold a
    // worker heap of about 200 MB): parses beyond it wait in the queue.
    this.size = Math.max(1, Math.min(config.get('heavyReadsTotal', { infer: true }), Math.max(2, availableParallelism())));
    this.nice = config.get('importParseNice', { infer: true }) ?? 0;
  }

  /** Parses `bytes` with `parser` in a worker thread. */
  run<T>(parser: ImportParser<T>, bytes: Buffer): Promise<T> {
    if (this.closed) return Promise.reject(parserUnavailable('the service is stopping'));
    // A copy the worker owns (transferred, not cloned): a Buffer may be a view of a larger pool.
    const copy = new Uint8Array(bytes.length);
    copy.set(bytes);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ task: { id: this.nextId++, parser: parser.path, bytes: copy.buffer }, resolve: resolve as (value: unknown) => void, reject });
      this.dispatch();
    });
  }

  /** Workers running now (for tests and the bench). */
  get workers(): number {
    return this.slots.length;
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(parserUnavailable('the service is stopping'));
    await Promise.all(this.slots.splice(0).map((slot) => this.stop(slot, 'the service is stopping')));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.busy === null);
      if (!slot) {
        if (this.slots.length >= this.size) return;
        slot = this.spawn();
      }
      const pending = this.queue.shift()!;
      if (slot.idle) clearTimeout(slot.idle);
      slot.idle = null;
      slot.busy = pending;
      slot.worker.ref();
      const target = slot;
      slot.timer = setTimeout(() => void this.fail(target, `the parse ran longer than ${PARSE_TIMEOUT_MS / 1000} s`), PARSE_TIMEOUT_MS);
      slot.timer.unref();
      slot.worker.postMessage(pending.task, [pending.task.bytes]);
    }
  }

  private spawn(): Slot {
    const worker = startWorker({ nice: this.nice });
    const slot: Slot = { worker, busy: null, timer: null, idle: null };
    this.slots.push(slot);
    worker.on('message', (answer: ParseAnswer) => {
      const pending = slot.busy;
      if (!pending || pending.task.id !== answer.id) return;
      this.release(slot);
      if (answer.ok) pending.resolve(answer.value);
      else pending.reject(errorOf(answer.failure));
      this.dispatch();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      // Not V8's own words for it: a test runner watching stderr would take them for its own crash.
      this.logger.error(`an import parser worker failed: ${outOfMemory ? 'it reached its heap limit (ERR_WORKER_OUT_OF_MEMORY)' : `${error.code ?? error.name}: ${error.message}`}`);
      void this.fail(slot, outOfMemory ? 'the parse ran out of memory' : 'the parser failed');
    });
    // An answer the main thread cannot read would otherwise wait for the parse's timeout.
    worker.on('messageerror', () => void this.fail(slot, 'the parser answered an unreadable result'));
    worker.on('exit', () => void this.fail(slot, 'the parser stopped'));
    // After the listeners (a 'message' listener refs the worker's port again): an idle worker
    // never keeps the process alive; a busy one does (dispatch refs it, release unrefs it).
    worker.unref();
    return slot;
  }

  private release(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.busy = null;
    slot.worker.unref();
    slot.idle = setTimeout(() => {
      if (slot.busy === null) void this.fail(slot, 'idle');
    }, IDLE_MS);
    slot.idle.unref();
  }

  /** Takes the worker out of the pool and stops it; a parse it was running fails (503). */
  private async fail(slot: Slot, reason: string): Promise<void> {
    const at = this.slots.indexOf(slot);
    if (at < 0) return;
    this.slots.splice(at, 1);
    await this.stop(slot, reason);
    this.dispatch();
  }

  private async stop(slot: Slot, reason: string): Promise<void> {
    if (slot.timer) clearTimeout(slot.timer);
    if (slot.idle) clearTimeout(slot.idle);
    const pending = slot.busy;
    slot.busy = null;
    if (pending) pending.reject(parserUnavailable(reason));
    slot.worker.removeAllListeners('exit');
    await slot.worker.terminate();
  }
}

@Global()
@Module({ providers: [ImportParsePool, UploadBodyGuard], exports: [ImportParsePool, UploadBodyGuard] })
export class ImportParseModule {}
