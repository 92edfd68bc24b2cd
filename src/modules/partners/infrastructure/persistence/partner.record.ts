import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';

// Relations to another module's records name them by class name: the foreign key is declared
// (and stays in the database) without importing that module's infrastructure.

@Entity('partners')
@Unique('partners_tax_id_key', ['entityId', 'taxId'])
@Index('partners_name_idx', ['entityId', 'name', 'id'])
@Check('partners_type_check', `"type" IN ('company', 'individual')`)
export class PartnerRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'partners_entity_fk' })
  entity?: object;

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

  @ManyToOne('LedgerAccountRecord', { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'default_purchase_account_id', referencedColumnName: 'id' },
  ])
  defaultPurchaseAccount?: object;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}
