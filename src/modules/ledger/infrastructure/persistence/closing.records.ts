import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from './entry.records';
import { BookRecord } from './ledger.records';

/**
 * D90: a year-end closing of an Entity's Book (book_id) or of its common books (null). The
 * closing entry (entry_id, null when nothing was closed) is a ledger entry with source `closing`.
 * The retained-earnings account is named without a foreign key: the closing entry's line holds the
 * account in use (D31), and a closing of nothing names an account no line needs.
 */
@Entity('ledger_closings')
@Index('ledger_closings_book_end_idx', ['entityId', 'bookId', 'exerciseEnd'])
@Index('ledger_closings_entry_idx', ['entityId', 'entryId'])
@Check('ledger_closings_status_check', `"status" IN ('active', 'reopened')`)
@Check('ledger_closings_exercise_check', `"exercise_start" <= "exercise_end"`)
export class ClosingRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'ledger_closings_entity_fk' })
  entity?: object;

  @Column('uuid', { nullable: true })
  bookId: string | null;

  @ManyToOne(() => BookRecord, { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'book_id', referencedColumnName: 'id' },
  ])
  book?: BookRecord;

  @Column('date')
  exerciseStart: string;

  @Column('date')
  exerciseEnd: string;

  @Column('uuid')
  retainedEarningsAccountId: string;

  @Column('uuid', { nullable: true })
  entryId: string | null;

  @ManyToOne('LedgerEntryRecord', { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'entry_id', referencedColumnName: 'id' },
  ])
  entry?: object;

  @Column('bigint', { transformer: bigintAsNumber })
  result: number;

  @Column('text')
  status: string;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}

export const CLOSING_RECORDS = [ClosingRecord];
