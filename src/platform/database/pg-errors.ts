import { QueryFailedError } from 'typeorm';

interface PgDriverError {
  code?: string;
  constraint?: string;
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

/** A foreign key (optionally a named one) refused the write. */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  const pg = driverError(error);
  return pg?.code === '23503' && (constraint === undefined || pg.constraint === constraint);
}
