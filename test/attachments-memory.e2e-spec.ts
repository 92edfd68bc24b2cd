import { ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createTestDatabase } from './harness/test-app';
import { spawnService } from './harness/service-process';
import { BOOTSTRAP_STAFF } from './harness/world';

const UPLOAD_BYTES = 26_214_400; // 25 MB, the largest attachment (D70)
const MiB = 1024 * 1024;

/** The service's resident set, in bytes, from the kernel's own account of it. */
function rssOf(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}

async function call(url: string, method: string, path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/**
 * Issue 21: an upload of 25 MB goes from the client straight to the store, never through the
 * service's memory. The service runs in its own process (src/main.ts) and the store in the test
 * servers' (Jest's global setup), so the service's RSS, read from /proc/<pid>/status before,
 * during (sampled while the bytes travel) and after, is the service's alone.
 */
describe('Attachments: a 25 MB upload does not pass through the service (its RSS watched)', () => {
  jest.setTimeout(120_000);
  let service: { child: ChildProcess; url: string } | undefined;

  afterAll(() => service?.child.kill('SIGKILL'));

  it('presign, PUT 25 MB to the signed URL, confirm and download: the service grows by far less than the file', async () => {
    service = await spawnService(await createTestDatabase());
    const { url } = service;
    const pid = service.child.pid!;
    const signIn = await fetch(`${url}/api/auth/sign-in/email`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(BOOTSTRAP_STAFF) });
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
    const key = (await call(url, 'POST', '/api/auth/api-keys', { name: 'memory' }, { cookie })).body.key as string;
    const headers = { 'x-api-key': key, 'x-audit-actor': 'memory-test' };
    const entityId = randomUUID();
    expect((await call(url, 'POST', '/api/entities', { id: entityId, name: 'Memoria SpA', country: 'CL', taxId: '76.086.428-5', currency: 'CLP' }, headers)).status).toBe(201);
    const accounts: string[] = [];
    for (const [code, type] of [['1101', 'asset'], ['4101', 'income']]) {
      const id = randomUUID();
      expect((await call(url, 'POST', `/api/entities/${entityId}/ledger/accounts`, { id, name: code, code, type, tracking: 'balance' }, headers)).status).toBe(201);
      accounts.push(id);
    }
    const entryId = randomUUID();
    const entry = { id: entryId, entryDate: '2026-01-15', memo: 'Con adjunto', newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: accounts[0], amount: 100 }, { side: 'credit', ledgerAccountId: accounts[1], amount: 100 }] };
    expect((await call(url, 'POST', `/api/entities/${entityId}/ledger/entries`, entry, headers)).status).toBe(201);
    const base = `/api/entities/${entityId}/ledger/entries/${entryId}/attachments`;

    const cycle = async (bytes: Buffer) => {
      const slot = await call(url, 'POST', `${base}/presign`, { filename: 'escritura.pdf', contentType: 'application/pdf', byteSize: bytes.length }, headers);
      expect(slot.status).toBe(200);
      const put = await fetch(slot.body.url as string, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: bytes });
      expect(put.status).toBe(200);
      const confirmed = await call(url, 'POST', `${base}/confirm`, { attachmentId: slot.body.attachmentId, filename: 'escritura.pdf' }, headers);
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.byteSize).toBe(bytes.length);
      const link = await call(url, 'GET', `${base}/${slot.body.attachmentId as string}/url`, undefined, headers);
      expect(link.status).toBe(200);
      const download = await fetch(link.body.url as string);
      expect(download.status).toBe(200);
      return createHash('sha256').update(Buffer.from(await download.arrayBuffer())).digest('hex');
    };

    // Warm-up: every code path of the cycle loaded and compiled before the measure.
    for (let i = 0; i < 3; i++) await cycle(randomBytes(1024));

    const big = randomBytes(UPLOAD_BYTES);
    const before = rssOf(pid);
    let peak = before;
    let samples = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssOf(pid));
      samples++;
    }, 5);
    let downloaded: string;
    try {
      downloaded = await cycle(big);
    } finally {
      clearInterval(sampler);
    }
    const after = rssOf(pid);
    peak = Math.max(peak, after);

    expect(samples).toBeGreaterThan(5); // the RSS was read while the bytes travelled, not only around
    expect(downloaded).toBe(createHash('sha256').update(big).digest('hex'));
    const grewMiB = (peak - before) / MiB;
    process.stdout.write(`service RSS: before ${(before / MiB).toFixed(1)} MiB, peak during ${(peak / MiB).toFixed(1)} MiB, after ${(after / MiB).toFixed(1)} MiB (grew ${grewMiB.toFixed(1)} MiB for a ${UPLOAD_BYTES / MiB} MiB upload; ${samples} samples)\n`);
    // Had the bytes passed through the service, it would have grown by about 25 MiB (more, buffered twice).
    expect(grewMiB).toBeLessThan(8);
  });
});
