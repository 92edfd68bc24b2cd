import { decodeDateIdCursor, validationError } from '../../../../libs/shared-kernel/src';

/**
 * The (date, id) cursor of the ledger's pages (entries list D37, open-item lines D38), written by
 * encodeDateIdCursor. One this service could not have made, down to a date that does not exist or
 * an id that is no UUID, is 400 VALIDATION_ERROR on `cursor`, never a query error.
 */
export function readDateIdCursor(cursor: string): { entryDate: string; id: string } {
  const key = decodeDateIdCursor(cursor);
  if (!key) throw validationError('cursor', 'is not a cursor of this list');
  return { entryDate: key.date, id: key.id };
}
