import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { waitUntil } from './harness/db-checks';
import { createTestApp, TestApp } from './harness/test-app';
import { S3Process, startS3Process } from './harness/s3-process';
import { spawnService } from './harness/service-process';
import { createEntity, createLedgerAccount, createOrganization, grantMembership, mintKey, onboardUser, signInStaff } from './harness/world';

/**
 * Item 2 of issue 17 (D2a). The attack of the hostile test, bounded and on loopback: one client
 * User asks for its own 50,000 lines (100 entries of 500 lines, about 20 MB of JSON) 150 times at
 * once. Before D2a the service buffered every answer: it reached its heap limit, health answered
 * 503 or nothing and other tenants' requests timed out for minutes. Now at most
 * HEAVY_READS_PER_USER (2) such reads run per User, the others are 429
 * TOO_MANY_CONCURRENT_READS_ERROR with Retry-After, and the answers stream from a database cursor.
 * ATTACK_ENTRIES (default 100) scales the data down for a quick run.
 */
const ENTRIES = Number(process.env.ATTACK_ENTRIES ?? 100);
const LINES_PER_ENTRY = 500;
const ATTACK_REQUESTS = 150;

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** The service's largest event-loop delay so far (test/harness/loop-delay-recorder.js). */
const LOOP_DELAY_FILE = join(mkdtempSync(join(tmpdir(), 'heavy-reads-')), 'loop-delay.json');
const loopDelay = (): { maxMs: number; p99Ms: number } => JSON.parse(readFileSync(LOOP_DELAY_FILE, 'utf8')) as { maxMs: number; p99Ms: number };

/**
 * The service's health asks its object store. The test's store runs in this process (Jest's
 * global setup), which the attack keeps busy (150 requests sent, two 20 MB answers read): health
 * then waited up to 750 ms for that store during the burst. A store is not its attacker's guest,
 * so this service gets one in a process of its own.
 */
function startService(databaseUrl: string, s3: S3Process): Promise<{ child: ChildProcess; url: string }> {
  return spawnService(databaseUrl, {
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: 'heavy-reads',
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    SESSION_SECRET: 'test-session-secret-with-at-least-32-characters',
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${join(__dirname, 'harness', 'loop-delay-recorder.js')}`.trim(),
    LOOP_DELAY_FILE,
  });
}

interface Probe {
  at: number;
  health: number;
  healthMs: number;
  other: number;
}

/**
 * Polls health and a request of another tenant until stopped; answers each status and time. The
 * prober is warm before it is timed: its first requests (which load Node's HTTP client, about
 * 150 ms of CPU) are made, and its connections opened, before `ready`. A prober started cold
 * during the burst spent 1.3 to 3 s of its own there: on two cores saturated by the attack, the
 * service and PostgreSQL, it reached the service after the 150 attacking connections (the kernel
 * gave it a later port than theirs), which then answered its health in 30 to 60 ms.
 */
async function startProber(url: string, otherPath: string, otherKey: string): Promise<{ stop(): Promise<Probe[]> }> {
  const script = `
    const probes = [];
    let stopping = false;
    const probe = async () => {
      const at = Date.now();
      const started = performance.now();
      const health = (await fetch(process.env.URL + '/api/health')).status;
      const healthMs = performance.now() - started;
      const other = (await fetch(process.env.URL + process.env.OTHER_PATH, { headers: { 'x-api-key': process.env.OTHER_KEY } })).status;
      return { at, health, healthMs, other };
    };
    process.on('message', () => (stopping = true));
    (async () => {
      for (let i = 0; i < 3; i++) await probe();
      process.send('ready');
      while (!stopping || probes.length < 3) probes.push(await probe());
      process.send(probes, () => process.exit(0));
    })();
  `;
  const child = spawn(process.execPath, ['-e', script], {
    env: { ...process.env, URL: url, OTHER_PATH: otherPath, OTHER_KEY: otherKey },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise((resolve) => child.once('message', resolve));
  const result = new Promise<Probe[]>((resolve) => child.once('message', resolve as never));
  return {
    stop: () => {
      child.send('stop');
      return result;
    },
  };
}

describe('heavy reads (D2a)', () => {
  jest.setTimeout(600_000);
  let t: TestApp;
  let attacker: string;
  let bystander: string;
  let entityId: string;
  let otherEntityId: string;
  let service: { child: ChildProcess; url: string };
  let s3: S3Process;

  beforeAll(async () => {
    t = await createTestApp({ env: { API_KEY_RATE_LIMIT_PER_HOUR: '1000000' } });
    const staff = await signInStaff(t);
    const organizationId = await createOrganization(staff);
    const otherOrganizationId = await createOrganization(staff);
    entityId = (await createEntity(staff, organizationId)).id;
    otherEntityId = (await createEntity(staff, otherOrganizationId)).id;
    const client = await onboardUser(t, staff, 'client', 'attacker');
    const other = await onboardUser(t, staff, 'client', 'bystander');
    await grantMembership(staff, client.id, organizationId, 'client');
    await grantMembership(staff, other.id, otherOrganizationId, 'client');
    attacker = (await mintKey(client.agent)).key;
    bystander = (await mintKey(other.agent)).key;
    const cash = await createLedgerAccount(staff, entityId, { code: '1101', type: 'asset', tracking: 'balance' });
    const income = await createLedgerAccount(staff, entityId, { code: '4101', type: 'income', tracking: 'balance' });
    await createLedgerAccount(staff, otherEntityId, { code: '1101', type: 'asset', tracking: 'balance' });
    const post = (i: number) =>
      t.http
        .post(`/api/entities/${entityId}/ledger/entries`)
        .set('x-api-key', attacker)
        .set('x-audit-actor', 'attacker')
        .send({
          id: randomUUID(),
          entryDate: '2026-01-15',
          memo: `bulk ${i} ${'x'.repeat(100)}`,
          newLedgerEntryLines: [
            { side: 'credit', ledgerAccountId: income, amount: LINES_PER_ENTRY - 1, description: 'd'.repeat(120) },
            ...Array.from({ length: LINES_PER_ENTRY - 1 }, () => ({ side: 'debit', ledgerAccountId: cash, amount: 1, description: 'd'.repeat(120) })),
          ],
        })
        .expect(201);
    for (let i = 0; i < ENTRIES; i += 4) await Promise.all([i, i + 1, i + 2, i + 3].filter((n) => n < ENTRIES).map(post));
    await t.close();
    s3 = await startS3Process('heavy-reads');
    service = await startService(t.databaseUrl, s3);
  });

  afterAll(async () => {
    service?.child.kill('SIGKILL');
    await s3?.stop();
  });

  it('answers 150 simultaneous 50,000-line reads of one User with at most 2 running, 429 for the rest, health under 1 s, another tenant served and the RSS under 600 MB', async () => {
    const { child, url } = service;
    {
      const linesUrl = `${url}/api/entities/${entityId}/ledger/lines`;
      // A service in use is warm: one of each request first (the first of a kind loads code).
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
      expect((await fetch(`${url}/api/entities/${otherEntityId}/ledger/accounts`, { headers: { 'x-api-key': bystander } })).status).toBe(200);
      const whole = await fetch(linesUrl, { headers: { 'x-api-key': attacker } });
      expect(whole.headers.get('cache-control')).toBe('no-store');
      const wholeText = await whole.text();
      expect((JSON.parse(wholeText) as unknown[]).length).toBe(ENTRIES * LINES_PER_ENTRY);
      const wholeBytes = Buffer.byteLength(wholeText);
      let lastRefusalAt = 0;
      const read = async () => {
        const res = await fetch(linesUrl, { headers: { 'x-api-key': attacker } });
        if (res.status !== 200) lastRefusalAt = Math.max(lastRefusalAt, Date.now());
        if (res.status !== 200) return { status: res.status, body: await res.json(), retryAfter: res.headers.get('retry-after'), bytes: 0 };
        // Read the stream without keeping or parsing it: count its bytes.
        let bytes = 0;
        const reader = res.body!.getReader();
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) bytes += chunk.value.byteLength;
        return { status: 200, body: null, retryAfter: null, bytes, cacheControl: res.headers.get('cache-control') };
      };
      // Meanwhile, from a process of its own (this one is busy sending the attack and reading its
      // answers): health and another tenant's request, each timed.
      const prober = await startProber(url, `/api/entities/${otherEntityId}/ledger/accounts`, bystander);
      const delayBefore = loopDelay().maxMs;
      const attackAt = Date.now();
      const attack = Array.from({ length: ATTACK_REQUESTS }, read);
      const settled = Promise.all(attack);
      const answers = await settled;
      // Then the attacker keeps its two heavy reads running (its limit) for a while.
      const streamed: Array<Awaited<ReturnType<typeof read>>> = [];
      for (let round = 0; round < 3; round++) streamed.push(...(await Promise.all([read(), read()])));
      const probes = await prober.stop();
      const ok = answers.filter((a) => a.status === 200);
      for (const answer of [...ok, ...streamed]) expect(answer).toMatchObject({ status: 200, bytes: wholeBytes, cacheControl: 'no-store' });
      const refused = answers.filter((a) => a.status === 429);
      expect(ok.length + refused.length).toBe(ATTACK_REQUESTS);
      expect(ok.length).toBeGreaterThanOrEqual(2);
      for (const answer of refused) {
        expect(answer.body).toMatchObject({ statusCode: 429, code: 'TOO_MANY_CONCURRENT_READS_ERROR' });
        expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      }
      // Every probe is answered, by health 200 and the other tenant's 200, health under 1 s, during
      // the burst of 150 refusals as while the heavy reads stream (before D2a: 503 or nothing for
      // minutes). The figures are printed below (bench/README.md keeps them).
      for (const probe of probes) expect({ health: probe.health, other: probe.other }).toEqual({ health: 200, other: 200 });
      const duringBurst = probes.filter((p) => p.at >= attackAt && p.at <= lastRefusalAt);
      const afterBurst = probes.filter((p) => p.at > lastRefusalAt);
      expect(afterBurst.length).toBeGreaterThan(0);
      const slowestHealthMs = Math.max(...afterBurst.map((p) => p.healthMs));
      const burstHealthMs = Math.max(0, ...duringBurst.map((p) => p.healthMs));
      expect(Math.max(...probes.map((p) => p.healthMs))).toBeLessThan(1000);
      const delay = loopDelay();
      const rssMb = peakRssMb(child.pid!);
      expect(rssMb).toBeLessThan(600);
      process.stdout.write(
        `heavy-reads attack: ${ENTRIES * LINES_PER_ENTRY} lines per answer, ${ATTACK_REQUESTS} requests: ${ok.length} answered 200, ${refused.length} refused 429; ` +
          `${probes.length} health probes, slowest ${slowestHealthMs.toFixed(0)} ms while streaming, ${burstHealthMs.toFixed(0)} ms during the burst (${duringBurst.length} probes, burst ${lastRefusalAt - attackAt} ms); ` +
          `other tenant always 200; peak RSS ${rssMb.toFixed(0)} MB; the service's event loop: largest delay ${delay.maxMs.toFixed(0)} ms (${delayBefore.toFixed(0)} ms before the attack), p99 ${delay.p99Ms.toFixed(0)} ms\n`,
      );
    }
  });

  it('cancels the read in the database when the client goes, and gives its slot back', async () => {
    const sql = new Client({ connectionString: t.databaseUrl });
    await sql.connect();
    try {
      const cursorsOpen = async () =>
        (
          await sql.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
                AND (query ILIKE 'FETCH FORWARD%' OR query ILIKE 'DECLARE read_cursor%') AND state <> 'idle'`,
          )
        ).rows[0].n;
      for (let round = 0; round < 2; round++) {
        const controller = new AbortController();
        const res = await fetch(`${service.url}/api/entities/${entityId}/ledger/lines`, { headers: { 'x-api-key': attacker }, signal: controller.signal });
        expect(res.status).toBe(200);
        await res.body!.getReader().read(); // the first bytes: the cursor is open
        controller.abort();
      }
      // Two reads went away; each one's transaction ends (cancelled, rolled back) ...
      await waitUntil(async () => (await cursorsOpen()) === 0);
      // ... and their slots are free again: the User's two heavy reads are both answered.
      const both = await Promise.all([0, 1].map(() => fetch(`${service.url}/api/entities/${entityId}/ledger/lines?to=2026-01-14`, { headers: { 'x-api-key': attacker } })));
      expect(both.map((r) => r.status)).toEqual([200, 200]);
      expect(await Promise.all(both.map((r) => r.json()))).toEqual([[], []]);
    } finally {
      await sql.end();
    }
  });
});
