import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { newId } from '../../../../libs/shared-kernel/src';
import { AuditRecord, AuditRecorder } from '../../../platform/audit/audit-recorder';
import { Clock } from '../../../platform/clock/clock';
import { AuditTrailRecord } from './audit-trail.record';

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
    await this.txHost.tx.getRepository(AuditTrailRecord).insert({ id: newId(), occurredAt: this.clock.now(), ...row });
  }
}
