import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort } from '../../src/platform/embedded/free-port';

/**
 * The checkout whose build runs as the service: this one, or BENCH_SERVICE_ROOT (another checkout,
 * built there, e.g. the commit before a change, to measure before and after in one sitting).
 */
const DEFAULT_ROOT = process.env.BENCH_SERVICE_ROOT ?? join(__dirname, '..', '..');

export interface RunningService {
  baseUrl: string;
  pid: number;
  dataDir: string;
  /** Resident set size of the service process, in MiB. */
  rssMiB(): number;
  stop(): Promise<void>;
}

/** Builds if needed, then starts (from `root`, by default the checkout above) the real service (`node dist/src/main.js`) as a child process. */
export async function startService(env: Record<string, string> = {}, dataDir?: string, root: string = DEFAULT_ROOT): Promise<RunningService> {
  if (!existsSync(join(root, 'dist', 'src', 'main.js'))) {
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'accounting-bench-'));
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
  const port = await freeLoopbackPort();
  // BENCH_CPU_PROFILE=dir writes a V8 CPU profile of the service there when it stops.
  const profile = process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`] : [];
  // BENCH_NODE_FLAGS (space-separated) are given to the service's node, e.g. `--trace-gc`.
  const nodeFlags = process.env.BENCH_NODE_FLAGS ? process.env.BENCH_NODE_FLAGS.split(' ') : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, ...nodeFlags, join(root, 'dist', 'src', 'main.js')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 200) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (waited > 120_000) throw new Error('the service did not become healthy in 120 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseUrl,
    pid: child.pid!,
    dataDir: dir,
    rssMiB: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return Math.round(kb / 1024);
    },
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
