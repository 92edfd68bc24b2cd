import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

// Relations to another module's records name them by class name: the foreign key is declared
// (and stays in the database) without importing that module's infrastructure.
import { BookRecord, DimensionValueRecord, LedgerAccountRecord } from './ledger.records';

/** bigint columns hold minor units within Number.MAX_SAFE_INTEGER (D6). */
export const bigintAsNumber = {
  to: (value: number | null) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};

const STATUS_CHECK = `"status" IN ('active', 'reversed', 'deleted', 'cancelled', 'scheduled')`;

@Entity('ledger_entries')
@Index('ledger_entries_date_idx', ['entityId', 'entryDate', 'id'])
// Trigram indexes over the folded memo and notes (issue 25), defined in migration HistoryReads.
@Index('ledger_entries_memo_trgm_idx', { synchronize: false })
@Index('ledger_entries_notes_trgm_idx', { synchronize: false })
@Index('ledger_entries_scheduled_idx', ['entityId', 'entryDate'], { where: `"status" = 'scheduled'` })
@Check('ledger_entries_status_check', STATUS_CHECK)
// The closing entries by date (D90; the closing-entry rule of every report, issue 32). No check on
// `source`: the sources are declared by the modules that bring them (entrySource, issue 32).
@Index('ledger_entries_closing_idx', ['entityId', 'entryDate'], { where: `"source" = 'closing'` })
export class LedgerEntryRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { nullable: true })
  bookId: string | null;

  @ManyToOne(() => BookRecord, { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'book_id', referencedColumnName: 'id' },
  ])
  book?: BookRecord;

  @Column('date')
  entryDate: string;

  @Column('text')
  memo: string;

  @Column('text', { nullable: true })
  notes: string | null;

  @Column('text')
  status: string;

  @Column('text')
  source: string;

  @Column('uuid', { nullable: true })
  reversalOfEntryId: string | null;

  @ManyToOne(() => LedgerEntryRecord, { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'reversal_of_entry_id', referencedColumnName: 'id' },
  ])
  reversalOf?: LedgerEntryRecord;

  @Column('uuid', { nullable: true })
  reversedByEntryId: string | null;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}

/**
 * D40 and the reports to come: each line carries its entry's Book, date, status and memo, so reads
 * by account, partner or date never join the entries (the memo since issue 32: the partner ledger
 * reads it from the covering partner index).
 */
@Entity('ledger_lines')
@Index('ledger_lines_entry_idx', ['entityId', 'entryId', 'lineNo'])
@Index('ledger_lines_account_idx', ['entityId', 'accountId', 'entryDate', 'entryId', 'id'])
// Covering (INCLUDE columns), which TypeORM cannot declare: defined in migration PartnerLedgerCoveringIndex.
@Index('ledger_lines_partner_idx', { synchronize: false })
// An expression index (the open amount), defined in migration BankMatchCandidates (banking's match candidates).
@Index('ledger_lines_open_amount_idx', { synchronize: false })
// A trigram index over the folded description (issue 25), defined in migration HistoryReads.
@Index('ledger_lines_description_trgm_idx', { synchronize: false })
@Index('ledger_lines_journal_idx', ['entityId', 'entryDate', 'entryId', 'id'])
@Index('ledger_lines_open_items_idx', ['entityId', 'accountId', 'entryDate', 'id'], {
  where: `"is_open_item" AND "status" IN ('active', 'reversed') AND "allocated_amount" < "amount"`,
})
@Check('ledger_lines_side_check', `"side" IN ('debit', 'credit')`)
@Check('ledger_lines_amount_check', `"amount" > 0`)
@Check('ledger_lines_allocated_check', `"allocated_amount" >= 0 AND "allocated_amount" <= "amount"`)
@Check('ledger_lines_status_check', STATUS_CHECK)
@Check(
  'ledger_lines_transaction_check',
  `("transaction_currency" IS NULL) = ("transaction_amount" IS NULL) AND ("transaction_amount" IS NULL) = ("exchange_rate" IS NULL)`,
)
export class LedgerLineRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  entryId: string;

  @ManyToOne(() => LedgerEntryRecord, { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'entry_id', referencedColumnName: 'id' },
  ])
  entry?: LedgerEntryRecord;

  @Column('smallint')
  lineNo: number;

  @Column('text')
  side: 'debit' | 'credit';

  @Column('uuid')
  accountId: string;

  @ManyToOne(() => LedgerAccountRecord, { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'account_id', referencedColumnName: 'id' },
  ])
  account?: LedgerAccountRecord;

  @Column('bigint', { transformer: bigintAsNumber })
  amount: number;

  @Column('text', { nullable: true })
  description: string | null;

  @Column('uuid', { nullable: true })
  partnerId: string | null;

  @ManyToOne('PartnerRecord', { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'partner_id', referencedColumnName: 'id' },
  ])
  partner?: object;

  @Column('text', { nullable: true })
  transactionCurrency: string | null;

  @Column('bigint', { nullable: true, transformer: bigintAsNumber })
  transactionAmount: number | null;

  @Column('numeric', { nullable: true, precision: 24, scale: 12 })
  exchangeRate: string | null;

  @Column('boolean')
  isOpenItem: boolean;

  /** Sum of the allocations settling this line, kept under row locks (open = amount - allocated). */
  @Column('bigint', { default: 0, transformer: bigintAsNumber })
  allocatedAmount: number;

  @Column('uuid', { nullable: true })
  bookId: string | null;

  @Column('date')
  entryDate: string;

  @Column('text')
  status: string;

  /** The entry's memo, moved with it (the posting writes it, a header change updates it). */
  @Column('text')
  memo: string;
}

/** One value per Dimension per line, enforced by the key. */
@Entity('ledger_line_dimension_values')
@Index('ledger_line_dimension_values_value_idx', ['entityId', 'dimensionValueId'])
export class LineDimensionValueRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  lineId: string;

  @PrimaryColumn('uuid')
  dimensionId: string;

  @Column('uuid')
  dimensionValueId: string;

  @ManyToOne(() => LedgerLineRecord, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'line_id', referencedColumnName: 'id' },
  ])
  line?: LedgerLineRecord;

  @ManyToOne(() => DimensionValueRecord, { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'dimension_id', referencedColumnName: 'dimensionId' },
    { name: 'dimension_value_id', referencedColumnName: 'id' },
  ])
  dimensionValue?: DimensionValueRecord;
}

@Entity('reconciliation_allocations')
@Index('reconciliation_allocations_debit_idx', ['entityId', 'debitLineId'])
@Index('reconciliation_allocations_credit_idx', ['entityId', 'creditLineId'])
@Check('reconciliation_allocations_amount_check', `"amount" > 0`)
@Check('reconciliation_allocations_lines_check', `"debit_line_id" <> "credit_line_id"`)
@Check('reconciliation_allocations_kind_check', `"kind" IN ('manual', 'reversal', 'match')`)
export class AllocationRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  debitLineId: string;

  @ManyToOne(() => LedgerLineRecord, { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'debit_line_id', referencedColumnName: 'id' },
  ])
  debitLine?: LedgerLineRecord;

  @Column('uuid')
  creditLineId: string;

  @ManyToOne(() => LedgerLineRecord, { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'credit_line_id', referencedColumnName: 'id' },
  ])
  creditLine?: LedgerLineRecord;

  @Column('uuid')
  accountId: string;

  @ManyToOne(() => LedgerAccountRecord, { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'account_id', referencedColumnName: 'id' },
  ])
  account?: LedgerAccountRecord;

  @Column('bigint', { transformer: bigintAsNumber })
  amount: number;

  /** `reversal`: made by the service to net a reversal with its original (D36). */
  @Column('text')
  kind: 'manual' | 'reversal' | 'match';

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}



/**
 * Per account, Book and month, the sums of live lines, kept in the same transaction as every
 * posting, unbooking, booking and date or account change, so that balances cost O(accounts x
 * months) rather than O(lines). `bookKey` is the Book or the nil UUID for common lines. Rows are
 * spread over 32 slots by entry id, so concurrent postings on one account and month do not queue
 * on one row; readers sum the slots. Months before the current one are folded (issue 36c,
 * MonthlyTotalsFolding) into one row on slot -1, which postings never write.
 */
@Entity('ledger_account_monthly_totals')
@Index('ledger_account_monthly_totals_month_idx', ['entityId', 'month'])
// Issue 36c: the rows still to fold (slots 0-31; folded months keep one row on FOLDED_SLOT).
@Index('ledger_account_monthly_totals_unfolded_idx', ['month', 'entityId'], { where: `"slot" >= 0` })
export class AccountMonthlyTotalRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  accountId: string;

  @PrimaryColumn('uuid')
  bookKey: string;

  @PrimaryColumn('date')
  month: string;

  @PrimaryColumn('smallint')
  slot: number;

  @ManyToOne(() => LedgerAccountRecord, { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'account_id', referencedColumnName: 'id' },
  ])
  account?: LedgerAccountRecord;

  @Column('bigint', { transformer: bigintAsNumber })
  debit: number;

  @Column('bigint', { transformer: bigintAsNumber })
  credit: number;

  @Column('integer')
  lineCount: number;
}
export const ENTRY_RECORDS = [LedgerEntryRecord, LedgerLineRecord, LineDimensionValueRecord, AllocationRecord, AccountMonthlyTotalRecord];
