import type { DataSource } from 'typeorm';

/** Any constant: every instance of the service takes the same advisory lock to migrate. */
const MIGRATION_LOCK_KEY = 7_301_945_012;

/**
 * Runs pending migrations under a session advisory lock, so several instances starting at once
 * migrate one after the other; each migration in its own transaction.
 */
export async function runMigrationsExclusively(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}
