import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

const SYSTEM_CHECK = `("method" IS NULL) = ("request_id" IS NULL) AND ("path" IS NULL) = ("request_id" IS NULL) AND ("request_id" IS NOT NULL OR "declared_actor" LIKE 'system:%')`;

/** The columns of an audit row after its key (D18). */
abstract class AuditRowColumns {
  @Column('timestamptz')
  occurredAt: Date;

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

  /** Null for a write made outside an HTTP request (with `path` and `requestId`). */
  @Column('text', { nullable: true })
  method: string | null;

  @Column('text', { nullable: true })
  path: string | null;

  @Column('text')
  action: string;

  @Column('text', { nullable: true })
  resourceType: string | null;

  @Column('text', { nullable: true })
  resourceId: string | null;

  @Column('text', { nullable: true })
  requestId: string | null;

  @Column('text', { nullable: true })
  reason: string | null;
}

/** D18 and D40: one row per committed mutation of an Entity, keyed (entity_id, id). */
@Entity('entity_audit_trail')
@Index('entity_audit_trail_time_idx', ['entityId', 'occurredAt', 'id'])
@Index('entity_audit_trail_organization_idx', ['organizationId', 'occurredAt', 'id'])
@Check('entity_audit_trail_credential_check', `"credential" IN ('session', 'api_key')`)
@Check('entity_audit_trail_system_check', SYSTEM_CHECK)
export class EntityAuditTrailRecord extends AuditRowColumns {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'entity_audit_trail_pkey' })
  entityId: string;

  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'entity_audit_trail_pkey' })
  id: string;
}

/** The rows of mutations that belong to no Entity: Organizations, onboarding, sign-in, keys. */
@Entity('global_audit_trail')
@Index('global_audit_trail_organization_idx', ['organizationId', 'occurredAt', 'id'])
@Check('global_audit_trail_credential_check', `"credential" IN ('session', 'api_key')`)
@Check('global_audit_trail_system_check', SYSTEM_CHECK)
export class GlobalAuditTrailRecord extends AuditRowColumns {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'global_audit_trail_pkey' })
  id: string;
}

export const AUDIT_RECORDS = [EntityAuditTrailRecord, GlobalAuditTrailRecord];
