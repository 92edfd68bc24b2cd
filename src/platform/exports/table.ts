/**
 * D93: what an export writes, whatever its format. A table is columns over rows; a report that
 * is a tree (sections, groups, accounts) is flattened by its route into such rows first, so that
 * both writers (CSV, XLSX) only ever see a table.
 */

/**
 * The kinds of cell a column holds; each writer renders them its own way (CSV text, XLSX typed
 * cells). `id` is text that is an identifier (a UUID): written as text, it never begins like a
 * formula, so the database's CSV writes it as it is.
 */
export type ColumnType = 'text' | 'id' | 'amount' | 'integer' | 'date' | 'timestamp' | 'boolean';

export type CellValue = string | number | bigint | boolean | null | undefined;

export interface TableColumn<R> {
  /** The header cell: the JSON field's name (D93: a column per field). */
  header: string;
  type: ColumnType;
  value: (row: R) => CellValue;
  /**
   * Amounts only: the currency's minor-unit exponent (D6: CLP 0, USD 2, CLF 4), fixed or per row
   * (a list whose rows carry their own currency).
   */
  exponent?: number | ((row: R) => number);
  /**
   * The cell as an SQL expression over the relation the database's CSV reads (csv-copy): given on
   * every column of a table whose CSV PostgreSQL writes (`TableExport.csv`).
   */
  sql?: string;
}

export type ExportFormat = 'json' | 'csv' | 'xlsx';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['json', 'csv', 'xlsx'];
export type FileFormat = Exclude<ExportFormat, 'json'>;

/** Rows given whole (a report built in memory) or batch by batch (a database cursor). */
export type RowSource<R> = Iterable<R> | AsyncIterable<R[]>;

export interface TableExport<R> {
  /** The file's name without its extension (see exportFileName). */
  fileName: string;
  /** The worksheet's name in XLSX (at most 31 characters; cut and cleaned when longer). */
  sheetName: string;
  columns: Array<TableColumn<R>>;
  rows: RowSource<R>;
  /**
   * For the CSV, instead of `rows`: the records already written, each ending in CRLF (the
   * database's CSV through `crlfRecords`, with `csvRecord` lines between). Neither source is
   * read until the file is written, so only the one the format needs is ever opened.
   */
  csvRecords?: AsyncIterable<Buffer | string>;
}

/** Batches of rows, whichever kind of source was given. */
export async function* rowBatches<R>(rows: RowSource<R>, size = 1000): AsyncGenerator<R[]> {
  if (Symbol.asyncIterator in rows) {
    yield* rows;
    return;
  }
  let batch: R[] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * An amount in minor units written in major units, exactly (D6, D93): `1234` at exponent 0 is
 * `1234`, at exponent 2 `12.34`, `-5` at exponent 2 `-0.05`. Digits only, never through a float.
 */
export function majorUnits(minor: number | bigint | string, exponent: number): string {
  // The common case, a safe integer in a currency without decimals (CLP): its digits.
  if (exponent <= 0 && typeof minor === 'number' && Number.isSafeInteger(minor)) return minor === 0 ? '0' : String(minor);
  const text = typeof minor === 'string' ? minor.trim() : typeof minor === 'bigint' ? minor.toString() : Number.isSafeInteger(minor) ? String(minor) : BigInt(minor).toString();
  if (!/^-?\d+$/.test(text)) throw new Error(`Not an amount in minor units: ${text}`);
  if (exponent <= 0) return text === '-0' ? '0' : text;
  const negative = text.startsWith('-');
  const digits = (negative ? text.slice(1) : text).padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent).replace(/^0+(?=\d)/, '');
  const fraction = digits.slice(digits.length - exponent);
  const zero = /^0+$/.test(whole) && /^0+$/.test(fraction);
  return `${negative && !zero ? '-' : ''}${whole}.${fraction}`;
}

/** Characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"): = + - @ tab CR. */
export const FORMULA_START_CODES: readonly number[] = [0x3d, 0x2b, 0x2d, 0x40, 0x09, 0x0d];
const FORMULA_START = new Set(FORMULA_START_CODES);

/**
 * OWASP's defence against formula injection: a text cell that begins with `=`, `+`, `-`, `@`, a
 * tab or a carriage return is written with a single quote before it, so a spreadsheet shows it as
 * text. Only text cells: numbers (a negative amount) are never changed.
 */
export function neutralised(text: string): string {
  return FORMULA_START.has(text.charCodeAt(0)) ? `'${text}` : text;
}

/** The exponent of an amount cell of `row`. */
export function exponentOf<R>(column: TableColumn<R>, row: R): number {
  const { exponent } = column;
  if (exponent === undefined) return 0;
  return typeof exponent === 'number' ? exponent : exponent(row);
}

/** A file-name-safe piece: letters, digits, dot, dash (a taxId `76.086.428-5` stays readable). */
function safe(piece: string): string {
  return piece.replace(/[^0-9A-Za-z.-]+/g, '-').replace(/^-+|-+$/g, '') || 'none';
}

/**
 * D93: the file name names the report, the Entity's taxId and the range:
 * `journal_76086428-5_2026-01-01_2026-12-31`. A side of the range not given is `start` or `end`;
 * no range at all is `all`; a single date (a report as of a day) is that date.
 */
export function exportFileName(report: string, taxId: string, range: { from?: string | null; to?: string | null } | string | null): string {
  let span: string;
  if (typeof range === 'string') span = safe(range);
  else if (!range || (!range.from && !range.to)) span = 'all';
  else span = `${safe(range.from ?? 'start')}_${safe(range.to ?? 'end')}`;
  return `${safe(report)}_${safe(taxId)}_${span}`;
}
