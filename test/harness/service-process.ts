import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { BOOTSTRAP_STAFF } from './world';
import { readTestServers, TEST_BUCKET } from './test-servers';

const ROOT = join(__dirname, '..', '..');

/**
 * The real service in its own process (`src/main.ts`) on a test database, for tests that must
 * kill it or read its memory. It binds a port the kernel chooses (PORT=0) and sends its URL back
 * over the IPC channel: a port chosen here first could be taken, while the service boots, by a
 * server of another test file (supertest listens on a fresh loopback port for each request).
 */
export async function spawnService(
  databaseUrl: string,
  env: Record<string, string> = {},
  options: { stdout?: (chunk: string) => void } = {},
): Promise<{ child: ChildProcess; url: string }> {
  const servers = readTestServers();
  const child = spawn(process.execPath, ['-r', '@swc-node/register', join(ROOT, 'src', 'main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      S3_ENDPOINT: servers.s3Endpoint,
      S3_BUCKET: TEST_BUCKET,
      S3_ACCESS_KEY_ID: servers.s3AccessKeyId,
      S3_SECRET_ACCESS_KEY: servers.s3SecretAccessKey,
      LOG_LEVEL: 'silent',
      BOOTSTRAP_STAFF_EMAIL: BOOTSTRAP_STAFF.email,
      BOOTSTRAP_STAFF_PASSWORD: BOOTSTRAP_STAFF.password,
      API_KEY_RATE_LIMIT_PER_HOUR: '1000000',
      ...env,
    },
    stdio: ['ignore', options.stdout ? 'pipe' : 'ignore', 'ignore', 'ipc'],
  });
  if (options.stdout) child.stdout!.on('data', (chunk: Buffer) => options.stdout!(chunk.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    child.on('message', (message: { type?: unknown; url?: unknown }) => {
      if (message?.type === 'listening' && typeof message.url === 'string') resolve(message.url);
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`service exited with ${code ?? signal} before listening`)));
  });
  return { child, url };
}
