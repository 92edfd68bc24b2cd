import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { TestApp } from './harness/test-app';
import { Agent, createLedgerAccount, createWorldApp, freshEntity, World } from './harness/world';

type Step =
  | { kind: 'manual'; amount: number; side: 'debit' | 'credit' }
  | { kind: 'import'; rows: Array<{ day: number; amount: number }> }
  | { kind: 'delete'; pick: number }
  | { kind: 'book'; pick: number }
  | { kind: 'unbook'; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('manual' as const), amount: fc.integer({ min: 1, max: 5000 }), side: fc.constantFrom('debit' as const, 'credit' as const) }),
  fc.record({ kind: fc.constant('import' as const), rows: fc.array(fc.record({ day: fc.integer({ min: 1, max: 3 }), amount: fc.integer({ min: -50, max: 50 }).filter((n) => n !== 0) }), { maxLength: 6 }) }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('book' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('unbook' as const), pick: fc.nat() }),
);

/**
 * The unreconciled count and the balance are kept, not counted (triggers, monthly totals): after
 * any sequence of manual movements, imports (with repeated rows and re-imports), deletions,
 * bookings and unbookings they must equal a model's, and the stored count the movements' own.
 */
describe('bank account summary against a model', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp());
  });
  afterAll(() => t.close());

  it('unreconciledCount and balance follow every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        const entityId = await freshEntity(world);
        const cash = await createLedgerAccount(staff, entityId, { code: '1101', type: 'asset', tracking: 'balance' });
        const income = await createLedgerAccount(staff, entityId, { code: '4101', type: 'income', tracking: 'balance' });
        const accountId = randomUUID();
        await staff.post(`/api/entities/${entityId}/bank-accounts`).send({ id: accountId, name: 'B', kind: 'bank', ledgerAccountId: cash, currency: 'CLP' }).expect(201);
        const base = `/api/entities/${entityId}`;
        // The model: every movement with its signed amount and the entry that booked it.
        const movements = new Map<string, { signed: number; entryId: string | null }>();
        const imported = new Set<string>();
        for (const s of steps) {
          const unbooked = [...movements].filter(([, m]) => m.entryId === null).map(([id]) => id);
          const booked = [...movements].filter(([, m]) => m.entryId !== null).map(([id]) => id);
          if (s.kind === 'manual') {
            const id = randomUUID();
            await staff.post(`${base}/bank-accounts/${accountId}/movements`).send({ id, movementDate: '2026-03-01', description: 'm', amount: s.amount, side: s.side }).expect(201);
            movements.set(id, { signed: s.side === 'debit' ? s.amount : -s.amount, entryId: null });
          } else if (s.kind === 'import') {
            const csv = `date,description,amount\n${s.rows.map((r) => `2026-03-0${r.day},x,${r.amount}`).join('\n')}\n`;
            const res = await staff.post(`${base}/bank-accounts/${accountId}/movements/import`).set('content-type', 'text/csv').send(csv).expect(201);
            // Content with its occurrence in the file: what a re-import finds again.
            const seen = new Map<string, number>();
            let landed = 0;
            for (const r of s.rows) {
              const key = `${r.day}|${r.amount}`;
              const n = (seen.get(key) ?? 0) + 1;
              seen.set(key, n);
              if (!imported.has(`${key}|${n}`)) {
                imported.add(`${key}|${n}`);
                landed++;
              }
            }
            expect(res.body).toEqual({ landedCount: landed, skippedCount: s.rows.length - landed });
            const rows = await t.sql<{ id: string; amount: number; side: string }>(`SELECT id, amount::int, side FROM bank_movements WHERE entity_id = $1 AND source = 'import'`, [entityId]);
            for (const r of rows) if (!movements.has(r.id)) movements.set(r.id, { signed: r.side === 'debit' ? r.amount : -r.amount, entryId: null });
          } else if (s.kind === 'delete' && unbooked.length > 0) {
            const id = unbooked[s.pick % unbooked.length];
            await staff.delete(`${base}/bank-movements/${id}`).expect(200);
            movements.delete(id);
          } else if (s.kind === 'book' && unbooked.length > 0) {
            const id = unbooked[s.pick % unbooked.length];
            const entryId = randomUUID();
            await staff.post(`${base}/bank-movements/${id}/book`).send({ entryId, counterAccountId: income }).expect(200);
            movements.get(id)!.entryId = entryId;
          } else if (s.kind === 'unbook' && booked.length > 0) {
            const id = booked[s.pick % booked.length];
            await staff.delete(`${base}/ledger/entries/${movements.get(id)!.entryId}`).expect(200);
            movements.get(id)!.entryId = null;
          }
          const [summary] = (await staff.get(`${base}/bank-accounts`).expect(200)).body;
          const model = [...movements.values()];
          expect({ unreconciledCount: summary.unreconciledCount, balance: summary.balance }).toEqual({
            unreconciledCount: model.filter((m) => m.entryId === null).length,
            balance: model.filter((m) => m.entryId !== null).reduce((sum, m) => sum + m.signed, 0),
          });
          const [{ stored, counted }] = await t.sql<{ stored: number; counted: number }>(
            `SELECT a.unreconciled_count AS stored, (SELECT count(*)::int FROM bank_movements m WHERE m.entity_id = a.entity_id AND m.bank_account_id = a.id AND m.ledger_entry_id IS NULL) AS counted
               FROM bank_accounts a WHERE a.entity_id = $1`,
            [entityId],
          );
          expect(stored).toBe(counted);
        }
      }),
      { numRuns: 8 },
    );
  });
});
