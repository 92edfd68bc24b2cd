import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

// Relations to another module's records name them by class name: the foreign key is declared
// (and stays in the database) without importing that module's infrastructure.

@Entity('entities')
@Index('entities_organization_idx', ['organizationId'])
@Index('entities_parent_idx', ['parentEntityId'])
export class EntityRecord {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  organizationId: string;

  @ManyToOne('OrganizationRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'entities_organization_fk' })
  organization?: object;

  @Column('text')
  name: string;

  @Column('text')
  country: string;

  @Column('text')
  taxId: string;

  @Column('text')
  currency: string;

  @Column('date', { nullable: true })
  ledgerLockDate: string | null;

  @Column('text', { nullable: true })
  accountingPolicies: string | null;

  @Column('uuid', { nullable: true })
  parentEntityId: string | null;

  @ManyToOne(() => EntityRecord, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'parent_entity_id', foreignKeyConstraintName: 'entities_parent_fk' })
  parent?: EntityRecord;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}
