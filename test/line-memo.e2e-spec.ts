import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { FixedClock } from '../src/platform/clock/clock';
import { buildLedgerFixture, LedgerFixture } from './harness/ledger-fixture';
import type { TestApp } from './harness/test-app';
import { createWorldApp, freshEntity, type Agent, type World } from './harness/world';

/**
 * Issue 32: each line carries its entry's memo (the partner ledger reads it from the line, not
 * from the entry). Every path that writes an entry writes its lines' memo, and every path that
 * changes an entry's memo (PATCH entries/:id, a scheduled entry replaced) moves its lines' with it.
 */
describe("each line carries its entry's memo (issue 32)", () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let f: LedgerFixture;
  const clock = new FixedClock(new Date('2026-06-15T15:00:00Z'));

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock }));
    f = await buildLedgerFixture(staff, await freshEntity(world));
  });
  afterAll(() => t.close());

  const base = () => `/api/entities/${f.entityId}`;

  /** Lines whose memo is not their entry's, in the whole database. */
  const astray = async () =>
    (
      await t.sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM ledger_lines l JOIN ledger_entries e ON e.entity_id = l.entity_id AND e.id = l.entry_id WHERE l.memo IS DISTINCT FROM e.memo`,
      )
    )[0].n;
  const lineMemos = async (entryId: string) =>
    (await t.sql<{ memo: string }>(`SELECT memo FROM ledger_lines WHERE entity_id = $1 AND entry_id = $2 ORDER BY line_no`, [f.entityId, entryId])).map((r) => r.memo);

  /** The partner ledger of the receivable account over 2026 (streamed, D56): per entry id, the memo of its line. */
  const partnerLedgerMemos = async () => {
    const res = await staff.get(`${base()}/ledger/partner-ledger?accountId=${f.receivable}&from=2026-01-01&to=2026-12-31`).expect(200);
    const partners = res.body.partners as Array<{ partnerId: string | null; closingBalance: string | number; lines: Array<{ entryId: string; memo: string }> }>;
    return {
      memos: new Map(partners.flatMap((p) => p.lines.map((l) => [l.entryId, l.memo] as const))),
      closing: new Map(partners.map((p) => [p.partnerId, String(p.closingBalance)])),
    };
  };

  const invoiceEntry = async (memo: string, entryDate = '2026-06-10') =>
    (
      await staff
        .post(`${base()}/ledger/entries`)
        .send({
          id: randomUUID(),
          entryDate,
          memo,
          newLedgerEntryLines: [
            { side: 'debit', ledgerAccountId: f.receivable, amount: 1190, partnerId: f.partnerId },
            { side: 'credit', ledgerAccountId: f.sales, amount: 1190 },
          ],
        })
        .expect(201)
    ).body as { id: string };

  it('every line the fixture wrote (postings, a reversal, a scheduled entry, an invoice and a bank booking) carries its entry memo', async () => {
    expect((await t.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_lines WHERE entity_id = $1`, [f.entityId]))[0].n).toBeGreaterThan(10);
    expect(await lineMemos(f.reversalEntryId)).toEqual(['Reversal of Fixture', 'Reversal of Fixture']);
    expect(await lineMemos(f.scheduledEntryId)).toEqual(['Scheduled fixture', 'Scheduled fixture']);
    expect(await astray()).toBe(0);
  });

  it("PATCH entries/:id: a new memo (trimmed) moves to the lines, and the partner ledger shows it with its figures unchanged", async () => {
    const entry = await invoiceEntry('Factura 101');
    const before = await partnerLedgerMemos();
    expect(before.memos.get(entry.id)).toBe('Factura 101');

    await staff.patch(`${base()}/ledger/entries/${entry.id}`).send({ memo: '  Factura 101 (corregida)  ' }).expect(200);
    expect(await lineMemos(entry.id)).toEqual(['Factura 101 (corregida)', 'Factura 101 (corregida)']);
    const after = await partnerLedgerMemos();
    expect(after.memos.get(entry.id)).toBe('Factura 101 (corregida)');
    expect(after.closing).toEqual(before.closing);

    // The notes alone leave the memo; a new date and memo together move both.
    await staff.patch(`${base()}/ledger/entries/${entry.id}`).send({ notes: 'Ver contrato' }).expect(200);
    expect(await lineMemos(entry.id)).toEqual(['Factura 101 (corregida)', 'Factura 101 (corregida)']);
    await staff.patch(`${base()}/ledger/entries/${entry.id}`).send({ entryDate: '2026-06-11', memo: 'Factura 102' }).expect(200);
    const rows = await t.sql<{ memo: string; entry_date: string }>(
      `SELECT memo, to_char(entry_date, 'YYYY-MM-DD') AS entry_date FROM ledger_lines WHERE entity_id = $1 AND entry_id = $2`,
      [f.entityId, entry.id],
    );
    expect(rows).toEqual([
      { memo: 'Factura 102', entry_date: '2026-06-11' },
      { memo: 'Factura 102', entry_date: '2026-06-11' },
    ]);
    expect((await partnerLedgerMemos()).memos.get(entry.id)).toBe('Factura 102');
    expect(await astray()).toBe(0);
    // The books read the memo from the line too: the Libro Diario and the Libro Mayor show the new one.
    const journal = await staff.get(`${base()}/reports/journal`).query({ from: '2026-06-11', to: '2026-06-11', format: 'csv' }).expect(200);
    expect(journal.text).toContain('Factura 102');
    expect(journal.text).not.toContain('Factura 101');
    const mayor = await staff.get(`${base()}/reports/general-ledger-book`).query({ from: '2026-06-11', to: '2026-06-11', format: 'csv' }).expect(200);
    expect(mayor.text).toContain('Factura 102');
    expect(mayor.text).not.toContain('Factura 101');
  });

  it('a scheduled entry replaced with a new memo, then booked: its lines carry the new memo', async () => {
    const id = randomUUID();
    const lines = (amount: number) => [
      { side: 'debit', ledgerAccountId: f.receivable, amount, partnerId: f.partnerId },
      { side: 'credit', ledgerAccountId: f.sales, amount },
    ];
    await staff.post(`${base()}/ledger/scheduled-entries`).send({ id, entryDate: '2026-07-15', memo: 'Arriendo julio', newLedgerEntryLines: lines(800) }).expect(201);
    expect(await lineMemos(id)).toEqual(['Arriendo julio', 'Arriendo julio']);
    await staff.patch(`${base()}/ledger/scheduled-entries/${id}`).send({ entryDate: '2026-07-20', memo: 'Arriendo julio (reajustado)', newLedgerEntryLines: lines(820) }).expect(200);
    expect(await lineMemos(id)).toEqual(['Arriendo julio (reajustado)', 'Arriendo julio (reajustado)']);
    // Booked on its date (a scheduled entry is booked once due).
    clock.set(new Date('2026-07-20T15:00:00Z'));
    try {
      await staff.post(`${base()}/ledger/scheduled-entries/${id}/book`).expect(200);
    } finally {
      clock.set(new Date('2026-06-15T15:00:00Z'));
    }
    expect((await partnerLedgerMemos()).memos.get(id)).toBe('Arriendo julio (reajustado)');
    expect(await astray()).toBe(0);
  });

  it('a reversal and a batch of entries write their lines with their memos', async () => {
    const entry = await invoiceEntry('Factura 201', '2026-06-05');
    const reversalId = randomUUID();
    await staff.post(`${base()}/ledger/entries/${entry.id}/reverse`).send({ id: reversalId, reversalDate: '2026-06-06', memo: 'Anula factura 201' }).expect(201);
    expect(await lineMemos(reversalId)).toEqual(['Anula factura 201', 'Anula factura 201']);
    const ids = [randomUUID(), randomUUID()];
    await staff
      .post(`${base()}/ledger/entry-batches`)
      .send({
        entries: ids.map((id, n) => ({
          id,
          entryDate: '2026-06-07',
          memo: `Importada ${n + 1}`,
          newLedgerEntryLines: [
            { side: 'debit', ledgerAccountId: f.receivable, amount: 100 + n, partnerId: f.partnerId },
            { side: 'credit', ledgerAccountId: f.sales, amount: 100 + n },
          ],
        })),
      })
      .expect(201);
    expect(await lineMemos(ids[0])).toEqual(['Importada 1', 'Importada 1']);
    expect(await lineMemos(ids[1])).toEqual(['Importada 2', 'Importada 2']);
    const shown = (await partnerLedgerMemos()).memos;
    expect([shown.get(entry.id), shown.get(reversalId), shown.get(ids[0]), shown.get(ids[1])]).toEqual(['Factura 201', 'Anula factura 201', 'Importada 1', 'Importada 2']);
    expect(await astray()).toBe(0);
  });

  it('property: after any sequence of header edits, every line carries the memo the entry answers', async () => {
    const entry = await invoiceEntry('Factura 301');
    const edit = fc.record(
      {
        memo: fc.stringMatching(/^[A-Za-zÁÉÍÓÚÑáéíóúñ0-9 ]{1,40}$/).filter((s) => s.trim() !== ''),
        entryDate: fc.constantFrom('2026-06-01', '2026-06-09', '2026-06-14'),
        notes: fc.option(fc.constantFrom('a', 'b'), { nil: null }),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 4 }), async (edits) => {
        for (const change of edits) {
          if (Object.keys(change).length === 0) continue;
          await staff.patch(`${base()}/ledger/entries/${entry.id}`).send(change).expect(200);
        }
        const answered = (await staff.get(`${base()}/ledger/entries/${entry.id}`).expect(200)).body as { memo: string };
        expect(await lineMemos(entry.id)).toEqual([answered.memo, answered.memo]);
        expect((await partnerLedgerMemos()).memos.get(entry.id)).toBe(answered.memo);
      }),
      { numRuns: 8 },
    );
    expect(await astray()).toBe(0);
  });
});
