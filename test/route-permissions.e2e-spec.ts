import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { AUDIT_METADATA, AuditDescription } from '../src/platform/audit/audit.decorator';
import { IS_PUBLIC, IS_STAFF_ONLY, IS_TODO_ROUTE } from '../src/platform/auth/decorators';
import { createTestApp, TestApp } from './harness/test-app';

interface RouteRow {
  route: string;
  access: string;
  audit: string | null;
}

function join(...parts: string[]): string {
  return '/' + parts.flatMap((p) => p.split('/')).filter(Boolean).join('/');
}

/** Every route with its access metadata, read from the controllers as NestJS sees them. */
function routeTable(t: TestApp): RouteRow[] {
  const discovery = t.app.get(DiscoveryService);
  const scanner = t.app.get(MetadataScanner);
  const reflector = t.app.get(Reflector);
  const rows: RouteRow[] = [];
  for (const wrapper of discovery.getControllers()) {
    const { instance, metatype } = wrapper;
    if (!instance || !metatype) continue;
    const prototype = Object.getPrototypeOf(instance);
    const base: string | string[] = Reflect.getMetadata(PATH_METADATA, metatype) ?? '';
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[name];
      const path: string | undefined = Reflect.getMetadata(PATH_METADATA, handler);
      if (path === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
      const route = `${method} ${join('api', String(base), path)}`;
      const flag = (key: string) => reflector.getAllAndOverride<boolean>(key, [handler, metatype]) === true;
      const access = [
        flag(IS_PUBLIC) ? 'public' : 'authenticated',
        flag(IS_STAFF_ONLY) ? 'staff-only' : null,
        route.includes(':entityId') ? 'tenant' : null,
        flag(IS_TODO_ROUTE) ? 'todo' : null,
      ]
        .filter(Boolean)
        .join(' ');
      const audit = reflector.get<AuditDescription | undefined>(AUDIT_METADATA, handler);
      rows.push({ route, access, audit: audit ? `${audit.action} (${audit.resourceType})` : null });
    }
  }
  return rows.sort((a, b) => a.route.localeCompare(b.route));
}

describe('route permissions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('match the reviewed table (a change here is a permission change: review it)', () => {
    const table = routeTable(t).map((row) => `${row.route.padEnd(64)} ${row.access.padEnd(32)} ${row.audit ?? ''}`.trimEnd());
    expect(table).toMatchSnapshot();
  });

  it('name an audit action on every mutating route', () => {
    const unaudited = routeTable(t).filter((row) => !/^(GET|HEAD|OPTIONS) /.test(row.route) && row.audit === null);
    expect(unaudited).toEqual([]);
  });

  it('make public only sign-in, set-password and health', () => {
    const open = routeTable(t)
      .filter((row) => row.access.startsWith('public'))
      .map((row) => row.route);
    expect(open).toEqual(['GET /api/health', 'POST /api/auth/set-password', 'POST /api/auth/sign-in/email']);
  });
});
