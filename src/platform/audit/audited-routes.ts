import { INestApplication, Injectable, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { CLS_REQ, ClsService } from 'nestjs-cls';
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
export class AuditedMutations {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly recorder: AuditRecorder,
    private readonly auditContext: AuditContext,
    private readonly cls: ClsService,
  ) {}

  /** Runs a mutating route's handler (its arguments already through the pipes) under D18. */
  run(description: AuditDescription | undefined, handler: () => Promise<unknown>): Promise<unknown> {
    const request = this.cls.isActive() ? this.cls.get<RequestWithPrincipal | undefined>(CLS_REQ) : undefined;
    // Never a mutation without its row: the CLS middleware keeps every request (mount: true).
    if (!request) throw new Error('a mutating route ran outside a request context: its audit row would be lost');
    // A route for every method (@All) is wrapped too; its reads go through as they are.
    if (isReadMethod(request.method) || request.method === 'OPTIONS') return handler();
    this.auditContext.open('http');

    if (description?.singleStatement || description?.ownTransaction) {
      return retryTransientConflicts(async () => {
        this.auditContext.offerStatementRow(this.auditRecord(request, description, undefined));
        const result = await handler();
        // A handler that did not need its single statement after all (nothing to write in it)
        // still leaves its row.
        if (!this.auditContext.statementRowClaimed()) {
          await this.txHost.withTransaction(() => this.recorder.record(this.auditRecord(request, description, result)));
        }
        return result;
      });
    }

    return retryTransientConflicts(() =>
      this.txHost.withTransaction(async () => {
        const result = await handler();
        await this.recorder.record(this.auditRecord(request, description, result));
        return result;
      }),
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

const READ_ONLY = new Set<RequestMethod>([RequestMethod.GET, RequestMethod.HEAD, RequestMethod.OPTIONS]);

/**
 * Puts every mutating route's handler under AuditedMutations, on the controller instances, before
 * the application registers its routes (call it between NestFactory.create and init). A wrapper
 * in place of a global Nest interceptor: the interceptor chain's per-request machinery (rxjs
 * observables, an async resource bound twice) cost every request, reads included, about a fifth
 * of a simple request's CPU (bench/README.md, issue 25). The wrapper carries the handler's own
 * metadata, so guards, pipes and the route table read it as before; pipes now run before the
 * transaction opens, so a refused body never opens one.
 */
export function auditMutatingRoutes(app: INestApplication): void {
  const discovery = app.get(DiscoveryService, { strict: false });
  const mutations = app.get(AuditedMutations, { strict: false });
  const scanner = new MetadataScanner();
  for (const controller of discovery.getControllers()) {
    // A request-scoped controller gets a new instance per request, which this wrapping would miss.
    if (!controller.isDependencyTreeStatic()) throw new Error(`${controller.name}: request-scoped controllers escape the audit of their mutations (D18)`);
    const instance = controller.instance as Record<string, unknown> | undefined;
    if (!instance) continue;
    const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[name] as (...args: unknown[]) => Promise<unknown>;
      if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined || READ_ONLY.has(method)) continue;
      const description = Reflect.getMetadata(AUDIT_METADATA, handler) as AuditDescription | undefined;
      const audited = function (this: unknown, ...args: unknown[]): Promise<unknown> {
        return mutations.run(description, () => handler.apply(this, args));
      };
      for (const key of Reflect.getOwnMetadataKeys(handler)) Reflect.defineMetadata(key, Reflect.getOwnMetadata(key, handler), audited);
      Object.defineProperty(audited, 'name', { value: handler.name });
      instance[name] = audited;
    }
  }
}
