import 'reflect-metadata';
import { CompiledValidationPipe } from '../../src/platform/http/compiled-validation';
import { randomBytes } from 'node:crypto';
import type { Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from 'pg';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { createApp } from '../../src/app';
import { Clock } from '../../src/platform/clock/clock';
import { loadConfig, RuntimeConfig } from '../../src/platform/config/app-config';
import { readTestServers, TEMPLATE_DATABASE, TEST_BUCKET } from './test-servers';
import { cloneExternalDatabase } from './external-database';

export interface TestApp {
  app: NestExpressApplication;
  config: RuntimeConfig;
  /** supertest against the app's HTTP server. */
  http: TestAgent;
  /** A plain SQL query on this test file's own database. */
  sql<T extends Record<string, unknown> = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  databaseUrl: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment variables on top of the test defaults (validated like the real ones). */
  env?: Record<string, string>;
  extraControllers?: Type[];
  /** Extra modules: providers that plug into a port (test/harness/recording-ledger-listener.ts). */
  extraModules?: Type[];
  /** Fix "now" (D5); the default is the system clock. */
  clock?: Clock;
  /** Reuse the database of another test app instead of cloning a fresh one. */
  databaseUrl?: string;
  /** D2a's 30 s request deadline, shorter (a test of the 408 need not wait 30 s). */
  requestTimeoutMs?: number;
}

/** A fresh database cloned from the migrated template (CREATE DATABASE ... TEMPLATE). */
export async function createTestDatabase(): Promise<string> {
  const servers = readTestServers();
  if (servers.external) return cloneExternalDatabase(servers.external);
  const name = `test_${randomBytes(6).toString('hex')}`;
  const client = new Client({ connectionString: servers.postgresServerUrl });
  await client.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
        break;
      } catch (error) {
        // 55006: another worker is cloning the template at the same moment.
        if ((error as { code?: string }).code !== '55006' || attempt > 50) throw error;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  } finally {
    await client.end();
  }
  return servers.postgresServerUrl.replace(/\/postgres$/, `/${name}`);
}

export function testConfig(databaseUrl: string, env: Record<string, string> = {}): RuntimeConfig {
  const servers = readTestServers();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '5',
    S3_ENDPOINT: servers.s3Endpoint,
    S3_BUCKET: TEST_BUCKET,
    S3_ACCESS_KEY_ID: servers.s3AccessKeyId,
    S3_SECRET_ACCESS_KEY: servers.s3SecretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
    SESSION_SECRET: 'test-session-secret-with-at-least-32-characters',
    CREDENTIALS_ENCRYPTION_KEY: '5f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0',
    APP_BASE_URL: 'http://app.test',
    BOOTSTRAP_STAFF_EMAIL: 'staff@example.test',
    BOOTSTRAP_STAFF_PASSWORD: 'staff-password-123',
    // Tests sweep attachment uploads themselves, on the clock they set.
    ATTACHMENT_SWEEP_INTERVAL_SECONDS: '0',
    LEDGER_TOTALS_FOLD_INTERVAL_SECONDS: '0',
    ...env,
  });
  return { ...config, databaseUrl, sessionSecret: config.sessionSecret! };
}

/** Boots the real application (the same pipeline as `npm start`) on its own database. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  // Issue 25: every body the compiled validation plan accepts is checked against ValidationPipe.
  CompiledValidationPipe.checkAgainstFullPipe = true;
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const config = testConfig(databaseUrl, options.env);
  const app = await createApp(config, { extraControllers: options.extraControllers, extraModules: options.extraModules, clock: options.clock, requestTimeoutMs: options.requestTimeoutMs });
  await app.init();
  const sqlClient = new Client({ connectionString: databaseUrl });
  await sqlClient.connect();
  return {
    app,
    config,
    databaseUrl,
    http: request(app.getHttpServer()),
    sql: async (text, values) => (await sqlClient.query(text, values)).rows,
    close: async () => {
      await sqlClient.end();
      await app.close();
    },
  };
}
