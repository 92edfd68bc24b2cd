import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import type { DteReference } from '../../domain/dte';

// Relations to another module's records name them by class name: the foreign key is declared
// (and stays in the database) without importing that module's infrastructure.

/** bigint columns hold minor units within Number.MAX_SAFE_INTEGER (D6). */
const bigintAsNumber = {
  to: (value: number | null) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};

/** D63: imported SII documents; (issuer RUT, type, folio) is the SII's natural key. */
@Entity('dtes')
@Unique('dtes_natural_key', ['entityId', 'issuerTaxId', 'dteType', 'folio'])
@Index('dtes_issue_date_idx', ['entityId', 'issueDate', 'id'])
@Check('dtes_direction_check', `"direction" IN ('ar', 'ap')`)
// Negative amounts only on a liquidación-factura (43, ValorType). Foreign totals on exports
// (110-112) only, where the peso exempt and total amounts may be absent (exports imported before
// the foreign totals were read have none: they cannot be read again from a file not kept).
@Check('dtes_signed_amounts_check', `"dte_type" = 43 OR ("net_amount" >= 0 AND "exempt_amount" >= 0 AND "tax_amount" >= 0 AND "total_amount" >= 0)`)
@Check('dtes_export_amounts_check', `CASE WHEN "dte_type" IN (110, 111, 112) THEN ("foreign_currency_name" IS NULL) = ("foreign_total_amount" IS NULL) AND "foreign_exempt_amount" >= 0 AND "foreign_total_amount" >= 0 ELSE "foreign_currency_name" IS NULL AND "foreign_total_amount" IS NULL AND "exempt_amount" IS NOT NULL AND "total_amount" IS NOT NULL END`)
export class DteRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'dtes_entity_fk' })
  entity?: object;

  @Column('smallint')
  dteType: number;

  @Column('text')
  folio: string;

  @Column('text')
  issuerTaxId: string;

  @Column('text')
  issuerName: string;

  @Column('text')
  receiverTaxId: string;

  @Column('text', { nullable: true })
  receiverName: string | null;

  @Column('date')
  issueDate: string;

  @Column('bigint', { transformer: bigintAsNumber })
  netAmount: number;

  @Column('bigint', { transformer: bigintAsNumber, nullable: true })
  exemptAmount: number | null;

  @Column('bigint', { transformer: bigintAsNumber })
  taxAmount: number;

  @Column('bigint', { transformer: bigintAsNumber, nullable: true })
  totalAmount: number | null;

  /** Export documents: ISO 4217 code of TpoMoneda (null when it names none). */
  @Column('text', { nullable: true })
  foreignCurrency: string | null;

  /** Export documents: TpoMoneda as written. */
  @Column('text', { nullable: true })
  foreignCurrencyName: string | null;

  /** Export documents: exact decimals (numeric keeps them as written, no float). */
  @Column('numeric', { nullable: true })
  foreignExemptAmount: string | null;

  @Column('numeric', { nullable: true })
  foreignTotalAmount: string | null;

  @Column('numeric', { nullable: true })
  foreignExchangeRate: string | null;

  @Column('text')
  direction: 'ar' | 'ap';

  @Column('jsonb')
  references: DteReference[];

  @Column('timestamptz')
  createdAt: Date;
}

const KIND_CHECK = `"document_kind" IN ('invoice', 'exempt_invoice', 'receipt', 'exempt_receipt', 'purchase_invoice', 'debit_note', 'credit_note', 'export_invoice', 'export_debit_note', 'export_credit_note', 'other')`;

/** D60: AR and AP invoices; booked ones name their entry and its open-item line. */
@Entity('invoices')
@Unique('invoices_document_number_key', ['entityId', 'direction', 'documentKind', 'partnerId', 'documentNumber'])
@Unique('invoices_dte_key', ['entityId', 'dteId'])
@Index('invoices_issue_date_idx', ['entityId', 'issueDate', 'id'])
@Index('invoices_partner_idx', ['entityId', 'partnerId', 'issueDate', 'id'])
@Index('invoices_entry_idx', ['entityId', 'ledgerEntryId'], { where: `"ledger_entry_id" IS NOT NULL` })
// Issue 22: home counts the unbooked invoices per direction from this index alone, not by a scan of every invoice.
@Index('invoices_unbooked_idx', ['entityId', 'direction'], { where: `"book_status" = 'unbooked'` })
@Index('invoices_open_item_line_idx', ['entityId', 'openItemLineId'], { where: `"open_item_line_id" IS NOT NULL` })
// Issue 37: the foreign-currency invoices of a tax period, converted one by one (the rest is in invoice_month_totals).
@Index('invoices_foreign_issue_date_idx', ['entityId', 'issueDate'], { where: `"exchange_rate" IS NOT NULL` })
@Check('invoices_direction_check', `"direction" IN ('ar', 'ap')`)
@Check('invoices_document_kind_check', KIND_CHECK)
@Check('invoices_book_status_check', `"book_status" IN ('unbooked', 'booked')`)
@Check('invoices_booked_check', `("book_status" = 'booked') = ("ledger_entry_id" IS NOT NULL)`)
@Check('invoices_amounts_check', `"net_amount" >= 0 AND "exempt_amount" >= 0 AND "tax_amount" >= 0 AND "total_amount" = "net_amount" + "exempt_amount" + "tax_amount"`)
export class InvoiceRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'invoices_entity_fk' })
  entity?: object;

  @Column('text')
  direction: 'ar' | 'ap';

  @Column('text')
  documentKind: string;

  @Column('text')
  documentNumber: string;

  @Column('date')
  issueDate: string;

  @Column('date', { nullable: true })
  dueDate: string | null;

  @Column('uuid')
  partnerId: string;

  @ManyToOne('PartnerRecord', { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'partner_id', referencedColumnName: 'id' },
  ])
  partner?: object;

  @Column('text')
  currency: string;

  @Column('numeric', { nullable: true, precision: 24, scale: 12 })
  exchangeRate: string | null;

  @Column('bigint', { transformer: bigintAsNumber })
  netAmount: number;

  @Column('bigint', { transformer: bigintAsNumber })
  exemptAmount: number;

  @Column('bigint', { transformer: bigintAsNumber })
  taxAmount: number;

  @Column('bigint', { transformer: bigintAsNumber })
  totalAmount: number;

  @Column('date', { nullable: true })
  servicePeriodStart: string | null;

  @Column('date', { nullable: true })
  servicePeriodEnd: string | null;

  @Column('text', { nullable: true })
  description: string | null;

  @Column('text')
  bookStatus: 'unbooked' | 'booked';

  @Column('uuid', { nullable: true })
  ledgerEntryId: string | null;

  @ManyToOne('LedgerEntryRecord', { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'ledger_entry_id', referencedColumnName: 'id' },
  ])
  ledgerEntry?: object;

  /** The receivable or payable line of the booked entry: it keeps its account (D33a). */
  @Column('uuid', { nullable: true })
  openItemLineId: string | null;

  @ManyToOne('LedgerLineRecord', { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'open_item_line_id', referencedColumnName: 'id' },
  ])
  openItemLine?: object;

  @Column('uuid', { nullable: true })
  dteId: string | null;

  @ManyToOne(() => DteRecord, { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'dte_id', referencedColumnName: 'id' },
  ])
  dte?: DteRecord;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}

/**
 * Bookings a reversal severed (D35, stop 17 review): one row per (entry, invoice), kept so that
 * unbooking that reversal books the invoice by its original entry again. An invoice may have
 * several (booked by E, reversed, booked by F, reversed): each entry finds its own, whatever
 * happened to the invoice since. `bookedTerms` are the invoice's fields a booked invoice may not
 * change (D61), as they were when the entry booked it: a restoration compares them. Removed when
 * the booking is restored, when the entry leaves the books for good, and with the invoice.
 */
@Entity('invoice_severed_bookings')
@Index('invoice_severed_bookings_invoice_idx', ['entityId', 'invoiceId'])
export class InvoiceSeveredBookingRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  entryId: string;

  @PrimaryColumn('uuid')
  invoiceId: string;

  @ManyToOne(() => InvoiceRecord, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'invoice_id', referencedColumnName: 'id' },
  ])
  invoice?: InvoiceRecord;

  @ManyToOne('LedgerEntryRecord', { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'entry_id', referencedColumnName: 'id' },
  ])
  entry?: object;

  /** The entry's open-item line that settled the invoice. */
  @Column('uuid')
  openItemLineId: string;

  @Column('jsonb')
  bookedTerms: Record<string, unknown>;
}

/**
 * Issue 37 (D92): the invoices in the Entity's currency (no exchangeRate) summed per month,
 * direction and document kind, kept by the statements that write invoices (the repository's
 * insert, save and delete: MONTH_TOTALS_UPSERT), in the same statement; no trigger (D94). Each
 * invoice adds into one of 16 slots (by its id), so concurrent writers of one month seldom wait on
 * one row; readers sum the slots. The tax books' F29 reads a month from here instead of every
 * invoice of the month.
 */
@Entity('invoice_month_totals')
export class InvoiceMonthTotalRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  /** The first day of the month of the invoices' issueDate. */
  @PrimaryColumn('date')
  month: string;

  @PrimaryColumn('text')
  direction: string;

  @PrimaryColumn('text')
  documentKind: string;

  @PrimaryColumn('smallint')
  slot: number;

  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'invoice_month_totals_entity_fk' })
  entity?: object;

  @Column('integer')
  invoiceCount: number;

  @Column('bigint')
  exemptAmount: string;

  @Column('bigint')
  netAmount: string;

  @Column('bigint')
  taxAmount: string;

  @Column('bigint')
  totalAmount: string;
}

export const INVOICE_RECORDS = [DteRecord, InvoiceRecord, InvoiceSeveredBookingRecord, InvoiceMonthTotalRecord];
