import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { processCpuSeconds } from './lib/cpu';
import { http } from './lib/bench-env';
import { percentile } from './lib/load';
import { startService } from './lib/service';
import { resetStatements, STATEMENT_SETTINGS, statementsPerRequest } from './lib/statements';
import { ensureDatabase, startEmbeddedPostgres } from '../src/platform/embedded/embedded-postgres';

const STAFF = { email: 'bench-agents@example.test', password: 'bench-password-123' };

function arg(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

/**
 * A chat-completions server that answers at once: to a user message, two read tool calls; to
 * the tool results, a final answer. What is left is the gateway's own cost per turn.
 */
async function startInstantModel(partnerId: () => string): Promise<{ baseUrl: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests++;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: Array<{ role: string }> };
      const last = body.messages[body.messages.length - 1];
      const message =
        last.role === 'user'
          ? {
              role: 'assistant',
              content: null,
              tool_calls: [
                { id: `a${requests}`, type: 'function', function: { name: 'get_partners', arguments: '{}' } },
                { id: `b${requests}`, type: 'function', function: { name: 'get_partners_by_partnerId', arguments: JSON.stringify({ partnerId: partnerId() }) } },
              ],
            }
          : { role: 'assistant', content: 'You have three partners.' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ id: `c${requests}`, object: 'chat.completion', created: 0, model: 'bench', choices: [{ index: 0, message, finish_reason: 'stop' }] }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * D88's gateway cost: turns of a conversation whose model (answering at once) makes two read
 * tool calls, one after another on one connection. Each turn mints its lease key, stores the
 * user message with its audit row, asks the model twice, makes two GET requests to the service
 * with the lease key (key authentication, rate limit, tenant guard) and stores four messages.
 */
export async function agents(args: string[]): Promise<void> {
  const turns = arg(args, 'turns', 200);
  const warmup = arg(args, 'warmup', 20);
  let partner = '';
  const model = await startInstantModel(() => partner);
  // Its own PostgreSQL, counting statements (pg_stat_statements).
  const root = mkdtempSync(join(tmpdir(), 'accounting-bench-'));
  chmodSync(root, 0o755);
  const postgres = await startEmbeddedPostgres({ directory: join(root, 'postgres'), password: 'bench', persistent: false, settings: STATEMENT_SETTINGS });
  await ensureDatabase(postgres.urlFor('postgres'), 'bench');
  const databaseUrl = postgres.urlFor('bench');
  const service = await startService({
    DATABASE_URL: databaseUrl,
    BOOTSTRAP_STAFF_EMAIL: STAFF.email,
    BOOTSTRAP_STAFF_PASSWORD: STAFF.password,
    API_KEY_RATE_LIMIT_PER_HOUR: '10000000',
    AGENT_LLM_BASE_URL: model.baseUrl,
    AGENT_MODELS: 'bench-model',
  });
  try {
    const base = service.baseUrl;
    const signIn = await http(base, 'POST', '/api/auth/sign-in/email', STAFF, {});
    const headers = { cookie: signIn.headers.get('set-cookie')!.split(';')[0] };
    const entityId = randomUUID();
    await http(base, 'POST', '/api/entities', { id: entityId, name: 'Bench Agents SpA', country: 'CL', taxId: '76.086.428-5', currency: 'CLP' }, headers);
    for (const [i, name] of ['Austral SpA', 'Boreal Ltda', 'Central SA'].entries()) {
      const created = await http(base, 'POST', `/api/entities/${entityId}/partners`, { id: randomUUID(), name, type: 'company', country: 'AR', taxId: `T-${i}` }, headers);
      partner = created.body.id as string;
    }
    const conversationsPath = `/api/entities/${entityId}/agents/conversations`;
    let conversationId = '';
    const turn = async (sequence: number): Promise<number> => {
      // A conversation of ten turns (its history grows to 50 messages), then a fresh one.
      if (sequence % 10 === 0) {
        conversationId = randomUUID();
        await http(base, 'POST', conversationsPath, { id: conversationId }, headers);
      }
      const t0 = performance.now();
      const res = await http(base, 'POST', `${conversationsPath}/${conversationId}/messages`, { id: randomUUID(), content: 'Who are my partners?' }, headers);
      const elapsed = performance.now() - t0;
      if ((res.body.toolRuns as Array<{ status: number }>).some((run) => run.status !== 200)) throw new Error('a tool call failed');
      return elapsed;
    };

    // The yardstick under the same load: a plain read (GET /partners with the session) and its CPU.
    const read = async () => {
      const t0 = performance.now();
      await http(base, 'GET', `/api/entities/${entityId}/partners`, undefined, headers);
      return performance.now() - t0;
    };
    for (let i = 0; i < warmup; i++) await read();
    const readCpuBefore = processCpuSeconds(service.pid);
    const reads: number[] = [];
    for (let i = 0; i < turns; i++) reads.push(await read());
    const readCpuMs = ((processCpuSeconds(service.pid) - readCpuBefore) * 1000) / turns;
    reads.sort((a, b) => a - b);

    for (let i = 0; i < warmup; i++) await turn(i);
    await resetStatements(databaseUrl);
    const cpuBefore = processCpuSeconds(service.pid);
    const latencies: number[] = [];
    const started = performance.now();
    for (let i = 0; i < turns; i++) latencies.push(await turn(warmup + i));
    const seconds = (performance.now() - started) / 1000;
    const cpuMs = ((processCpuSeconds(service.pid) - cpuBefore) * 1000) / turns;
    latencies.sort((a, b) => a - b);
    const mean = latencies.reduce((a, b) => a + b, 0) / latencies.length;
    process.stdout.write(
      `agent turns with two tool calls: ${turns} turns in ${seconds.toFixed(1)} s, ` +
        `p50 ${percentile(latencies, 50).toFixed(1)} ms, p90 ${percentile(latencies, 90).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, ` +
        `mean ${mean.toFixed(1)} ms; service CPU ${cpuMs.toFixed(1)} ms per turn (includes the conversation created every 10 turns); ` +
        `model requests ${model.requests()}\n` +
        `yardstick GET /partners: p50 ${percentile(reads, 50).toFixed(1)} ms, service CPU ${readCpuMs.toFixed(2)} ms per request; ` +
        `a turn costs ${(cpuMs / readCpuMs).toFixed(1)} such reads of CPU\n` +
        `target: under 20 ms of service CPU per turn\n`,
    );
    process.stdout.write(`${await statementsPerRequest(databaseUrl, turns)}\n`);
  } finally {
    await service.stop();
    await model.close();
    await postgres.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
