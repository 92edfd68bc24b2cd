import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDatabase, startEmbeddedPostgres } from '../src/platform/embedded/embedded-postgres';
import { Agent } from 'node:http';
import { HttpAnswer, httpCall, percentile } from './lib/load';
import { startService } from './lib/service';
import { ownCpuSeconds, processCpuSeconds, treeCpuSeconds } from './lib/cpu';
import { startS3Process } from '../test/harness/s3-process';
import { resetStatements, STATEMENT_SETTINGS, statementsPerRequest } from './lib/statements';

const STAFF = { email: 'bench@example.test', password: 'bench-password-123' };
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);

function arg(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

async function json(url: string, method: string, body: unknown, headers: Record<string, string>): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json().catch(() => ({}))) as Record<string, unknown>;
}

/**
 * Presign and confirm of attachments on a ledger entry, through the API with an API key, from
 * CONNECTIONS connections (closed loop): each loop presigns, PUTs 1 KiB to the embedded S3 server
 * through the signed URL (not timed: that is the store's work, not the service's) and confirms
 * (HeadObject against the store). Target (issue 21): p99 of each under 30 ms at 8 connections.
 */
export async function attachments(args: string[]): Promise<void> {
  const seconds = arg(args, 'seconds', 10);
  // The S3 server and PostgreSQL run in processes of their own, not embedded in the service: the
  // service's CPU figure is then its own (presign, the HEAD of confirm), and the store's, the
  // database's and the load generator's are read apart.
  const root = mkdtempSync(join(tmpdir(), 'accounting-bench-'));
  chmodSync(root, 0o755);
  // The store's objects in memory (/dev/shm) unless BENCH_S3_ROOT says otherwise: on this VM its
  // file system calls on disk (open, stat, close, mkdir of each object's three files) were half
  // of the store's CPU, on the cores the service shares.
  const s3Root = process.env.BENCH_S3_ROOT ?? (existsSync('/dev/shm') ? '/dev/shm' : tmpdir());
  const s3 = await startS3Process('accounting', { directoryRoot: s3Root });
  const postgres = await startEmbeddedPostgres({ directory: join(root, 'postgres'), password: 'bench', persistent: false, settings: STATEMENT_SETTINGS });
  await ensureDatabase(postgres.urlFor('postgres'), 'bench');
  const databaseUrl = postgres.urlFor('bench');
  const postgresPid = Number(readFileSync(join(root, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  // A service that fails to start stops the store and the database it was given (no orphans).
  const service = await startService({
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '10',
    BOOTSTRAP_STAFF_EMAIL: STAFF.email,
    BOOTSTRAP_STAFF_PASSWORD: STAFF.password,
    API_KEY_RATE_LIMIT_PER_HOUR: '10000000',
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: 'accounting',
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    ATTACHMENT_SWEEP_INTERVAL_SECONDS: '0',
  }, join(root, 'data')).catch(async (error: unknown) => {
    await postgres.stop();
    await s3.stop();
    rmSync(root, { recursive: true, force: true });
    throw error;
  });
  try {
    const base = service.baseUrl;
    const signIn = await fetch(`${base}/api/auth/sign-in/email`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(STAFF) });
    const cookie = { cookie: signIn.headers.get('set-cookie')!.split(';')[0] };
    const organizationId = (await json(`${base}/api/organizations`, 'POST', { name: `Bench ${randomUUID().slice(0, 8)}` }, cookie)).id as string;
    const entityId = randomUUID();
    await json(`${base}/api/entities`, 'POST', { id: entityId, name: 'Bench attachments', country: 'CL', taxId: '76.086.428-5', currency: 'CLP', organizationId }, cookie);
    const account = async (code: string, type: string) => {
      const id = randomUUID();
      await json(`${base}/api/entities/${entityId}/ledger/accounts`, 'POST', { id, name: code, code, type, tracking: 'balance' }, cookie);
      return id;
    };
    const [cash, sales] = [await account('1101', 'asset'), await account('4101', 'income')];
    const entryId = randomUUID();
    await json(`${base}/api/entities/${entityId}/ledger/entries`, 'POST', { id: entryId, entryDate: '2026-01-15', memo: 'Bench', newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: cash, amount: 100 }, { side: 'credit', ledgerAccountId: sales, amount: 100 }] }, cookie);
    // A second entry, with no attachment: the cheap route compared below lists its (none).
    const bareEntryId = randomUUID();
    await json(`${base}/api/entities/${entityId}/ledger/entries`, 'POST', { id: bareEntryId, entryDate: '2026-01-15', memo: 'Bench bare', newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: cash, amount: 100 }, { side: 'credit', ledgerAccountId: sales, amount: 100 }] }, cookie);
    const key = (await json(`${base}/api/auth/api-keys`, 'POST', { name: 'bench' }, cookie)).key as string;
    const headers = { 'x-api-key': key, 'x-audit-actor': 'bench' };
    const path = `${base}/api/entities/${entityId}/ledger/entries/${entryId}/attachments`;
    const bytes = randomBytes(1024);

    const presignMs: number[] = [];
    const confirmMs: number[] = [];
    // The PUT's own time (not a target): the store's answer time under this load, which confirm's HEAD waits for too.
    const putMs: number[] = [];
    let failures = 0;
    // The load generator's client: node:http on keep-alive agents (one connection a loop to the
    // service, one to the store), not global fetch (see httpCall).
    const serviceAgent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const storeAgent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const jsonHeaders = { 'content-type': 'application/json', ...headers };
    const presignBody = JSON.stringify({ filename: 'bench.pdf', contentType: 'application/pdf', byteSize: bytes.length });
    const presign = () => httpCall(serviceAgent, `${path}/presign`, 'POST', jsonHeaders, presignBody);
    const confirm = (attachmentId: string) => httpCall(serviceAgent, `${path}/confirm`, 'POST', jsonHeaders, JSON.stringify({ attachmentId, filename: 'bench.pdf' }));
    // The client's own PUT of the bytes to the signed URL, with the type and length it signs.
    const put = (url: string) => httpCall(storeAgent, url, 'PUT', { 'content-type': 'application/pdf' }, bytes);
    const slotOf = (answer: HttpAnswer) => JSON.parse(answer.body.toString()) as { attachmentId: string; url: string };
    const ok = (answer: HttpAnswer) => answer.status >= 200 && answer.status < 300;
    const timed = async (list: number[], run: () => Promise<HttpAnswer>) => {
      const t0 = performance.now();
      const res = await run();
      list.push(performance.now() - t0);
      if (!ok(res)) failures++;
      return res;
    };
    const loop = async (deadline: number, record: boolean) => {
      while (performance.now() < deadline) {
        const p: number[] = [];
        const c: number[] = [];
        const u: number[] = [];
        const { attachmentId, url } = slotOf(await timed(p, presign));
        await timed(u, () => put(url));
        await timed(c, () => confirm(attachmentId));
        if (record) {
          presignMs.push(...p);
          confirmMs.push(...c);
          putMs.push(...u);
        }
      }
    };
    // Warm-up, then the measured run.
    await Promise.all(Array.from({ length: CONNECTIONS }, () => loop(performance.now() + 2000, false)));
    failures = 0;

    // SQL statements of each route, one request at a time (pg_stat_statements).
    const SEQUENTIAL = 50;
    await resetStatements(databaseUrl);
    const slots: Array<{ attachmentId: string; url: string }> = [];
    for (let i = 0; i < SEQUENTIAL; i++) slots.push(slotOf(await presign()));
    const presignStatements = await statementsPerRequest(databaseUrl, SEQUENTIAL, 8);
    for (const { url } of slots) if (!ok(await put(url))) failures++;
    await resetStatements(databaseUrl);
    for (const { attachmentId } of slots) if (!ok(await confirm(attachmentId))) failures++;
    const confirmStatements = await statementsPerRequest(databaseUrl, SEQUENTIAL, 8);

    const cpu = () => ({ service: processCpuSeconds(service.pid), postgres: treeCpuSeconds(postgresPid), s3: processCpuSeconds(s3.pid), loadGenerator: ownCpuSeconds() });
    const cpuBefore = cpu();
    const started = performance.now();
    await Promise.all(Array.from({ length: CONNECTIONS }, () => loop(started + seconds * 1000, true)));
    const elapsed = (performance.now() - started) / 1000;
    const cpuAfter = cpu();
    const requests = presignMs.length + confirmMs.length;
    const perRequest = (k: keyof typeof cpuAfter) => ((cpuAfter[k] - cpuBefore[k]) * 1000) / requests;
    const cpuMs = perRequest('service');
    const line = (name: string, list: number[]) => {
      list.sort((a, b) => a - b);
      return `${name}: ${list.length} in ${elapsed.toFixed(1)} s = ${(list.length / elapsed).toFixed(0)}/s, p50 ${percentile(list, 50).toFixed(1)} ms, p99 ${percentile(list, 99).toFixed(1)} ms`;
    };
    process.stdout.write(`${CONNECTIONS} connections, 1 KiB uploads through the embedded S3 server (objects under ${s3Root})\n`);
    process.stdout.write(`${line('presign', presignMs)}\n${line('confirm', confirmMs)}\n${line('(not a target) the PUT of 1 KiB to the store', putMs)}\n`);
    process.stdout.write(`failures ${failures}; service CPU ${cpuMs.toFixed(2)} ms per request; RSS ${service.rssMiB()} MiB\n`);
    // Every party's CPU per request (a presign-confirm pair with its PUT is two requests).
    const parties = { service: cpuMs, postgres: perRequest('postgres'), s3: perRequest('s3'), loadGenerator: perRequest('loadGenerator') };
    const total = parties.service + parties.postgres + parties.s3 + parties.loadGenerator;
    process.stdout.write(
      `CPU per request: service ${parties.service.toFixed(2)} + PostgreSQL ${parties.postgres.toFixed(2)} + S3 server ${parties.s3.toFixed(2)} + load generator ${parties.loadGenerator.toFixed(2)} = ${total.toFixed(2)} ms ` +
        `(2 cores: at most ${(2000 / total).toFixed(0)} requests/s; measured ${(requests / elapsed).toFixed(0)}/s)\n`,
    );
    // A perfect queue: the 8 loops share 2 cores evenly; a request then takes (loops / cores) x
    // the CPU of its own path through the service and the database (every other party busy meanwhile).
    const ownPath = parties.service + parties.postgres;
    process.stdout.write(
      `perfect sharing of 2 cores by ${CONNECTIONS} loops: a request's mean time about ${(CONNECTIONS / 2).toFixed(0)} x ${ownPath.toFixed(2)} ms (service + PostgreSQL) = ${((CONNECTIONS / 2) * ownPath).toFixed(1)} ms; the service alone is busy ${((cpuAfter.service - cpuBefore.service) / elapsed * 100).toFixed(0)} % of the time\n`,
    );
    process.stdout.write(`presign ${presignStatements}\nconfirm ${confirmStatements}\n`);
    // The request pipeline every authenticated route pays (API key, guards, Nest, Express, the
    // answer), measured on the cheapest route of the same controller: the (empty) list of another
    // entry's attachments (three statements: the API key, the host's existence, the list).
    {
      const listMs: number[] = [];
      const listLoop = async (deadline: number) => {
        while (performance.now() < deadline) {
          const t0 = performance.now();
          const res = await httpCall(serviceAgent, path.replace(entryId, bareEntryId), 'GET', headers);
          if (!ok(res)) failures++;
          listMs.push(performance.now() - t0);
        }
      };
      const before = processCpuSeconds(service.pid);
      const t0 = performance.now();
      await Promise.all(Array.from({ length: CONNECTIONS }, () => listLoop(t0 + Math.min(seconds, 5) * 1000)));
      const listCpu = ((processCpuSeconds(service.pid) - before) * 1000) / listMs.length;
      listMs.sort((a, b) => a - b);
      process.stdout.write(
        `for comparison, GET an entry's attachments (none; ${listMs.length}, ${CONNECTIONS} connections): p50 ${percentile(listMs, 50).toFixed(1)} ms, p99 ${percentile(listMs, 99).toFixed(1)} ms, service CPU ${listCpu.toFixed(2)} ms per request\n`,
      );
    }
    const worst = Math.max(percentile(presignMs, 99), percentile(confirmMs, 99));
    process.stdout.write(`target p99 < 30 ms: ${worst < 30 ? 'met' : 'not met'} (worst p99 ${worst.toFixed(1)} ms)\n`);
    serviceAgent.destroy();
    storeAgent.destroy();
  } finally {
    await service.stop();
    await postgres.stop();
    await s3.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
