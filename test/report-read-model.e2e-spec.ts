import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { FixedClock } from '../src/platform/clock/clock';
import type { TestApp } from './harness/test-app';
import { CURRENCY_EXPONENTS } from '../migrations/1796614813194-RevenueMonths';
import { revenueCellsSql } from '../src/modules/reports/infrastructure/persistence/revenue-months.sql';
import { Agent, createWorldApp, freshEntity, World } from './harness/world';

/**
 * Issue 22: the booked-invoices read model (report_booked_invoices, report_invoice_settlements)
 * that home's open positions and revenue realization read is kept in the transaction of every
 * booking, allocation, allocation removal, unbooking, reversal and new entry date. After random
 * sequences of those, made through the routes (refusals allowed, never a 500), it equals what the
 * raw tables say: booked invoices with a live entry and their open-item line, the allocations
 * settling that line (not a reversal's netting) dated by the settling entry; and home's
 * receivables and payables (kept in report_open_positions) equal the sums of the raw open amounts.
 *
 * Issue 35: revenue realization's cells (report_revenue_cells) equal those computed afresh from
 * the read model's rows, the kept months (report_revenue_months, summed over their slots) equal
 * the cells' sums, and the figures of whole-month ranges read from them equal the cell-by-cell
 * path's (a presentation currency at rate 1).
 */
const NOW = new Date('2026-03-20T15:00:00Z');
const DAY = 86_400_000;
const dayOf = (n: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + n * DAY).toISOString().slice(0, 10);
/** Days 0..78: 2026-01-01..2026-03-20 (today). */
const DAYS = 79;

type Op =
  | { kind: 'invoice'; net: number; day: number; periodDays: number | null; direction: 'ar' | 'ap' }
  | { kind: 'pay'; target: number; fraction: number; day: number }
  | { kind: 'deallocate'; target: number }
  | { kind: 'unbook'; target: number }
  | { kind: 'reverse'; target: number; later: number }
  | { kind: 'redate'; target: number; day: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('invoice' as const),
    net: fc.integer({ min: 1, max: 5_000_000 }),
    day: fc.integer({ min: 0, max: DAYS - 1 }),
    periodDays: fc.option(fc.integer({ min: 1, max: 120 })),
    direction: fc.constantFrom('ar' as const, 'ar' as const, 'ap' as const),
  }),
  fc.record({ kind: fc.constant('pay' as const), target: fc.nat(), fraction: fc.double({ min: 0.05, max: 1, noNaN: true }), day: fc.integer({ min: 0, max: DAYS - 1 }) }),
  fc.record({ kind: fc.constant('pay' as const), target: fc.nat(), fraction: fc.constant(1), day: fc.integer({ min: 0, max: DAYS - 1 }) }),
  fc.record({ kind: fc.constant('deallocate' as const), target: fc.nat() }),
  fc.record({ kind: fc.constant('unbook' as const), target: fc.nat() }),
  fc.record({ kind: fc.constant('reverse' as const), target: fc.nat(), later: fc.integer({ min: 1, max: 20 }) }),
  fc.record({ kind: fc.constant('redate' as const), target: fc.nat(), day: fc.integer({ min: 0, max: DAYS - 1 }) }),
);

describe('booked-invoices read model (issue 22)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock: new FixedClock(NOW) }));
  });
  afterAll(() => t.close());

  /** The read model as stored, and as the raw tables define it, in one comparable shape. */
  async function readModelAndRaw(entityId: string) {
    const stored = await t.sql(
      `SELECT invoice_id, direction, entry_id, line_id, book_key, to_char(issue_date, 'YYYY-MM-DD') AS issue_date, to_char(due_date, 'YYYY-MM-DD') AS due_date,
              to_char(period_start, 'YYYY-MM-DD') AS period_start, to_char(period_end, 'YYYY-MM-DD') AS period_end, net_amount::text, exempt_amount::text,
              receivable_side, receivable_amount::text, to_char(booked_on, 'YYYY-MM-DD') AS booked_on, settled_amount::text, to_char(last_settled_on, 'YYYY-MM-DD') AS last_settled_on
         FROM report_booked_invoices WHERE entity_id = $1 ORDER BY invoice_id`,
      [entityId],
    );
    const raw = await t.sql(
      `SELECT i.id AS invoice_id, i.direction, i.ledger_entry_id AS entry_id, l.id AS line_id, coalesce(l.book_id, '00000000-0000-0000-0000-000000000000'::uuid) AS book_key,
              to_char(i.issue_date, 'YYYY-MM-DD') AS issue_date, to_char(i.due_date, 'YYYY-MM-DD') AS due_date,
              to_char(coalesce(i.service_period_start, i.issue_date), 'YYYY-MM-DD') AS period_start, to_char(coalesce(i.service_period_end, i.issue_date), 'YYYY-MM-DD') AS period_end,
              i.net_amount::text, i.exempt_amount::text, l.side AS receivable_side, l.amount::text AS receivable_amount, to_char(l.entry_date, 'YYYY-MM-DD') AS booked_on,
              l.allocated_amount::text AS settled_amount,
              (SELECT to_char(max(s.entry_date), 'YYYY-MM-DD') FROM reconciliation_allocations a
                 JOIN ledger_lines s ON s.entity_id = a.entity_id AND s.id = CASE WHEN a.debit_line_id = l.id THEN a.credit_line_id ELSE a.debit_line_id END
                WHERE a.entity_id = l.entity_id AND (a.debit_line_id = l.id OR a.credit_line_id = l.id) AND a.kind <> 'reversal' AND s.status IN ('active', 'reversed')) AS last_settled_on
         FROM invoices i JOIN ledger_lines l ON l.entity_id = i.entity_id AND l.id = i.open_item_line_id
        WHERE i.entity_id = $1 AND i.book_status = 'booked' AND l.status IN ('active', 'reversed')
        ORDER BY i.id`,
      [entityId],
    );
    const storedSettlements = await t.sql(
      `SELECT invoice_id, allocation_id, settling_entry_id, to_char(settled_on, 'YYYY-MM-DD') AS settled_on, amount::text FROM report_invoice_settlements
        WHERE entity_id = $1 ORDER BY invoice_id, allocation_id`,
      [entityId],
    );
    const rawSettlements = await t.sql(
      `SELECT i.id AS invoice_id, a.id AS allocation_id, s.entry_id AS settling_entry_id, to_char(s.entry_date, 'YYYY-MM-DD') AS settled_on, a.amount::text
         FROM invoices i
         JOIN ledger_lines l ON l.entity_id = i.entity_id AND l.id = i.open_item_line_id AND l.status IN ('active', 'reversed')
         JOIN reconciliation_allocations a ON a.entity_id = l.entity_id AND (a.debit_line_id = l.id OR a.credit_line_id = l.id) AND a.kind <> 'reversal'
         JOIN ledger_lines s ON s.entity_id = a.entity_id AND s.id = CASE WHEN a.debit_line_id = l.id THEN a.credit_line_id ELSE a.debit_line_id END AND s.status IN ('active', 'reversed')
        WHERE i.entity_id = $1 AND i.book_status = 'booked'
        ORDER BY i.id, a.id`,
      [entityId],
    );
    // Home's figures from the raw lines: receivables debit-positive, payables credit-positive.
    const openOf = async (direction: 'ar' | 'ap') => {
      const [row] = await t.sql<{ open: string; overdue: string }>(
        `SELECT coalesce(sum(l.amount - l.allocated_amount), 0)::text AS open, coalesce(sum(l.amount - l.allocated_amount) FILTER (WHERE i.due_date < '2026-03-20'), 0)::text AS overdue
           FROM invoices i JOIN ledger_lines l ON l.entity_id = i.entity_id AND l.id = i.open_item_line_id
          WHERE i.entity_id = $1 AND i.book_status = 'booked' AND i.direction = $2 AND l.status IN ('active', 'reversed')`,
        [entityId, direction],
      );
      return { open: Number(row.open), overdue: Number(row.overdue) };
    };
    return { stored, raw, storedSettlements, rawSettlements, receivables: await openOf('ar'), payables: await openOf('ap') };
  }

  /** Revenue realization's kept cells and months, and the same computed afresh from the read model. */
  async function revenueKeptAndFresh(entityId: string) {
    const cellColumns = `invoice_id, to_char(month, 'YYYY-MM-DD') AS month, book_key, to_char(issue_month, 'YYYY-MM-DD') AS issue_month, to_char(booked_month, 'YYYY-MM-DD') AS booked_month,
                         recognized::text, billed::text, collected::text, open_change::text`;
    const keptCells = await t.sql(`SELECT ${cellColumns} FROM report_revenue_cells WHERE entity_id = $1 ORDER BY invoice_id, month`, [entityId]);
    const freshCells = await t.sql(
      `SELECT ${cellColumns} FROM (${revenueCellsSql(
        `(SELECT r.* FROM report_booked_invoices r WHERE r.entity_id = $1 AND r.direction = 'ar')`,
        `(SELECT st.invoice_id, st.settled_on, st.amount FROM report_invoice_settlements st WHERE st.entity_id = $1)`,
        `(SELECT e.currency FROM entities e WHERE e.id = $1)`,
        '$2::jsonb',
      )}) c ORDER BY invoice_id, month`,
      [entityId, CURRENCY_EXPONENTS],
    );
    const sums = `sum(recognized)::text AS recognized, sum(billed)::text AS billed, sum(collected)::text AS collected, sum(open_change)::text AS open_change`;
    const nonZero = `HAVING sum(recognized) <> 0 OR sum(billed) <> 0 OR sum(collected) <> 0 OR sum(open_change) <> 0`;
    const keptMonths = await t.sql(
      `SELECT book_key, to_char(month, 'YYYY-MM-DD') AS month, to_char(issue_month, 'YYYY-MM-DD') AS issue_month, ${sums}
         FROM report_revenue_months WHERE entity_id = $1 GROUP BY 1, 2, 3 ${nonZero} ORDER BY 1, 2, 3`,
      [entityId],
    );
    const cellMonths = await t.sql(
      `SELECT book_key, to_char(month, 'YYYY-MM-DD') AS month, to_char(issue_month, 'YYYY-MM-DD') AS issue_month, ${sums}
         FROM report_revenue_cells WHERE entity_id = $1 GROUP BY 1, 2, 3 ${nonZero} ORDER BY 1, 2, 3`,
      [entityId],
    );
    return { keptCells, freshCells, keptMonths, cellMonths };
  }

  it('equals the raw tables after random bookings, payments, allocations, removals, unbookings, reversals and new dates', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 14 }), async (ops) => {
        runs++;
        const entityId = await freshEntity(world);
        const base = `/api/entities/${entityId}`;
        const send = async (method: 'post' | 'delete' | 'patch', path: string, body?: Record<string, unknown>) => {
          const res = await staff[method](`${base}${path}`).send(body);
          // Refusals are part of the game (an entry already unbooked, a reversal dated before its original); a 500 never is.
          expect(res.status).toBeLessThan(500);
          return res;
        };
        const ids: Record<string, string> = {};
        for (const [key, code, type, extra] of [
          ['bank', '1101', 'asset', {}],
          ['receivable', '1201', 'asset', { tracking: 'open_item', subtype: 'receivable' }],
          ['payable', '2201', 'liability', { tracking: 'open_item', subtype: 'payable' }],
          ['sales', '4101', 'income', {}],
          ['rent', '5101', 'operating_expense', {}],
        ] as const) {
          ids[key] = randomUUID();
          expect((await send('post', '/ledger/accounts', { id: ids[key], name: key, code, type, tracking: 'balance', ...extra })).status).toBe(201);
        }
        const partnerId = randomUUID();
        expect((await send('post', '/partners', { id: partnerId, name: 'Cliente SpA', type: 'company', country: 'CL', taxId: '76.086.428-5' })).status).toBe(201);

        const invoices: Array<{ direction: 'ar' | 'ap'; lineId: string; entryId: string; amount: number }> = [];
        const entries: string[] = [];
        const allocations: string[] = [];
        let number = 0;
        for (const o of ops) {
          if (o.kind === 'invoice') {
            const id = randomUUID();
            const period = o.periodDays === null ? {} : { servicePeriodStart: dayOf(o.day), servicePeriodEnd: new Date(Date.parse(dayOf(o.day)) + (o.periodDays - 1) * DAY).toISOString().slice(0, 10) };
            const created = await send('post', '/invoices', {
              id,
              partnerId,
              direction: o.direction,
              documentKind: 'invoice',
              documentNumber: String(++number),
              issueDate: dayOf(o.day),
              dueDate: dayOf(Math.min(o.day + 30, DAYS - 1)),
              currency: 'CLP',
              netAmount: o.net,
              exemptAmount: 0,
              taxAmount: 0,
              totalAmount: o.net,
              ...(o.direction === 'ar' ? period : {}),
            });
            expect(created.status).toBe(201);
            const entryId = randomUUID();
            const booked = await send('post', `/invoices/${id}/book`, { entryId, counterAccountId: o.direction === 'ar' ? ids.sales : ids.rent });
            expect(booked.status).toBe(200);
            const line = (booked.body.entry.lines as Array<{ id: string; ledgerAccountId: string }>).find((l) => l.ledgerAccountId === ids[o.direction === 'ar' ? 'receivable' : 'payable'])!;
            invoices.push({ direction: o.direction, lineId: line.id, entryId, amount: o.net });
            entries.push(entryId);
          } else if (o.kind === 'pay' && invoices.length > 0) {
            const invoice = invoices[o.target % invoices.length];
            const amount = Math.max(1, Math.floor(invoice.amount * o.fraction));
            const openItem = invoice.direction === 'ar' ? ids.receivable : ids.payable;
            const lines =
              invoice.direction === 'ar'
                ? [{ side: 'debit', ledgerAccountId: ids.bank, amount }, { side: 'credit', ledgerAccountId: openItem, amount, partnerId }]
                : [{ side: 'debit', ledgerAccountId: openItem, amount, partnerId }, { side: 'credit', ledgerAccountId: ids.bank, amount }];
            const posted = await send('post', '/ledger/entries', { id: randomUUID(), entryDate: dayOf(o.day), memo: 'pago', newLedgerEntryLines: lines });
            expect(posted.status).toBe(201);
            entries.push(posted.body.id);
            const paymentLine = (posted.body.lines as Array<{ id: string; ledgerAccountId: string }>).find((l) => l.ledgerAccountId === openItem)!.id;
            const allocationId = randomUUID();
            const [debitLineId, creditLineId] = invoice.direction === 'ar' ? [invoice.lineId, paymentLine] : [paymentLine, invoice.lineId];
            // Refused when the invoice is already settled or no longer booked: the read model must not move then.
            const allocated = await send('post', '/ledger/allocations', { id: allocationId, debitLineId, creditLineId, amount });
            if (allocated.status === 201) allocations.push(allocationId);
          } else if (o.kind === 'deallocate' && allocations.length > 0) {
            await send('delete', `/ledger/allocations/${allocations[o.target % allocations.length]}`);
          } else if (o.kind === 'unbook' && entries.length > 0) {
            await send('delete', `/ledger/entries/${entries[o.target % entries.length]}`);
          } else if (o.kind === 'reverse' && entries.length > 0) {
            const entryId = entries[o.target % entries.length];
            const reversalId = randomUUID();
            const reversed = await send('post', `/ledger/entries/${entryId}/reverse`, { id: reversalId, reversalDate: dayOf(DAYS - 1) });
            if (reversed.status === 201) entries.push(reversalId);
          } else if (o.kind === 'redate' && entries.length > 0) {
            await send('patch', `/ledger/entries/${entries[o.target % entries.length]}`, { entryDate: dayOf(o.day) });
          }
        }

        const { stored, raw, storedSettlements, rawSettlements, receivables, payables } = await readModelAndRaw(entityId);
        expect(stored).toEqual(raw);
        expect(storedSettlements).toEqual(rawSettlements);
        const home = await staff.get(`${base}/reports/home`);
        expect(home.status).toBe(200);
        expect({ receivables: home.body.receivables, payables: home.body.payables }).toEqual({ receivables, payables });

        const { keptCells, freshCells, keptMonths, cellMonths } = await revenueKeptAndFresh(entityId);
        expect(keptCells).toEqual(freshCells);
        expect(keptMonths).toEqual(cellMonths);
        for (const range of [
          { from: '2026-01-01', to: '2026-03-31' },
          { from: '2026-02-01', to: '2026-02-28' },
          { from: '2026-03-01', to: '2026-06-30' },
        ]) {
          const kept = await staff.get(`${base}/reports/revenue-realization`).query(range);
          const cells = await staff.get(`${base}/reports/revenue-realization`).query({ ...range, presentationCurrency: 'JPY', presentationRate: '1' });
          expect([kept.status, cells.status]).toEqual([200, 200]);
          expect({ months: kept.body.months, totals: kept.body.totals }).toEqual({ months: cells.body.months, totals: cells.body.totals });
        }
      }),
      { numRuns: 8, seed: 22, endOnFailure: true },
    );
    expect(runs).toBe(8);
  }, 180_000);
  it('keeps revenue realization\'s cells and months exact under concurrent bookings, payments and unbookings (issue 35)', async () => {
    const entityId = await freshEntity(world);
    const base = `/api/entities/${entityId}`;
    const ids: Record<string, string> = {};
    for (const [key, code, type, extra] of [
      ['bank', '1101', 'asset', {}],
      ['receivable', '1201', 'asset', { tracking: 'open_item', subtype: 'receivable' }],
      ['sales', '4101', 'income', {}],
    ] as const) {
      ids[key] = randomUUID();
      expect((await staff.post(`${base}/ledger/accounts`).send({ id: ids[key], name: key, code, type, tracking: 'balance', ...extra })).status).toBe(201);
    }
    const partnerId = randomUUID();
    expect((await staff.post(`${base}/partners`).send({ id: partnerId, name: 'Cliente SpA', type: 'company', country: 'CL', taxId: '76.086.428-5' })).status).toBe(201);
    // Eight invoices of one month (the same months rows), 1,000,000 + k each over 31 + k days from 2026-01-10.
    const invoiceIds = Array.from({ length: 8 }, () => randomUUID());
    for (const [k, id] of invoiceIds.entries()) {
      const net = 1_000_000 + k;
      const created = await staff.post(`${base}/invoices`).send({
        id, partnerId, direction: 'ar', documentKind: 'invoice', documentNumber: String(k + 1), issueDate: '2026-01-10', currency: 'CLP',
        netAmount: net, exemptAmount: 0, taxAmount: 0, totalAmount: net, servicePeriodStart: '2026-01-10', servicePeriodEnd: dayOf(9 + 30 + k),
      });
      expect(created.status).toBe(201);
    }
    const entryIds = invoiceIds.map(() => randomUUID());
    const booked = await Promise.all(invoiceIds.map((id, k) => staff.post(`${base}/invoices/${id}/book`).send({ entryId: entryIds[k], counterAccountId: ids.sales })));
    expect(booked.map((r) => r.status)).toEqual(invoiceIds.map(() => 200));
    const lineOf = (k: number) => (booked[k].body.entry.lines as Array<{ id: string; ledgerAccountId: string }>).find((l) => l.ledgerAccountId === ids.receivable)!.id;
    // Concurrently: half of each of the first six paid on 2026-02-05, the last two unbooked.
    const payments = Array.from({ length: 6 }, () => ({ entryId: randomUUID(), amount: 500_000 }));
    const results = await Promise.all([
      ...payments.map(async (p, k) => {
        const posted = await staff.post(`${base}/ledger/entries`).send({
          id: p.entryId, entryDate: '2026-02-05', memo: 'pago',
          newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: ids.bank, amount: p.amount }, { side: 'credit', ledgerAccountId: ids.receivable, amount: p.amount, partnerId }],
        });
        const paymentLine = (posted.body.lines as Array<{ id: string; ledgerAccountId: string }>).find((l) => l.ledgerAccountId === ids.receivable)!.id;
        return (await staff.post(`${base}/ledger/allocations`).send({ id: randomUUID(), debitLineId: lineOf(k), creditLineId: paymentLine, amount: p.amount })).status;
      }),
      ...[6, 7].map(async (k) => (await staff.delete(`${base}/ledger/entries/${entryIds[k]}`)).status),
    ]);
    expect(results).toEqual([201, 201, 201, 201, 201, 201, 200, 200]);

    const { keptCells, freshCells, keptMonths, cellMonths } = await revenueKeptAndFresh(entityId);
    expect(keptCells).toEqual(freshCells);
    expect(keptMonths).toEqual(cellMonths);
    // Hand-computed: six invoices of 1,000,000 + k (k = 0..5) booked on 2026-01-10, half of each paid on 2026-02-05.
    const res = await staff.get(`${base}/reports/revenue-realization`).query({ from: '2026-01-01', to: '2026-02-28' });
    expect(res.status).toBe(200);
    const billed = 6_000_015;
    // Recognized in January: 22 of 31 + k days of 1,000,000 + k, rounded down per invoice.
    const january = [0, 1, 2, 3, 4, 5].reduce((sum, k) => sum + Math.floor(((1_000_000 + k) * 22) / (31 + k)), 0);
    expect(res.body.totals).toEqual({ recognized: billed, billed, collected: 3_000_000, outstanding: billed - 3_000_000 });
    expect(res.body.months.map((m: { recognized: number; billed: number; collected: number; outstanding: number }) => [m.recognized, m.billed, m.collected, m.outstanding])).toEqual([
      [january, billed, 0, billed],
      [billed - january, 0, 3_000_000, billed - 3_000_000],
    ]);
  }, 60_000);
});
