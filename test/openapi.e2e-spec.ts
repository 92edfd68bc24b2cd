import { createTestApp, TestApp } from './harness/test-app';

interface Operation {
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Record<string, unknown> }> }>;
}

/** Every route the application serves, read from the Express router. */
function servedRoutes(t: TestApp): Array<{ method: string; path: string }> {
  const express = t.app.getHttpAdapter().getInstance() as {
    router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> };
  };
  const routes: Array<{ method: string; path: string }> = [];
  for (const layer of express.router.stack) {
    if (!layer.route) continue;
    // Middleware that NestJS mounts with router.all() is registered for every method: not a route.
    if (Object.keys(layer.route.methods).length > 10) continue;
    for (const method of Object.keys(layer.route.methods)) {
      if (method === '_all') continue;
      routes.push({ method, path: layer.route.path.replace(/:(\w+)/g, '{$1}') });
    }
  }
  return routes.filter((route) => !route.path.startsWith('/api/docs'));
}

describe('OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is served as JSON at /api/docs-json; Swagger UI at /api/docs only when OPENAPI_UI is on (off by default outside development)', async () => {
    const json = await t.http.get('/api/docs-json');
    expect(json.status).toBe(200);
    expect(json.body.openapi).toMatch(/^3\./);
    expect((await t.http.get('/api/docs/')).status).toBe(404);
    const withUi = await createTestApp({ databaseUrl: t.databaseUrl, env: { OPENAPI_UI: 'true' } });
    try {
      const ui = await withUi.http.get('/api/docs/');
      expect(ui.status).toBe(200);
      expect(ui.text).toContain('swagger');
      expect((await withUi.http.get('/api/docs-json')).status).toBe(200);
    } finally {
      await withUi.close();
    }
  });

  it('documents every served route with at least one described response', async () => {
    const document = (await t.http.get('/api/docs-json')).body as { paths: Record<string, Record<string, Operation>> };
    const routes = servedRoutes(t);
    expect(routes.length).toBeGreaterThan(0);
    const undocumented: string[] = [];
    for (const { method, path } of routes) {
      const operation = document.paths[path]?.[method];
      const described = Object.values(operation?.responses ?? {}).some((response) => (response.description ?? '').trim() !== '');
      if (!described) undocumented.push(`${method.toUpperCase()} ${path}`);
    }
    expect(undocumented).toEqual([]);
  });

  it('publishes a response schema for every route that answers a body (issue 17), with the schemas it names', async () => {
    const document = (await t.http.get('/api/docs-json')).body as { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };
    const missing: string[] = [];
    const dangling: string[] = [];
    for (const { method, path } of servedRoutes(t)) {
      const responses = document.paths[path]?.[method]?.responses ?? {};
      for (const [status, response] of Object.entries(responses)) {
        if (!/^2\d\d$/.test(status) || status === '204') continue;
        const schema = response.content?.['application/json']?.schema;
        if (!schema || Object.keys(schema).length === 0) missing.push(`${method.toUpperCase()} ${path} ${status}`);
        for (const ref of JSON.stringify(schema ?? {}).match(/#\/components\/schemas\/[A-Za-z0-9_]+/g) ?? []) {
          if (!(ref.split('/').pop()! in document.components.schemas)) dangling.push(`${method.toUpperCase()} ${path}: ${ref}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(dangling).toEqual([]);
    // The seven reports name their body's schema, down to the group tree.
    const balanceSheet = document.paths['/api/entities/{entityId}/reports/balance-sheet'].get.responses!['200'].content!['application/json'].schema;
    expect(balanceSheet).toEqual({ $ref: '#/components/schemas/BalanceSheetResponse' });
    expect(JSON.stringify(document.components.schemas.GroupNodeResponse)).toContain('#/components/schemas/GroupNodeResponse');
  });
});
