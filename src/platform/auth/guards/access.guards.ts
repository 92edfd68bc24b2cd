import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { characterCount, DomainError, isUuid, validationError } from '../../../../libs/shared-kernel/src';
import { IS_PUBLIC, IS_STAFF_ONLY } from '../decorators';
import { CredentialVerifier } from '../ports';
import { isReadMethod, principalOf, RequestWithPrincipal } from '../principal';
import { permissionDenied, rateLimited, unauthenticated } from './access-errors';

/*
 * The global guards, registered in this order in AppModule (ARCHITECTURE "The request path"):
 * auth surface, authentication, staff-only, read-only key, audit actor, rate limit, then the
 * tenant guard of the organizations module.
 */

function requestOf(context: ExecutionContext): RequestWithPrincipal {
  return context.switchToHttp().getRequest<RequestWithPrincipal>();
}

/**
 * The path as the router may match it: Express routes ignore case and a trailing slash, so
 * `/API/Auth/api-keys/` reaches the same handler as `/api/auth/api-keys`. Percent-escapes are
 * decoded and repeated slashes collapsed as well, so that no spelling of the path slips past.
 */
function normalizedPath(url: string): string {
  let path = url.split('?')[0];
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape: judge the path as sent.
  }
  return path.replace(/\/{2,}/g, '/').toLowerCase();
}

function isAuthPath(path: string): boolean {
  return path === '/api/auth' || path.startsWith('/api/auth/');
}

/** Only a path that spells `auth` or holds an escape can be one of /api/auth once normalized. */
const MAY_BE_AUTH = /auth|%/i;

function isAuthSurface(request: Request): boolean {
  if (MAY_BE_AUTH.test(request.originalUrl) && isAuthPath(normalizedPath(request.originalUrl))) return true;
  // The route the router matched, once there is one (guards): whatever spelling reached it.
  const routePath: unknown = (request as Request & { route?: { path?: unknown } }).route?.path;
  return typeof routePath === 'string' && isAuthPath(routePath.toLowerCase());
}

const keyOnAuthSurface = () => new DomainError('API_KEY_FORBIDDEN_ON_AUTH_ERROR', 'API keys are not accepted on /api/auth routes');

/**
 * Keys are barred from /api/auth/*, any path there, routed or not: this runs as the first
 * middleware after the request id, before body parsing and routing.
 */
export function authSurfaceMiddleware(request: Request, _response: unknown, next: (error?: unknown) => void): void {
  next(request.headers['x-api-key'] !== undefined && isAuthSurface(request) ? keyOnAuthSurface() : undefined);
}

/** 1. The same rule as a guard, so the routed pipeline states it too. */
@Injectable()
export class AuthSurfaceGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = requestOf(context);
    if (request.headers['x-api-key'] !== undefined && isAuthSurface(request)) throw keyOnAuthSurface();
    return true;
  }
}

/** 2. Every route needs a session or an API key unless it is @Public(). */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: CredentialVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = requestOf(context);
    const rawKey = request.headers['x-api-key'];
    if (rawKey !== undefined) {
      // A request presenting a key is judged by the key alone, whatever cookie it carries.
      const entityId = request.params?.entityId;
      const principal = typeof rawKey === 'string' ? await this.verifier.verifyApiKey(rawKey, isUuid(entityId) ? entityId.toLowerCase() : undefined) : null;
      if (!principal) throw unauthenticated();
      request.principal = principal;
      return true;
    }
    const session = (request as Request & { session?: { userId?: string; passwordStamp?: string } }).session;
    const principal = session?.userId ? await this.verifier.principalForSessionUser(session.userId, session.passwordStamp) : null;
    if (!principal) throw unauthenticated();
    request.principal = principal;
    return true;
  }
}

/**
 * 3. Staff-only routes refuse other Roles with 403 PERMISSION_DENIED_ERROR. A key confined to one
 * Entity stays inside it: staff-only routes outside an Entity (onboarding, Organizations, Entity
 * creation) refuse it too.
 */
@Injectable()
export class StaffOnlyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (!this.reflector.getAllAndOverride<boolean>(IS_STAFF_ONLY, [context.getHandler(), context.getClass()])) return true;
    const request = requestOf(context);
    const principal = principalOf(request);
    if (principal?.user.role !== 'staff') throw permissionDenied('This route is for staff only');
    if (principal.apiKey?.entityId && request.params?.entityId === undefined) {
      throw permissionDenied('A key confined to one Entity cannot use this route');
    }
    return true;
  }
}

/** 4. A read-only key is refused on anything but GET and HEAD (fails closed). */
@Injectable()
export class ReadOnlyKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = requestOf(context);
    const principal = principalOf(request);
    if (principal?.apiKey?.readOnly && !isReadMethod(request.method)) {
      throw new DomainError('API_KEY_READ_ONLY_ERROR', 'This API key is read-only');
    }
    return true;
  }
}

const AUDIT_ACTOR_MAX = 200;

/** 5. A key-authenticated mutation must declare its software actor. */
@Injectable()
export class AuditActorGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = requestOf(context);
    const principal = principalOf(request);
    if (principal?.credential === 'api_key' && !isReadMethod(request.method)) {
      const actor = request.headers['x-audit-actor'];
      if (typeof actor !== 'string' || actor.trim() === '') {
        throw new DomainError('AUDIT_ACTOR_REQUIRED_ERROR', 'Header x-audit-actor is required on API key mutations', {
          header: 'x-audit-actor',
        });
      }
      // D2a: 1 to 200 visible characters, recorded verbatim in the audit trail.
      if (characterCount(actor) > AUDIT_ACTOR_MAX || /[\p{Cc}\p{Cf}]/u.test(actor)) {
        throw validationError('headers.x-audit-actor', `must be 1 to ${AUDIT_ACTOR_MAX} visible characters`);
      }
    }
    return true;
  }
}

/**
 * 6. Per-key rate limit (D14), counted in PostgreSQL when the key was authenticated (every
 * instance shares the count); sessions are not limited.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const decision = principalOf(requestOf(context))?.apiKey?.rateLimit;
    if (decision && !decision.allowed) throw rateLimited(decision.retryAfterSeconds);
    return true;
  }
}
