import { decodeDateIdCursor, encodeDateIdCursor, validationError } from '../../../../libs/shared-kernel/src';
import type { InvoicePageKey } from '../domain/ports';

/**
 * A keyset page by (issue date, id), newest first, for invoices and DTEs: reads `limit` + 1 rows
 * after the cursor's key; the extra row only tells that a next page exists.
 */
export async function issueDatePage<T extends { issueDate: string; id: string }>(
  query: { cursor?: string; limit?: number },
  read: (after: InvoicePageKey | null, limit: number) => Promise<T[]>,
): Promise<{ rows: T[]; nextCursor: string | null }> {
  const after = query.cursor ? decodeDateIdCursor(query.cursor) : null;
  if (query.cursor && !after) throw validationError('cursor', 'is not a cursor of this list');
  const limit = query.limit ?? 50;
  const found = await read(after ? { issueDate: after.date, id: after.id } : null, limit);
  const rows = found.slice(0, limit);
  const last = rows[rows.length - 1];
  return { rows, nextCursor: found.length > limit ? encodeDateIdCursor({ date: last.issueDate, id: last.id }) : null };
}
