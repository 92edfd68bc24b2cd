import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { DomainError, isUuid } from '../../../../libs/shared-kernel/src';
import { RequestValidationError } from '../../http/validation';
import { IS_TODO_ROUTE } from '../decorators';
import { TenantAccess, TenantScope } from '../ports';
import { isReadMethod, principalOf } from '../principal';
import { permissionDenied } from './access-errors';

export interface TenantContext extends TenantScope {
  entityId: string;
}

export function tenantOf(request: Request): TenantContext | undefined {
  return (request as Request & { tenant?: TenantContext }).tenant;
}

/** The same 404 for a missing Entity and one the caller may not see, so ids cannot be probed. */
const hidden = (entityId: string) => new DomainError('ENTITY_NOT_FOUND_ERROR', 'No Entity with this id', { entityId });

/**
 * 7. Every route with `:entityId` (spec "Tenant guard"): global staff pass; an entity-scoped key
 * gets 404 on any other Entity; anyone else needs a Membership in the Entity's Organization,
 * else 404. A viewer never mutates (D16); To-do routes need staff (D17).
 */
@Injectable()
export class TenantGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly access: TenantAccess,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const param = request.params?.entityId;
    const principal = principalOf(request);
    if (param === undefined || !principal) return true;
    // Guards run before pipes: refuse a malformed id here rather than query with it, and compare
    // the id in its canonical form (a key's Entity is read back from the database in lower case).
    if (!isUuid(param)) throw new RequestValidationError([{ path: 'entityId', message: 'entityId must be a UUID' }]);
    const entityId = param.toLowerCase();

    if (principal.apiKey?.entityId && principal.apiKey.entityId !== entityId) throw hidden(entityId);
    const scope = principal.tenantScope?.entityId === entityId ? principal.tenantScope.scope : await this.access.scopeFor(entityId, principal.user.id);
    if (!scope) throw hidden(entityId);
    const isStaff = principal.user.role === 'staff';
    if (!isStaff && scope.membershipRole === null) throw hidden(entityId);

    if (this.reflector.getAllAndOverride<boolean>(IS_TODO_ROUTE, [context.getHandler(), context.getClass()])) {
      if (!isStaff && scope.membershipRole !== 'staff') throw permissionDenied('To-dos are for staff of the Organization');
    }
    if (!isStaff && scope.membershipRole === 'viewer' && !isReadMethod(request.method)) {
      throw permissionDenied('A viewer Membership reads but does not change');
    }
    (request as Request & { tenant?: TenantContext }).tenant = { entityId, ...scope };
    return true;
  }
}
