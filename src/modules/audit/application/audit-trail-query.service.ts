import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import type { AuditTrailRow, Page } from '../../../../libs/contracts/src';
import { isIsoInstant, isUuid, validationError } from '../../../../libs/shared-kernel/src';
import type { RuntimeConfig } from '../../../platform/config/app-config';
import { SqlConditions } from '../../../platform/database/sql-conditions';

export interface AuditTrailFilter {
  from?: string;
  to?: string;
  actorUserId?: string;
  resourceType?: string;
  resourceId?: string;
  cursor?: string;
  limit?: number;
}

interface Cursor {
  occurredAt: string;
  id: string;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.occurredAt}|${cursor.id}`, 'utf8').toString('base64url');
}

function decodeCursor(raw: string): Cursor {
  const parts = Buffer.from(raw, 'base64url').toString('utf8').split('|');
  const [occurredAt, id] = parts;
  // Exactly what encodeCursor wrote: anything else would reach Postgres as a bad timestamp or
  // uuid (a year 0 or a six-digit year survives a round trip through Date, not PostgreSQL).
  if (parts.length !== 2 || !isUuid(id) || !isIsoInstant(occurredAt)) {
    throw validationError('cursor', 'is not a cursor of this list');
  }
  return { occurredAt, id };
}

/** D18 reads: newest first, keyset pages over (occurred_at, id). */
@Injectable()
export class AuditTrailQueryService {
  private readonly timeZone: string;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    config: ConfigService<RuntimeConfig, true>,
  ) {
    this.timeZone = config.get('businessTimezone', { infer: true });
  }

  forEntity(entityId: string, filter: AuditTrailFilter): Promise<Page<AuditTrailRow>> {
    return this.page('entity_id', entityId, filter);
  }

  forOrganization(organizationId: string, filter: AuditTrailFilter): Promise<Page<AuditTrailRow>> {
    return this.page('organization_id', organizationId, filter);
  }

  /**
   * An Entity's trail reads its table (entity_audit_trail, keyed by entity_id); an
   * Organization's reads the audit_trail view of both tables (its Entities' rows and its own).
   */
  private async page(column: 'entity_id' | 'organization_id', id: string, filter: AuditTrailFilter): Promise<Page<AuditTrailRow>> {
    const limit = filter.limit ?? 50;
    if (filter.from && filter.to && Date.parse(filter.to) < Date.parse(filter.from)) {
      throw validationError('to', 'must be on or after from');
    }
    const sql = new SqlConditions([`${column} = $1`], [id]);
    // A date means the whole day in the business time zone.
    if (filter.from) {
      if (filter.from.length === 10) sql.add('occurred_at >= (?::date)::timestamp AT TIME ZONE ?', filter.from, this.timeZone);
      else sql.add('occurred_at >= ?::timestamptz', filter.from);
    }
    if (filter.to) {
      if (filter.to.length === 10) sql.add('occurred_at < ((?::date) + 1)::timestamp AT TIME ZONE ?', filter.to, this.timeZone);
      else sql.add('occurred_at <= ?::timestamptz', filter.to);
    }
    if (filter.actorUserId) sql.add('actor_user_id = ?', filter.actorUserId);
    if (filter.resourceType) sql.add('resource_type = ?', filter.resourceType);
    if (filter.resourceId) sql.add('resource_id = ?', filter.resourceId);
    if (filter.cursor) {
      const cursor = decodeCursor(filter.cursor);
      sql.add('(occurred_at, id) < (?::timestamptz, ?::uuid)', cursor.occurredAt, cursor.id);
    }
    const limitParameter = sql.parameter(limit + 1);
    const rows: Array<Record<string, unknown>> = await this.txHost.tx.query(
      `${column === 'entity_id' ? '' : "/* citus:multi-shard an Organization's trail spans its Entities (a read) */ "}SELECT id, occurred_at, entity_id, organization_id, actor_user_id, declared_actor, credential, api_key_id,
              method, path, action, resource_type, resource_id, request_id, reason
         FROM ${column === 'entity_id' ? 'entity_audit_trail' : 'audit_trail'} WHERE ${sql.where}
        ORDER BY occurred_at DESC, id DESC LIMIT ${limitParameter}`,
      sql.values,
    );
    const page = rows.slice(0, limit).map(
      (row): AuditTrailRow => ({
        id: row.id as string,
        occurredAt: (row.occurred_at as Date).toISOString(),
        entityId: row.entity_id as string | null,
        organizationId: row.organization_id as string | null,
        actorUserId: row.actor_user_id as string | null,
        declaredActor: row.declared_actor as string | null,
        credential: row.credential as AuditTrailRow['credential'],
        apiKeyId: row.api_key_id as string | null,
        method: row.method as string | null,
        path: row.path as string | null,
        action: row.action as string,
        resourceType: row.resource_type as string | null,
        resourceId: row.resource_id as string | null,
        requestId: row.request_id as string | null,
        reason: row.reason as string | null,
      }),
    );
    const last = page.at(-1);
    return { rows: page, nextCursor: rows.length > limit && last ? encodeCursor({ occurredAt: last.occurredAt, id: last.id }) : null };
  }
}
