import { exponentOf, majorUnits, neutralised, rowBatches, type CellValue, type TableColumn, type TableExport } from './table';

/** The UTF-8 byte-order mark: Excel reads the file as UTF-8 only with it. */
const BOM = '\uFEFF';

/** A field quoted when RFC 4180 requires it (a comma, a quote, CR or LF inside). */
function field(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function cell<R>(column: TableColumn<R>, row: R): string {
  const value: CellValue = column.value(row);
  if (value === null || value === undefined) return '';
  switch (column.type) {
    case 'amount':
      return majorUnits(value as number | bigint | string, exponentOf(column, row));
    case 'integer':
      return typeof value === 'bigint' ? value.toString() : String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'date':
    case 'timestamp':
      return field(String(value));
    default:
      return field(neutralised(String(value)));
  }
}

/** One record of `row`, CRLF-ended. */
export function csvRecord<R>(columns: Array<TableColumn<R>>, row: R): string {
  let line = '';
  for (let i = 0; i < columns.length; i++) line += (i > 0 ? ',' : '') + cell(columns[i], row);
  return `${line}\r\n`;
}

/**
 * D93's CSV, piece by piece: RFC 4180 (comma, CRLF, fields quoted when needed), UTF-8 with a
 * byte-order mark, one header row, dates ISO, amounts in major units, text cells neutralised
 * against formula injection. Each piece holds one batch of rows.
 */
export async function* csvPieces<R>(table: Pick<TableExport<R>, 'columns' | 'rows' | 'csvRecords'>): AsyncGenerator<string | Buffer> {
  const { columns } = table;
  yield `${BOM}${columns.map((c) => field(neutralised(c.header))).join(',')}\r\n`;
  if (table.csvRecords) {
    yield* table.csvRecords;
    return;
  }
  for await (const batch of rowBatches(table.rows)) {
    let piece = '';
    for (const row of batch) piece += csvRecord(columns, row);
    yield piece;
  }
}
