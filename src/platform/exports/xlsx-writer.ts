import { exponentOf, majorUnits, neutralised, rowBatches, type TableColumn, type TableExport } from './table';
import { ZipWriter } from './zip-writer';

/** Excel's rows per worksheet; the header takes one. Longer tables continue on a next sheet. */
export const SHEET_ROWS = 1_048_576;

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

// cellXfs of styles.xml, by index.
const STYLE_DATE = 1;
const STYLE_TIMESTAMP = 2;
const STYLE_HEADER = 3;
/** Amount styles: 4 + the exponent (0 to 4), `#,##0` to `#,##0.0000`. */
const STYLE_AMOUNT = 4;

const STYLES = `${XML}<styleSheet xmlns="${MAIN}"><numFmts count="5"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/><numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm:ss"/><numFmt numFmtId="166" formatCode="#,##0.0"/><numFmt numFmtId="167" formatCode="#,##0.000"/><numFmt numFmtId="168" formatCode="#,##0.0000"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="9"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="3" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="166" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="167" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="168" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

const WIDTHS: Record<TableColumn<unknown>['type'], number> = { text: 24, id: 38, amount: 16, integer: 10, date: 12, timestamp: 20, boolean: 8 };

// Characters XML 1.0 cannot hold (the C0 controls but tab, LF, CR; U+FFFE, U+FFFF; lone surrogates).
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Anything escapeXml changes: a quick test, so that most texts (ids, codes, names) are written as they are. */
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[&<>"\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

function escapeXml(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  // A CR as a character reference: a raw one would be read back as LF (XML's line-end normalisation).
  return text.replace(NOT_XML, '').replace(/[&<>"\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#13;'));
}

/** Whether XML would drop the text's leading or trailing white space (then `xml:space="preserve"`). */
function edgeSpace(text: string): boolean {
  if (text.length === 0) return false;
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  // Printable ASCII but the space: no white space; anything else is asked of \s.
  if (first > 0x20 && first < 0x7f && last > 0x20 && last < 0x7f) return false;
  return /^\s|\s$/.test(text);
}

/** The column letters of the first `n` columns: A..Z, AA.. */
function columnLetters(n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    let name = '';
    for (let k = i + 1; k > 0; k = Math.floor((k - 1) / 26)) name = String.fromCharCode(65 + ((k - 1) % 26)) + name;
    return name;
  });
}

const DAY_MS = 86_400_000;
/** 1899-12-30, Excel's day 0 in the 1900 date system (its phantom 1900-02-29 lies before 1900-03-01). */
const EPOCH_MS = Date.UTC(1899, 11, 30);
const FIRST_EXACT_MS = Date.UTC(1900, 2, 1);

/** An ISO date as Excel's serial day number (whole days: exact), or null before 1900-03-01. */
export function dateSerial(iso: string): number | null {
  const ms = Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10)));
  if (!Number.isFinite(ms) || ms < FIRST_EXACT_MS) return null;
  return (ms - EPOCH_MS) / DAY_MS;
}

function textCell(ref: string, text: string, style = 0): string {
  const escaped = escapeXml(text);
  const space = edgeSpace(escaped) ? ' xml:space="preserve"' : '';
  return `<c r="${ref}"${style ? ` s="${style}"` : ''} t="inlineStr"><is><t${space}>${escaped}</t></is></c>`;
}

/** One column's cell of a row, given the row's number as text: the cell's XML, or '' for no value. */
type CellWriter<R> = (row: R, r: string) => string;

/**
 * The writer of one column's cells, its constant parts worked out once: a million rows call it
 * fourteen million times, so each cell costs a value, a test or two and one string.
 */
function cellWriter<R>(column: TableColumn<R>, letter: string): CellWriter<R> {
  const { value: valueOf } = column;
  const at = `<c r="${letter}`;
  switch (column.type) {
    case 'amount': {
      const fixed = typeof column.exponent === 'function' ? null : (column.exponent ?? 0);
      const open = fixed === null ? null : `" s="${fixed >= 0 && fixed <= 4 ? STYLE_AMOUNT + fixed : 0}"><v>`;
      return (row, r) => {
        const value = valueOf(row);
        if (value === null || value === undefined) return '';
        const exponent = fixed ?? exponentOf(column, row);
        // The decimal text in major units, exact; the reader holds it as a number.
        const text = majorUnits(value as number | bigint | string, exponent);
        return `${at}${r}${open ?? `" s="${exponent >= 0 && exponent <= 4 ? STYLE_AMOUNT + exponent : 0}"><v>`}${text}</v></c>`;
      };
    }
    case 'integer':
      return (row, r) => {
        const value = valueOf(row);
        if (value === null || value === undefined) return '';
        return `${at}${r}"><v>${typeof value === 'bigint' ? value.toString() : String(value)}</v></c>`;
      };
    case 'boolean':
      return (row, r) => {
        const value = valueOf(row);
        if (value === null || value === undefined) return '';
        return `${at}${r}" t="b"><v>${value ? 1 : 0}</v></c>`;
      };
    case 'date': {
      // Rows come in date order: the last date's serial is kept.
      let lastIso = '';
      let lastSerial: number | null = null;
      return (row, r) => {
        const value = valueOf(row);
        if (value === null || value === undefined) return '';
        const iso = String(value);
        if (iso !== lastIso) {
          lastIso = iso;
          lastSerial = dateSerial(iso);
        }
        return lastSerial === null ? textCell(`${letter}${r}`, iso) : `${at}${r}" s="${STYLE_DATE}"><v>${lastSerial}</v></c>`;
      };
    }
    case 'timestamp':
      return (row, r) => {
        const value = valueOf(row);
        if (value === null || value === undefined) return '';
        const ms = Date.parse(String(value));
        if (!Number.isFinite(ms) || ms < FIRST_EXACT_MS) return textCell(`${letter}${r}`, String(value));
        return `${at}${r}" s="${STYLE_TIMESTAMP}"><v>${(ms - EPOCH_MS) / DAY_MS}</v></c>`;
      };
    default:
      return (row, r) => {
        const value = valueOf(row);
        if (value === null || value === undefined) return '';
        const text = String(value);
        // An empty text is an empty cell, as in the CSV.
        if (text === '') return '';
        const escaped = escapeXml(neutralised(text));
        return `${at}${r}" t="inlineStr"><is><t${edgeSpace(escaped) ? ' xml:space="preserve"' : ''}>${escaped}</t></is></c>`;
      };
  }
}

/** A worksheet name Excel accepts: no `[]:*?/\`, at most 31 characters. */
function sheetName(name: string, index: number): string {
  const clean = name.replace(/[[\]:*?/\\]/g, ' ').trim() || 'Sheet';
  const suffix = index === 0 ? '' : ` (${index + 1})`;
  return clean.slice(0, 31 - suffix.length) + suffix;
}

/**
 * D93's XLSX, as the bytes of a ZIP archive, streamed: one worksheet (continued on further sheets
 * past Excel's 1,048,576 rows), a bold, frozen header row, amounts as numeric cells in major units
 * with their currency's decimals (`#,##0.00` for exponent 2), dates as date cells, text as inline
 * strings neutralised against formula injection like the CSV's. The workbook's small parts come
 * after the sheets (a ZIP's order is free), so the sheets' count need not be known beforehand.
 */
export async function* xlsxPieces<R>(table: Pick<TableExport<R>, 'columns' | 'rows' | 'sheetName'>, sheetRows = SHEET_ROWS): AsyncGenerator<Buffer> {
  const { columns } = table;
  const letters = columnLetters(columns.length);
  const cells = columns.map((c, i) => cellWriter(c, letters[i]));
  const zip = new ZipWriter();
  const head =
    `${XML}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>` +
    `<cols>${columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${WIDTHS[c.type]}" customWidth="1"/>`).join('')}</cols><sheetData>` +
    `<row r="1">${columns.map((c, i) => textCell(`${letters[i]}1`, c.header, STYLE_HEADER)).join('')}</row>`;
  const batches = rowBatches(table.rows)[Symbol.asyncIterator]();
  let pending: R[] = [];
  let exhausted = false;
  let sheets = 0;
  try {
    // One sheet's XML, pulling rows until it is full or the rows end.
    const sheet = async function* (): AsyncGenerator<string> {
      yield head;
      let r = 1;
      for (;;) {
        if (pending.length === 0) {
          const next = await batches.next();
          if (next.done) {
            exhausted = true;
            break;
          }
          pending = next.value;
        }
        const room = sheetRows - r;
        const take = pending.length <= room ? pending : pending.slice(0, room);
        pending = take === pending ? [] : pending.slice(room);
        let xml = '';
        for (const row of take) {
          const n = String(++r);
          let line = `<row r="${n}">`;
          for (let i = 0; i < cells.length; i++) line += cells[i](row, n);
          xml += `${line}</row>`;
        }
        yield xml;
        if (r >= sheetRows) break;
      }
      yield '</sheetData></worksheet>';
    };
    do {
      sheets++;
      yield* zip.entry(`xl/worksheets/sheet${sheets}.xml`, sheet());
      // A sheet that ended full with nothing left: peek, so no empty sheet follows.
      if (!exhausted && pending.length === 0) {
        const next = await batches.next();
        if (next.done) exhausted = true;
        else pending = next.value;
      }
    } while (!exhausted || pending.length > 0);
  } finally {
    await batches.return?.(undefined);
  }
  const numbers = Array.from({ length: sheets }, (_, i) => i + 1);
  yield* zip.entry('xl/styles.xml', [STYLES]);
  yield* zip.entry('xl/workbook.xml', [
    `${XML}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>${numbers.map((n) => `<sheet name="${escapeXml(sheetName(table.sheetName, n - 1))}" sheetId="${n}" r:id="rId${n}"/>`).join('')}</sheets></workbook>`,
  ]);
  yield* zip.entry('xl/_rels/workbook.xml.rels', [
    `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${numbers
      .map((n) => `<Relationship Id="rId${n}" Type="${REL}/worksheet" Target="worksheets/sheet${n}.xml"/>`)
      .join('')}<Relationship Id="rId${sheets + 1}" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
  ]);
  yield* zip.entry('_rels/.rels', [
    `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  ]);
  yield* zip.entry('[Content_Types].xml', [
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>` +
      numbers.map((n) => `<Override PartName="/xl/worksheets/sheet${n}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('') +
      '</Types>',
  ]);
  yield zip.finish();
}
