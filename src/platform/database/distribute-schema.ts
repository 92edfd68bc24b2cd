import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options';
import type { DatabaseSchema } from './data-source-options';
import { distributeOnCitus, DistributionReport, refuseUnlessCoordinator } from './citus';
import { runMigrationsExclusively } from './migrate';

/** What `db:distribute` prints: each change, or that the schema was already distributed. */
export function describeDistribution(report: DistributionReport): string {
  const summary = `${report.distributedTables.length} Entity tables distributed by entity_id, ${report.referenceTables.length} reference tables, ${report.coordinatorTables.length} tables on the coordinator`;
  return report.changes.length === 0 ? `Already distributed: ${summary}.` : `${report.changes.join('\n')}\nDistributed: ${summary}.`;
}

/**
 * `npm run cli -- db:distribute`: applies pending migrations, then distributes the schema on the
 * Citus coordinator at `databaseUrl` (platform/database/citus.ts). Refused, before any migration,
 * without Citus or on a worker.
 */
export async function distributeSchema(databaseUrl: string, migrations: DatabaseSchema['migrations']): Promise<string> {
  const dataSource = await new DataSource(dataSourceOptions(databaseUrl, { records: [], migrations }, 2)).initialize();
  try {
    // Refused before the migrations: on plain PostgreSQL or a worker nothing is changed.
    await refuseUnlessCoordinator(dataSource.manager);
    await runMigrationsExclusively(dataSource);
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      return describeDistribution(await distributeOnCitus(runner));
    } finally {
      await runner.release();
    }
  } finally {
    await dataSource.destroy();
  }
}
