import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';

/**
 * An item of an entry file: an entry in the body shape of `POST .../ledger/entries` with the file
 * lines it came from (`lines[j]` is the line of its j-th ledger line, CSV; JSON Lines: all one
 * line), or a line that is no entry at all.
 */
export type EntryFileItem = { raw: unknown; line: number; lineOfLines: number[] } | { error: string; line: number };

/** Longest line (JSON Lines) or record (CSV) read, as the API's body limit (D2). */
const MAX_RECORD_BYTES = 1_000_000;

/** The CSV columns: the entry's (taken from its first row) and the line's (one row each). */
const CSV_ENTRY_COLUMNS = ['entryId', 'entryDate', 'memo', 'notes', 'bookId'] as const;
const CSV_LINE_COLUMNS = [
  'lineId',
  'side',
  'ledgerAccountId',
  'amount',
  'description',
  'partnerId',
  'dimensionValueIds',
  'transactionCurrency',
  'transactionAmount',
  'exchangeRate',
] as const;
const CSV_REQUIRED = ['entryId', 'entryDate', 'memo', 'side', 'ledgerAccountId', 'amount'];
const CSV_COLUMNS = new Set<string>([...CSV_ENTRY_COLUMNS, ...CSV_LINE_COLUMNS]);

/** Reads `path` as JSON Lines (`.jsonl`, `.ndjson`, `.json`) or CSV (`.csv`), or as `format` says. */
export function readEntryFile(path: string, format?: string): AsyncGenerator<EntryFileItem> {
  const kind = format ?? (/\.csv$/i.test(path) ? 'csv' : /\.(jsonl|ndjson|json)$/i.test(path) ? 'jsonl' : undefined);
  if (kind === 'csv') return readCsv(path);
  if (kind === 'jsonl') return readJsonLines(path);
  throw new Error(`${path}: name a .jsonl or .csv file, or give --format jsonl|csv`);
}

async function* readJsonLines(path: string): AsyncGenerator<EntryFileItem> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line++;
    if (text.trim() === '') continue;
    if (text.length > MAX_RECORD_BYTES) {
      yield { error: `is longer than ${MAX_RECORD_BYTES} characters`, line };
      continue;
    }
    try {
      yield { raw: JSON.parse(text), line, lineOfLines: [] };
    } catch {
      yield { error: 'is not valid JSON', line };
    }
  }
}

const number = (cell: string) => (/^-?\d+$/.test(cell) ? Number(cell) : cell);

/** CSV with a header row; rows of one entry are consecutive, grouped by entryId. Empty cells are absent values. */
async function* readCsv(path: string): AsyncGenerator<EntryFileItem> {
  const parser = createReadStream(path).pipe(
    parse({ bom: true, columns: true, info: true, skip_empty_lines: true, max_record_size: MAX_RECORD_BYTES, trim: false }),
  );
  type Entry = { raw: Record<string, unknown> & { newLedgerEntryLines: Array<Record<string, unknown>> }; line: number; lineOfLines: number[] };
  let current: Entry | null = null;
  const done = new Set<string>();
  let checkedHeader = false;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      const line = info.lines;
      if (!checkedHeader) {
        checkedHeader = true;
        const names = Object.keys(record);
        const unknown = names.filter((n) => !CSV_COLUMNS.has(n));
        const missing = CSV_REQUIRED.filter((n) => !names.includes(n));
        if (unknown.length > 0 || missing.length > 0) {
          yield { error: `header: ${[...unknown.map((n) => `unknown column ${n}`), ...missing.map((n) => `missing column ${n}`)].join(', ')}`, line: 1 };
          return;
        }
      }
      const cell = (name: string) => record[name] ?? '';
      const entryId = cell('entryId');
      if (!current || current.raw.id !== entryId) {
        if (current) yield current;
        current = null;
        if (done.has(entryId)) {
          yield { error: `entryId ${entryId}: the rows of an entry are consecutive; this entry began on an earlier row`, line };
          continue;
        }
        done.add(entryId);
        const raw: Entry['raw'] = { id: entryId, entryDate: cell('entryDate'), memo: cell('memo'), newLedgerEntryLines: [] };
        if (cell('notes') !== '') raw.notes = cell('notes');
        if (cell('bookId') !== '') raw.bookId = cell('bookId');
        current = { raw, line, lineOfLines: [] };
      } else {
        const differing = CSV_ENTRY_COLUMNS.filter((name) => name !== 'entryId' && cell(name) !== '' && cell(name) !== csvEntryCell(current!.raw, name));
        if (differing.length > 0) {
          yield { error: `${differing.join(', ')} differ from the first row of entry ${entryId} (leave them empty, or repeat them)`, line };
          continue;
        }
      }
      const newLine: Record<string, unknown> = { side: cell('side'), ledgerAccountId: cell('ledgerAccountId'), amount: number(cell('amount')) };
      if (cell('lineId') !== '') newLine.id = cell('lineId');
      if (cell('description') !== '') newLine.description = cell('description');
      if (cell('partnerId') !== '') newLine.partnerId = cell('partnerId');
      if (cell('dimensionValueIds') !== '') newLine.dimensionValueIds = cell('dimensionValueIds').split(/[\s;|]+/).filter((id) => id !== '');
      if (cell('transactionCurrency') !== '') newLine.transactionCurrency = cell('transactionCurrency');
      if (cell('transactionAmount') !== '') newLine.transactionAmount = number(cell('transactionAmount'));
      if (cell('exchangeRate') !== '') newLine.exchangeRate = cell('exchangeRate');
      current.raw.newLedgerEntryLines.push(newLine);
      current.lineOfLines.push(line);
    }
  } catch (error) {
    // csv-parse names the line of a malformed record (unclosed quote, wrong column count...).
    const line = (error as { lines?: number }).lines ?? 0;
    yield { error: `is not CSV as read: ${(error as Error).message}`, line };
    return;
  }
  if (current) yield current;
}

function csvEntryCell(raw: Record<string, unknown>, name: string): string {
  const key = name === 'entryId' ? 'id' : name;
  return typeof raw[key] === 'string' ? (raw[key] as string) : '';
}
