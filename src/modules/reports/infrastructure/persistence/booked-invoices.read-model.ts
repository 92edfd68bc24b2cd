import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { type PartHost, type Sql, sql, type StatementPart, withParts } from '../../../../platform/database/statement-parts';
import { InvoiceBooked, InvoiceBookingListener, InvoiceBookingListenerProvider } from '../../../invoices';
import { EntryLifecycleEvent, EntryLifecycleListener, LedgerLifecycleListener, MadeAllocation, ReleasedAllocation, NIL_BOOK } from '../../../ledger';
import { entityFactsSql } from '../../../entities';
import { ReferenceDataService } from '../../../reference';
import { BOOKED_AR_INVOICES, insertCellsSql, moveMonthsSql, REVENUE_MONTH_SLOTS, revenueCellsSql, SETTLEMENTS_OF_INVOICES } from './revenue-months.sql';

/** Rows a position is spread over (ReportOpenPositionRecord.slot). */
const OPEN_POSITION_SLOTS = 16;

/**
 * The slots are dealt in turn, from a random start per process: the changes one process has in
 * flight at once (at most its pool's connections) then hold different rows of a position, where
 * random slots made a third of 8 concurrent bookings sharing a due date wait for another's
 * commit (bench/README.md, #18 stop 19). Processes still meet at random.
 */
let lastSlot = randomInt(OPEN_POSITION_SLOTS);
const nextSlot = () => (lastSlot = (lastSlot + 1) % OPEN_POSITION_SLOTS);
/** The revenue months' slots (REVENUE_MONTH_SLOTS), dealt in turn the same way. */
let lastRevenueSlot = randomInt(REVENUE_MONTH_SLOTS);
const nextRevenueSlot = () => (lastRevenueSlot = (lastRevenueSlot + 1) % REVENUE_MONTH_SLOTS);

/** The cells of the booked AR invoices $2 of the Entity $1 as they now are ($3 the exponents). */
const CURRENT_CELLS = revenueCellsSql(BOOKED_AR_INVOICES, SETTLEMENTS_OF_INVOICES, `(SELECT fx.currency FROM ${entityFactsSql('$1')} fx)`, '$3::jsonb');
const NO_SETTLEMENTS = `(SELECT NULL::uuid AS invoice_id, NULL::date AS settled_on, NULL::bigint AS amount WHERE false)`;

interface OpenMove {
  book_key: string;
  direction: string;
  due_date: string | null;
  delta: bigint;
}

/**
 * The upsert moving home's open positions (report_open_positions) by these debit-positive
 * deltas (on the next slot, nextSlot), or null when they are all zero. A booking runs it in its
 * last statement before COMMIT, so the row is held for the shortest time.
 */
function openShift(entityId: string, moves: OpenMove[]): StatementPart | null {
  const nonZero = moves.filter((m) => m.delta !== 0n);
  if (nonZero.length === 0) return null;
  const slot = nextSlot();
  // Rows in key order: two changes touching the same positions lock them in the same order.
  return ({ param, written }) =>
    sql`INSERT INTO report_open_positions (entity_id, book_key, direction, due_on, slot, open_amount)
       SELECT ${param(entityId)}::uuid, m.book_key, m.direction, coalesce(m.due_on, 'infinity'::date), ${param(slot)}::smallint, sum(m.delta)
         FROM unnest(${param(nonZero.map((m) => m.book_key))}::uuid[], ${param(nonZero.map((m) => m.direction))}::text[],
                     ${param(nonZero.map((m) => m.due_date))}::date[], ${param(nonZero.map((m) => m.delta.toString()))}::bigint[]) AS m(book_key, direction, due_on, delta)
        WHERE ${written}
        GROUP BY m.book_key, m.direction, coalesce(m.due_on, 'infinity'::date)
        ORDER BY 2, 3, 4
       ON CONFLICT (entity_id, book_key, direction, due_on, slot) DO UPDATE SET open_amount = report_open_positions.open_amount + EXCLUDED.open_amount`;
}

/**
 * Keeps `report_booked_invoices` and `report_invoice_settlements` (report.records.ts) in the
 * transaction of each change, told by the modules that make it: the invoices module's booking
 * hook inserts the row; the ledger's lifecycle port removes it when its entry is unbooked or
 * reversed, moves its settled amount and settlements with allocations made and released, and
 * its dates with an entry's new date. A listener that throws rolls the change back, so the
 * read model never disagrees with a committed ledger.
 */
@Injectable()
@LedgerLifecycleListener()
export class BookedInvoicesReadModel implements EntryLifecycleListener {
  /** Each currency's minor-unit exponent (jsonb text), for the revenue cells' conversion (D7). */
  private readonly exponents: string;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    reference: ReferenceDataService,
  ) {
    this.exponents = JSON.stringify(Object.fromEntries(reference.listCurrencies().map((c) => [c.code, c.minorUnits])));
  }

  private query<T = unknown>(sql: string, values: unknown[]): Promise<T[]> {
    return this.txHost.tx.query(sql, values);
  }

  /** The read model's writes for an invoice just booked, each under its host's condition (InvoiceBookingListener). */
  booked(entityId: string, b: InvoiceBooked): StatementPart[] {
    const i = b.invoice;
    const row: StatementPart = ({ param, written }) => {
      const [issue, periodStart, periodEnd] = [param(i.issueDate), param(i.servicePeriodStart), param(i.servicePeriodEnd)];
      return sql`INSERT INTO report_booked_invoices (entity_id, invoice_id, direction, entry_id, line_id, book_key, document_kind, document_number, partner_id, issue_date, due_date,
                                           service_period_start, service_period_end, period_start, period_end, currency, exchange_rate, net_amount, exempt_amount,
                                           receivable_side, receivable_amount, booked_on, settled_amount, last_settled_on)
       SELECT ${param(entityId)}::uuid, ${param(i.id)}::uuid, ${param(i.direction)}::text, ${param(b.entryId)}::uuid, ${param(b.openItemLine.id)}::uuid,
              ${param(b.bookId ?? NIL_BOOK)}::uuid, ${param(i.documentKind)}::text, ${param(i.documentNumber)}::text, ${param(i.partnerId)}::uuid,
              ${issue}::date, ${param(i.dueDate)}::date, ${periodStart}::date, ${periodEnd}::date, coalesce(${periodStart}::date, ${issue}::date),
              coalesce(${periodEnd}::date, ${issue}::date), ${param(i.currency)}::text, ${param(i.exchangeRate)}::numeric, ${param(i.netAmount)}::bigint,
              ${param(i.exemptAmount)}::bigint, ${param(b.openItemLine.side)}::text, ${param(b.openItemLine.amount)}::bigint, ${param(b.entryDate)}::date, 0, NULL
        WHERE ${written}`;
    };
    const sideSign = b.openItemLine.side === 'debit' ? 1n : -1n;
    const open = openShift(entityId, [{ book_key: b.bookId ?? NIL_BOOK, direction: i.direction, due_date: i.dueDate, delta: sideSign * BigInt(b.openItemLine.amount) }]);
    const parts = open ? [row, open] : [row];
    if (i.direction === 'ar') {
      // Revenue realization's cells and months (issue 35), computed from the booking's values (the
      // host's CTEs do not see each other's rows). revenueCellsSql composes only the host's
      // placeholders and constant text, so its string is the part's Sql.
      const cells = (param: PartHost['param']) => {
        const [issue, entity] = [param(i.issueDate), param(entityId)];
        const invoice = `(SELECT ${entity}::uuid AS entity_id, ${param(i.id)}::uuid AS invoice_id, ${param(b.bookId ?? NIL_BOOK)}::uuid AS book_key, ${issue}::date AS issue_date,
                 coalesce(${param(i.servicePeriodStart)}::date, ${issue}::date) AS period_start, coalesce(${param(i.servicePeriodEnd)}::date, ${issue}::date) AS period_end,
                 ${param(i.currency)}::text AS currency, ${param(i.exchangeRate)}::numeric AS exchange_rate, ${param(i.netAmount)}::bigint AS net_amount,
                 ${param(i.exemptAmount)}::bigint AS exempt_amount, ${param(b.openItemLine.side)}::text AS receivable_side, ${param(i.documentKind)}::text AS document_kind,
                 ${param(b.openItemLine.amount)}::bigint AS receivable_amount, ${param(b.entryDate)}::date AS booked_on)`;
        return { entity, text: revenueCellsSql(invoice, NO_SETTLEMENTS, `(SELECT fx.currency FROM ${entityFactsSql(entity)} fx)`, `${param(this.exponents)}::jsonb`) };
      };
      // Built once for the host: both parts share its placeholders (the same values bound once).
      let built: { param: PartHost['param']; entity: string; text: string } | null = null;
      const cellsOf = (param: PartHost['param']) => (built?.param === param ? built : (built = { param, ...cells(param) }));
      const slot = nextRevenueSlot();
      parts.push(({ param, written }) => {
        const { entity, text } = cellsOf(param);
        return insertCellsSql(text, written, { entity }) as Sql;
      });
      parts.push(({ param, written }) => {
        const { entity, text } = cellsOf(param);
        return moveMonthsSql(entity, `(${text})`, 1, `${param(slot)}::smallint`, written) as Sql;
      });
    }
    return parts;
  }

  /**
   * Revenue realization's cells of these invoices written afresh from their rows and settlements
   * as they now are, the months moved by the difference. `stillBooked` false: the invoices' rows
   * are gone, so their cells are only removed.
   */
  private async refreshRevenue(entityId: string, invoiceIds: string[], stillBooked = true): Promise<void> {
    if (invoiceIds.length === 0) return;
    const ids = [...new Set(invoiceIds)].sort();
    await this.query(
      `WITH gone AS (DELETE FROM report_revenue_cells WHERE entity_id = $1 AND invoice_id = ANY($2::uuid[])
                     RETURNING book_key, month, issue_month, recognized, billed, collected, open_change)
       ${moveMonthsSql('$1', 'gone', -1, '$3::smallint')}`,
      [entityId, ids, nextRevenueSlot()],
    );
    if (!stillBooked) return;
    await this.query(
      `WITH made AS (${insertCellsSql(CURRENT_CELLS, 'true', { entity: '$1', returning: ['book_key', 'month', 'issue_month', 'recognized', 'billed', 'collected', 'open_change'] })})
       ${moveMonthsSql('$1', 'made', 1, '$4::smallint')}`,
      [entityId, ids, this.exponents, nextRevenueSlot()],
    );
  }

  /** Moves home's open positions (report_open_positions) by these debit-positive deltas. */
  private async shiftOpen(entityId: string, moves: OpenMove[]): Promise<void> {
    const shift = openShift(entityId, moves);
    if (!shift) return;
    const statement = withParts(shift, []);
    await this.query(statement.sql, statement.values);
  }

  async onEntryLifecycle(event: EntryLifecycleEvent): Promise<void> {
    switch (event.reason) {
      case 'unbooked':
      case 'reversed':
        // The invoices these entries booked go back to unbooked (the invoices module severs them).
        await this.removeBookedBy(event.entityId, event.entryIds);
        return;
      case 'allocations_made':
        return this.allocationsMade(event.entityId, event.allocations);
      case 'allocations_released':
        return this.allocationsReleased(event.entityId, event.allocations);
      case 'redated':
        return this.redated(event.entityId, event.entryIds, event.entryDate);
      default:
        return;
    }
  }

  private async removeBookedBy(entityId: string, entryIds: string[]): Promise<void> {
    // TypeORM answers a DELETE with [rows, count].
    const [removed] = (await this.query(
      `DELETE FROM report_booked_invoices WHERE entity_id = $1 AND entry_id = ANY($2::uuid[])
       RETURNING invoice_id, book_key, direction, due_date,
                 (CASE WHEN receivable_side = 'debit' THEN settled_amount - receivable_amount ELSE receivable_amount - settled_amount END)::text AS delta`,
      [entityId, entryIds],
    )) as unknown as [Array<{ invoice_id: string; book_key: string; direction: string; due_date: string | null; delta: string }>, number];
    await this.shiftOpen(entityId, removed.map((r) => ({ ...r, delta: BigInt(r.delta) })));
    await this.refreshRevenue(entityId, removed.filter((r) => r.direction === 'ar').map((r) => r.invoice_id), false);
  }

  /** The booked invoices whose open-item line is one of these lines. */
  private async invoicesOfLines(entityId: string, lineIds: string[]): Promise<Map<string, string>> {
    const rows = await this.query<{ invoice_id: string; line_id: string }>(
      `SELECT invoice_id, line_id FROM report_booked_invoices WHERE entity_id = $1 AND line_id = ANY($2::uuid[])`,
      [entityId, [...new Set(lineIds)]],
    );
    return new Map(rows.map((r) => [r.line_id, r.invoice_id]));
  }

  private async allocationsMade(entityId: string, allocations: MadeAllocation[]): Promise<void> {
    const invoiceOf = await this.invoicesOfLines(entityId, allocations.flatMap((a) => [a.debitLineId, a.creditLineId]));
    if (invoiceOf.size === 0) return;
    const settled = new Map<string, bigint>();
    const rows: Array<{ invoiceId: string; allocationId: string; entryId: string; date: string; amount: number }> = [];
    for (const a of allocations) {
      for (const [lineId, other] of [
        [a.debitLineId, { entryId: a.creditEntryId, date: a.creditEntryDate }],
        [a.creditLineId, { entryId: a.debitEntryId, date: a.debitEntryDate }],
      ] as const) {
        const invoiceId = invoiceOf.get(lineId);
        if (!invoiceId) continue;
        settled.set(invoiceId, (settled.get(invoiceId) ?? 0n) + BigInt(a.amount));
        // A reversal's netting settles nothing (D82): it only moves the line's allocated amount.
        if (a.kind !== 'reversal') rows.push({ invoiceId, allocationId: a.id, entryId: other.entryId, date: other.date, amount: a.amount });
      }
    }
    if (rows.length > 0) {
      await this.query(
        `INSERT INTO report_invoice_settlements (entity_id, invoice_id, allocation_id, settling_entry_id, settled_on, amount)
         SELECT $1, s.invoice_id, s.allocation_id, s.entry_id, s.day, s.amount
           FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::date[], $6::bigint[]) AS s(invoice_id, allocation_id, entry_id, day, amount)`,
        [entityId, rows.map((r) => r.invoiceId), rows.map((r) => r.allocationId), rows.map((r) => r.entryId), rows.map((r) => r.date), rows.map((r) => r.amount)],
      );
    }
    await this.moveSettled(entityId, settled);
    await this.refreshRevenue(entityId, [...settled.keys()]);
  }

  private async allocationsReleased(entityId: string, allocations: ReleasedAllocation[]): Promise<void> {
    const invoiceOf = await this.invoicesOfLines(entityId, allocations.flatMap((a) => [a.debitLineId, a.creditLineId]));
    if (invoiceOf.size === 0) return;
    const settled = new Map<string, bigint>();
    for (const a of allocations) {
      for (const lineId of [a.debitLineId, a.creditLineId]) {
        const invoiceId = invoiceOf.get(lineId);
        if (invoiceId) settled.set(invoiceId, (settled.get(invoiceId) ?? 0n) - BigInt(a.amount));
      }
    }
    await this.query(`DELETE FROM report_invoice_settlements WHERE entity_id = $1 AND invoice_id = ANY($2::uuid[]) AND allocation_id = ANY($3::uuid[])`, [
      entityId,
      [...settled.keys()],
      allocations.map((a) => a.id),
    ]);
    await this.moveSettled(entityId, settled);
    await this.refreshRevenue(entityId, [...settled.keys()]);
  }

  /** Adds each delta to the invoice's settled amount and takes its latest settlement date afresh; the open positions move the other way. */
  private async moveSettled(entityId: string, deltas: Map<string, bigint>): Promise<void> {
    if (deltas.size === 0) return;
    const [moved] = (await this.query(
      `UPDATE report_booked_invoices r
          SET settled_amount = r.settled_amount + d.delta,
              last_settled_on = (SELECT max(s.settled_on) FROM report_invoice_settlements s WHERE s.entity_id = $1 AND s.invoice_id = r.invoice_id)
         FROM unnest($2::uuid[], $3::bigint[]) AS d(invoice_id, delta)
        WHERE r.entity_id = $1 AND r.invoice_id = d.invoice_id
        RETURNING r.book_key, r.direction, r.due_date,
                  (CASE WHEN r.receivable_side = 'debit' THEN -d.delta ELSE d.delta END)::text AS delta`,
      [entityId, [...deltas.keys()], [...deltas.values()].map(String)],
    )) as unknown as [Array<{ book_key: string; direction: string; due_date: string | null; delta: string }>, number];
    await this.shiftOpen(entityId, moved.map((r) => ({ ...r, delta: BigInt(r.delta) })));
  }

  /** A booked invoice's new due date: its row, and its open amount moved from the old date's position to the new one's. */
  async dueDateChanged(entityId: string, invoiceId: string, dueDate: string | null): Promise<void> {
    // TypeORM answers an UPDATE with [rows, count].
    const [moved] = (await this.query(
      `UPDATE report_booked_invoices r SET due_date = $3::date
         FROM (SELECT invoice_id, due_date FROM report_booked_invoices WHERE entity_id = $1 AND invoice_id = $2 FOR UPDATE) old
        WHERE r.entity_id = $1 AND r.invoice_id = old.invoice_id AND r.due_date IS DISTINCT FROM $3::date
        RETURNING r.book_key, r.direction, old.due_date AS old_due_date,
                  (CASE WHEN r.receivable_side = 'debit' THEN r.receivable_amount - r.settled_amount ELSE r.settled_amount - r.receivable_amount END)::text AS open`,
      [entityId, invoiceId, dueDate],
    )) as unknown as [Array<{ book_key: string; direction: string; old_due_date: string | null; open: string }>, number];
    await this.shiftOpen(
      entityId,
      moved.flatMap((r) => [
        { book_key: r.book_key, direction: r.direction, due_date: r.old_due_date, delta: -BigInt(r.open) },
        { book_key: r.book_key, direction: r.direction, due_date: dueDate, delta: BigInt(r.open) },
      ]),
    );
  }

  private async redated(entityId: string, entryIds: string[], entryDate: string): Promise<void> {
    // TypeORM answers an UPDATE with [rows, count].
    const [rebooked] = (await this.query(`UPDATE report_booked_invoices SET booked_on = $3 WHERE entity_id = $1 AND entry_id = ANY($2::uuid[]) RETURNING invoice_id`, [
      entityId,
      entryIds,
      entryDate,
    ])) as unknown as [Array<{ invoice_id: string }>, number];
    const [moved] = (await this.query(
      `UPDATE report_invoice_settlements SET settled_on = $3 WHERE entity_id = $1 AND settling_entry_id = ANY($2::uuid[]) RETURNING invoice_id`,
      [entityId, entryIds, entryDate],
    )) as unknown as [Array<{ invoice_id: string }>, number];
    await this.refreshRevenue(entityId, [...rebooked, ...moved].map((r) => r.invoice_id));
    if (moved.length === 0) return;
    await this.query(
      `UPDATE report_booked_invoices r
          SET last_settled_on = (SELECT max(s.settled_on) FROM report_invoice_settlements s WHERE s.entity_id = $1 AND s.invoice_id = r.invoice_id)
        WHERE r.entity_id = $1 AND r.invoice_id = ANY($2::uuid[])`,
      [entityId, [...new Set(moved.map((r) => r.invoice_id))]],
    );
  }
}

/** The read model's side of the invoices' booking port (the ledger's lifecycle port is the read model's own). */
@Injectable()
@InvoiceBookingListenerProvider()
export class BookedInvoicesOnBooking implements InvoiceBookingListener {
  constructor(private readonly readModel: BookedInvoicesReadModel) {}

  invoiceBooked(entityId: string, booked: InvoiceBooked): StatementPart[] {
    return this.readModel.booked(entityId, booked);
  }

  bookedDueDateChanged(entityId: string, invoiceId: string, dueDate: string | null): Promise<void> {
    return this.readModel.dueDateChanged(entityId, invoiceId, dueDate);
  }
}
