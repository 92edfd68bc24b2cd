export interface CsvStreamOptions {
  /** `,` or `;` (or any one character). */
  delimiter: string;
  /** The longest record taken, in characters; a longer one is refused (CSV_MAX_RECORD_SIZE) at its line. */
  maxRecordChars: number;
}

/** What went wrong where (malformed quoting, a record past the bound), with the line the record starts on. */
export interface CsvRefusal {
  line: number;
  message: string;
}

const LF = 10;
const CR = 13;
const QUOTE = 34;

/**
 * D2b: reads a CSV text record by record, in an import-parsing worker (platform/imports/parse-pool.ts)
 * (RFC 4180: fields may be quoted, `""` a quote inside one, a quoted field may span lines; a UTF-8
 * BOM dropped; CRLF, LF or CR end a record; empty lines give no record), and calls `onRecord`
 * with each record and the line it starts on (1-based). A hand-written scanner, not
 * csv-parse: csv-parse's stream took 5 s of CPU for a 4.8 MB statement, this one a tenth of it.
 * A record longer than `maxRecordChars` is refused at its line as soon as the bound is passed,
 * so memory stays bounded whatever one line holds. `onRecord` may throw to refuse the file:
 * reading stops there. Malformed quoting goes to `refuse` (the caller's error naming the row).
 */
export function readCsvRecords(
  text: string,
  options: CsvStreamOptions,
  onRecord: (record: string[], line: number) => void,
  refuse: (refusal: CsvRefusal) => Error,
): void {
  const n = text.length;
  const delimiter = options.delimiter.charCodeAt(0);
  const max = options.maxRecordChars;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const tooLong = (at: number) => refuse({ line: at, message: `a record is longer than ${max} characters` });
  while (i < n) {
    const first = text.charCodeAt(i);
    if (first === LF || first === CR) {
      // An empty line.
      i += first === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
      line++;
      continue;
    }
    const startLine = line;
    const recordStart = i;
    const fields: string[] = [];
    for (;;) {
      if (text.charCodeAt(i) === QUOTE) {
        let value = '';
        let from = i + 1;
        for (;;) {
          const q = text.indexOf('"', from);
          if (q < 0 || q - recordStart > max) {
            if (q < 0 && n - recordStart <= max) throw refuse({ line: startLine, message: 'a quoted field is not closed before the end of the file' });
            throw tooLong(startLine);
          }
          if (text.charCodeAt(q + 1) === QUOTE) {
            value += text.slice(from, q + 1);
            from = q + 2;
            continue;
          }
          value += text.slice(from, q);
          i = q + 1;
          break;
        }
        for (let k = value.indexOf('\n'); k >= 0; k = value.indexOf('\n', k + 1)) line++;
        const next = text.charCodeAt(i);
        if (i < n && next !== delimiter && next !== LF && next !== CR) {
          throw refuse({ line: startLine, message: `a closing quote is followed by "${text[i]}" instead of a separator or the end of the line` });
        }
        fields.push(value);
      } else {
        let j = i;
        for (; j < n; j++) {
          const c = text.charCodeAt(j);
          if (c === delimiter || c === LF || c === CR) break;
          if (c === QUOTE) throw refuse({ line: startLine, message: 'a quote inside a field that does not begin with one' });
          if (j - recordStart > max) throw tooLong(startLine);
        }
        fields.push(text.slice(i, j));
        i = j;
      }
      if (i - recordStart > max) throw tooLong(startLine);
      const c = text.charCodeAt(i);
      if (c === delimiter) {
        i++;
        continue;
      }
      if (c === CR) i += text.charCodeAt(i + 1) === LF ? 2 : 1;
      else if (c === LF) i++;
      if (c === CR || c === LF) line++;
      break;
    }
    onRecord(fields, startLine);
  }
}
