import { Agent, request } from 'node:http';

export interface LoadRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface LoadResult {
  requests: number;
  failures: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Sends requests from `connections` keep-alive connections for `seconds`, each connection
 * waiting for its answer before the next (closed loop). Bounded in time; loopback only.
 */
export async function runLoad(options: {
  baseUrl: string;
  connections: number;
  seconds: number;
  next: (sequence: number) => LoadRequest;
  expectStatus: number;
  /** Print, per second of the run, the requests sent, p50, p99 and the slowest (where a tail comes from). */
  timeline?: boolean;
}): Promise<LoadResult> {
  const url = new URL(options.baseUrl);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) throw new Error('load is sent to loopback only');
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies: number[] = [];
  let failures = 0;
  let sequence = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;

  const send = (req: LoadRequest) =>
    new Promise<number>((resolve, reject) => {
      const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
      const r = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: req.method,
          path: req.path,
          headers: { ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}), ...req.headers },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      r.on('error', reject);
      if (payload) r.write(payload);
      r.end();
    });

  const worker = async () => {
    while (performance.now() < deadline) {
      const req = options.next(sequence++);
      const t0 = performance.now();
      const status = await send(req).catch(() => 0);
      latencies.push(performance.now() - t0);
      if (options.timeline) sent.push([t0 - started, performance.now() - t0]);
      if (status !== options.expectStatus) failures++;
    }
  };
  const sent: Array<[number, number]> = [];
  await Promise.all(Array.from({ length: options.connections }, worker));
  if (options.timeline) printTimeline(sent, performance.timeOrigin + started);
  agent.destroy();
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    failures,
    seconds,
    requestsPerSecond: latencies.length / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  };
}

function printTimeline(sent: Array<[number, number]>, startEpochMs: number): void {
  const bySecond = new Map<number, number[]>();
  for (const [at, ms] of sent) {
    const second = Math.floor(at / 1000);
    bySecond.set(second, [...(bySecond.get(second) ?? []), ms]);
  }
  process.stdout.write(`  timeline from ${new Date(startEpochMs).toISOString()} (by the second a request was sent):\n`);
  for (const [second, all] of bySecond) {
    all.sort((a, b) => a - b);
    process.stdout.write(`    ${String(second).padStart(3)} s: ${String(all.length).padStart(4)} requests, p50 ${percentile(all, 50).toFixed(1)}, p99 ${percentile(all, 99).toFixed(1)}, max ${all[all.length - 1].toFixed(1)} ms\n`);
  }
}

export function formatLoad(name: string, r: LoadResult): string {
  return `${name}: ${r.requests} requests in ${r.seconds.toFixed(1)} s = ${r.requestsPerSecond.toFixed(0)}/s, p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms, failures ${r.failures}`;
}

export interface HttpAnswer {
  status: number;
  body: Buffer;
}

/**
 * One request on a keep-alive agent with node:http, the body read whole: the lean client of a
 * benchmark's load generator (global fetch, undici with web streams, cost the attachments bench
 * about 1 ms of CPU a request on the same two cores as the service).
 */
export function httpCall(agent: Agent, url: string, method: string, headers: Record<string, string | number>, body?: Buffer | string): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, method, headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
