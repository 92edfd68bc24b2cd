import { CsvError, parse } from 'csv-parse';
import { once } from 'node:events';
import { LoopYielder } from './event-loop';

export interface CsvStreamOptions {
  /** `,` or `;` (or any one character). */
  delimiter: string;
  /** The longest record taken, in characters; a longer one is refused (CSV_MAX_RECORD_SIZE) at its line. */
  maxRecordChars: number;
}

/** What went wrong where: csv-parse's refusal (malformed quoting, a record past the bound), with the line it was on. */
export interface CsvRefusal {
  line: number;
  message: string;
}

const CHUNK = 64 * 1024;

/**
 * D2b: reads a CSV text as a stream (csv-parse, RFC 4180 quoting, a UTF-8 BOM dropped, CRLF or
 * LF), in slices of 64K characters, giving the event loop back between them, and calls
 * `onRecord` with each record and the line it starts on (1-based; a quoted field may span
 * lines; blank lines give no record). A record longer than `maxRecordChars` is refused, so memory
 * stays bounded whatever one line holds. `onRecord` may throw to refuse the file: reading stops
 * there. Malformed CSV goes to `refuse` (the caller's error naming the row).
 */
export async function readCsvRecords(
  text: string,
  options: CsvStreamOptions,
  onRecord: (record: string[], line: number) => void,
  refuse: (refusal: CsvRefusal) => Error,
  yielder = new LoopYielder(),
): Promise<void> {
  const parser = parse({ bom: true, delimiter: options.delimiter, relax_column_count: true, skip_empty_lines: true, info: true, max_record_size: options.maxRecordChars });
  let failure: unknown;
  parser.on('data', ({ record, info }: { record: string[]; info: { lines: number } }) => {
    if (failure !== undefined) return;
    try {
      // csv-parse counts the line a record ends on; a quoted field may span lines.
      const start = info.lines - record.reduce((n, field) => n + (field.match(/\n/g)?.length ?? 0), 0);
      onRecord(record, start);
    } catch (error) {
      failure = error;
    }
  });
  parser.on('error', (error: unknown) => {
    if (failure !== undefined) return;
    if (error instanceof CsvError) {
      const { lines, records } = error as CsvError & { lines?: number; records?: number };
      failure = refuse({ line: Number(lines ?? Number(records ?? 0) + 1), message: error.message.replace(/^Invalid [^:]*: /, '') });
    } else failure = error;
  });
  const ended = once(parser, 'end').catch(() => undefined);
  for (let start = 0; start < text.length && failure === undefined; ) {
    let end = Math.min(start + CHUNK, text.length);
    if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
    parser.write(text.slice(start, end));
    start = end;
    await yielder.maybeYield();
  }
  if (failure === undefined) {
    parser.end();
    await Promise.race([ended, once(parser, 'error').catch(() => undefined)]);
  }
  parser.destroy();
  if (failure !== undefined) throw failure;
}
