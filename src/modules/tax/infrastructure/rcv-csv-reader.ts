import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { CsvError, parse } from 'csv-parse';
import { RcvFileReader } from '../domain/ports';
import { RCV_MAX_COLUMNS, RCV_MAX_FIELD, RCV_MAX_ROWS, RcvLayout, rcvLayout, rcvRow, RcvRow } from '../domain/rcv-file';
import { rcvRowInvalid } from '../domain/tax-errors';

/** Characters handed to the parser at a time; the event loop is given back between them. */
const CHUNK_CHARS = 64 * 1024;
/** Records read between two turns of the event loop. */
const RECORDS_PER_TURN = 2_000;

/**
 * The bytes as text: UTF-8 when they are valid UTF-8, else ISO-8859-1 (the SII's files come in
 * both; Node's latin1 is true ISO-8859-1). A UTF-8 byte-order mark is dropped by the parser.
 */
function decode(file: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(file);
  } catch {
    return file.toString('latin1');
  }
}

function* chunks(text: string): Generator<string> {
  for (let start = 0; start < text.length; start += CHUNK_CHARS) yield text.slice(start, start + CHUNK_CHARS);
}

/**
 * csv-parse's streaming parser over the file (`;`-separated, CRLF or LF, fields may be quoted),
 * fed in chunks and read record by record, giving the event loop back every few thousand
 * records (D2b). Bounded: a record of more than RCV_MAX_COLUMNS fields or RCV_MAX_FIELD
 * characters in a field, or more than RCV_MAX_ROWS documents, is refused naming its line.
 */
@Injectable()
export class RcvCsvReader extends RcvFileReader {
  async read(file: Buffer): Promise<RcvRow[]> {
    const parser = Readable.from(chunks(decode(file)), { objectMode: false }).pipe(
      parse({
        delimiter: ';',
        bom: true,
        relax_column_count: true,
        skip_empty_lines: true,
        info: true,
        // A record's characters (the SII's widest rows have a few hundred); a huge field stops here.
        max_record_size: RCV_MAX_FIELD * 4,
      }),
    );
    const rows: RcvRow[] = [];
    let layout: RcvLayout | null = null;
    let seen = 0;
    try {
      for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
        // The line the record starts on (csv-parse counts the one it ends on; a quoted field may span lines).
        const line = info.lines - record.reduce((n, field) => n + (field.match(/\n/g)?.length ?? 0), 0);
        if (record.length > RCV_MAX_COLUMNS) throw rcvRowInvalid(line, `has ${record.length} fields, more than the ${RCV_MAX_COLUMNS} an RCV file has`);
        const long = record.findIndex((field) => field.length > RCV_MAX_FIELD);
        if (long >= 0) throw rcvRowInvalid(line, `field ${long + 1} is longer than ${RCV_MAX_FIELD} characters`);
        if (!layout) {
          layout = rcvLayout(record);
        } else {
          if (rows.length === RCV_MAX_ROWS) throw rcvRowInvalid(line, `the file has more than ${RCV_MAX_ROWS} documents`);
          rows.push(rcvRow(record, layout, line));
        }
        if (++seen % RECORDS_PER_TURN === 0) await nextTurn();
      }
    } catch (error) {
      parser.destroy();
      if (error instanceof CsvError) {
        const { lines } = error as CsvError & { lines?: number };
        const reason = error.code === 'CSV_MAX_RECORD_SIZE' ? `a record is longer than ${RCV_MAX_FIELD * 4} characters` : `the CSV is malformed: ${error.message.replace(/^Invalid [^:]*: /, '')}`;
        throw rcvRowInvalid(Number(lines ?? seen + 1), reason);
      }
      throw error;
    }
    if (!layout) throw rcvRowInvalid(1, 'the file is empty: it needs the SII header row');
    return rows;
  }
}
