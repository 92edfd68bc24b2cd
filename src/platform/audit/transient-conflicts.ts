import { isTransientConflict } from '../database/pg-errors';

const ATTEMPTS = 3;

/**
 * Runs a mutation's transaction again when PostgreSQL gave it up for a deadlock or a
 * serialization failure (nothing of it was committed); the mutation is invoked afresh.
 */
export async function retryTransientConflicts<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= ATTEMPTS || !isTransientConflict(error)) throw error;
    }
  }
}
