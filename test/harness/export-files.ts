import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import type { Response } from 'superagent';

/**
 * D93's files read back with real readers: the CSV with csv-parse (RFC 4180, strict quotes), the
 * XLSX with exceljs (a test-only dependency; the service writes its own OOXML). Both give rows of
 * `{ header: value }`, values as the file holds them: CSV text, XLSX typed cells (numbers, Dates,
 * text, booleans; an empty cell absent, read as null).
 */

/** supertest: the body of a binary answer as a Buffer. */
export function binary(res: Response, callback: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}

export interface CsvFile {
  header: string[];
  rows: Array<Record<string, string>>;
  raw: string;
}

export function readCsv(body: Buffer): CsvFile {
  const raw = body.toString('utf8');
  // A byte-order mark, then RFC 4180 records ended by CRLF (a bare LF only inside a quoted field).
  expect(body.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  expect(raw.endsWith('\r\n')).toBe(true);
  const records: string[][] = parse(raw, { bom: true, record_delimiter: '\r\n', relax_quotes: false, relax_column_count: false });
  const [header, ...rest] = records;
  return { header, rows: rest.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]]))), raw };
}

export interface XlsxFile {
  header: string[];
  rows: Array<Record<string, unknown>>;
  /** Number formats of the first data row's cells, by header. */
  formats: Record<string, string | undefined>;
  sheets: string[];
}

function plain(value: ExcelJS.CellValue): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object' && !(value instanceof Date) && 'richText' in value) return value.richText.map((t) => t.text).join('');
  return value;
}

export async function readXlsx(body: Buffer): Promise<XlsxFile> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  const header = (sheet.getRow(1).values as ExcelJS.CellValue[]).slice(1).map((v) => String(v));
  const rows: Array<Record<string, unknown>> = [];
  const formats: Record<string, string | undefined> = {};
  for (const sheetOf of workbook.worksheets) {
    sheetOf.eachRow((row, n) => {
      if (n === 1) return;
      const record: Record<string, unknown> = {};
      header.forEach((h, i) => {
        const cell = row.getCell(i + 1);
        record[h] = plain(cell.value);
        if (rows.length === 0) formats[h] = cell.numFmt;
      });
      rows.push(record);
    });
  }
  return { header, rows, formats, sheets: workbook.worksheets.map((s) => s.name) };
}

/** An amount in minor units as the CSV writes it: major units, exact (CLP 1234, USD 12.34). */
export function csvAmount(minor: number | null | undefined, exponent: number): string {
  if (minor === null || minor === undefined) return '';
  if (exponent === 0) return String(minor);
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** A date as the XLSX date cell reads back (exceljs: midnight UTC). */
export function xlsxDate(iso: string | null | undefined): Date | null {
  return iso ? new Date(`${iso}T00:00:00.000Z`) : null;
}
