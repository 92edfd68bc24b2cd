import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/platform/config/app-config';
import { startEmbeddedParts, StartedParts } from '../src/platform/embedded/embedded-parts';
import { readTestServers } from './harness/test-servers';

/**
 * Issue 33 item 1: the embedded S3 store's key pair is made for its data folder and kept in
 * DATA_DIR/secrets.json (with the session secret); the service's client signs with it, and the
 * store refuses the published `S3RVER`/`S3RVER` pair, unsigned requests and SigV2.
 */
describe('embedded S3 store credentials (issue 33)', () => {
  jest.setTimeout(60_000);
  let folder: string;
  let parts: StartedParts | undefined;
  const bucket = 'accounting';

  const client = (endpoint: string, accessKeyId: string, secretAccessKey: string) =>
    new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId, secretAccessKey }, maxAttempts: 1 });

  const start = () =>
    startEmbeddedParts(
      loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: folder,
        // PostgreSQL, the session secret and the link key are given: only the store is embedded.
        DATABASE_URL: readTestServers().postgresServerUrl,
        SESSION_SECRET: 'x'.repeat(48),
        CREDENTIALS_ENCRYPTION_KEY: 'a'.repeat(64),
      }),
      () => undefined,
    );

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'accounting-s3-keys-'));
  });
  afterEach(async () => {
    await parts?.stop();
    parts = undefined;
    rmSync(folder, { recursive: true, force: true });
  });

  const statusOf = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

  it('makes a random key pair for the data folder, keeps it in secrets.json (0600), and the service signs with it', async () => {
    parts = await start();
    const { s3 } = parts.config;
    const kept = JSON.parse(readFileSync(join(folder, 'secrets.json'), 'utf8')) as { s3: { accessKeyId: string; secretAccessKey: string }; sessionSecret: string };
    expect(statSync(join(folder, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(kept.s3.accessKeyId).toBe(s3.accessKeyId);
    expect(kept.s3.secretAccessKey).toBe(s3.secretAccessKey);
    expect(s3.accessKeyId).not.toBe('S3RVER');
    expect(s3.secretAccessKey!.length).toBeGreaterThanOrEqual(32);
    const own = client(s3.endpoint!, s3.accessKeyId!, s3.secretAccessKey!);
    await own.send(new PutObjectCommand({ Bucket: bucket, Key: 'entities/e/invoice/i/a', Body: 'tenant bytes', ContentType: 'application/pdf' }));
    expect(await (await own.send(new GetObjectCommand({ Bucket: bucket, Key: 'entities/e/invoice/i/a' }))).Body!.transformToString()).toBe('tenant bytes');
    own.destroy();

    // Started again on the same folder: the same pair, the same objects.
    await parts.stop();
    parts = await start();
    expect(parts.config.s3.accessKeyId).toBe(s3.accessKeyId);
    expect(parts.config.s3.secretAccessKey).toBe(s3.secretAccessKey);
    const again = client(parts.config.s3.endpoint!, s3.accessKeyId!, s3.secretAccessKey!);
    const body = await again.send(new GetObjectCommand({ Bucket: bucket, Key: 'entities/e/invoice/i/a' }));
    expect(await body.Body!.transformToString()).toBe('tenant bytes');
    again.destroy();
  });

  it('refuses every request forged with the old fixed S3RVER key pair (list, read, overwrite, delete: 403) and leaves the objects as they were', async () => {
    parts = await start();
    const { s3 } = parts.config;
    const own = client(s3.endpoint!, s3.accessKeyId!, s3.secretAccessKey!);
    await own.send(new PutObjectCommand({ Bucket: bucket, Key: 'entities/e/invoice/i/a', Body: 'tenant bytes', ContentType: 'application/pdf' }));

    const forged = client(s3.endpoint!, 'S3RVER', 'S3RVER');
    const attempts = [
      forged.send(new GetObjectCommand({ Bucket: bucket, Key: 'entities/e/invoice/i/other' })),
      forged.send(new GetObjectCommand({ Bucket: bucket, Key: 'entities/e/invoice/i/a' })),
      forged.send(new PutObjectCommand({ Bucket: bucket, Key: 'entities/e/invoice/i/a', Body: 'attacker', ContentType: 'application/pdf' })),
      forged.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'entities/e/invoice/i/a' })),
    ];
    for (const attempt of attempts) {
      const error = await attempt.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).not.toBeNull();
      expect(statusOf(error)).toBe(403);
    }
    // Unsigned requests (s3rver alone lets them through) and the right key id with another secret.
    expect((await fetch(`${s3.endpoint}/${bucket}?list-type=2`)).status).toBe(403);
    expect((await fetch(`${s3.endpoint}/${bucket}/entities/e/invoice/i/a`)).status).toBe(403);
    expect((await fetch(`${s3.endpoint}/${bucket}/entities/e/invoice/i/a`, { method: 'PUT', body: 'attacker' })).status).toBe(403);
    expect((await fetch(`${s3.endpoint}/${bucket}/entities/e/invoice/i/a`, { method: 'DELETE' })).status).toBe(403);
    const wrongSecret = client(s3.endpoint!, s3.accessKeyId!, 'S3RVER');
    expect(statusOf(await wrongSecret.send(new GetObjectCommand({ Bucket: bucket, Key: 'entities/e/invoice/i/a' })).catch((e: unknown) => e))).toBe(403);

    const body = await own.send(new GetObjectCommand({ Bucket: bucket, Key: 'entities/e/invoice/i/a' }));
    expect(await body.Body!.transformToString()).toBe('tenant bytes');
    for (const c of [own, forged, wrongSecret]) c.destroy();
  });

  it('adds the key pair to an older secrets.json that has none, keeping its other secrets', async () => {
    parts = await start();
    await parts.stop();
    parts = undefined;
    const file = join(folder, 'secrets.json');
    const older = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    delete older.s3;
    writeFileSync(file, JSON.stringify(older));
    parts = await start();
    const now = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(now.sessionSecret).toBe(older.sessionSecret);
    expect(now.postgresPassword).toBe(older.postgresPassword);
    expect((now.s3 as { accessKeyId: string }).accessKeyId).toBe(parts.config.s3.accessKeyId);
  });
});
