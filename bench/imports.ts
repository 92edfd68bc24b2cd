import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { DteSpec, envioDte, singleDte } from '../test/harness/dte-xml';
import { benchKey, http, startBenchEnvironment } from './lib/bench-env';
import { percentile } from './lib/load';

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

const ENTITY_RUT = '76086428-5';
const FIVE_MB = 5_242_880;
const invoice = (folio: string, overrides: Partial<DteSpec> = {}): DteSpec => ({ type: 33, folio, issuerRut: ENTITY_RUT, issuerName: 'Servicios Ñuñoa SpA', receiverRut: '96874030-K', net: 100000, tax: 19000, ...overrides });

/** The hostile bodies of issue 33 item 2, each under 5 MB (5,242,880 bytes). */
function hostileBodies(): Array<{ name: string; kind: 'dte' | 'csv'; body: Buffer }> {
  const flood = Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?>\n<DTE version="1.0"><Documento ID="F1T33">${'<a>'.repeat(1_600_000)}`, 'latin1');
  const reference = '<Referencia><TpoDocRef>33</TpoDocRef><FolioRef>1</FolioRef></Referencia>';
  const references = Buffer.from(singleDte(invoice('700')).toString('latin1').replace('<TED ', `${reference.repeat(60_000)}<TED `), 'latin1');
  const name = envioDte([invoice('701'), invoice('702', { issuerName: 'S'.repeat(4_900_000) })]);
  const rows = Array.from({ length: 86_000 }, (_, i) => `2026-03-05,Transferencia de cliente ${i},15000,R-${i}\n`).join('');
  const csv = Buffer.from(`date,description,amount,reference\n${rows}31-02-2026,Pago,100,R\n`);
  const bodies = [
    { name: 'DTE, 1,600,000 unclosed elements', kind: 'dte' as const, body: flood },
    { name: 'DTE, 60,000 Referencia', kind: 'dte' as const, body: references },
    { name: 'DTE, a 4.9 MB RznSoc', kind: 'dte' as const, body: name },
    { name: 'statement, 4.8 MB, bad last row', kind: 'csv' as const, body: csv },
  ];
  for (const b of bodies) if (b.body.length > FIVE_MB) throw new Error(`${b.name} is ${b.body.length} bytes`);
  return bodies;
}

/**
 * The prober, in a process of its own (the attacker's process is busy sending 5 MB bodies): health
 * and the second tenant's read one after the other, each timed, until told to stop.
 */
const PROBER = `
  const { request, Agent } = require('node:http');
  const agent = new Agent({ keepAlive: true, maxSockets: 2 });
  const get = (path, headers) => new Promise((resolve) => {
    const started = performance.now();
    const req = request(process.env.BASE + path, { agent, headers }, (res) => { res.resume(); res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started })); });
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end();
  });
  const health = [], reads = [];
  let stopping = false;
  process.on('message', (m) => { if (m === 'start') { stopping = false; health.length = 0; reads.length = 0; run(); } else stopping = true; });
  async function run() {
    for (let i = 0; i < 5; i++) { await get('/api/health'); await get(process.env.READ_PATH, JSON.parse(process.env.READ_HEADERS)); }
    process.send('ready');
    while (!stopping) {
      health.push(await get('/api/health'));
      reads.push(await get(process.env.READ_PATH, JSON.parse(process.env.READ_HEADERS)));
    }
    process.send({ health: [...health], reads: [...reads] });
  }
`;

function post(agent: Agent, url: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(body);
  });
}

const stats = (samples: Array<{ ms: number }>) => {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? 0 };
};
const fmt = (s: ReturnType<typeof stats>) => `${s.n} requests, p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`;

/**
 * `npm run bench -- imports [--seconds 20] [--documents 2000]` (issue 33, D2b):
 * 1. one User sends the four hostile 5 MB imports of the hardening pass from four connections at
 *    once, again and again for `--seconds` (each connection sends its next body when the last is
 *    answered, 429 included), while a prober in its own process asks health and a second
 *    tenant's read (another User, another Entity) one after the other: their p50, p99 and max, and
 *    the service's RSS before and at its peak (sampled every 50 ms);
 * 2. a valid signed EnvioDTE of `--documents` documents imported once (time of the request).
 */
export async function imports(args: string[]): Promise<void> {
  const seconds = option(args, '--seconds', 20);
  const documents = option(args, '--documents', 2000);
  const env = await startBenchEnvironment({ LOG_LEVEL: 'error' });
  try {
    const base = env.service.baseUrl;
    const attacker = await benchKey(base);
    // The second tenant: another User (staff, onboarded here) reading another Entity.
    const userId = randomUUID();
    const email = `reader-${userId.slice(0, 8)}@example.test`;
    await http(base, 'POST', '/api/onboarding/users', { id: userId, email, name: 'Reader', role: 'staff' }, attacker);
    const link = (await http(base, 'POST', `/api/onboarding/users/${userId}/set-password-link`, undefined, attacker)).body as { url: string };
    await http(base, 'POST', '/api/auth/set-password', { token: new URL(link.url).searchParams.get('token'), newPassword: 'reader-password-123' }, {});
    const signIn = await http(base, 'POST', '/api/auth/sign-in/email', { email, password: 'reader-password-123' }, {});
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
    const readerKey = (await http(base, 'POST', '/api/auth/api-keys', { name: 'reader' }, { cookie })).body.key as string;

    const entityId = randomUUID();
    await http(base, 'POST', '/api/entities', { id: entityId, name: `Bench Imports ${entityId.slice(0, 8)}`, country: 'CL', taxId: '76.086.428-5', currency: 'CLP' }, attacker);
    const cash = randomUUID();
    await http(base, 'POST', `/api/entities/${entityId}/ledger/accounts`, { id: cash, name: 'Bancos', code: '1101', type: 'asset', tracking: 'balance' }, attacker);
    const bankAccountId = randomUUID();
    await http(base, 'POST', `/api/entities/${entityId}/bank-accounts`, { id: bankAccountId, name: 'Cuenta', kind: 'bank', ledgerAccountId: cash, currency: 'CLP' }, attacker);
    const otherEntity = randomUUID();
    await http(base, 'POST', '/api/entities', { id: otherEntity, name: `Bench Other ${otherEntity.slice(0, 8)}`, country: 'CL', taxId: '96.874.030-K', currency: 'CLP' }, attacker);
    for (let i = 0; i < 20; i++) {
      await http(base, 'POST', `/api/entities/${otherEntity}/ledger/accounts`, { id: randomUUID(), name: `Cuenta ${i}`, code: `11${String(i).padStart(2, '0')}`, type: 'asset', tracking: 'balance' }, attacker);
    }

    // 1. The attack.
    const bodies = hostileBodies();
    const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${env.service.pid}/status`, 'utf8'))![1]) / 1024;
    const prober = spawn(process.execPath, ['-e', PROBER], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, BASE: base, READ_PATH: `/api/entities/${otherEntity}/ledger/accounts`, READ_HEADERS: JSON.stringify({ 'x-api-key': readerKey }) },
    });
    const proberReady = new Promise((resolve) => prober.once('message', resolve));
    prober.send('start');
    await proberReady;
    // The machine is shared: the same probes with no attack first, as the yardstick of this sitting.
    const baseline = await new Promise<{ health: Array<{ status: number; ms: number }>; reads: Array<{ status: number; ms: number }> }>((resolve) => {
      setTimeout(() => {
        prober.once('message', resolve as never);
        prober.send('stop');
      }, seconds * 500);
    });
    process.stdout.write(`no attack (${seconds / 2} s): health ${fmt(stats(baseline.health))}; second tenant's reads ${fmt(stats(baseline.reads))}\n`);
    const proberAgain = new Promise((resolve) => prober.once('message', resolve));
    prober.send('start');
    await proberAgain;
    const rssBefore = rss();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rss())), 50);
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const answers: Record<string, Record<number, number>> = {};
    const importTimes: number[] = [];
    const deadline = performance.now() + seconds * 1000;
    await Promise.all(
      [0, 1, 2, 3].map(async (slot) => {
        for (let i = slot; performance.now() < deadline; i++) {
          const hostile = bodies[i % bodies.length];
          const url = hostile.kind === 'dte' ? `${base}/api/entities/${entityId}/dtes/import` : `${base}/api/entities/${entityId}/bank-accounts/${bankAccountId}/movements/import`;
          const answer = await post(agent, url, { ...attacker, 'content-type': hostile.kind === 'dte' ? 'application/xml' : 'text/csv' }, hostile.body);
          answers[hostile.name] ??= {};
          answers[hostile.name][answer.status] = (answers[hostile.name][answer.status] ?? 0) + 1;
          if (answer.status === 400) importTimes.push(answer.ms);
        }
      }),
    );
    clearInterval(sampler);
    const probes = await new Promise<{ health: Array<{ status: number; ms: number }>; reads: Array<{ status: number; ms: number }> }>((resolve) => {
      prober.once('message', resolve as never);
      prober.send('stop');
    });
    prober.kill();
    agent.destroy();
    const health = stats(probes.health);
    const reads = stats(probes.reads);
    const failed = (list: Array<{ status: number }>, ok: number) => list.filter((p) => p.status !== ok).length;
    process.stdout.write(`attack: ${seconds} s, four connections of one User sending the four hostile bodies in turn\n`);
    for (const [name, byStatus] of Object.entries(answers)) process.stdout.write(`  ${name}: ${JSON.stringify(byStatus)}\n`);
    process.stdout.write(`  a refused (400) hostile import took: ${fmt(stats(importTimes.map((ms) => ({ ms }))))}\n`);
    process.stdout.write(`health meanwhile: ${fmt(health)}, not 200: ${failed(probes.health, 200)} [target p99 < 500 ms: ${health.p99 < 500 ? 'met' : 'not met'}; none over 1 s: ${health.max <= 1000 ? 'met' : 'not met'}]\n`);
    process.stdout.write(`second tenant's reads meanwhile: ${fmt(reads)}, not 200: ${failed(probes.reads, 200)} [target p99 < 500 ms: ${reads.p99 < 500 ? 'met' : 'not met'}; none over 1 s: ${reads.max <= 1000 ? 'met' : 'not met'}]\n`);
    process.stdout.write(`service RSS: ${rssBefore.toFixed(0)} MiB before, ${rssPeak.toFixed(0)} MiB at the peak: grew ${(rssPeak - rssBefore).toFixed(0)} MiB [target < 300 MiB: ${rssPeak - rssBefore < 300 ? 'met' : 'not met'}]\n`);

    // 2. A valid EnvioDTE of `documents` documents.
    const xml = envioDte(
      Array.from({ length: documents }, (_, i) => invoice(String(100_000 + i))),
      { signed: true },
    );
    const started = performance.now();
    const res = await fetch(`${base}/api/entities/${entityId}/dtes/import`, { method: 'POST', headers: { ...attacker, 'content-type': 'application/xml' }, body: xml });
    const ms = performance.now() - started;
    const body = (await res.json()) as { importedCount?: number };
    if (res.status !== 201) throw new Error(`valid import: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    process.stdout.write(
      `valid EnvioDTE of ${documents.toLocaleString('en')} documents (${(xml.length / 1_048_576).toFixed(2)} MB, signed): ${(ms / 1000).toFixed(2)} s, imported ${body.importedCount} [target < 3 s: ${ms < 3000 ? 'met' : 'not met'}]\n`,
    );
  } finally {
    await env.stop();
  }
}
