import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { FixedClock } from '../src/platform/clock/clock';
import { sendNow, tableLockWaiters, waitUntil } from './harness/db-checks';
import { buildLedgerFixture, LedgerFixture } from './harness/ledger-fixture';
import type { TestApp } from './harness/test-app';
import { createWorldApp, freshEntity, type Agent, type World } from './harness/world';

/**
 * Issue 17 item 2 (D2a) for the partner ledger: the answer is streamed from a database cursor,
 * partner by partner (250 lines a batch), bounded like every heavy read (429
 * TOO_MANY_CONCURRENT_READS_ERROR with Retry-After); and its openings come from the per-partner
 * monthly totals (issue 25). The streamed answer is checked line by line against the same figures
 * computed here from the lines.
 */
describe('partner ledger streamed (D2a, D56)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let f: LedgerFixture;
  const partners: string[] = [];

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock: new FixedClock(new Date('2026-06-15T15:00:00Z')), env: { HEAVY_READS_PER_USER: '1' } }));
    f = await buildLedgerFixture(staff, await freshEntity(world));
    for (const name of ['Zeta Ltda', 'Alfa SpA']) {
      const id = randomUUID();
      await staff.post(`${base()}/partners`).send({ id, name, type: 'company', country: 'AR', taxId: randomUUID().slice(0, 12) }).expect(201);
      partners.push(id);
    }
    partners.push(f.partnerId);
    // 3 entries a month from January to June, of 40 receivable lines each over the three partners
    // and no partner: 720 lines, more than two cursor batches, partners changing inside a batch.
    for (const entryDate of ['2026-01-10', '2026-02-03', '2026-03-31', '2026-04-15', '2026-05-02', '2026-06-05']) {
      for (let e = 0; e < 3; e++) {
        const lines = Array.from({ length: 40 }, (_, i) => ({
          side: i % 3 === 0 ? 'credit' : 'debit',
          ledgerAccountId: f.receivable,
          amount: 100 + i * 7 + e,
          ...(i % 4 < 3 ? { partnerId: partners[i % 4] } : {}),
        }));
        const net = lines.reduce((sum, l) => sum + (l.side === 'debit' ? l.amount : -l.amount), 0);
        lines.push({ side: net > 0 ? 'credit' : 'debit', ledgerAccountId: f.sales, amount: Math.abs(net) });
        await staff.post(`${base()}/ledger/entries`).send({ id: randomUUID(), entryDate, memo: `Ventas ${entryDate}`, newLedgerEntryLines: lines }).expect(201);
      }
    }
  });
  afterAll(() => t.close());

  const base = () => `/api/entities/${f.entityId}`;

  /** D56 computed from the lines: every partner with a line or an opening, by name, then the unassigned. */
  async function expected(from: string, to: string, includeUnassigned: boolean) {
    const rows = await t.sql<{ partner_id: string | null; name: string | null; line_id: string; entry_id: string; entry_date: string; memo: string; side: string; amount: string; allocated_amount: string }>(
      `SELECT l.partner_id, p.name, l.id AS line_id, l.entry_id, to_char(l.entry_date, 'YYYY-MM-DD') AS entry_date, e.memo, l.side, l.amount, l.allocated_amount
         FROM ledger_lines l JOIN ledger_entries e ON e.entity_id = l.entity_id AND e.id = l.entry_id LEFT JOIN partners p ON p.entity_id = l.entity_id AND p.id = l.partner_id
        WHERE l.entity_id = $1 AND l.account_id = $2 AND l.status IN ('active', 'reversed') AND l.book_id IS NULL AND l.entry_date <= $3
        ORDER BY l.entry_date, l.entry_id, l.id`,
      [f.entityId, f.receivable, to],
    );
    const groups = new Map<string | null, { partnerId: string | null; partnerName: string | null; openingBalance: number; closingBalance: number; lines: Array<Record<string, unknown>> }>();
    for (const r of rows) {
      const g = groups.get(r.partner_id) ?? { partnerId: r.partner_id, partnerName: r.name, openingBalance: 0, closingBalance: 0, lines: [] };
      groups.set(r.partner_id, g);
      const signed = r.side === 'debit' ? Number(r.amount) : -Number(r.amount);
      g.closingBalance += signed;
      if (r.entry_date < from) g.openingBalance += signed;
      else {
        g.lines.push({ lineId: r.line_id, entryId: r.entry_id, entryDate: r.entry_date, memo: r.memo, side: r.side, amount: Number(r.amount), runningBalance: g.closingBalance, openAmount: Number(r.amount) - Number(r.allocated_amount) });
      }
    }
    const named = [...groups.values()].filter((g) => g.partnerId !== null && (g.lines.length > 0 || g.openingBalance !== 0));
    named.sort((a, b) => (a.partnerName! < b.partnerName! ? -1 : a.partnerName! > b.partnerName! ? 1 : 0));
    const none = groups.get(null) ?? { partnerId: null, partnerName: null, openingBalance: 0, closingBalance: 0, lines: [] };
    return [...named, ...(includeUnassigned ? [none] : [])];
  }

  it.each([
    ['the whole range, with the unassigned lines', '2026-01-01', '2026-06-30', true],
    ['from mid-March (openings from two whole months and the days before)', '2026-03-15', '2026-06-30', false],
    ['a range with no line (openings only)', '2026-06-10', '2026-06-12', true],
  ])('answers %s exactly as computed from the lines', async (_label, from, to, includeUnassigned) => {
    const res = await staff.get(`${base()}/ledger/partner-ledger`).query({ accountId: f.receivable, from, to, includeUnassigned });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    // Streamed: written as it is read, so no length is known beforehand.
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.body).toEqual({ accountId: f.receivable, from, to, currency: 'CLP', bookId: null, partners: await expected(from, to, includeUnassigned) });
    expect(Object.keys(res.body.partners[0])).toEqual(['partnerId', 'partnerName', 'openingBalance', 'closingBalance', 'lines']);
  });

  it('answers the partners asked for by id in name order, one without lines too', async () => {
    const quiet = randomUUID();
    await staff.post(`${base()}/partners`).send({ id: quiet, name: 'Beta SA', type: 'company', country: 'AR', taxId: randomUUID().slice(0, 12) }).expect(201);
    const res = await staff.get(`${base()}/ledger/partner-ledger`).query(`accountId=${f.receivable}&from=2026-04-01&to=2026-06-30&partnerIds=${partners[0]}&partnerIds=${quiet}&partnerIds=${partners[1]}`);
    expect(res.status).toBe(200);
    const all = await expected('2026-04-01', '2026-06-30', false);
    const empty = { partnerId: quiet, partnerName: 'Beta SA', openingBalance: 0, closingBalance: 0, lines: [] };
    expect(res.body.partners).toEqual([all.find((g) => g.partnerId === partners[1]), empty, all.find((g) => g.partnerId === partners[0])]);
  });

  it('bounds concurrent reads: a second one while the first is running is 429 TOO_MANY_CONCURRENT_READS_ERROR with Retry-After', async () => {
    // The first read waits on a lock of the per-partner totals, holding its slot (HEAVY_READS_PER_USER=1).
    const blocker = new Client({ connectionString: t.databaseUrl });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE ledger_partner_monthly_totals IN ACCESS EXCLUSIVE MODE');
      const query = { accountId: f.receivable, from: '2026-03-15', to: '2026-06-30' };
      const first = sendNow(staff.get(`${base()}/ledger/partner-ledger`).query(query));
      await waitUntil(async () => (await tableLockWaiters(t, 'ledger_partner_monthly_totals')) > 0);
      const second = await staff.get(`${base()}/ledger/partner-ledger`).query(query);
      expect(second.status).toBe(429);
      expect(second.body).toMatchObject({ statusCode: 429, code: 'TOO_MANY_CONCURRENT_READS_ERROR' });
      expect(Number(second.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(first.answered()).toBe(false);
      await blocker.query('COMMIT');
      const answered = await first.response;
      expect(answered.status).toBe(200);
      expect(answered.body.partners).toEqual(await expected('2026-03-15', '2026-06-30', false));
      // The slot was given back.
      expect((await staff.get(`${base()}/ledger/partner-ledger`).query(query)).status).toBe(200);
    } finally {
      await blocker.end();
    }
  });

  it('keeps its refusals before the first byte: 404 for an unknown partner, 400 for a non-open-item account', async () => {
    const unknown = await staff.get(`${base()}/ledger/partner-ledger`).query(`accountId=${f.receivable}&from=2026-01-01&to=2026-06-30&partnerIds=${randomUUID()}`);
    expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 404, code: 'PARTNER_NOT_FOUND_ERROR' });
    const notOpen = await staff.get(`${base()}/ledger/partner-ledger`).query({ accountId: f.sales, from: '2026-01-01', to: '2026-06-30' });
    expect({ status: notOpen.status, code: notOpen.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
  });
});
