import { hash } from 'node:crypto';
import { isIsoDate, MAX_AMOUNT, textProblem, validationError } from '../../../../libs/shared-kernel/src';
import { bankImportRowInvalid } from './banking-errors';
import type { MovementSide } from './bank-movement';

/**
 * D78: a statement is a CSV with the header `date,description,amount,reference` (reference
 * optional), dates `YYYY-MM-DD`, `DD-MM-YYYY` or `DD/MM/YYYY`, signed integer amounts in minor
 * units with `.` as an optional thousand separator. `row` numbers count the file's records as a
 * spreadsheet shows them: the header is row 1, the first movement row 2.
 */
export interface StatementRow {
  row: number;
  movementDate: string;
  description: string;
  amount: number;
  side: MovementSide;
  reference: string | null;
  /** Identifies the row's content (with its occurrence among identical rows of the file): a re-import lands nothing. */
  contentHash: string;
}

export const DESCRIPTION_MAX = 500;
export const REFERENCE_MAX = 200;

const REQUIRED_HEADER = ['date', 'description', 'amount'];

/** `YYYY-MM-DD`, `DD-MM-YYYY` or `DD/MM/YYYY` to an ISO date, or null. */
export function statementDate(text: string): string | null {
  const value = text.trim();
  let iso: string | null = null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) iso = value;
  else {
    const match = /^(\d{2})([-/])(\d{2})\2(\d{4})$/.exec(value);
    if (match) iso = `${match[4]}-${match[3]}-${match[1]}`;
  }
  return iso !== null && isIsoDate(iso) ? iso : null;
}

/** A signed integer of minor units, optionally grouped by `.` in thousands (`-1.234.567`), or null. */
export function statementAmount(text: string): number | null {
  const value = text.trim();
  const match = /^([+-]?)(\d+|\d{1,3}(?:\.\d{3})+)$/.exec(value);
  if (!match) return null;
  const digits = match[2].replace(/\./g, '');
  const magnitude = Number(digits);
  if (!Number.isSafeInteger(magnitude) || magnitude > MAX_AMOUNT) return null;
  return match[1] === '-' ? -magnitude : magnitude;
}

function headerOf(record: string[]): 'with_reference' | 'without_reference' | null {
  const names = record.map((name) => name.trim().toLowerCase());
  if (names.length === 3 && REQUIRED_HEADER.every((name, i) => names[i] === name)) return 'without_reference';
  if (names.length === 4 && REQUIRED_HEADER.every((name, i) => names[i] === name) && names[3] === 'reference') return 'with_reference';
  return null;
}

function visibleText(value: string, field: string, max: number, row: number, required: boolean): string | null {
  const text = value.normalize('NFC').trim();
  if (text === '') {
    if (required) throw bankImportRowInvalid(row, `${field} is empty`);
    return null;
  }
  if (text.length > max) throw bankImportRowInvalid(row, `${field} is longer than ${max} characters`);
  const problem = textProblem(text) ?? (/[\p{Cc}\p{Cf}]/u.test(text) ? 'must not contain control characters' : null);
  if (problem) throw bankImportRowInvalid(row, `${field} ${problem}`);
  return text;
}

const blank = (record: string[]) => record.every((field) => field.trim() === '');

/**
 * The statement's movement rows, read record by record (D2b: as the file streams), judged whole:
 * the first bad record refuses the file (nothing lands). `add` takes each record with its row,
 * the line of the file it starts on, so a refusal names the line a spreadsheet shows; the header
 * is the first record that is not blank.
 */
export class StatementReading {
  private header: 'with_reference' | 'without_reference' | undefined;
  private readonly occurrences = new Map<string, number>();
  private readonly rows: StatementRow[] = [];

  add(record: string[], row: number): void {
    if (blank(record)) return; // a blank line
    if (this.header === undefined) {
      const header = headerOf(record);
      if (!header) throw bankImportRowInvalid(row, 'the header must be date,description,amount or date,description,amount,reference');
      this.header = header;
      return;
    }
    const columns = this.header === 'with_reference' ? 4 : 3;
    // The reference is optional: under the four-column header a row may leave it off.
    if (record.length !== columns && !(columns === 4 && record.length === 3)) {
      throw bankImportRowInvalid(row, `expected ${columns === 4 ? '3 or 4' : '3'} fields, found ${record.length}`);
    }
    const movementDate = statementDate(record[0]);
    if (!movementDate) throw bankImportRowInvalid(row, 'date must be YYYY-MM-DD, DD-MM-YYYY or DD/MM/YYYY and exist');
    const description = visibleText(record[1], 'description', DESCRIPTION_MAX, row, true)!;
    const signed = statementAmount(record[2]);
    if (signed === null) throw bankImportRowInvalid(row, 'amount must be a signed integer of minor units (thousand separator .)');
    if (signed === 0) throw bankImportRowInvalid(row, 'amount must not be zero');
    const reference = record.length === 4 ? visibleText(record[3], 'reference', REFERENCE_MAX, row, false) : null;
    const content = [movementDate, description, String(signed), reference ?? ''].join('\u0000');
    const occurrence = (this.occurrences.get(content) ?? 0) + 1;
    this.occurrences.set(content, occurrence);
    this.rows.push({
      row,
      movementDate,
      description,
      amount: Math.abs(signed),
      side: signed > 0 ? 'debit' : 'credit',
      reference,
      contentHash: hash('sha256', `${content}\u0000${occurrence}`, 'hex'),
    });
  }

  /** The movement rows; a file with no header (blank, or nothing) is refused. */
  finish(): StatementRow[] {
    if (this.header === undefined) throw validationError('file', 'is empty: a statement starts with the header date,description,amount,reference');
    return this.rows;
  }
}

/** The whole statement at once: `records[i]` is the record on line i + 1 of the file (lines without one are empty). */
export function readStatement(records: string[][]): StatementRow[] {
  const reading = new StatementReading();
  records.forEach((record, i) => reading.add(record, i + 1));
  return reading.finish();
}
