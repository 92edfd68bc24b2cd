import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { EntityRecord } from '../../../entities/infrastructure/persistence/entity.records';
import { LedgerAccountRecord } from '../../../ledger/infrastructure/persistence/ledger.records';

@Entity('partners')
@Unique('partners_tax_id_key', ['entityId', 'taxId'])
@Index('partners_name_idx', ['entityId', 'name', 'id'])
@Check('partners_type_check', `"type" IN ('company', 'individual')`)
export class PartnerRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @ManyToOne(() => EntityRecord, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'partners_entity_fk' })
  entity?: EntityRecord;

  @Column('text')
  name: string;

  @Column('text')
  type: 'company' | 'individual';

  @Column('text')
  country: string;

  @Column('text')
  taxId: string;

  @Column('uuid', { nullable: true })
  defaultPurchaseAccountId: string | null;

  @ManyToOne(() => LedgerAccountRecord, { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'default_purchase_account_id', referencedColumnName: 'id' },
  ])
  defaultPurchaseAccount?: LedgerAccountRecord;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}
