import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** D18: one row per committed mutation. */
@Entity('audit_trail')
@Index('audit_trail_entity_idx', ['entityId', 'occurredAt', 'id'])
@Index('audit_trail_organization_idx', ['organizationId', 'occurredAt', 'id'])
@Check('audit_trail_credential_check', `"credential" IN ('session', 'api_key')`)
export class AuditTrailRecord {
  @PrimaryColumn('uuid')
  id: string;

  @Column('timestamptz')
  occurredAt: Date;

  @Column('uuid', { nullable: true })
  entityId: string | null;

  @Column('uuid', { nullable: true })
  organizationId: string | null;

  @Column('uuid', { nullable: true })
  actorUserId: string | null;

  @Column('text', { nullable: true })
  declaredActor: string | null;

  @Column('text', { nullable: true })
  credential: 'session' | 'api_key' | null;

  @Column('uuid', { nullable: true })
  apiKeyId: string | null;

  @Column('text')
  method: string;

  @Column('text')
  path: string;

  @Column('text')
  action: string;

  @Column('text', { nullable: true })
  resourceType: string | null;

  @Column('text', { nullable: true })
  resourceId: string | null;

  @Column('text')
  requestId: string;

  @Column('text', { nullable: true })
  reason: string | null;
}
