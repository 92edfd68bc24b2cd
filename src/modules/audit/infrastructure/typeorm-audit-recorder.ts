import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { newId } from '../../../../libs/shared-kernel/src';
import { AuditRecord, AuditRecorder } from '../../../platform/audit/audit-recorder';
import { Clock } from '../../../platform/clock/clock';

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
    await this.txHost.tx.query(
      `INSERT INTO audit_trail (id, occurred_at, entity_id, organization_id, actor_user_id, declared_actor, credential, api_key_id,
                                method, path, action, resource_type, resource_id, request_id, reason)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
      [
        newId(),
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
      ],
    );
  }
}
