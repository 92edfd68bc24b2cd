import { Injectable } from '@nestjs/common';
import { CsvError, parse } from 'csv-parse/sync';
import { StatementFileReader } from '../application/banking-ports';
import { bankImportRowInvalid } from '../domain/banking-errors';

/**
 * csv-parse over the file: a UTF-8 BOM is dropped, CRLF or LF ends a record, fields may be
 * quoted, and the separator is `;` when the header line has a `;` and no `,` (Chilean bank
 * exports), else `,`. Bytes that are not UTF-8 are read as windows-1252, as older bank software
 * writes it.
 */
@Injectable()
export class CsvStatementReader extends StatementFileReader {
  records(file: Buffer): string[][] {
    const text = decode(file);
    const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
    const delimiter = firstLine.includes(';') && !firstLine.includes(',') ? ';' : ',';
    try {
      const parsed = parse(text, { bom: true, delimiter, relax_column_count: true, skip_empty_lines: true, info: true }) as Array<{ record: string[]; info: { lines: number } }>;
      // Each record at the index of the line it starts on (csv-parse counts the line it ends on;
      // a quoted field may span lines), blank lines as empty records: a refusal names the line
      // a spreadsheet shows.
      const records: string[][] = [];
      for (const { record, info } of parsed) {
        const start = info.lines - record.reduce((n, field) => n + (field.match(/\n/g)?.length ?? 0), 0);
        while (records.length < start - 1) records.push([]);
        records.push(record);
      }
      return records;
    } catch (error) {
      if (error instanceof CsvError) {
        const { lines, records } = error as CsvError & { lines?: number; records?: number };
        const row = Number(lines ?? Number(records ?? 0) + 1);
        throw bankImportRowInvalid(row, `the CSV is malformed: ${error.message.replace(/^Invalid [^:]*: /, '')}`);
      }
      throw error;
    }
  }
}

function decode(file: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(file);
  } catch {
    return new TextDecoder('windows-1252').decode(file);
  }
}
