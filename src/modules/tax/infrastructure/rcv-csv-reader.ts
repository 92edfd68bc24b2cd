import { readCsvRecords } from '../../../platform/imports/bounded-csv';
import { RcvFileReader } from '../domain/ports';
import { RCV_MAX_COLUMNS, RCV_MAX_FIELD, RCV_MAX_ROWS, RcvLayout, rcvLayout, RcvReadMemo, rcvRow, RcvRow } from '../domain/rcv-file';
import { rcvRowInvalid } from '../domain/tax-errors';

/**
 * The bytes as text: UTF-8 when they are valid UTF-8, else ISO-8859-1 (the SII's files come in
 * both; Node's latin1 is true ISO-8859-1).
 */
function decode(file: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(file);
  } catch {
    return file.toString('latin1');
  }
}

/** The longest record read, in characters (the SII's widest rows have a few hundred); a huge field stops there. */
const MAX_RECORD_CHARS = RCV_MAX_FIELD * 4;

/** Takes the file's records one by one: the header first, then the documents (bounded). */
class RcvRecords {
  readonly rows: RcvRow[] = [];
  private layout: RcvLayout | null = null;
  private readonly memo = new RcvReadMemo();

  take(record: string[], line: number): void {
    if (record.length > RCV_MAX_COLUMNS) throw rcvRowInvalid(line, `has ${record.length} fields, more than the ${RCV_MAX_COLUMNS} an RCV file has`);
    const long = record.findIndex((field) => field.length > RCV_MAX_FIELD);
    if (long >= 0) throw rcvRowInvalid(line, `field ${long + 1} is longer than ${RCV_MAX_FIELD} characters`);
    if (!this.layout) {
      this.layout = rcvLayout(record);
      return;
    }
    if (this.rows.length === RCV_MAX_ROWS) throw rcvRowInvalid(line, `the file has more than ${RCV_MAX_ROWS} documents`);
    this.rows.push(rcvRow(record, this.layout, line, this.memo));
  }

  done(): RcvRow[] {
    if (!this.layout) throw rcvRowInvalid(1, 'the file is empty: it needs the SII header row');
    return this.rows;
  }
}

/**
 * The SII's files as they come (no quoted field): split at line ends and `;` in the text, line
 * by line. Ten times cheaper than a general CSV parser on the 43 columns of the sales layout.
 */
function readPlain(text: string): RcvRow[] {
  const records = new RcvRecords();
  let line = 0;
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf('\n', start);
    const stop = end < 0 ? text.length : end;
    line++;
    if (stop - start > MAX_RECORD_CHARS) throw rcvRowInvalid(line, `a record is longer than ${MAX_RECORD_CHARS} characters`);
    const content = text.charCodeAt(stop - 1) === 13 ? text.slice(start, stop - 1) : text.slice(start, stop);
    if (content !== '') records.take(content.split(';'), line);
    start = stop + 1;
  }
  return records.done();
}

/** A file with quoted fields: the bounded CSV reader of platform/imports (D2b). */
function readQuoted(text: string): RcvRow[] {
  const records = new RcvRecords();
  readCsvRecords(
    text,
    { delimiter: ';', maxRecordChars: MAX_RECORD_CHARS },
    (record, line) => records.take(record, line),
    ({ line, message }) => rcvRowInvalid(line, message),
  );
  return records.done();
}

/**
 * The SII's RCV file (D92, phase2-anchors §7) read as a bounded stream: a record of more than
 * RCV_MAX_COLUMNS fields, a field of more than RCV_MAX_FIELD characters or a record of more than
 * MAX_RECORD_CHARS, or more than RCV_MAX_ROWS documents, is refused naming its line. A UTF-8
 * byte-order mark is dropped. The service runs it in an import-parsing worker (`parse` below,
 * OffThreadRcvReader), not on its main thread.
 */
export class RcvCsvReader extends RcvFileReader {
  async read(file: Buffer): Promise<RcvRow[]> {
    const text = decode(file).replace(/^\uFEFF/, '');
    return text.includes('"') ? readQuoted(text) : readPlain(text);
  }
}

/** The worker's entry (platform/imports/parse-worker.ts): the file's documents, or its refusal. */
export function parse(file: Buffer): Promise<RcvRow[]> {
  return new RcvCsvReader().read(file);
}
