import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureDatabase, startEmbeddedPostgres } from '../src/platform/embedded/embedded-postgres';
import { processCpuSeconds } from './lib/cpu';
import { LoadRequest, runLoad } from './lib/load';
import { RunningService, startService } from './lib/service';
import { benchEntity, entryBody, STAFF } from './ledger-write';

const CONNECTIONS = 8;

interface Side {
  name: string;
  service: RunningService;
  posting: (n: number) => LoadRequest;
  floor: () => LoadRequest;
  samples: Record<'posting' | 'floor', { cpuMs: number; perSecond: number; p99Ms: number }[]>;
}

async function prepare(name: string, root: string, databaseUrl: string, dataDir: string): Promise<Side> {
  const service = await startService(
    { DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: '10', BOOTSTRAP_STAFF_EMAIL: STAFF.email, BOOTSTRAP_STAFF_PASSWORD: STAFF.password, API_KEY_RATE_LIMIT_PER_HOUR: '10000000' },
    dataDir,
    root,
  );
  const { headers, entityId, accounts } = await benchEntity(service.baseUrl);
  return {
    name,
    service,
    posting: (n) => ({ method: 'POST', path: `/api/entities/${entityId}/ledger/entries`, headers, body: entryBody(accounts, n) }),
    floor: () => ({ method: 'GET', path: `/api/entities/${entityId}/books`, headers }),
    samples: { posting: [], floor: [] },
  };
}

async function burst(side: Side, kind: 'posting' | 'floor', seconds: number): Promise<void> {
  const before = processCpuSeconds(side.service.pid);
  const result = await runLoad({
    baseUrl: side.service.baseUrl,
    connections: CONNECTIONS,
    seconds,
    next: kind === 'posting' ? side.posting : side.floor,
    expectStatus: kind === 'posting' ? 201 : 200,
  });
  const cpuMs = ((processCpuSeconds(side.service.pid) - before) * 1000) / result.requests;
  side.samples[kind].push({ cpuMs, perSecond: result.requestsPerSecond, p99Ms: result.p99Ms });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/**
 * `npm run bench -- pipeline-ab --before ROOT [--rounds 8] [--seconds 3]`: the service's CPU per
 * request of two builds, this checkout (after) and another one with its own `dist` (before), both
 * running at once against one PostgreSQL server, measured in short alternating bursts (posting,
 * then the pipeline floor `GET books`; the order of the two builds swapped every round). This
 * machine's speed drifts by a third within twenty minutes and other work comes and goes; bursts a
 * few seconds apart see the same machine, so the medians compare the builds, not the moments.
 */
export async function pipelineAb(args: string[]): Promise<void> {
  const beforeIndex = args.indexOf('--before');
  if (beforeIndex < 0) throw new Error('--before ROOT: a checkout with its dist built');
  const beforeRoot = resolve(args[beforeIndex + 1]);
  const rounds = Number(args[args.indexOf('--rounds') + 1]) || 8;
  const seconds = Number(args[args.indexOf('--seconds') + 1]) || 3;
  const root = mkdtempSync(join(tmpdir(), 'accounting-bench-'));
  chmodSync(root, 0o755);
  const postgres = await startEmbeddedPostgres({ directory: join(root, 'postgres'), password: 'bench', persistent: false });
  const sides: Side[] = [];
  try {
    await ensureDatabase(postgres.urlFor('postgres'), 'bench_before');
    await ensureDatabase(postgres.urlFor('postgres'), 'bench_after');
    sides.push(await prepare('before', beforeRoot, postgres.urlFor('bench_before'), join(root, 'before')));
    sides.push(await prepare('after', join(__dirname, '..'), postgres.urlFor('bench_after'), join(root, 'after')));
    for (const side of sides) await runLoad({ baseUrl: side.service.baseUrl, connections: CONNECTIONS, seconds: 2, next: side.posting, expectStatus: 201 });
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) await burst(side, 'posting', seconds);
      for (const side of order) await burst(side, 'floor', seconds);
    }
    process.stdout.write(`before = ${beforeRoot}, after = ${join(__dirname, '..')}; ${rounds} rounds of ${seconds} s bursts, ${CONNECTIONS} connections, medians\n`);
    for (const kind of ['posting', 'floor'] as const) {
      const [before, after] = sides.map((side) => side.samples[kind]);
      const cpu = (s: typeof before) => median(s.map((x) => x.cpuMs));
      const line = (s: typeof before) => `${cpu(s).toFixed(3)} ms service CPU, ${median(s.map((x) => x.perSecond)).toFixed(0)}/s, p99 ${median(s.map((x) => x.p99Ms)).toFixed(1)} ms`;
      process.stdout.write(`  ${kind === 'posting' ? 'POST entries' : 'GET books'}: before ${line(before)}; after ${line(after)}; after/before ${((100 * cpu(after)) / cpu(before)).toFixed(1)} %\n`);
      process.stdout.write(`    per round, before/after ms: ${before.map((b, i) => `${b.cpuMs.toFixed(2)}/${after[i].cpuMs.toFixed(2)}`).join(' ')}\n`);
    }
  } finally {
    for (const side of sides) await side.service.stop();
    await postgres.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
