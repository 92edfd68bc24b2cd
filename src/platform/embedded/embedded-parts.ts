import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppConfig, RuntimeConfig } from '../config/app-config';
import { EmbeddedPartError } from './embedded-part-error';
import { ensureDatabase, startEmbeddedPostgres } from './embedded-postgres';
import { EmbeddedS3Credentials, newEmbeddedS3Credentials, startEmbeddedS3 } from './embedded-s3';

export interface StartedParts {
  config: RuntimeConfig;
  /** Stops what was started here, in reverse order. */
  stop(): Promise<void>;
}

interface LocalSecrets {
  postgresPassword: string;
  sessionSecret: string;
  /** AES-256 key of the bank link tokens (D67), added to an older secrets file when missing. */
  credentialsEncryptionKey?: string;
  /** Issue 33: the embedded S3 store's key pair, made for this data folder (added to an older file when missing). */
  s3?: EmbeddedS3Credentials;
}

/**
 * Fills in what the configuration leaves unset with embedded parts under DATA_DIR: PostgreSQL
 * when DATABASE_URL is unset, an S3 server when S3_ENDPOINT is unset (its key pair made for the
 * folder and kept in DATA_DIR/secrets.json, issue 33), and a session secret kept in DATA_DIR. With everything configured, starts nothing.
 */
export async function startEmbeddedParts(config: AppConfig, log: (message: string) => void): Promise<StartedParts> {
  const stops: Array<() => Promise<void>> = [];
  const needsLocalSecrets = !config.databaseUrl || !config.sessionSecret || !config.bankFeeds.credentialsEncryptionKey || !config.s3.endpoint;
  const dataDir = resolve(config.dataDir);
  const secrets = needsLocalSecrets ? readOrCreateSecrets(dataDir) : undefined;

  try {
    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      const postgres = await startEmbeddedPostgres({
        directory: join(dataDir, 'postgres'),
        password: secrets!.postgresPassword,
        persistent: true,
        onNotice: log,
      });
      stops.push(() => postgres.stop());
      await ensureDatabase(postgres.urlFor('postgres'), 'accounting');
      databaseUrl = postgres.urlFor('accounting');
      log(`embedded PostgreSQL on 127.0.0.1:${postgres.port} (data in ${join(dataDir, 'postgres')})`);
    }

    let s3 = config.s3;
    if (!s3.endpoint) {
      const server = await startEmbeddedS3(join(dataDir, 's3'), s3.bucket, secrets!.s3!).catch((error: unknown) => {
        throw new EmbeddedPartError(
          `the embedded S3 server could not start in ${join(dataDir, 's3')} (${error instanceof Error ? error.message : String(error)})`,
          'check that this folder can be written, set DATA_DIR to another folder, or set S3_ENDPOINT to use an S3 server of your own',
        );
      });
      stops.push(() => server.stop());
      s3 = {
        ...s3,
        endpoint: server.endpoint,
        accessKeyId: server.accessKeyId,
        secretAccessKey: server.secretAccessKey,
        forcePathStyle: true,
      };
      log(`embedded S3 server on ${server.endpoint} (bucket ${s3.bucket}, data in ${join(dataDir, 's3')})`);
    }

    return {
      config: {
        ...config,
        databaseUrl,
        s3,
        sessionSecret: config.sessionSecret ?? secrets!.sessionSecret,
        bankFeeds: { ...config.bankFeeds, credentialsEncryptionKey: config.bankFeeds.credentialsEncryptionKey ?? secrets!.credentialsEncryptionKey },
      },
      stop: async () => {
        for (const stop of stops.reverse()) await stop();
      },
    };
  } catch (error) {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    throw error;
  }
}

function readOrCreateSecrets(dataDir: string): LocalSecrets {
  const file = join(dataDir, 'secrets.json');
  try {
    mkdirSync(dataDir, { recursive: true });
    if (existsSync(file)) {
      const kept = JSON.parse(readFileSync(file, 'utf8')) as LocalSecrets;
      if (kept.credentialsEncryptionKey && kept.s3?.accessKeyId && kept.s3.secretAccessKey) return kept;
      const completed: LocalSecrets = {
        ...kept,
        credentialsEncryptionKey: kept.credentialsEncryptionKey ?? randomBytes(32).toString('base64url'),
        s3: kept.s3?.accessKeyId && kept.s3.secretAccessKey ? kept.s3 : newEmbeddedS3Credentials(),
      };
      writeFileSync(file, JSON.stringify(completed, null, 2), { mode: 0o600 });
      return completed;
    }
    const secrets: LocalSecrets = {
      postgresPassword: randomBytes(18).toString('base64url'),
      sessionSecret: randomBytes(48).toString('base64url'),
      credentialsEncryptionKey: randomBytes(32).toString('base64url'),
      s3: newEmbeddedS3Credentials(),
    };
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
    return secrets;
  } catch (error) {
    throw new EmbeddedPartError(
      `the data folder ${dataDir} could not be prepared (${error instanceof Error ? error.message : String(error)})`,
      `set DATA_DIR to a folder you can write${existsSync(file) ? `, or remove the damaged ${file} (a new session secret signs everyone out)` : ''}`,
    );
  }
}
