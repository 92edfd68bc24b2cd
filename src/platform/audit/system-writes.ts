import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { ClsService } from 'nestjs-cls';
import { isUuid } from '../../../libs/shared-kernel/src';
import { AuditContext } from './audit-context';
import { AuditRecord, AuditRecorder } from './audit-recorder';
import { retryTransientConflicts } from './transient-conflicts';

/** Who writes when no HTTP request does: a job, the CLI (`system:bank-sync`, `system:cli`). */
export type SystemActor = `system:${string}`;

export interface SystemWrite {
  actor: SystemActor;
  /** As on a route's @Audit: what happened, the kind of record changed. */
  action: string;
  resourceType: string;
  /** The Entity written to (its row goes to entity_audit_trail), or null. */
  entityId: string | null;
  organizationId?: string | null;
  /** Defaults to what the use case named (AuditContext.describe), else the result's `id`. */
  resourceId?: string | null;
  reason?: string | null;
  /**
   * The use case records a row per resource it writes (a batch of ledger entries, each audited
   * as it would be alone), from this write's row as a template (AuditContext.statementRow): the
   * run then records no row of its own when the use case claimed the template.
   */
  rowPerResource?: boolean;
  /**
   * The use case asks an outside service before it writes (a bank provider): no transaction is
   * opened around it; it writes in its own transaction and inserts this write's row there
   * (AuditContext.statementRow). A use case that wrote nothing leaves the row on its own.
   */
  ownTransaction?: boolean;
}

function idOf(result: unknown): string | null {
  const id = typeof result === 'object' && result !== null && 'id' in result ? (result as { id: unknown }).id : undefined;
  return isUuid(id) ? id : null;
}

/**
 * The unit of work of a write made outside an HTTP request (D18 as for a request): the use case
 * runs in one transaction together with its audit row, whose actor is the declared system actor,
 * with no method, path or request id. A refusal or failure rolls back and leaves no row; a
 * deadlock or serialization failure runs it again, as AuditedMutations does for requests.
 * The use case's own @Transactional() joins this transaction, so its row locks are held to the
 * end, with the audit row's insert.
 */
@Injectable()
export class SystemWrites {
  constructor(
    private readonly cls: ClsService,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly recorder: AuditRecorder,
    private readonly auditContext: AuditContext,
  ) {}

  async run<T>(write: SystemWrite, useCase: () => Promise<T>): Promise<T> {
    if (!/^system:[a-z0-9][a-z0-9._-]*$/.test(write.actor)) throw new Error(`A system actor is named system:<name>, not ${write.actor}`);
    if (write.ownTransaction) {
      return this.cls.run({ ifNested: 'override' }, () =>
        retryTransientConflicts(async () => {
          this.auditContext.open('system');
          this.auditContext.offerStatementRow(this.row(write, undefined));
          const result = await useCase();
          if (!this.auditContext.statementRowClaimed()) await this.txHost.withTransaction(() => this.recorder.record(this.row(write, result)));
          return result;
        }),
      );
    }
    return this.cls.run({ ifNested: 'override' }, () =>
      retryTransientConflicts(() =>
        this.txHost.withTransaction(async () => {
          this.auditContext.open('system');
          if (write.rowPerResource) this.auditContext.offerStatementRow(this.row(write, undefined));
          const result = await useCase();
          if (write.rowPerResource && this.auditContext.statementRowClaimed()) return result;
          await this.recorder.record(this.row(write, result));
          return result;
        }),
      ),
    );
  }

  private row(write: SystemWrite, result: unknown): AuditRecord {
    const details = this.auditContext.details();
    return {
      entityId: details.entityId ?? write.entityId,
      organizationId: details.organizationId ?? write.organizationId ?? null,
      actorUserId: null,
      declaredActor: write.actor,
      credential: null,
      apiKeyId: null,
      method: null,
      path: null,
      action: write.action,
      resourceType: write.resourceType,
      resourceId: details.resourceId !== undefined ? details.resourceId : write.resourceId !== undefined ? write.resourceId : idOf(result),
      requestId: null,
      reason: write.reason ?? null,
    };
  }
}
