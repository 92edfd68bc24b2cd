import { isIsoDate } from './dates';
import { isUuid } from './ids';

/**
 * The opaque cursor of a keyset page ordered by (date, id): base64url of `date|id`. Decoding
 * answers null for anything encodeDateIdCursor could not have written, so that a forged cursor
 * is a 400, never a bad date or uuid in a query (a 500).
 */
export function encodeDateIdCursor(key: { date: string; id: string }): string {
  return Buffer.from(`${key.date}|${key.id}`, 'utf8').toString('base64url');
}

export function decodeDateIdCursor(cursor: string): { date: string; id: string } | null {
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (parts.length !== 2 || !isIsoDate(parts[0]) || !isUuid(parts[1])) return null;
  return { date: parts[0], id: parts[1].toLowerCase() };
}
