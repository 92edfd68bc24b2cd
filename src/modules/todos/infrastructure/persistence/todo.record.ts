import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/**
 * The links are not foreign keys: their records live in three modules (one of them may not be
 * built); each host module tells RecordHosts of deletions and the ledger its lifecycle, and the
 * link is cleared in that transaction.
 */
@Entity('todos')
@Index('todos_created_idx', ['entityId', 'createdAt', 'id'])
@Index('todos_invoice_idx', ['entityId', 'invoiceId'], { where: '"invoice_id" IS NOT NULL' })
@Index('todos_bank_movement_idx', ['entityId', 'bankMovementId'], { where: '"bank_movement_id" IS NOT NULL' })
@Index('todos_ledger_entry_idx', ['entityId', 'ledgerEntryId'], { where: '"ledger_entry_id" IS NOT NULL' })
@Check('todos_one_link_check', `num_nonnulls("invoice_id", "bank_movement_id", "ledger_entry_id") <= 1`)
@Check('todos_text_check', `char_length("text") BETWEEN 1 AND 500`)
export class TodoRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'todos_entity_fk' })
  entity?: object;

  @Column('text')
  text: string;

  @Column('timestamptz', { nullable: true })
  completedAt: Date | null;

  @Column('uuid', { nullable: true })
  invoiceId: string | null;

  @Column('uuid', { nullable: true })
  bankMovementId: string | null;

  @Column('uuid', { nullable: true })
  ledgerEntryId: string | null;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}
