// `npm run migration:run`: applies pending migrations to DATABASE_URL, or to the embedded
// server under DATA_DIR when DATABASE_URL is unset (what `npm start` also does at start-up).
import 'reflect-metadata';
import { join, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '../src/platform/config/app-config';
import { appDataSourceOptions as dataSourceOptions } from '../src/schema';
import { runMigrationsExclusively } from '../src/platform/database/migrate';
import { ensureDatabase, startEmbeddedPostgres } from '../src/platform/embedded/embedded-postgres';
import { readFileSync } from 'node:fs';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  let url = config.databaseUrl;
  let stop: () => Promise<void> = async () => undefined;
  if (!url) {
    const dataDir = resolve(config.dataDir);
    const secrets = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as { postgresPassword: string };
    const server = await startEmbeddedPostgres({ directory: join(dataDir, 'postgres'), password: secrets.postgresPassword, persistent: true });
    await ensureDatabase(server.urlFor('postgres'), 'accounting');
    url = server.urlFor('accounting');
    stop = async () => server.stop();
  }
  const dataSource = await new DataSource(dataSourceOptions(url, 2)).initialize();
  try {
    const applied = await runMigrationsExclusively(dataSource);
    process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'No pending migration.\n');
  } finally {
    await dataSource.destroy();
    await stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
