import { createTestApp, TestApp } from './harness/test-app';
import { routeTable as routes } from './harness/routes';

interface RouteRow {
  route: string;
  access: string;
  audit: string | null;
}

/** Every route with its access metadata, read from the controllers as NestJS sees them. */
function routeTable(t: TestApp): RouteRow[] {
  return routes(t).map((r) => {
    const route = `${r.method} ${r.path}`;
    const access = [r.isPublic ? 'public' : 'authenticated', r.staffOnly ? 'staff-only' : null, route.includes(':entityId') ? 'tenant' : null, r.todo ? 'todo' : null]
      .filter(Boolean)
      .join(' ');
    return { route, access, audit: r.audit ? `${r.audit.action} (${r.audit.resourceType})` : null };
  });
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

  it('declare the body of every mutating route, a DTO or @NoBody() (D2: no route takes unknown properties unchecked)', () => {
    const undeclared = routes(t)
      .filter((r) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method) && !r.declaresBody)
      .map((r) => `${r.method} ${r.path}`);
    expect(undeclared).toEqual([]);
  });
});
