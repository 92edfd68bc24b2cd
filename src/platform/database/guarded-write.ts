import { Propagation, TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { isUniqueViolation } from './pg-errors';

/**
 * Runs a write in a savepoint and answers false when the named unique constraint refuses it, so
 * that a key taken by a concurrent writer becomes a domain conflict and the surrounding
 * transaction stays usable. Any other error propagates.
 */
export async function writeUnlessTaken(
  txHost: TransactionHost<TransactionalAdapterTypeOrm>,
  constraint: string,
  write: () => Promise<unknown>,
): Promise<boolean> {
  try {
    await txHost.withTransaction(Propagation.Nested, write);
    return true;
  } catch (error) {
    if (isUniqueViolation(error, constraint)) return false;
    throw error;
  }
}
