import { QueryFailedError } from 'typeorm';

interface PgDriverError {
  code?: string;
  constraint?: string;
  table?: string;
  detail?: string;
  message?: string;
}

/**
 * What the database said, read the same way on one PostgreSQL server and on a Citus cluster (D94).
 * Citus changes three things about a refused write on a distributed or reference table:
 * - the constraint and table carry the shard's id (`books_name_key_102058`, `books_102058`)
 *   when the shard was written on the server that answers;
 * - an error relayed from a worker keeps its SQLSTATE, message and detail but loses the
 *   `constraint` and `table` fields: the constraint is then read from the message;
 * - a refusal relayed from a worker's COPY (multi-row INSERT ... SELECT through intermediate
 *   results) comes as `XX000` with the worker's message: a duplicate key or foreign key message
 *   is read back as 23505 or 23503.
 */
export interface PgFailure {
  code: string | undefined;
  /** The constraint's name as the migrations gave it (shard suffix removed); undefined when unknown. */
  constraint: string | undefined;
  /** The table's name (shard suffix removed); undefined when the error did not name it. */
  table: string | undefined;
  detail: string | undefined;
}

const UNIQUE_MESSAGE = /^duplicate key value violates unique constraint "([^"]+)"/;
const FOREIGN_KEY_MESSAGE = /violates foreign key constraint "([^"]+)"(?: on table "([^"]+)")?/;

/**
 * Citus names a shard's objects `<name>_<shard id>`; shard ids start at 102008, so the suffix has
 * six digits or more. A name of the schema never ends so (TypeORM's hashes are hex).
 */
export function withoutShardSuffix(name: string): string;
export function withoutShardSuffix(name: string | undefined): string | undefined;
export function withoutShardSuffix(name: string | undefined): string | undefined {
  return name?.replace(/_\d{6,}$/, '');
}

function driverError(error: unknown): PgDriverError | null {
  if (error instanceof QueryFailedError) return error.driverError as PgDriverError;
  if (typeof error === 'object' && error !== null && 'code' in error) return error as PgDriverError;
  return null;
}

/** The failure as PostgreSQL itself would report it (see PgFailure); null for a non-database error. */
export function pgFailure(error: unknown): PgFailure | null {
  const pg = driverError(error);
  if (!pg) return null;
  const message = pg.message ?? '';
  let code = pg.code;
  let constraint = pg.constraint;
  const table = pg.table;
  const unique = UNIQUE_MESSAGE.exec(message);
  const foreignKey = unique ? null : FOREIGN_KEY_MESSAGE.exec(message);
  if (code === 'XX000' && unique) code = '23505';
  if (code === 'XX000' && foreignKey) code = '23503';
  if (code === '23505' && !constraint && unique) constraint = unique[1];
  if (code === '23503' && !constraint && foreignKey) constraint = foreignKey[1];
  return { code, constraint: withoutShardSuffix(constraint), table: withoutShardSuffix(table), detail: pg.detail };
}

/** A unique constraint (optionally a named one) refused the write. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pg = pgFailure(error);
  return pg?.code === '23505' && (constraint === undefined || pg.constraint === constraint);
}

/**
 * The key values of a unique-key refusal on `table` (PostgreSQL's detail
 * `Key (a, b)=(x, y) already exists.`), by column name; null for any other error. A Citus worker's
 * refusal names no table: then the refusal is the table's when its constraint is one of
 * `constraints` (the table's keys that the caller tells apart).
 */
export function uniqueViolationKey(error: unknown, table: string, constraints: readonly string[] = []): Record<string, string> | null {
  const pg = pgFailure(error);
  if (pg?.code !== '23505') return null;
  const ours = pg.table !== undefined ? pg.table === table : pg.constraint !== undefined && constraints.includes(pg.constraint);
  if (!ours) return null;
  const match = /^Key \((.+)\)=\((.+)\) already exists\.?$/.exec(pg.detail ?? '');
  if (!match) return {};
  const columns = match[1].split(', ');
  const values = match[2].split(', ');
  if (columns.length !== values.length) return {};
  return Object.fromEntries(columns.map((column, i) => [column, values[i]]));
}

/** A figure left the range of its column (bigint totals summed past 2^63 - 1). */
export function isNumericOutOfRange(error: unknown): boolean {
  return pgFailure(error)?.code === '22003';
}

/** A foreign key (optionally a named one) refused the write. */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  const pg = pgFailure(error);
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
    const constraint = pgFailure(error)?.constraint;
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
  const code = pgFailure(error)?.code;
  return code === '40P01' || code === '40001';
}
