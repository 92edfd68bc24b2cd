import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiForbiddenResponse, ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { principalOf, Principal } from './principal';

export const IS_PUBLIC = 'access:isPublic';
export const IS_STAFF_ONLY = 'access:isStaffOnly';

/** Opts a route out of authentication (deny by default): only sign-in, set-password, health, docs. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** Global role `staff` required; others get 403 PERMISSION_DENIED_ERROR. */
export const StaffOnly = () =>
  applyDecorators(
    SetMetadata(IS_STAFF_ONLY, true),
    ApiForbiddenResponse({ description: 'PERMISSION_DENIED_ERROR: the caller is not staff' }),
  );

/** Documents the credentials every authenticated route accepts. */
export const Authenticated = () =>
  applyDecorators(
    ApiSecurity('session'),
    ApiSecurity('apiKey'),
    ApiUnauthorizedResponse({ description: 'UNAUTHENTICATED_ERROR: no valid session or API key' }),
  );

/** The verified caller; only on authenticated routes. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = principalOf(context.switchToHttp().getRequest());
  if (!principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return principal;
});

export const IS_TODO_ROUTE = 'access:isTodoRoute';

/**
 * D17: To-do routes need global staff or a `staff` Membership in the Entity's Organization;
 * anyone else (viewers included) gets 403 PERMISSION_DENIED_ERROR.
 */
export const TodoAccess = () =>
  applyDecorators(
    SetMetadata(IS_TODO_ROUTE, true),
    ApiForbiddenResponse({ description: 'PERMISSION_DENIED_ERROR: To-dos are for staff of the Organization' }),
  );
