/**
 * The ledger as other modules use it (issue 16): the posting API with the caller's field names,
 * use cases called outside HTTP in a unit of work with a system actor (one transaction, its audit
 * row, locks held to the end), writers refusing to run where no audit row is recorded, and a real
 * lifecycle listener plugged in as another module would be: every reason told once, inside the
 * transaction, a throwing listener rolling the change back.
 */
import { randomUUID } from 'node:crypto';
import { DomainError } from '../libs/shared-kernel/src';
import { ReverseEntry } from '../src/modules/ledger/application/reverse-entry/reverse-entry';
import { UnbookEntry } from '../src/modules/ledger/application/unbook-entry/unbook-entry';
import { EntitiesService } from '../src/modules/entities';
import { LedgerAllocations, LedgerPostings } from '../src/modules/ledger';
import { OrganizationsService } from '../src/modules/organizations';
import { SystemWrites } from '../src/platform/audit/system-writes';
import { FixedClock } from '../src/platform/clock/clock';
import { auditRowCount, countRows, tableFingerprint } from './harness/db-checks';
import { buildLedgerFixture, LedgerFixture } from './harness/ledger-fixture';
import { RecordingLedgerListener, RecordingLedgerListenerModule } from './harness/recording-ledger-listener';
import type { TestApp } from './harness/test-app';
import { Agent, createWorldApp, freshEntity, World } from './harness/world';

const LEDGER_TABLES = ['ledger_entries', 'ledger_lines', 'reconciliation_allocations', 'ledger_account_monthly_totals', 'audit_trail'];

describe('the ledger seam: posting API, units of work, lifecycle listeners', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let listener: RecordingLedgerListener;
  let system: SystemWrites;
  let postings: LedgerPostings;
  let unbooking: UnbookEntry;
  let reversal: ReverseEntry;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock: new FixedClock(new Date('2026-06-15T15:00:00Z')), extraModules: [RecordingLedgerListenerModule] }));
    listener = t.app.get(RecordingLedgerListener);
    system = t.app.get(SystemWrites);
    postings = t.app.get(LedgerPostings);
    unbooking = t.app.get(UnbookEntry);
    reversal = t.app.get(ReverseEntry);
    await t.sql(`CREATE TABLE test_listener_marks (reason text NOT NULL, entry_ids uuid[] NOT NULL)`);
  });

  afterAll(() => t.close());

  let f: LedgerFixture;
  beforeEach(async () => {
    listener.reset();
    f = await buildLedgerFixture(staff, await freshEntity(world));
    listener.reset();
    await t.sql(`DELETE FROM test_listener_marks`);
  });

  const base = () => `/api/entities/${f.entityId}/ledger`;
  const reasons = () => listener.events.map((e) => e.event.reason);
  const bankSync = (action: string) => ({ actor: 'system:bank-sync' as const, action, resourceType: 'ledger_entry', entityId: f.entityId });
  const posting = (amount = 40) => ({
    id: randomUUID(),
    source: 'bank_movement' as const,
    entryDate: '2026-06-14',
    memo: 'Depósito',
    lines: [
      { side: 'debit' as const, ledgerAccountId: f.cash, amount },
      { side: 'credit' as const, ledgerAccountId: f.receivable, amount, partnerId: f.partnerId },
    ],
  });

  describe('posting API', () => {
    it('posts with the source of the document, in the unit of work of a job, with its audit row (system actor, no request id)', async () => {
      const input = posting();
      const entry = await system.run(bankSync('bank_movement.book'), () => postings.post(f.entityId, input));
      expect(entry).toMatchObject({ id: input.id, source: 'bank_movement', status: 'active', entityId: f.entityId });
      expect(entry.lines.map((l) => [l.side, l.ledgerAccountId, l.amount, l.isOpenItem])).toEqual([
        ['debit', f.cash, 40, false],
        ['credit', f.receivable, 40, true],
      ]);
      expect(await t.sql(`SELECT source FROM ledger_entries WHERE entity_id = $1 AND id = $2`, [f.entityId, input.id])).toEqual([{ source: 'bank_movement' }]);
      const rows = await t.sql(`SELECT * FROM entity_audit_trail WHERE entity_id = $1 AND resource_id = $2`, [f.entityId, input.id]);
      expect(rows).toEqual([
        expect.objectContaining({
          entity_id: f.entityId,
          declared_actor: 'system:bank-sync',
          actor_user_id: null,
          credential: null,
          method: null,
          path: null,
          request_id: null,
          action: 'bank_movement.book',
          resource_type: 'ledger_entry',
        }),
      ]);
      // The Entity's audit trail route shows it as any other row.
      const trail = await staff.get(`/api/entities/${f.entityId}/audit-trail`).query({ resourceId: input.id }).expect(200);
      expect(trail.body.rows).toEqual([expect.objectContaining({ declaredActor: 'system:bank-sync', requestId: null, method: null, path: null, action: 'bank_movement.book' })]);
    });

    it('names the caller fields in a refusal (fieldPath) and writes nothing', async () => {
      const input = posting();
      input.lines[1].amount = 0;
      const before = await tableFingerprint(t, LEDGER_TABLES);
      const refusal = await system
        .run(bankSync('bank_movement.book'), () => postings.post(f.entityId, input, { fieldPath: (p) => p.replace(/^lines/, 'movementLines') }))
        .catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(DomainError);
      expect(refusal).toMatchObject({
        code: 'VALIDATION_ERROR',
        params: { line: 1, path: 'movementLines[1]', errors: [{ path: 'movementLines[1].amount', message: 'amount must be a positive integer in minor units' }] },
      });
      // Without fieldPath the posting's own names.
      const plain = await system.run(bankSync('bank_movement.book'), () => postings.post(f.entityId, input)).catch((e: unknown) => e);
      expect(plain).toMatchObject({ params: { path: 'lines[1]', errors: [{ path: 'lines[1].amount' }] } });
      expect(await tableFingerprint(t, LEDGER_TABLES)).toEqual(before);
    });

    it('the ledger route names its own body (newLedgerEntryLines) through the same API', async () => {
      const res = await staff.post(`${base()}/entries`).send({
        id: randomUUID(),
        entryDate: '2026-06-14',
        memo: 'x',
        newLedgerEntryLines: [
          { side: 'debit', ledgerAccountId: f.cash, amount: 5, transactionCurrency: 'USD' },
          { side: 'credit', ledgerAccountId: f.sales, amount: 5 },
        ],
      });
      expect([res.status, res.body.params.path, res.body.params.errors[0].path]).toEqual([400, 'newLedgerEntryLines[0]', 'newLedgerEntryLines[0]']);
    });

    it('refuses a posting outside a transaction with no audit row to carry, and writes nothing', async () => {
      const before = await tableFingerprint(t, LEDGER_TABLES);
      await expect(postings.post(f.entityId, posting())).rejects.toThrow(/outside a transaction must carry its audit row/);
      expect(await tableFingerprint(t, LEDGER_TABLES)).toEqual(before);
    });
  });

  describe('use cases outside HTTP', () => {
    it('unbooks in one transaction holding its locks to the end, with one audit row of the system actor', async () => {
      const audits = await auditRowCount(t);
      await system.run(bankSync('ledger_entry.unbook'), async () => {
        const result = await unbooking.unbook(f.entityId, f.saleEntryId);
        expect(result.unbookedEntry.status).toBe('deleted');
        // Not committed yet: another connection still sees the entry active (one transaction,
        // not statement by statement) and cannot lock its row (the use case's lock is held).
        expect(await t.sql(`SELECT status FROM ledger_entries WHERE entity_id = $1 AND id = $2`, [f.entityId, f.saleEntryId])).toEqual([{ status: 'active' }]);
        await expect(t.sql(`SELECT 1 FROM ledger_entries WHERE entity_id = $1 AND id = $2 FOR UPDATE NOWAIT`, [f.entityId, f.saleEntryId])).rejects.toMatchObject({ code: '55P03' });
        expect(await auditRowCount(t)).toBe(audits);
      });
      expect(await t.sql(`SELECT status FROM ledger_entries WHERE entity_id = $1 AND id = $2`, [f.entityId, f.saleEntryId])).toEqual([{ status: 'deleted' }]);
      const rows = await t.sql(`SELECT declared_actor, request_id, method, path, action, resource_id FROM audit_trail WHERE entity_id = $1 AND declared_actor LIKE 'system:%'`, [f.entityId]);
      expect(rows).toEqual([{ declared_actor: 'system:bank-sync', request_id: null, method: null, path: null, action: 'ledger_entry.unbook', resource_id: null }]);
      expect(await auditRowCount(t)).toBe(audits + 1);
    });

    it('rolls the whole unit back, audit row included, when the job fails after the use case', async () => {
      const before = await tableFingerprint(t, LEDGER_TABLES);
      const failed = system.run(bankSync('ledger_entry.reverse'), async () => {
        await reversal.reverse(f.entityId, f.saleEntryId, { id: randomUUID(), reversalDate: '2026-06-14' });
        throw new Error('the job failed after reversing');
      });
      await expect(failed).rejects.toThrow('the job failed after reversing');
      expect(await tableFingerprint(t, LEDGER_TABLES)).toEqual(before);
    });

    it('allocates and matches through the allocation API in a unit of work', async () => {
      const allocations = t.app.get(LedgerAllocations);
      const payment = await system.run(bankSync('bank_movement.match'), async () => {
        const entry = await postings.post(f.entityId, posting(150));
        const allocation = await allocations.allocate(f.entityId, { id: randomUUID(), debitLineId: f.receivableDebitLineId, creditLineId: entry.lines[1].id, amount: 150, kind: 'match' });
        expect(allocation).toMatchObject({ amount: 150, kind: 'match', accountId: f.receivable });
        return entry;
      });
      expect(await countRows(t, 'reconciliation_allocations', `entity_id = $1 AND credit_line_id = $2 AND kind = 'match'`, [f.entityId, payment.lines[1].id])).toBe(1);
      // 500 - 100 (fixture) - 150 left on the invoice line; the fixture payment's 200 open are matched with it.
      const matched = await system.run(bankSync('bank_movement.match'), () => allocations.match(f.entityId, [f.receivableDebitLineId, f.receivableCreditLineId]));
      expect(matched).toMatchObject({ settledLines: [f.receivableCreditLineId], openTotal: 50 });
    });

    it('refuses to write outside a unit of work (no audit row would be recorded) and writes nothing', async () => {
      const before = await tableFingerprint(t, LEDGER_TABLES);
      await expect(unbooking.unbook(f.entityId, f.saleEntryId)).rejects.toThrow(/no audit row/);
      await expect(t.app.get(LedgerAllocations).delete(f.entityId, f.allocationId)).rejects.toThrow(/no audit row/);
      expect(await tableFingerprint(t, LEDGER_TABLES)).toEqual(before);
      expect(listener.events).toEqual([]);
    });

    it('creates an Entity (and its Organization) from a job in one transaction, with one audit row of the system actor', async () => {
      const entityId = randomUUID();
      const cli = { actor: 'system:cli' as const, action: 'entity.create', resourceType: 'entity', entityId };
      const audits = await auditRowCount(t);
      const created = await system.run(cli, async () => {
        const entity = await t.app.get(EntitiesService).create({ id: entityId, name: `Job ${entityId}`, country: 'CL', taxId: '76.086.428-5', currency: 'CLP' });
        // Not committed yet: another connection sees neither the Entity nor its new Organization.
        expect(await countRows(t, 'entities', 'id = $1', [entityId])).toBe(0);
        expect(await countRows(t, 'organizations', 'id = $1', [entity.organizationId])).toBe(0);
        return entity;
      });
      expect(await countRows(t, 'entities', 'id = $1 AND organization_id = $2', [entityId, created.organizationId])).toBe(1);
      expect(await countRows(t, 'organizations', 'id = $1', [created.organizationId])).toBe(1);
      const rows = await t.sql(`SELECT entity_id, declared_actor, actor_user_id, request_id, method, path, action, resource_id FROM audit_trail WHERE entity_id = $1`, [entityId]);
      expect(rows).toEqual([
        { entity_id: entityId, declared_actor: 'system:cli', actor_user_id: null, request_id: null, method: null, path: null, action: 'entity.create', resource_id: entityId },
      ]);
      expect(await auditRowCount(t)).toBe(audits + 1);
    });

    it('rolls an Entity and the Organization it created back when the job fails after the use case', async () => {
      const entityId = randomUUID();
      const organizations = await countRows(t, 'organizations');
      const audits = await auditRowCount(t);
      const failed = system.run({ actor: 'system:cli', action: 'entity.create', resourceType: 'entity', entityId }, async () => {
        await t.app.get(EntitiesService).create({ id: entityId, name: `Failed ${entityId}`, country: 'CL', taxId: '76.086.428-5', currency: 'CLP' });
        await t.app.get(OrganizationsService).create({ name: `Failed org ${entityId}` });
        throw new Error('the job failed after creating');
      });
      await expect(failed).rejects.toThrow('the job failed after creating');
      expect(await countRows(t, 'entities', 'id = $1', [entityId])).toBe(0);
      expect(await countRows(t, 'organizations')).toBe(organizations);
      expect(await auditRowCount(t)).toBe(audits);
    });

    it('refuses a system actor not named system:<name>', async () => {
      await expect(system.run({ ...bankSync('x'), actor: 'bank-sync' as `system:${string}` }, async () => 1)).rejects.toThrow(/system:<name>/);
    });
  });

  describe('lifecycle listeners', () => {
    it('tells an unbooking once (allocations released first), inside its transaction, and presents what the listener severed', async () => {
      listener.writeMarker = true;
      listener.severed = (event) =>
        event.reason === 'unbooked'
          ? { severedInvoices: event.entryIds.map((entryId) => ({ id: 'inv-1', direction: 'ar', documentKind: 'invoice', documentNumber: '1001', partnerName: 'Cliente Uno SpA', entryId })) }
          : {};
      const res = await staff.delete(`${base()}/entries/${f.invoiceEntryId}`).expect(200);
      expect(reasons()).toEqual(['allocations_released', 'unbooked']);
      expect(listener.events.every((e) => e.inTransaction)).toBe(true);
      const [released, unbooked] = listener.events.map((e) => e.event);
      expect(unbooked).toEqual({ entityId: f.entityId, entryIds: [f.invoiceEntryId], reason: 'unbooked' });
      expect(released).toMatchObject({
        reason: 'allocations_released',
        allocations: [{ id: f.allocationId, debitLineId: f.receivableDebitLineId, creditLineId: f.receivableCreditLineId, amount: 100, kind: 'manual' }],
      });
      expect(released.entryIds).toHaveLength(2);
      expect(released.entryIds).toContain(f.invoiceEntryId);
      expect(res.body.severedInvoices).toEqual([{ id: 'inv-1', direction: 'ar', documentKind: 'invoice', documentNumber: '1001', partnerName: 'Cliente Uno SpA', entryId: f.invoiceEntryId }]);
      expect(res.body.severedMovements).toEqual([]);
      // The listener's writes committed with the unbooking.
      expect(await t.sql(`SELECT reason FROM test_listener_marks ORDER BY reason`)).toEqual([{ reason: 'allocations_released' }, { reason: 'unbooked' }]);
    });

    it('tells a reversal once (reversed), after the released allocations and the netting made (allocations_made)', async () => {
      await staff.post(`${base()}/entries/${f.invoiceEntryId}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-14' }).expect(201);
      expect(reasons()).toEqual(['allocations_released', 'allocations_made', 'reversed']);
      expect(listener.events[1].event).toMatchObject({ entityId: f.entityId, reason: 'allocations_made', allocations: [{ kind: 'reversal' }] });
      expect(listener.events[2].event).toEqual({ entityId: f.entityId, entryIds: [f.invoiceEntryId], reason: 'reversed' });
      listener.reset();
      await staff.post(`${base()}/entries/${f.saleEntryId}/reverse`).send({ id: randomUUID(), reversalDate: '2026-06-14' }).expect(201);
      expect(reasons()).toEqual(['reversed']);
    });

    it('tells the unbooking of a reversed original with its reversal in one event', async () => {
      await staff.delete(`${base()}/entries/${f.reversedEntryId}`).expect(200);
      // Its lines are on balance accounts: no netting allocation to release.
      expect(listener.events.map((e) => e.event)).toEqual([{ entityId: f.entityId, reason: 'unbooked', entryIds: [f.reversedEntryId, f.reversalEntryId] }]);
    });

    it('tells the unbooking of a reversal (unbooked) and then its original put back (restored), in its transaction', async () => {
      await staff.delete(`${base()}/entries/${f.reversalEntryId}`).expect(200);
      expect(listener.events.map((e) => [e.event, e.inTransaction])).toEqual([
        [{ entityId: f.entityId, reason: 'unbooked', entryIds: [f.reversalEntryId] }, true],
        [{ entityId: f.entityId, reason: 'restored', entryIds: [f.reversedEntryId] }, true],
      ]);
    });

    it('tells a cancellation once (cancelled)', async () => {
      await staff.delete(`${base()}/scheduled-entries/${f.scheduledEntryId}`).expect(200);
      expect(listener.events.map((e) => [e.event, e.inTransaction])).toEqual([[{ entityId: f.entityId, entryIds: [f.scheduledEntryId], reason: 'cancelled' }, true]]);
    });

    it('tells a removed allocation once (allocations_released)', async () => {
      await staff.delete(`${base()}/allocations/${f.allocationId}`).expect(200);
      expect(reasons()).toEqual(['allocations_released']);
      expect(listener.events[0].event).toMatchObject({ entityId: f.entityId, allocations: [{ id: f.allocationId, amount: 100 }] });
    });

    it('tells nothing for a memo edit; an allocation made (allocations_made) and a new date (redated) for read models (issue 22)', async () => {
      await staff.patch(`${base()}/entries/${f.saleEntryId}`).send({ memo: 'Otra glosa' }).expect(200);
      expect(listener.events).toEqual([]);
      const allocationId = randomUUID();
      await staff.post(`${base()}/allocations`).send({ id: allocationId, debitLineId: f.receivableDebitLineId, creditLineId: f.receivableCreditLineId, amount: 1 }).expect(201);
      expect(listener.events.map((e) => [e.event.reason, e.inTransaction])).toEqual([['allocations_made', true]]);
      expect(listener.events[0].event).toMatchObject({ entityId: f.entityId, allocations: [{ id: allocationId, debitLineId: f.receivableDebitLineId, creditLineId: f.receivableCreditLineId, amount: 1, kind: 'manual' }] });
      listener.reset();
      const entry = (await staff.get(`${base()}/entries/${f.saleEntryId}`).expect(200)).body;
      const day = entry.entryDate === '2026-06-01' ? '2026-06-02' : '2026-06-01';
      await staff.patch(`${base()}/entries/${f.saleEntryId}`).send({ entryDate: day }).expect(200);
      expect(listener.events.map((e) => e.event)).toEqual([{ entityId: f.entityId, entryIds: [f.saleEntryId], reason: 'redated', entryDate: day }]);
    });

    it('rolls the unbooking back when a listener throws: nothing written, no audit row', async () => {
      listener.writeMarker = true;
      listener.failOn = 'unbooked';
      const before = await tableFingerprint(t, [...LEDGER_TABLES, 'test_listener_marks']);
      const res = await staff.delete(`${base()}/entries/${f.invoiceEntryId}`);
      expect(res.status).toBe(500);
      expect(reasons()).toEqual(['allocations_released', 'unbooked']);
      expect(await tableFingerprint(t, [...LEDGER_TABLES, 'test_listener_marks'])).toEqual(before);
      const entry = await staff.get(`${base()}/entries/${f.invoiceEntryId}`).expect(200);
      expect([entry.body.status, entry.body.allocations.length]).toEqual(['active', 1]);
    });

    it('rolls a cancellation back when a listener throws', async () => {
      listener.failOn = 'cancelled';
      const before = await tableFingerprint(t, LEDGER_TABLES);
      expect((await staff.delete(`${base()}/scheduled-entries/${f.scheduledEntryId}`)).status).toBe(500);
      expect(await tableFingerprint(t, LEDGER_TABLES)).toEqual(before);
    });

    it('tells a use case run outside HTTP inside its unit of work', async () => {
      await system.run(bankSync('ledger_entry.unbook'), () => unbooking.unbook(f.entityId, f.saleEntryId));
      expect(listener.events.map((e) => [e.event.reason, e.inTransaction])).toEqual([['unbooked', true]]);
    });

    it('shows the documents an entry booked on its detail (relatedInvoices, relatedBankMovements) from the document sources', async () => {
      listener.related = (entryId) =>
        entryId === f.saleEntryId
          ? {
              relatedInvoices: [{ id: 'inv-9', direction: 'ar', documentKind: 'invoice', documentNumber: '9', partnerName: null }],
              relatedBankMovements: [{ id: 'mov-1', bankAccountId: 'bank-1', movementDate: '2026-06-01', amount: 1000, side: 'debit', bankAccountCurrency: 'CLP' }],
            }
          : {};
      const detail = await staff.get(`${base()}/entries/${f.saleEntryId}`).expect(200);
      expect(detail.body.relatedInvoices).toEqual([{ id: 'inv-9', direction: 'ar', documentKind: 'invoice', documentNumber: '9', partnerName: null }]);
      expect(detail.body.relatedBankMovements).toEqual([{ id: 'mov-1', bankAccountId: 'bank-1', movementDate: '2026-06-01', amount: 1000, side: 'debit', bankAccountCurrency: 'CLP' }]);
      const other = await staff.get(`${base()}/entries/${f.invoiceEntryId}`).expect(200);
      expect([other.body.relatedInvoices, other.body.relatedBankMovements]).toEqual([[], []]);
    });
  });
});
