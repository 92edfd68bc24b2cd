import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { newTimeOrderedId } from '../../../../libs/shared-kernel/src';
import { AuditRecord, AuditRecorder } from '../../../platform/audit/audit-recorder';
import { Clock } from '../../../platform/clock/clock';

const COLUMNS = `id, occurred_at, entity_id, organization_id, actor_user_id, declared_actor, credential, api_key_id,
  method, path, action, resource_type, resource_id, request_id, reason`;

/** $n::type placeholders for the 15 columns, typed so the row can come from a SELECT. */
function placeholders(first: number): string {
  const types = ['uuid', 'timestamptz', 'uuid', 'uuid', 'uuid', 'text', 'text', 'uuid', 'text', 'text', 'text', 'text', 'text', 'text', 'text'];
  return types.map((type, i) => `$${first + i}::${type}`).join(', ');
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
    await this.txHost.tx.query(`INSERT INTO audit_trail (${COLUMNS}) VALUES (${placeholders(1)})`, this.values(row));
  }

  insertion(row: AuditRecord, firstParameter: number, when: string): { sql: string; values: unknown[] } {
    return { sql: `INSERT INTO audit_trail (${COLUMNS}) SELECT ${placeholders(firstParameter)} WHERE ${when}`, values: this.values(row) };
  }

  /**
   * The row's id is time-ordered (UUIDv7): the trail reads newest first by (occurred_at, id), and
   * two mutations in one millisecond (or under a clock that stands still) still come back in the
   * order they were recorded, not in the order of random ids.
   */
  private values(row: AuditRecord): unknown[] {
    return [
      newTimeOrderedId(),
      this.clock.now(),
      row.entityId,
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
