import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { from, lastValueFrom, Observable } from 'rxjs';
import { isUuid } from '../../../libs/shared-kernel/src';
import { tenantOf } from '../auth/guards/tenant.guard';
import { isReadMethod, principalOf, RequestWithPrincipal } from '../auth/principal';
import { AuditContext } from './audit-context';
import { AUDIT_METADATA, AuditDescription } from './audit.decorator';
import { AuditRecord, AuditRecorder } from './audit-recorder';
import { retryTransientConflicts } from './transient-conflicts';

function headerValue(request: RequestWithPrincipal, name: string): string | null {
  const value = request.headers[name];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function idOf(result: unknown): string | null {
  if (typeof result === 'object' && result !== null && 'id' in result && isUuid((result as { id: unknown }).id)) {
    return (result as { id: string }).id;
  }
  return null;
}

/**
 * D18: runs each mutation in one database transaction together with its audit row. A refused or
 * failed mutation rolls back and writes no row; the response is sent after the commit. A
 * single-statement route (AuditDescription.singleStatement) gets its row to insert in that
 * statement instead, with the same guarantees and no transaction around it; so does a route whose
 * handler writes in its own transaction after asking an outside service (ownTransaction).
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly recorder: AuditRecorder,
    private readonly auditContext: AuditContext,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<RequestWithPrincipal>();
    if (isReadMethod(request.method) || request.method === 'OPTIONS') return next.handle();
    const description = this.reflector.get<AuditDescription | undefined>(AUDIT_METADATA, context.getHandler());
    this.auditContext.open('http');

    if (description?.singleStatement || description?.ownTransaction) {
      return from(
        retryTransientConflicts(async () => {
          this.auditContext.offerStatementRow(this.auditRecord(request, description, undefined));
          const result = await lastValueFrom(next.handle(), { defaultValue: undefined });
          // A handler that did not need its single statement after all (nothing to write in it)
          // still leaves its row.
          if (!this.auditContext.statementRowClaimed()) {
            await this.txHost.withTransaction(() => this.recorder.record(this.auditRecord(request, description, result)));
          }
          return result;
        }),
      );
    }

    return from(
      retryTransientConflicts(() =>
        this.txHost.withTransaction(async () => {
          const result = await lastValueFrom(next.handle(), { defaultValue: undefined });
          await this.recorder.record(this.auditRecord(request, description, result));
          return result;
        }),
      ),
    );
  }

  private auditRecord(request: RequestWithPrincipal, description: AuditDescription | undefined, result: unknown): AuditRecord {
    const details = this.auditContext.details();
    const principal = principalOf(request);
    const params = request.params ?? {};
    const tenant = tenantOf(request);
    // Path ids in their canonical form, as the handlers receive them (UuidParamsPipe).
    const pathIds = Object.values(params).filter(isUuid).map((id) => id.toLowerCase());
    return {
      entityId: details.entityId ?? tenant?.entityId ?? null,
      organizationId: details.organizationId ?? tenant?.organizationId ?? (isUuid(params.organizationId) ? params.organizationId.toLowerCase() : null),
      actorUserId: details.actorUserId ?? principal?.user.id ?? null,
      declaredActor: principal?.credential === 'api_key' ? headerValue(request, 'x-audit-actor') : null,
      credential: principal?.credential ?? (details.actorUserId ? 'session' : null),
      apiKeyId: principal?.apiKey?.id ?? null,
      method: request.method,
      path: request.originalUrl.split('?')[0],
      action: description?.action ?? `${request.method} ${request.route?.path ?? request.path}`,
      resourceType: description?.resourceType ?? null,
      resourceId: details.resourceId !== undefined ? details.resourceId : (idOf(result) ?? pathIds.at(-1) ?? null),
      requestId: request.id,
      reason: headerValue(request, 'x-audit-reason'),
    };
  }
}
