import { DomainError, isUuid } from '../../../../libs/shared-kernel/src';

/**
 * The opaque keyset cursor of the ledger's pages ordered by (date, id): the entries list (D37)
 * and open-item lines (D38). A cursor that is not one this service made, down to a date that
 * does not exist or an id that is no UUID, is 400 VALIDATION_ERROR on `cursor`, never a query
 * error.
 */
export function dateIdCursor(date: string, id: string): string {
  return Buffer.from(`${date}|${id}`, 'utf8').toString('base64url');
}

export function readDateIdCursor(cursor: string): { entryDate: string; id: string } {
  const [entryDate, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !isCalendarDate(entryDate) || !isUuid(id)) {
    throw new DomainError('VALIDATION_ERROR', 'cursor is not a cursor of this list', { errors: [{ path: 'cursor', message: 'is not a cursor of this list' }] });
  }
  return { entryDate, id };
}

function isCalendarDate(value: string | undefined): value is string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value ?? '');
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}
