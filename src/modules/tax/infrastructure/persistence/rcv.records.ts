import { Check, Column, Entity, Generated, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/** bigint columns hold amounts within Number.MAX_SAFE_INTEGER (D6): read as text, turned into bigint by the repository. */

/** D92 item 2: an RCV file the SII gave for a period and direction, as imported. */
@Entity('rcv_imports')
@Index('rcv_imports_latest_idx', ['entityId', 'period', 'direction', 'sequence'])
@Check('rcv_imports_direction_check', `"direction" IN ('sales', 'purchases')`)
@Check('rcv_imports_period_check', `"period" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`)
export class RcvImportRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'rcv_imports_entity_fk' })
  entity?: object;

  /** `YYYY-MM`. */
  @Column('text')
  period: string;

  @Column('text')
  direction: string;

  @Column('integer')
  rowCount: number;

  /** Import order: the latest import of a period and direction is the one reconciled (same-instant imports included). */
  @Column('bigint')
  @Generated('increment')
  sequence: string;

  @Column('timestamptz')
  createdAt: Date;
}

/** One document of an imported RCV file, at the line of the file it was read from. */
@Entity('rcv_import_rows')
@Check('rcv_import_rows_folio_check', `"folio" > 0`)
export class RcvImportRowRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  importId: string;

  @PrimaryColumn('integer')
  line: number;

  @ManyToOne(() => RcvImportRecord, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'import_id', referencedColumnName: 'id' },
  ])
  rcvImport?: RcvImportRecord;

  @Column('smallint')
  dteType: number;

  @Column('bigint')
  folio: string;

  @Column('text')
  partnerTaxId: string;

  @Column('text')
  partnerName: string;

  @Column('date')
  issueDate: string;

  @Column('bigint')
  exemptAmount: string;

  @Column('bigint')
  netAmount: string;

  @Column('bigint')
  taxAmount: string;

  @Column('bigint')
  totalAmount: string;
}

export const TAX_RECORDS = [RcvImportRecord, RcvImportRowRecord];
