import { FORMULA_START_CODES, type TableColumn } from './table';

/**
 * D93's CSV written by PostgreSQL itself (`COPY (SELECT ...) TO STDOUT (FORMAT csv)`), for the
 * tables of a million rows (the Libro Diario, the Libro Mayor): the database formats each field
 * and quotes it as RFC 4180 asks (a comma, a quote, CR or LF inside), so the service only moves
 * bytes. The cells follow csv-writer's rules exactly: text neutralised against formula injection
 * and empty as an empty field (never `""`), amounts in major units written exactly (a bigint
 * times 0.01 is a numeric of scale 2: `12.34`, `-0.05`, `0.00`), dates ISO (`to_char`). Only
 * PostgreSQL's line ends differ (LF): `crlfRecords` turns them into CRLF.
 */

/** The select list of `columns`, each by its `sql` expression formatted as its type asks. */
export function csvSelectList<R>(columns: Array<TableColumn<R>>): string {
  return columns
    .map((column) => {
      if (!column.sql) throw new Error(`The column ${column.header} has no SQL expression`);
      return csvFieldSql(column.sql, column.type, typeof column.exponent === 'number' ? column.exponent : 0);
    })
    .join(', ');
}

function csvFieldSql(sql: string, type: TableColumn<unknown>['type'], exponent: number): string {
  switch (type) {
    case 'amount':
      // Minor units (an integer) to major units, exact: times 10^-exponent as a numeric literal.
      return exponent > 0 ? `((${sql}) * 0.${'0'.repeat(exponent - 1)}1)` : `(${sql})`;
    case 'integer':
      return `(${sql})`;
    case 'date':
      return `to_char(${sql}, 'YYYY-MM-DD')`;
    case 'boolean':
      return `CASE WHEN ${sql} THEN 'true' WHEN NOT ${sql} THEN 'false' END`;
    case 'id':
      // A UUID: never begins like a formula, never empty.
      return `(${sql})`;
    case 'text':
      // A text that begins with = + - @ tab or CR gets a quote before it (OWASP), as `neutralised`.
      return `NULLIF(CASE WHEN ascii(${sql}) IN (${FORMULA_START_CODES.join(', ')}) THEN '''' || (${sql}) ELSE (${sql})::text END, '')`;
    default:
      throw new Error(`A ${type} column is not written by the database`);
  }
}

/**
 * PostgreSQL's CSV records with CRLF line ends (RFC 4180): each LF that ends a record becomes CR
 * LF; an LF inside a quoted field (a description written on two lines) is part of the field and
 * stays as it is. A quote opens or closes a quoted field (a doubled quote inside one does both),
 * so counting quotes tells whether an LF is inside a field, across chunk boundaries too.
 */
export async function* crlfRecords(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let quoted = false;
  for await (const chunk of chunks) {
    // The record ends (LFs outside quotes) of this chunk, found with indexOf from quote to quote.
    const ends: number[] = [];
    let at = 0;
    let nextQuote = chunk.indexOf(0x22);
    while (at < chunk.length) {
      if (quoted) {
        if (nextQuote < 0) break;
        quoted = false;
        at = nextQuote + 1;
        nextQuote = chunk.indexOf(0x22, at);
        continue;
      }
      const lf = chunk.indexOf(0x0a, at);
      if (lf < 0 && nextQuote < 0) break;
      if (lf >= 0 && (nextQuote < 0 || lf < nextQuote)) {
        ends.push(lf);
        at = lf + 1;
      } else {
        quoted = true;
        at = nextQuote + 1;
        nextQuote = chunk.indexOf(0x22, at);
      }
    }
    if (ends.length === 0) {
      yield chunk;
      continue;
    }
    const out = Buffer.allocUnsafe(chunk.length + ends.length);
    let from = 0;
    let to = 0;
    for (const at of ends) {
      to += chunk.copy(out, to, from, at);
      out[to++] = 0x0d;
      out[to++] = 0x0a;
      from = at + 1;
    }
    chunk.copy(out, to, from);
    yield out;
  }
}
