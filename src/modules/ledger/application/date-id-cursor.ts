import { decodeDateIdCursor, DomainError, encodeDateIdCursor } from '../../../../libs/shared-kernel/src';

/**
 * The opaque keyset cursor of the ledger's pages ordered by (date, id): the entries list (D37)
 * and open-item lines (D38). A cursor that is not one this service made, down to a date that
 * does not exist or an id that is no UUID, is 400 VALIDATION_ERROR on `cursor`, never a query
 * error.
 */
export function dateIdCursor(date: string, id: string): string {
  return encodeDateIdCursor({ date, id });
}

export function readDateIdCursor(cursor: string): { entryDate: string; id: string } {
  const key = decodeDateIdCursor(cursor);
  if (!key) throw new DomainError('VALIDATION_ERROR', 'cursor is not a cursor of this list', { errors: [{ path: 'cursor', message: 'is not a cursor of this list' }] });
  return { entryDate: key.date, id: key.id };
}
