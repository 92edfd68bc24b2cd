import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';

// Relations to another module's records name them by class name: the foreign key is declared
// (and stays in the database) without importing that module's infrastructure.

const bigintAsNumber = {
  to: (value: number | null) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};

/**
 * A bank or card account of an Entity, mapped to one ledger account (D78). The feed columns are
 * the active feed (spec "Feed object"), all null when there is none; the bank-feeds module fills
 * them. `unreconciled_count` is kept by the statements that write bank_movements (in the same
 * statement: no trigger, D94), so the list reads it with the balance in one query whatever the number of movements.
 */
@Entity('bank_accounts')
@Check('bank_accounts_kind_check', `"kind" IN ('bank', 'card')`)
@Check(
  'bank_accounts_feed_check',
  `("feed_bank_connection_id" IS NULL) = ("feed_provider_account_id" IS NULL) AND ("feed_bank_connection_id" IS NULL) = ("feed_institution_name" IS NULL)`,
)
@Check('bank_accounts_unreconciled_check', `"unreconciled_count" >= 0`)
@Index('bank_accounts_ledger_account_idx', ['entityId', 'ledgerAccountId'])
@Unique('bank_accounts_feed_key', ['entityId', 'feedBankConnectionId', 'feedProviderAccountId'])
export class BankAccountRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'bank_accounts_entity_fk' })
  entity?: object;

  @Column('text')
  name: string;

  @Column('text')
  kind: 'bank' | 'card';

  @Column('uuid')
  ledgerAccountId: string;

  @ManyToOne('LedgerAccountRecord', { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'ledger_account_id', referencedColumnName: 'id' },
  ])
  ledgerAccount?: object;

  @Column('text')
  currency: string;

  @Column('uuid', { nullable: true })
  feedBankConnectionId: string | null;

  @Column('text', { nullable: true })
  feedProviderAccountId: string | null;

  /** The feeding connection (bank-feeds module's bank_connections, named by string: no import). */
  @ManyToOne('BankConnectionRecord', { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'feed_bank_connection_id', referencedColumnName: 'id' },
  ])
  feedBankConnection?: object;

  @Column('text', { nullable: true })
  feedInstitutionName: string | null;

  @Column('timestamptz', { nullable: true })
  feedLastSyncedAt: Date | null;

  @Column('integer', { default: 0 })
  unreconciledCount: number;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}

/**
 * D65: a statement line of a bank account. `content_hash` identifies an imported row's content
 * (D78: a re-import lands nothing, also under concurrent imports); `provider_movement_id` a fed
 * one (D69). `ledger_entry_id` is the entry that booked or matched it.
 */
@Entity('bank_movements')
@Check('bank_movements_amount_check', `"amount" > 0`)
@Check('bank_movements_side_check', `"side" IN ('debit', 'credit')`)
@Check('bank_movements_source_check', `"source" IN ('manual', 'import', 'feed')`)
@Unique('bank_movements_content_key', ['entityId', 'bankAccountId', 'contentHash'])
// Partial: only fed movements have a provider id and only booked ones an entry, so an import
// (50,000 rows) writes neither index.
@Index('bank_movements_provider_key', ['entityId', 'bankAccountId', 'providerMovementId'], { unique: true, where: `"provider_movement_id" IS NOT NULL` })
@Index('bank_movements_entry_key', ['entityId', 'ledgerEntryId'], { unique: true, where: `"ledger_entry_id" IS NOT NULL` })
@Index('bank_movements_account_date_idx', ['entityId', 'bankAccountId', 'movementDate', 'id'])
// Issue 22: recommendations find the booked movements of a counterparty RUT, newest first, without a scan.
@Index('bank_movements_booked_tax_idx', ['entityId', 'counterpartyTaxId', 'movementDate', 'id'], { where: `"ledger_entry_id" IS NOT NULL AND "counterparty_tax_id" IS NOT NULL` })
@Index('bank_movements_unbooked_idx', ['entityId', 'bankAccountId', 'movementDate', 'id'], { where: `"ledger_entry_id" IS NULL` })
export class BankMovementRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  bankAccountId: string;

  @ManyToOne(() => BankAccountRecord, { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'bank_account_id', referencedColumnName: 'id' },
  ])
  bankAccount?: BankAccountRecord;

  @Column('date')
  movementDate: string;

  @Column('text')
  description: string;

  @Column('bigint', { transformer: bigintAsNumber })
  amount: number;

  @Column('text')
  side: 'debit' | 'credit';

  @Column('text', { nullable: true })
  reference: string | null;

  @Column('text', { nullable: true })
  counterpartyName: string | null;

  @Column('text', { nullable: true })
  counterpartyTaxId: string | null;

  @Column('text')
  source: 'manual' | 'import' | 'feed';

  @Column('text', { nullable: true })
  providerMovementId: string | null;

  @Column('text', { nullable: true })
  contentHash: string | null;

  @Column('uuid', { nullable: true })
  ledgerEntryId: string | null;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}

/**
 * Bookings a reversal severed (D35, stop 17 review): one row per (entry, movement), so that
 * unbooking that reversal books the movement by its original entry again, however many times the
 * movement was booked and reversed since. Removed when restored, when the entry leaves the books
 * for good, and with the movement.
 */
@Entity('bank_movement_severed_bookings')
@Index('bank_movement_severed_bookings_movement_idx', ['entityId', 'bankMovementId'])
export class BankMovementSeveredBookingRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  entryId: string;

  @PrimaryColumn('uuid')
  bankMovementId: string;

  @ManyToOne(() => BankMovementRecord, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'bank_movement_id', referencedColumnName: 'id' },
  ])
  bankMovement?: BankMovementRecord;

  @ManyToOne('LedgerEntryRecord', { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'entry_id', referencedColumnName: 'id' },
  ])
  entry?: object;
}

export const BANKING_RECORDS = [BankAccountRecord, BankMovementRecord, BankMovementSeveredBookingRecord];
