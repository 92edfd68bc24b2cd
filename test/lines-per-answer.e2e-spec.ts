import { randomUUID } from 'node:crypto';
import { FixedClock } from '../src/platform/clock/clock';
import { expectRefused } from './harness/db-checks';
import { buildLedgerFixture, LedgerFixture } from './harness/ledger-fixture';
import type { TestApp } from './harness/test-app';
import { createWorldApp, freshEntity, type Agent, type World } from './harness/world';

/**
 * The lines list and the partner ledger have no pages (spec): past LINES_PER_ANSWER_MAX matching
 * lines the query is refused, not answered in part nor built in memory for seconds (a million
 * lines took 36 s and blocked every other request meanwhile).
 */
describe('lines per answer (LINES_PER_ANSWER_MAX)', () => {
  const MAX = 8;
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let f: LedgerFixture;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock: new FixedClock(new Date('2026-06-15T15:00:00Z')), env: { LINES_PER_ANSWER_MAX: String(MAX) } }));
    f = await buildLedgerFixture(staff, await freshEntity(world));
  });
  afterAll(() => t.close());

  const base = () => `/api/entities/${f.entityId}`;
  const invoice = (amount: number) =>
    staff
      .post(`${base()}/ledger/entries`)
      .send({
        id: randomUUID(),
        entryDate: '2026-06-10',
        memo: 'Factura',
        newLedgerEntryLines: [
          { side: 'debit', ledgerAccountId: f.receivable, amount, partnerId: f.partnerId },
          { side: 'credit', ledgerAccountId: f.sales, amount },
        ],
      })
      .expect(201);
  const receivableLines = async () => (await staff.get(`${base()}/ledger/lines`).query({ accountId: f.receivable })).body.length as number;
  const tooMany = { status: 400, code: 'VALIDATION_ERROR', path: 'query' };
  const answer = (res: { status: number; body: { code?: string; params?: { errors?: Array<{ path: string }> } } }) => ({
    status: res.status,
    code: res.body.code,
    path: res.body.params?.errors?.[0]?.path,
  });

  it('answers the lines list up to the limit, and refuses one line more with 400 VALIDATION_ERROR on query', async () => {
    while ((await receivableLines()) < MAX) await invoice(10);
    const atLimit = await staff.get(`${base()}/ledger/lines`).query({ accountId: f.receivable });
    expect(atLimit.status).toBe(200);
    expect(atLimit.body).toHaveLength(MAX);
    await invoice(10);
    const over = await expectRefused(t, ['ledger_lines', 'audit_trail'], staff.get(`${base()}/ledger/lines`).query({ accountId: f.receivable }), 400, 'VALIDATION_ERROR');
    expect(answer(over)).toEqual(tooMany);
    expect(over.body.message).toContain(`more than ${MAX} lines`);
    // Narrowed (a partner, dates), the same ledger answers again.
    const narrowed = await staff.get(`${base()}/ledger/lines`).query({ accountId: f.receivable, from: '2026-06-10', to: '2026-06-10' });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.length).toBeLessThanOrEqual(MAX);
  });

  it('refuses a partner ledger of more lines than the limit alike, after its 404s', async () => {
    while ((await receivableLines()) <= MAX) await invoice(10);
    const query = { accountId: f.receivable, from: '2026-01-01', to: '2026-06-30' };
    const over = await staff.get(`${base()}/ledger/partner-ledger`).query(query);
    expect(answer(over)).toEqual(tooMany);
    const unknownPartner = await staff.get(`${base()}/ledger/partner-ledger`).query(`accountId=${f.receivable}&from=2026-01-01&to=2026-06-30&partnerIds=${f.partnerId}&partnerIds=${randomUUID()}`);
    expect(unknownPartner.status).toBe(404);
    expect(unknownPartner.body.code).toBe('PARTNER_NOT_FOUND_ERROR');
    const narrowed = await staff.get(`${base()}/ledger/partner-ledger`).query({ ...query, from: '2026-06-01', to: '2026-06-01' });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.partners.flatMap((p: { lines: unknown[] }) => p.lines).length).toBeLessThanOrEqual(MAX);
  });
});
