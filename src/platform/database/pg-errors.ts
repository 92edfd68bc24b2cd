import { QueryFailedError } from 'typeorm';

interface PgDriverError {
  code?: string;
  constraint?: string;
  table?: string;
  detail?: string;
}

function driverError(error: unknown): PgDriverError | null {
  if (error instanceof QueryFailedError) return error.driverError as PgDriverError;
  if (typeof error === 'object' && error !== null && 'code' in error) return error as PgDriverError;
  return null;
}

/** A unique constraint (optionally a named one) refused the write. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pg = driverError(error);
  return pg?.code === '23505' && (constraint === undefined || pg.constraint === constraint);
}

/**
 * The key values of a unique-key refusal on `table` (PostgreSQL's detail
 * `Key (a, b)=(x, y) already exists.`), by column name; null for any other error.
 */
export function uniqueViolationKey(error: unknown, table: string): Record<string, string> | null {
  const pg = driverError(error);
  if (pg?.code !== '23505' || pg.table !== table) return null;
  const match = /^Key \((.+)\)=\((.+)\) already exists\.?$/.exec(pg.detail ?? '');
  if (!match) return {};
  const columns = match[1].split(', ');
  const values = match[2].split(', ');
  if (columns.length !== values.length) return {};
  return Object.fromEntries(columns.map((column, i) => [column, values[i]]));
}

/** A figure left the range of its column (bigint totals summed past 2^63 - 1). */
export function isNumericOutOfRange(error: unknown): boolean {
  return driverError(error)?.code === '22003';
}

/** A foreign key (optionally a named one) refused the write. */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  const pg = driverError(error);
  return pg?.code === '23503' && (constraint === undefined || pg.constraint === constraint);
}

/**
 * Runs a write and turns a unique-key refusal into the domain conflict of that key: the checks
 * before a write answer the common case, and this answers the race they cannot see (two requests
 * with the same new id). `byConstraint` names specific keys; `otherwise` covers the rest (the
 * primary key).
 */
export async function translateUniqueViolation<T>(
  write: () => Promise<T>,
  otherwise: () => Error,
  byConstraint: Record<string, () => Error> = {},
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const constraint = driverError(error)?.constraint;
    throw (constraint && byConstraint[constraint] ? byConstraint[constraint] : otherwise)();
  }
}

/**
 * Runs a delete and turns a foreign-key refusal into the domain's "in use" conflict: the checks
 * before it answer the common case, this the rows that name the record and that they did not see.
 */
export async function translateForeignKeyViolation<T>(write: () => Promise<T>, inUse: () => Error): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw inUse();
    throw error;
  }
}

/** A deadlock or serialization failure: the transaction may succeed when run again. */
export function isTransientConflict(error: unknown): boolean {
  const code = driverError(error)?.code;
  return code === '40P01' || code === '40001';
}
