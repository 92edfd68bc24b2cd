import { ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedS3 } from '../../src/platform/embedded/embedded-s3';

export interface S3Process {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * The embedded S3 server (`@20minutes/s3rver`) in a process of its own: a benchmark reads its CPU
 * apart (`/proc/<pid>/stat`), and a test whose own process is busy (an attack) does not slow the
 * store its service's health asks. `directoryRoot` is where its objects are kept (a benchmark may
 * choose memory, /dev/shm, so the store's file system calls cost it less of the shared cores).
 */
export async function startS3Process(bucket: string, options: { directoryRoot?: string } = {}): Promise<S3Process> {
  const directory = mkdtempSync(join(options.directoryRoot ?? tmpdir(), 'accounting-bench-s3-'));
  const child: ChildProcess = fork(__filename, [], {
    // BENCH_CPU_PROFILE=dir writes the store's V8 CPU profile there too (as the service's).
    execArgv: ['-r', '@swc-node/register', ...(process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`] : [])],
    env: { ...process.env, BENCH_S3_CHILD: JSON.stringify({ directory, bucket }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const started = await new Promise<{ endpoint: string; accessKeyId: string; secretAccessKey: string }>((resolve, reject) => {
    child.once('message', resolve as never);
    child.once('exit', (code) => reject(new Error(`the S3 server exited with ${code}`)));
  });
  return {
    ...started,
    pid: child.pid!,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

if (process.env.BENCH_S3_CHILD && process.send) {
  const { directory, bucket } = JSON.parse(process.env.BENCH_S3_CHILD) as { directory: string; bucket: string };
  void startEmbeddedS3(directory, bucket).then((s3) => {
    process.once('SIGTERM', () => void s3.stop().then(() => process.exit(0)));
    process.send!({ endpoint: s3.endpoint, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });
  });
}
