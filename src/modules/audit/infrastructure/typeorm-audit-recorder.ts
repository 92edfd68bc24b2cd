import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { newTimeOrderedId } from '../../../../libs/shared-kernel/src';
import { AuditRecord, AuditRecorder } from '../../../platform/audit/audit-recorder';
import { Clock } from '../../../platform/clock/clock';

const COLUMNS = `id, occurred_at, organization_id, actor_user_id, declared_actor, credential, api_key_id,
  method, path, action, resource_type, resource_id, request_id, reason`;
const TYPES = ['uuid', 'timestamptz', 'uuid', 'uuid', 'text', 'text', 'uuid', 'text', 'text', 'text', 'text', 'text', 'text', 'text'];

/**
 * The INSERT's target and $n::type placeholders, typed so the row can come from a SELECT: an
 * Entity's row goes to entity_audit_trail (entity_id first, D40), any other to global_audit_trail.
 */
function target(row: AuditRecord, first: number): { into: string; select: string } {
  const placeholders = (from: number) => TYPES.map((type, i) => `$${from + i}::${type}`).join(', ');
  return row.entityId !== null
    ? { into: `entity_audit_trail (entity_id, ${COLUMNS})`, select: `$${first}::uuid, ${placeholders(first + 1)}` }
    : { into: `global_audit_trail (${COLUMNS})`, select: placeholders(first) };
}

@Injectable()
export class TypeOrmAuditRecorder extends AuditRecorder {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly clock: Clock,
  ) {
    super();
  }

  async record(row: AuditRecord): Promise<void> {
    if (!this.txHost.isTransactionActive()) {
      throw new Error('The audit row must be written in the transaction of its mutation');
    }
    // Plain SQL: this runs with every mutation.
    const { into, select } = target(row, 1);
    await this.txHost.tx.query(`INSERT INTO ${into} VALUES (${select})`, this.values(row));
  }

  insertion(row: AuditRecord, firstParameter: number, when: string): { sql: string; values: unknown[] } {
    const { into, select } = target(row, firstParameter);
    return { sql: `INSERT INTO ${into} SELECT ${select} WHERE ${when}`, values: this.values(row) };
  }

  insertionPerResource(row: AuditRecord, resourceIds: string[], firstParameter: number, when: string): { sql: string; values: unknown[] } {
    // The row's own values, but its id and resource_id, which come from two arrays unnested.
    const columns = [...(row.entityId !== null ? ['entity_id'] : []), ...COLUMNS.split(',').map((c) => c.trim())];
    const types = [...(row.entityId !== null ? ['uuid'] : []), ...TYPES];
    const values = this.values(row);
    const scalars: unknown[] = [];
    const select = columns.map((column, i) => {
      if (column === 'id') return 'r.id';
      if (column === 'resource_id') return 'r.resource_id::text';
      scalars.push(values[i]);
      return `$${firstParameter + scalars.length - 1}::${types[i]}`;
    });
    const next = firstParameter + scalars.length;
    const into = row.entityId !== null ? 'entity_audit_trail' : 'global_audit_trail';
    return {
      sql: `INSERT INTO ${into} (${columns.join(', ')}) SELECT ${select.join(', ')} FROM unnest($${next}::uuid[], $${next + 1}::uuid[]) AS r(id, resource_id) WHERE ${when}`,
      values: [...scalars, resourceIds.map(() => newTimeOrderedId()), resourceIds],
    };
  }

  /**
   * The row's id is time-ordered (UUIDv7): the trail reads newest first by (occurred_at, id), and
   * two mutations in one millisecond (or under a clock that stands still) still come back in the
   * order they were recorded, not in the order of random ids.
   */
  private values(row: AuditRecord): unknown[] {
    return [
      ...(row.entityId !== null ? [row.entityId] : []),
      newTimeOrderedId(),
      this.clock.now(),
      row.organizationId,
      row.actorUserId,
      row.declaredActor,
      row.credential,
      row.apiKeyId,
      row.method,
      row.path,
      row.action,
      row.resourceType,
      row.resourceId,
      row.requestId,
      row.reason,
    ];
  }
}
