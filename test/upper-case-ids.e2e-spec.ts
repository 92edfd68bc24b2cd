import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { FixedClock } from '../src/platform/clock/clock';
import { buildLedgerFixture, LedgerFixture } from './harness/ledger-fixture';
import type { TestApp } from './harness/test-app';
import { Agent, createWorldApp } from './harness/world';

const clock = new FixedClock(new Date('2026-06-15T15:00:00Z'));
const uuid = () => randomUUID();
const line = (side: 'debit' | 'credit', ledgerAccountId: string, amount = 100) => ({ side, ledgerAccountId, amount });

/**
 * A UUID in upper case is the same id as in lower case (RFC 9562; PostgreSQL compares uuids so
 * and answers them in lower case). Ids are taken in their canonical lower-case form everywhere:
 * kept as sent, an id written in upper case would not equal itself read back.
 */
describe('ids in upper case', () => {
  let t: TestApp;
  let staff: Agent;
  let fx: LedgerFixture;
  const ledger = (path = '') => `/api/entities/${fx.entityId}/ledger${path}`;

  beforeAll(async () => {
    const app = await createWorldApp({ clock });
    ({ t, staff } = app);
    fx = await buildLedgerFixture(staff, app.world.entityId);
  });
  afterAll(() => t.close());

  it('a reversal id in upper case reverses (was a 500: the mirror could not be read back by its id)', async () => {
    const entry = await staff
      .post(ledger('/entries'))
      .send({ id: uuid(), entryDate: '2026-06-02', memo: 'to reverse', newLedgerEntryLines: [line('debit', fx.cash), line('credit', fx.sales)] })
      .expect(201);
    const id = uuid();
    const res = await staff.post(ledger(`/entries/${entry.body.id.toUpperCase()}/reverse`)).send({ id: id.toUpperCase(), reversalDate: '2026-06-03' });
    expect([res.status, res.body.reversalEntry?.id, res.body.reversedEntry?.reversedByEntryId]).toEqual([201, id, id]);
  });

  it('line ids in upper case name their lines in an allocation and a match (were 404 LINE_NOT_FOUND)', async () => {
    const invoice = await staff
      .post(ledger('/entries'))
      .send({ id: uuid(), entryDate: '2026-06-02', memo: 'inv', newLedgerEntryLines: [line('debit', fx.receivable, 50), line('credit', fx.sales, 50)] })
      .expect(201);
    const payment = await staff
      .post(ledger('/entries'))
      .send({ id: uuid(), entryDate: '2026-06-03', memo: 'pay', newLedgerEntryLines: [line('debit', fx.cash, 50), line('credit', fx.receivable, 50)] })
      .expect(201);
    const [debit, credit] = [invoice.body.lines[0].id as string, payment.body.lines[1].id as string];
    const id = uuid();
    const requestId = `upper-${id}`;
    const created = await staff
      .post(ledger('/allocations'))
      .set('x-request-id', requestId)
      .send({ id: id.toUpperCase(), debitLineId: debit.toUpperCase(), creditLineId: credit.toUpperCase(), amount: 20 });
    expect([created.status, created.body.id, created.body.debitLineId, created.body.creditLineId]).toEqual([201, id, debit, credit]);
    const matched = await staff.post(ledger('/allocations/match')).send({ lineIds: [debit.toUpperCase(), credit.toUpperCase()] });
    expect([matched.status, [...matched.body.settledLines].sort()]).toEqual([201, [debit, credit].sort()]);
    expect(await t.sql('SELECT resource_id FROM audit_trail WHERE request_id = $1', [requestId])).toEqual([{ resource_id: id }]);
  });

  it('an Entity id in upper case in the path is the Entity, for a key confined to it too', async () => {
    const key = (await staff.post('/api/auth/api-keys').send({ name: 'scoped', entityId: fx.entityId }).expect(201)).body.key;
    const res = await request(t.app.getHttpServer()).get(`/api/entities/${fx.entityId.toUpperCase()}/ledger/entries/${fx.saleEntryId.toUpperCase()}`).set('x-api-key', key);
    expect([res.status, res.body.id, res.body.entityId]).toEqual([200, fx.saleEntryId, fx.entityId]);
  });
});
