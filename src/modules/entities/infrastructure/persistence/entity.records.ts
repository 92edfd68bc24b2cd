import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { OrganizationRecord } from '../../../organizations/infrastructure/persistence/organization.records';

@Entity('entities')
@Index('entities_organization_idx', ['organizationId'])
@Index('entities_parent_idx', ['parentEntityId'])
export class EntityRecord {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  organizationId: string;

  @ManyToOne(() => OrganizationRecord, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'entities_organization_fk' })
  organization?: OrganizationRecord;

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
