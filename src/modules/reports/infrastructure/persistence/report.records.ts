import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/**
 * Issue 22: the reports' read model of booked invoices (home's open positions, revenue
 * realization), kept in the transaction of every change that moves it: the booking (the invoices
 * module's hook), the unbooking and reversal of its entry, allocations made and released, and an
 * entry's new date (the ledger's lifecycle port). Written by nothing else; never read by another
 * module. Amounts are bigint minor units, read as text.
 */
@Entity('report_booked_invoices')
@Index('report_booked_invoices_entry_idx', ['entityId', 'entryId'])
@Index('report_booked_invoices_line_key', ['entityId', 'lineId'], { unique: true })
@Index('report_booked_invoices_period_idx', ['entityId', 'direction', 'periodEnd', 'periodStart'])
@Index('report_booked_invoices_issue_idx', ['entityId', 'direction', 'issueDate'])
// Issue 35: the pages of revenue realization read the invoices issued before a range in order, judging each on the index alone.
// (entity_id, direction, issue_date, invoice_id) INCLUDE (book_key, period_start, period_end, booked_on, settled_amount, receivable_amount, last_settled_on): migration RevenueMonths.
@Index('report_booked_invoices_issue_cover_idx', { synchronize: false })
@Index('report_booked_invoices_settled_idx', ['entityId', 'direction', 'lastSettledOn'], { where: `"last_settled_on" IS NOT NULL` })
@Index('report_booked_invoices_open_idx', ['entityId', 'direction', 'bookedOn'], { where: `"settled_amount" < "receivable_amount"` })
@Check('report_booked_invoices_direction_check', `"direction" IN ('ar', 'ap')`)
@Check('report_booked_invoices_side_check', `"receivable_side" IN ('debit', 'credit')`)
@Check('report_booked_invoices_period_check', `"period_start" <= "period_end"`)
export class ReportBookedInvoiceRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  invoiceId: string;

  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'report_booked_invoices_entity_fk' })
  entity?: object;

  @Column('text')
  direction: 'ar' | 'ap';

  /** The booking entry and its open-item line. */
  @Column('uuid')
  entryId: string;

  @Column('uuid')
  lineId: string;

  /** The line's Book, the nil uuid for the common books. */
  @Column('uuid')
  bookKey: string;

  @Column('text')
  documentKind: string;

  @Column('text')
  documentNumber: string;

  @Column('uuid')
  partnerId: string;

  @Column('date')
  issueDate: string;

  @Column('date', { nullable: true })
  dueDate: string | null;

  @Column('date', { nullable: true })
  servicePeriodStart: string | null;

  @Column('date', { nullable: true })
  servicePeriodEnd: string | null;

  /** The recognition period: the service period, or the issue day. */
  @Column('date')
  periodStart: string;

  @Column('date')
  periodEnd: string;

  @Column('text')
  currency: string;

  @Column('numeric', { nullable: true })
  exchangeRate: string | null;

  @Column('bigint')
  netAmount: string;

  @Column('bigint')
  exemptAmount: string;

  @Column('text')
  receivableSide: 'debit' | 'credit';

  @Column('bigint')
  receivableAmount: string;

  /** The booking entry's date. */
  @Column('date')
  bookedOn: string;

  /** What the ledger's allocations settle of the line (its allocated amount). */
  @Column('bigint', { default: 0 })
  settledAmount: string;

  /** The latest date of a settling entry, null when none. */
  @Column('date', { nullable: true })
  lastSettledOn: string | null;
}

/** One allocation settling a booked invoice's open-item line, dated by the settling entry. */
@Entity('report_invoice_settlements')
@Index('report_invoice_settlements_entry_idx', ['entityId', 'settlingEntryId'])
export class ReportInvoiceSettlementRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  invoiceId: string;

  @PrimaryColumn('uuid')
  allocationId: string;

  @ManyToOne('ReportBookedInvoiceRecord', { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'invoice_id', referencedColumnName: 'invoiceId' },
  ])
  invoice?: object;

  @Column('uuid')
  settlingEntryId: string;

  @Column('date')
  settledOn: string;

  @Column('bigint')
  amount: string;
}

/**
 * Home's open positions (D81a): per Book, direction and due date, the open amount (debit-positive)
 * of the booked invoices' open-item lines, moved with every change of `report_booked_invoices`.
 * An invoice without a due date counts under `infinity` (never overdue).
 */
@Entity('report_open_positions')
@Check('report_open_positions_direction_check', `"direction" IN ('ar', 'ap')`)
export class ReportOpenPositionRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  bookKey: string;

  @PrimaryColumn('text')
  direction: 'ar' | 'ap';

  @PrimaryColumn('date')
  dueOn: string;

  /**
   * One of OPEN_POSITION_SLOTS rows of the same position, dealt in turn per change: concurrent
   * bookings of one Entity (most share a due date) update different rows instead of queueing on
   * one row lock to their commit. Readers sum the slots.
   */
  @PrimaryColumn('smallint', { default: 0 })
  slot: number;

  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'report_open_positions_entity_fk' })
  entity?: object;

  @Column('bigint')
  openAmount: string;
}

/**
 * Issue 35: what one booked AR invoice adds to revenue realization's figures in one calendar
 * month (revenue-months.sql.ts): written with its row, removed and written afresh with every
 * change of the row or its settlements. Signed functional minor units.
 */
@Entity('report_revenue_cells')
@Index('report_revenue_cells_early_idx', ['entityId', 'month'], { where: `"month" < "booked_month" AND "collected" <> 0` })
export class ReportRevenueCellRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  invoiceId: string;

  @PrimaryColumn('date')
  month: string;

  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'report_revenue_cells_entity_fk' })
  entity?: object;

  @Column('uuid')
  bookKey: string;

  /** The month of the invoice's issue date and of its booking entry's date. */
  @Column('date')
  issueMonth: string;

  @Column('date')
  bookedMonth: string;

  @Column('bigint')
  recognized: string;

  @Column('bigint')
  billed: string;

  @Column('bigint')
  collected: string;

  /** The open amount at this month's end less that at the previous month's end. */
  @Column('bigint')
  openChange: string;
}

/**
 * Issue 35: the sums of report_revenue_cells per Book, month and issue month, on one of
 * REVENUE_MONTH_SLOTS rows (dealt in turn, as the open positions' slots): revenue realization
 * reads a range of whole months from these rows alone.
 */
@Entity('report_revenue_months')
export class ReportRevenueMonthRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  bookKey: string;

  @PrimaryColumn('date')
  month: string;

  @PrimaryColumn('date')
  issueMonth: string;

  @PrimaryColumn('smallint')
  slot: number;

  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'report_revenue_months_entity_fk' })
  entity?: object;

  @Column('bigint')
  recognized: string;

  @Column('bigint')
  billed: string;

  @Column('bigint')
  collected: string;

  @Column('bigint')
  openChange: string;
}

export const REPORT_RECORDS = [ReportBookedInvoiceRecord, ReportInvoiceSettlementRecord, ReportOpenPositionRecord, ReportRevenueCellRecord, ReportRevenueMonthRecord];
