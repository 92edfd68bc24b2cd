// `npm run cli -- ledger:import FILE --entity ID [--batch N] [--format jsonl|csv]`: loads a
// ledger's past. Entries in the body shape of POST .../ledger/entries (JSON Lines), or CSV rows of
// lines grouped by entry id (README, "Loading a ledger's past"), posted in batches through the
// ledger's posting API (LedgerEntryBatches -> LedgerPostings.postBatch): the same rules, one
// transaction per batch with an audit row per entry (actor system:ledger-import). Entries already
// in the books are skipped by id, so a run stopped halfway is resumed by running it again.
import { openSync, readSync, closeSync, statSync } from 'node:fs';
import type { NestFactory } from '@nestjs/core';
import { DomainError, isUuid } from '../libs/shared-kernel/src';
import { BatchRefusal, EntryFileItem, LedgerEntryBatches, PostedBatch, readEntryFile } from './modules/ledger';
import { SystemWrites } from './platform/audit/system-writes';

type App = Awaited<ReturnType<typeof NestFactory.createApplicationContext>>;
type FileEntry = Extract<EntryFileItem, { raw: unknown }>;

/** Most entries one batch of the command holds. */
const BATCH_MAX = 10_000;
/** Refusals printed, at most (as the API names them). */
const ERRORS_MAX = 100;

/** Newlines in the file: the total the progress line counts towards. */
function countLines(path: string): number {
  const fd = openSync(path, 'r');
  const buffer = Buffer.allocUnsafe(1 << 20);
  let count = 0;
  let last = 10;
  try {
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
      for (let i = buffer.indexOf(10); i >= 0 && i < read; i = buffer.indexOf(10, i + 1)) count++;
      last = buffer[read - 1];
    }
  } finally {
    closeSync(fd);
  }
  return count + (last === 10 ? 0 : 1);
}

/** A plain progress line on a terminal (stderr), redrawn at most 10 times a second; nothing when not a terminal. */
class Progress {
  private drawn = 0;
  constructor(
    private readonly total: number,
    private readonly started: number,
    private readonly tty = process.stderr.isTTY === true,
  ) {}

  update(fileLine: number, imported: number, skipped: number, force = false): void {
    const now = Date.now();
    if (!this.tty || (!force && now - this.drawn < 100)) return;
    this.drawn = now;
    const share = this.total > 0 ? Math.min(1, fileLine / this.total) : 1;
    const width = 30;
    const filled = Math.round(share * width);
    const rate = imported / Math.max(0.001, (now - this.started) / 1000);
    process.stderr.write(
      `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(share * 100).toFixed(1)}% file line ${fileLine.toLocaleString('en')}/${this.total.toLocaleString('en')}, ${imported.toLocaleString('en')} lines imported, ${skipped.toLocaleString('en')} entries skipped, ${Math.round(rate).toLocaleString('en')} lines/s `,
    );
  }

  end(): void {
    if (this.tty) process.stderr.write('\n');
  }
}

/** A refusal of the batch at the file line it names: the line of the ledger line (CSV), else of the entry. */
function atFileLine(item: FileEntry, refusal: BatchRefusal): string {
  const lineIndex = /^newLedgerEntryLines\[(\d+)\]/.exec(refusal.path);
  const line = (lineIndex && item.lineOfLines[Number(lineIndex[1])]) || item.line;
  return `line ${line}: ${refusal.path || '(entry)'}: ${refusal.code} ${refusal.message}`;
}

class BatchRefused extends Error {
  constructor(readonly lines: string[]) {
    super('batch refused');
  }
}

export async function importLedger(flags: Record<string, string>, app: App, args: string[]): Promise<string> {
  const [path] = args;
  if (!path || args.length > 1) throw new Error('usage: ledger:import FILE --entity ID [--batch N] [--parallel N] [--format jsonl|csv]');
  if (!isUuid(flags.entity)) throw new Error('--entity must be the id (UUID) of an Entity');
  const entityId = flags.entity.toLowerCase();
  const batchSize = flags.batch === undefined ? 1000 : Number(flags.batch);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > BATCH_MAX) throw new Error(`--batch must be an integer from 1 to ${BATCH_MAX}`);
  const parallel = flags.parallel === undefined ? 2 : Number(flags.parallel);
  if (!Number.isInteger(parallel) || parallel < 1 || parallel > 8) throw new Error('--parallel must be an integer from 1 to 8');
  if (flags.format !== undefined && flags.format !== 'jsonl' && flags.format !== 'csv') throw new Error('--format must be jsonl or csv');
  if (!statSync(path, { throwIfNoEntry: false })?.isFile()) throw new Error(`${path}: no such file`);

  const batches = app.get(LedgerEntryBatches);
  const writes = app.get(SystemWrites);
  const started = Date.now();
  const cpuAtStart = process.cpuUsage();
  // The file is counted (one more pass over it) only for a bar someone sees.
  const progress = new Progress(process.stderr.isTTY ? countLines(path) : 0, started);
  const totals = { entries: 0, lines: 0, skippedEntries: 0, batches: 0 };
  let lastLine = 0;

  const post = async (items: FileEntry[]): Promise<void> => {
    let posted: PostedBatch;
    try {
      posted = await writes.run(
        { actor: 'system:ledger-import', action: 'ledger_entry.create', resourceType: 'ledger_entry', entityId, rowPerResource: true },
        () => batches.post(entityId, items.map((item) => item.raw), () => ''),
      );
    } catch (error) {
      if (error instanceof DomainError && Array.isArray(error.params.errors)) {
        throw new BatchRefused((error.params.errors as BatchRefusal[]).slice(0, ERRORS_MAX).map((refusal) => atFileLine(items[refusal.index], refusal)));
      }
      if (error instanceof DomainError) throw new BatchRefused([`lines ${items[0].line}-${items.at(-1)!.line}: ${error.code} ${error.message}`]);
      throw error;
    }
    totals.entries += posted.postedEntries;
    totals.lines += posted.postedLines;
    totals.skippedEntries += posted.skippedEntryIds.length;
    totals.batches++;
    progress.update(items.at(-1)!.line, totals.lines, totals.skippedEntries);
  };

  // Up to `parallel` batches post at once (each on its own connection) while the next is read and parsed.
  const inFlight = new Set<Promise<void>>();
  let failed: unknown = null;
  const start = (items: FileEntry[]) => {
    const posting: Promise<void> = post(items).then(
      () => void inFlight.delete(posting),
      (error: unknown) => {
        inFlight.delete(posting);
        failed ??= error;
      },
    );
    inFlight.add(posting);
  };
  const settle = async (room: number) => {
    while (inFlight.size > room) await Promise.race(inFlight);
    if (failed) throw failed;
  };
  let batch: FileEntry[] = [];
  const fileErrors: string[] = [];
  const summary = (outcome: string) => {
    const seconds = (Date.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuAtStart);
    return [
      outcome,
      `entries imported: ${totals.entries.toLocaleString('en')} (${totals.lines.toLocaleString('en')} lines) in ${totals.batches.toLocaleString('en')} batches`,
      `entries skipped (already in the books): ${totals.skippedEntries.toLocaleString('en')}`,
      `seconds: ${seconds.toFixed(1)}, lines/s: ${Math.round(totals.lines / Math.max(seconds, 0.001)).toLocaleString('en')}, CPU seconds of this command: ${((cpu.user + cpu.system) / 1e6).toFixed(1)}`,
    ].join('\n');
  };
  try {
    for await (const item of readEntryFile(path, flags.format)) {
      lastLine = item.line;
      if ('error' in item) {
        if (fileErrors.length < ERRORS_MAX) fileErrors.push(`line ${item.line}: ${item.error}`);
        continue;
      }
      if (fileErrors.length > 0) continue;
      batch.push(item);
      if (batch.length === batchSize) {
        await settle(parallel - 1);
        start(batch);
        batch = [];
      }
    }
    await settle(0);
    if (fileErrors.length > 0) throw new BatchRefused(fileErrors);
    if (batch.length > 0) await post(batch);
  } catch (error) {
    await Promise.allSettled(inFlight);
    progress.end();
    if (!(error instanceof BatchRefused)) throw error;
    process.stderr.write(`${error.lines.join('\n')}\n`);
    const report = summary(
      `Refused: a batch (or the file) has errors; nothing of it was written. Other batches are committed: fix the file and run the same command again (entries already imported are skipped by id).`,
    );
    throw new Error(report);
  }
  progress.update(lastLine, totals.lines, totals.skippedEntries, true);
  progress.end();
  return summary(`Imported ${path} into Entity ${entityId}`);
}
