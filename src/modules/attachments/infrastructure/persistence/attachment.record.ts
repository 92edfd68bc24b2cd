import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/** Upload slots (`pending`), attachments (`confirmed`) and attachments of deleted records (`discarded`). */
@Entity('attachments')
@Index('attachments_host_idx', ['entityId', 'hostKind', 'hostId', 'createdAt', 'id'])
@Index('attachments_sweep_idx', ['expiresAt'], { where: `"state" <> 'confirmed'` })
@Check('attachments_host_kind_check', `"host_kind" IN ('invoice', 'bank_movement', 'ledger_entry')`)
@Check('attachments_state_check', `"state" IN ('pending', 'confirmed', 'discarded')`)
@Check('attachments_confirm_claim_check', `("confirm_claim" IS NULL) = ("confirm_claimed_until" IS NULL) AND ("confirm_claim" IS NULL OR "state" = 'pending')`)
@Check('attachments_byte_size_check', `"byte_size" BETWEEN 1 AND 26214400`)
export class AttachmentRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'attachments_entity_fk' })
  entity?: object;

  @Column('text')
  hostKind: string;

  @Column('uuid')
  hostId: string;

  @Column('text')
  objectKey: string;

  @Column('text')
  filename: string;

  @Column('text')
  contentType: string;

  @Column('integer')
  byteSize: number;

  @Column('text')
  state: string;

  @Column('timestamptz')
  expiresAt: Date;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;

  /** Issue 33: the confirmation copying the upload to `objectKey` (see AttachmentsService.confirm). */
  @Column('uuid', { nullable: true })
  confirmClaim: string | null;

  @Column('timestamptz', { nullable: true })
  confirmClaimedUntil: Date | null;
}
