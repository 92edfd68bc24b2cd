import { readCsvRecords } from '../../../platform/imports/bounded-csv';
import { StatementFileReader } from '../application/banking-ports';
import { DESCRIPTION_MAX, REFERENCE_MAX, StatementReading, StatementRow } from '../domain/statement';
import { bankImportRowInvalid } from '../domain/banking-errors';

/**
 * D2b: the longest record read. A movement row is a date, a description of at most 500
 * characters, an amount and a reference of at most 200 (D78): with quoting and spaces, 2,048
 * characters is past any row that can be right, and a longer one is refused at its row without
 * being held whole.
 */
export const STATEMENT_RECORD_MAX_CHARS = 2 * (DESCRIPTION_MAX + REFERENCE_MAX) + 648;

/**
 * The bounded CSV reader over the file (readCsvRecords): a UTF-8 BOM is dropped, CRLF or LF ends
 * a record, fields may be quoted, and the separator is `;` when the header line has a `;` and no
 * `,` (Chilean bank exports), else `,`. Bytes that are not UTF-8 are read as windows-1252, as
 * older bank software writes it. Each record is judged as it is read (StatementReading). The
 * service runs it in an import-parsing worker (`parse` below, OffThreadStatementReader).
 */
export class CsvStatementReader extends StatementFileReader {
  async read(file: Buffer): Promise<StatementRow[]> {
    const reading = new StatementReading();
    await this.readRecords(file, (record, line) => reading.add(record, line));
    return reading.finish();
  }

  async readRecords(file: Buffer, onRecord: (record: string[], line: number) => void): Promise<void> {
    const text = decode(file);
    const firstLine = /^\uFEFF?([^\r\n]*)/.exec(text.slice(0, STATEMENT_RECORD_MAX_CHARS))![1];
    const delimiter = firstLine.includes(';') && !firstLine.includes(',') ? ';' : ',';
    readCsvRecords(text, { delimiter, maxRecordChars: STATEMENT_RECORD_MAX_CHARS }, onRecord, ({ line, message }) =>
      bankImportRowInvalid(line, `the CSV is malformed: ${message}`),
    );
  }
}

/** The worker's entry (platform/imports/parse-worker.ts): the statement's rows, or its refusal. */
export function parse(file: Buffer): Promise<StatementRow[]> {
  return new CsvStatementReader().read(file);
}

function decode(file: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(file);
  } catch {
    return new TextDecoder('windows-1252').decode(file);
  }
}
