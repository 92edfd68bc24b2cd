import { MigrationExecutor, type DataSource } from 'typeorm';
import { isDistributedSchema } from './citus';

/** Any constant: every instance of the service takes the same advisory lock to migrate. */
const MIGRATION_LOCK_KEY = 7_301_945_012;

/**
 * Runs pending migrations under a session advisory lock, so several instances starting at once
 * migrate one after the other; each migration in its own transaction. On a distributed schema
 * (Citus, D94) they run on that one connection in Citus's sequential mode, which DDL on reference
 * tables in a transaction needs (docs/CITUS.md says what else a migration does there).
 */
export async function runMigrationsExclusively(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const distributed = await isDistributedSchema(runner);
    if (distributed) await runner.query(`SET citus.multi_shard_modify_mode TO 'sequential'`);
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    try {
      const applied = await executor.executePendingMigrations();
      return applied.map((migration) => migration.name);
    } finally {
      if (distributed) await runner.query('RESET citus.multi_shard_modify_mode').catch(() => undefined);
    }
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}
