import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

// Relations to another module's records name them by class name: the foreign key is declared
// (and stays in the database) without importing that module's infrastructure.

@Entity('organizations')
export class OrganizationRecord {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text')
  name: string;

  /** lower(trim(name)): names are unique ignoring case. */
  @Index('organizations_name_key_key', { unique: true })
  @Column('text')
  nameKey: string;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}

@Entity('memberships')
@Index('memberships_user_idx', ['userId'])
@Check('memberships_role_check', `"role" IN ('staff', 'client', 'viewer')`)
export class MembershipRecord {
  @PrimaryColumn('uuid')
  organizationId: string;

  @PrimaryColumn('uuid')
  userId: string;

  @ManyToOne(() => OrganizationRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'memberships_organization_fk' })
  organization?: OrganizationRecord;

  @ManyToOne('UserRecord', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'memberships_user_fk' })
  user?: object;

  @Column('text')
  role: 'staff' | 'client' | 'viewer';

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}

export const ORGANIZATION_RECORDS = [OrganizationRecord, MembershipRecord];
