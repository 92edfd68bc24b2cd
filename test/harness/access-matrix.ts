import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { auditRowCount } from './db-checks';
import type { TestApp } from './test-app';
import type { Agent, World } from './world';

/**
 * The access matrix every Entity route goes through (see test/README.md).
 *
 * A route is described with a path builder taking an Entity id, so the same route can be asked
 * of the world's Entity, of a missing Entity and of another tenant's. For every kind of caller
 * the helper asserts the answer the access rules give:
 *
 * | caller                                 | read           | write                        |
 * | no credentials, revoked key            | 401            | 401                          |
 * | global staff                           | passes         | passes                       |
 * | client member                          | passes         | passes                       |
 * | viewer member                          | passes         | 403 PERMISSION_DENIED_ERROR  |
 * | non-member client                      | 404            | 404 (same body as missing)   |
 * | key scoped to another Entity           | 404            | 404                          |
 * | read-only key of a member              | passes         | 403 API_KEY_READ_ONLY_ERROR  |
 *
 * Staff-only routes give 403 PERMISSION_DENIED_ERROR to every non-staff caller; To-do routes give
 * it to everyone but global staff and staff members. "Passes" means the guards let the request
 * through: whatever the handler answers, it is not one of the access refusals. A refused
 * mutation must leave the audit trail (and so the data) unchanged.
 */
export interface MatrixRoute {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: (entityId: string) => string;
  /** A fresh body for each call (ids must differ between callers). */
  body?: () => Record<string, unknown>;
  staffOnly?: boolean;
  todo?: boolean;
}

const ACCESS_CODES = ['UNAUTHENTICATED_ERROR', 'PERMISSION_DENIED_ERROR', 'API_KEY_READ_ONLY_ERROR', 'AUDIT_ACTOR_REQUIRED_ERROR'];

type Caller = { agent: Agent } | { key: string } | 'anonymous';

function send(t: TestApp, route: MatrixRoute, entityId: string, caller: Caller) {
  const agent = typeof caller === 'object' && 'agent' in caller ? caller.agent : request(t.app.getHttpServer());
  let req = agent[route.method](route.path(entityId));
  if (typeof caller === 'object' && 'key' in caller) req = req.set('x-api-key', caller.key).set('x-audit-actor', 'access-matrix');
  if (route.body) req = req.send(route.body());
  return req;
}

export async function checkAccessMatrix(t: TestApp, world: World, route: MatrixRoute): Promise<void> {
  const write = route.method !== 'get';
  const label = `${route.method.toUpperCase()} ${route.path(world.entityId)}`;

  const refused = async (caller: Caller, status: number, code: string, entityId = world.entityId) => {
    const before = await auditRowCount(t);
    const res = await send(t, route, entityId, caller);
    expect({ label, status: res.status, code: res.body.code }).toEqual({ label, status, code });
    expect(await auditRowCount(t)).toBe(before);
    return res;
  };
  const passes = async (caller: Caller) => {
    const res = await send(t, route, world.entityId, caller);
    const refusal = ACCESS_CODES.includes(res.body?.code) || (res.body?.code === 'ENTITY_NOT_FOUND_ERROR' && res.status === 404);
    expect({ label, refusedWith: refusal ? `${res.status} ${res.body.code}` : null }).toEqual({ label, refusedWith: null });
    return res;
  };

  // Refusals first, so that nothing the allowed callers change can mask them.
  await refused('anonymous', 401, 'UNAUTHENTICATED_ERROR');
  await refused({ key: world.keys.revoked }, 401, 'UNAUTHENTICATED_ERROR');

  const nonStaffCode = route.staffOnly ? [403, 'PERMISSION_DENIED_ERROR'] as const : null;
  // A non-member gets the same 404 for an existing Entity as for a missing one.
  if (nonStaffCode) {
    await refused({ agent: world.outsider.agent }, ...nonStaffCode);
  } else {
    const existing = await refused({ agent: world.outsider.agent }, 404, 'ENTITY_NOT_FOUND_ERROR');
    const missingId = randomUUID();
    const missing = await refused({ agent: world.outsider.agent }, 404, 'ENTITY_NOT_FOUND_ERROR', missingId);
    const strip = (body: Record<string, unknown>, id: string) =>
      JSON.stringify({ ...body, requestId: undefined }).split(id).join('<entityId>');
    expect(strip(existing.body, world.entityId)).toBe(strip(missing.body, missingId));
  }
  await refused({ key: world.keys.scopedToOtherEntity }, 404, 'ENTITY_NOT_FOUND_ERROR');

  if (route.staffOnly || route.todo) {
    await refused({ agent: world.clientMember.agent }, 403, 'PERMISSION_DENIED_ERROR');
    await refused({ agent: world.viewerMember.agent }, 403, 'PERMISSION_DENIED_ERROR');
  } else if (write) {
    await refused({ agent: world.viewerMember.agent }, 403, 'PERMISSION_DENIED_ERROR');
  }
  // The staff-only guard runs before the read-only one.
  if (route.staffOnly) {
    await refused({ key: world.keys.memberReadOnly }, 403, 'PERMISSION_DENIED_ERROR');
  } else if (write) {
    await refused({ key: world.keys.memberReadOnly }, 403, 'API_KEY_READ_ONLY_ERROR');
  }

  // Then the callers the rules let through.
  await passes({ agent: world.staff });
  if (route.todo) await passes({ agent: world.staffMember.agent });
  if (!route.staffOnly && !route.todo) {
    await passes({ agent: world.clientMember.agent });
    await passes({ key: world.keys.member });
    if (!write) {
      await passes({ agent: world.viewerMember.agent });
      await passes({ key: world.keys.memberReadOnly });
    }
  }
}
