import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDatabase, RunningPostgres, startEmbeddedPostgres } from '../../src/platform/embedded/embedded-postgres';
import { RunningService, startService } from './service';

/** BENCH_DIR overrides it, e.g. for a fresh database beside the seeded one. */
export const BENCH_DIR = process.env.BENCH_DIR ?? join(__dirname, '..', '..', '.data', 'bench');
export const BENCH_STAFF = { email: 'bench@example.test', password: 'bench-password-123' };

export interface SeedInfo {
  entityId: string;
  lines: number;
  entries: number;
  accounts: Record<string, string>;
  /** The account with the most lines (general-ledger depth). */
  busiestAccountId: string;
  receivableAccountId: string;
  partnerIds: string[];
  dimensionId: string;
}

/** A persistent bench environment under .data/bench: an embedded PostgreSQL and the built service. */
export async function startBenchEnvironment(extraEnv: Record<string, string> = {}): Promise<{ postgres: RunningPostgres; databaseUrl: string; service: RunningService; stop(): Promise<void> }> {
  // BENCH_NO_BUILD=1: run the build there is (e.g. alternating runs against BENCH_SERVICE_ROOT).
  if (!process.env.BENCH_NO_BUILD) {
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: join(__dirname, '..', '..'), stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  mkdirSync(BENCH_DIR, { recursive: true });
  chmodSync(BENCH_DIR, 0o755);
  const postgres = await startEmbeddedPostgres({ directory: join(BENCH_DIR, 'postgres'), password: 'bench', persistent: true });
  await ensureDatabase(postgres.urlFor('postgres'), 'bench');
  const databaseUrl = postgres.urlFor('bench');
  const service = await startService(benchServiceEnv(databaseUrl, extraEnv), join(BENCH_DIR, 'data'));
  return {
    postgres,
    databaseUrl,
    service,
    stop: async () => {
      await service.stop();
      await postgres.stop();
    },
  };
}

/** The environment a bench service runs with against `databaseUrl` (the bench staff User bootstrapped, no rate limit to speak of). */
export function benchServiceEnv(databaseUrl: string, extraEnv: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '10',
    BOOTSTRAP_STAFF_EMAIL: BENCH_STAFF.email,
    BOOTSTRAP_STAFF_PASSWORD: BENCH_STAFF.password,
    API_KEY_RATE_LIMIT_PER_HOUR: '10000000',
    // Issue 36c: no periodic fold of the monthly totals under a measurement (a bench folds at once, `ledger:fold-totals`).
    LEDGER_TOTALS_FOLD_INTERVAL_SECONDS: '0',
    ...extraEnv,
  };
}

/**
 * Issue 36c: `npm run cli -- ledger:fold-totals` (this checkout's) against the bench database: the
 * monthly totals of months before the current one folded into one row per account, Book and
 * month, as the service's periodic job leaves them (the benches' services run with the job off).
 * Idempotent: a second run folds nothing. Returns the command's summary line.
 */
export function foldMonthlyTotals(databaseUrl: string): string {
  // Its own data folder: the command's embedded S3 server and secrets, not the service's.
  const dataDir = mkdtempSync(join(tmpdir(), 'accounting-bench-cli-'));
  try {
    const run = spawnSync(process.execPath, ['-r', '@swc-node/register', join('src', 'cli.ts'), 'ledger:fold-totals'], {
      cwd: join(__dirname, '..', '..'),
      env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(`ledger:fold-totals failed (${run.status}): ${run.stderr}`);
    return run.stdout.trim();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function readSeed(): SeedInfo {
  const file = join(BENCH_DIR, 'seed.json');
  if (!existsSync(file)) throw new Error('No seeded Entity: run `npm run bench -- seed --lines 1000000` first.');
  return JSON.parse(readFileSync(file, 'utf8')) as SeedInfo;
}

export function writeSeed(seed: SeedInfo): void {
  writeFileSync(join(BENCH_DIR, 'seed.json'), JSON.stringify(seed, null, 2));
}

export async function http(baseUrl: string, method: string, path: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${baseUrl}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return { body: text ? JSON.parse(text) : null, headers: res.headers };
}

/** Signs the bench staff User in and mints an API key for the run. */
export async function benchKey(baseUrl: string): Promise<Record<string, string>> {
  const signIn = await http(baseUrl, 'POST', '/api/auth/sign-in/email', BENCH_STAFF, {});
  const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
  const key = (await http(baseUrl, 'POST', '/api/auth/api-keys', { name: 'bench' }, { cookie })).body.key as string;
  return { 'x-api-key': key, 'x-audit-actor': 'bench' };
}
