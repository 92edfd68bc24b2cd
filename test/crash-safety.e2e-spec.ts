import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from './harness/test-app';
import { spawnService } from './harness/service-process';
import { BOOTSTRAP_STAFF } from './harness/world';


interface Service {
  child: ChildProcess;
  url: string;
}

/** The service in its own process on the test database, answering health. */
async function startService(databaseUrl: string, dataDir: string): Promise<Service> {
  const { child, url } = await spawnService(databaseUrl, { DATA_DIR: dataDir });
  expect(new URL(url).port).not.toBe('0');
  expect((await fetch(`${url}/api/health`)).status).toBe(200);
  return { child, url };
}

async function call(url: string, method: string, path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> & { key?: string } }> {
  const res = await fetch(`${url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe('crash safety', () => {
  jest.setTimeout(120_000);

  it('keeps every acknowledged entry whole, and debits equal to credits, after a SIGKILL under parallel writers', async () => {
    const databaseUrl = await createTestDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'accounting-crash-'));
    chmodSync(dataDir, 0o755);
    let service = await startService(databaseUrl, dataDir);
    try {
      // A signed-in staff User mints a key; the key drives the writers.
      const signIn = await fetch(`${service.url}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(BOOTSTRAP_STAFF),
      });
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
      const key = (await call(service.url, 'POST', '/api/auth/api-keys', { name: 'crash' }, { cookie })).body.key as string;
      const headers = { 'x-api-key': key, 'x-audit-actor': 'crash-test' };
      const entityId = randomUUID();
      expect((await call(service.url, 'POST', '/api/entities', { id: entityId, name: 'Crash SpA', country: 'CL', taxId: '76.086.428-5', currency: 'CLP' }, headers)).status).toBe(201);
      const accounts: string[] = [];
      for (const [code, type] of [['1101', 'asset'], ['4101', 'income'], ['5101', 'operating_expense']]) {
        const id = randomUUID();
        expect((await call(service.url, 'POST', `/api/entities/${entityId}/ledger/accounts`, { id, name: code, code, type, tracking: 'balance' }, headers)).status).toBe(201);
        accounts.push(id);
      }

      const acknowledged: string[] = [];
      let killed = false;
      const writer = async (w: number) => {
        for (let i = 0; !killed; i++) {
          const id = randomUUID();
          const amount = 1000 + w * 100 + i;
          const body = {
            id,
            entryDate: '2026-01-15',
            memo: `writer ${w} entry ${i}`,
            newLedgerEntryLines: [
              { side: 'debit', ledgerAccountId: accounts[0], amount: amount * 2 },
              { side: 'credit', ledgerAccountId: accounts[1], amount },
              { side: 'credit', ledgerAccountId: accounts[2], amount },
            ],
          };
          try {
            const res = await call(service.url, 'POST', `/api/entities/${entityId}/ledger/entries`, body, headers);
            if (res.status === 201) acknowledged.push(id);
          } catch {
            return; // the connection died with the service
          }
        }
      };
      const writers = Array.from({ length: 6 }, (_, w) => writer(w));
      // Kill once the writers are well under way (no clock involved: wait on the acknowledgements).
      while (acknowledged.length < 60) await new Promise((resolve) => setImmediate(resolve));
      service.child.kill('SIGKILL');
      killed = true;
      await Promise.all(writers);

      service = await startService(databaseUrl, dataDir);
      const { Client } = await import('pg');
      const sql = new Client({ connectionString: databaseUrl });
      await sql.connect();
      try {
        const present = await sql.query<{ id: string; lines: number }>(
          `SELECT e.id, count(l.id)::int AS lines FROM ledger_entries e LEFT JOIN ledger_lines l ON l.entity_id = e.entity_id AND l.entry_id = e.id
            WHERE e.entity_id = $1 GROUP BY e.id`,
          [entityId],
        );
        const byId = new Map(present.rows.map((r) => [r.id, r.lines]));
        for (const id of acknowledged) expect(byId.get(id)).toBe(3);
        for (const lines of byId.values()) expect(lines).toBe(3);
        const totals = await sql.query<{ debit: string; credit: string }>(
          `SELECT coalesce(sum(amount) FILTER (WHERE side = 'debit'), 0)::text AS debit, coalesce(sum(amount) FILTER (WHERE side = 'credit'), 0)::text AS credit
             FROM ledger_lines WHERE entity_id = $1`,
          [entityId],
        );
        expect(totals.rows[0].debit).toBe(totals.rows[0].credit);
        const audited = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_trail WHERE entity_id = $1 AND action = 'ledger_entry.create'`, [entityId]);
        expect(audited.rows[0].n).toBe(byId.size);
      } finally {
        await sql.end();
      }
      // The restarted service answers for the same data.
      const listed = await call(service.url, 'GET', `/api/entities/${entityId}/ledger/entries?limit=1`, undefined, headers);
      expect({ status: listed.status, code: listed.body?.code }).toEqual({ status: 200, code: undefined });
    } finally {
      service.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
