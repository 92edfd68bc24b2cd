import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { AUDIT_METADATA, AuditDescription } from '../../src/platform/audit/audit.decorator';
import { IS_PUBLIC, IS_STAFF_ONLY, IS_TODO_ROUTE } from '../../src/platform/auth/decorators';
import type { TestApp } from './test-app';

/** One route of the running application, with its access metadata, as NestJS sees it. */
export interface RouteInfo {
  method: string;
  /** `/api/...` with `:name` path parameters. */
  path: string;
  isPublic: boolean;
  staffOnly: boolean;
  todo: boolean;
  audit: AuditDescription | undefined;
  /** The handler takes a `@Body()` (a DTO, or `@NoBody()`). */
  declaresBody: boolean;
}

function join(...parts: string[]): string {
  return '/' + parts.flatMap((p) => p.split('/')).filter(Boolean).join('/');
}

/** Every route of the application, read from the controllers, sorted by method and path. */
export function routeTable(t: TestApp): RouteInfo[] {
  const discovery = t.app.get(DiscoveryService);
  const scanner = t.app.get(MetadataScanner);
  const reflector = t.app.get(Reflector);
  const rows: RouteInfo[] = [];
  for (const wrapper of discovery.getControllers()) {
    const { instance, metatype } = wrapper;
    if (!instance || !metatype) continue;
    const prototype = Object.getPrototypeOf(instance);
    const base: string | string[] = Reflect.getMetadata(PATH_METADATA, metatype) ?? '';
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[name];
      const path: string | undefined = Reflect.getMetadata(PATH_METADATA, handler);
      if (path === undefined) continue;
      const flag = (key: string) => reflector.getAllAndOverride<boolean>(key, [handler, metatype]) === true;
      const args: Record<string, unknown> = Reflect.getMetadata(ROUTE_ARGS_METADATA, metatype, name) ?? {};
      rows.push({
        method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number],
        path: join('api', String(base), path),
        isPublic: flag(IS_PUBLIC),
        staffOnly: flag(IS_STAFF_ONLY),
        todo: flag(IS_TODO_ROUTE),
        audit: reflector.get<AuditDescription | undefined>(AUDIT_METADATA, handler),
        declaresBody: Object.keys(args).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY)),
      });
    }
  }
  return rows.sort((a, b) => `${a.method} ${a.path}`.localeCompare(`${b.method} ${b.path}`));
}
