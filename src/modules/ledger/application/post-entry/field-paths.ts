import { DomainError } from '../../../../../libs/shared-kernel/src';

/**
 * Maps a field of the ledger's posting (`lines`, `lines[1].amount`, `entryDate`...) to the
 * caller's own body: the ledger's route names `newLedgerEntryLines[1].amount`, an invoice booking
 * its own field. Refusals then name what the caller sent.
 */
export type FieldPath = (path: string) => string;

const PATH_AT_START = /^(lines(\[\d+\])?(\.\w+)?|entryDate|memo|notes|bookId|id)(?=\s|$)/;

/** The error with its paths (params `path`, `errors[].path`, and the message's leading path) renamed. */
export function renameFieldPaths(error: unknown, fieldPath: FieldPath | undefined): unknown {
  if (!fieldPath || !(error instanceof DomainError)) return error;
  const params: Record<string, unknown> = { ...error.params };
  const touched = typeof params.path === 'string' || Array.isArray(params.errors);
  if (!touched) return error;
  if (typeof params.path === 'string') params.path = fieldPath(params.path);
  if (Array.isArray(params.errors)) {
    params.errors = (params.errors as Array<{ path: string; message: string }>).map((e) => ({ ...e, path: fieldPath(e.path) }));
  }
  const message = error.message.replace(PATH_AT_START, (path) => fieldPath(path));
  return new DomainError(error.code, message, params as DomainError['params'], error.status);
}

/** The ledger route's names: `lines` is its `newLedgerEntryLines`. */
export const ledgerRouteFieldPath: FieldPath = (path) => path.replace(/^lines/, 'newLedgerEntryLines');
