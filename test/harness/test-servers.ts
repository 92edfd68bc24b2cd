import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TEMPLATE_DATABASE = 'accounting_template';
export const TEST_BUCKET = 'accounting-test';

export interface TestServers {
  root: string;
  postgresServerUrl: string;
  s3Endpoint: string;
  s3AccessKeyId: string;
  s3SecretAccessKey: string;
  /** TEST_DATABASE_URL's server (harness/external-database.ts): the databases to clone on each node. */
  external?: import('./external-database').ExternalCluster;
}

// The global setup runs in Jest's parent process; test files read the servers from this file.
const SERVERS_FILE = join(tmpdir(), `accounting-test-servers-${process.ppid}-${process.pid}.json`);
const POINTER_ENV = 'ACCOUNTING_TEST_SERVERS_FILE';

export function writeTestServers(servers: TestServers): void {
  writeFileSync(SERVERS_FILE, JSON.stringify(servers));
  process.env[POINTER_ENV] = SERVERS_FILE;
}

export function readTestServers(): TestServers {
  const file = process.env[POINTER_ENV];
  if (!file || !existsSync(file)) {
    throw new Error('The test servers are not running: run the tests through `npm test` (jest global setup).');
  }
  return JSON.parse(readFileSync(file, 'utf8')) as TestServers;
}

export function clearTestServers(): void {
  rmSync(SERVERS_FILE, { force: true });
}
