import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/** Comments on records (D72). The host is not a foreign key: it lives in another module (see RecordHosts). */
@Entity('comments')
@Index('comments_host_idx', ['entityId', 'hostKind', 'hostId', 'createdAt', 'id'])
@Check('comments_host_kind_check', `"host_kind" IN ('invoice', 'bank_movement', 'ledger_entry')`)
@Check('comments_text_check', `char_length("text") BETWEEN 1 AND 2000`)
export class CommentRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'comments_entity_fk' })
  entity?: object;

  @Column('text')
  hostKind: string;

  @Column('uuid')
  hostId: string;

  @Column('uuid')
  authorUserId: string;

  @Column('text')
  text: string;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}
