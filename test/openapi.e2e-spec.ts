import { execFile } from 'node:child_process';
import { createTestApp, TestApp } from './harness/test-app';

interface Operation {
  summary?: string;
  parameters?: Array<{ name: string; in: string; schema?: Record<string, unknown> }>;
  requestBody?: { content: Record<string, { schema?: Record<string, unknown> }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Record<string, unknown> }> }>;
}

/**
 * @apidevtools/swagger-parser's validation (the OpenAPI 3 JSON schema, every $ref resolved), run
 * in a plain Node process: the parser loads an ES module, which Jest's CommonJS runtime cannot.
 */
function validateOpenApi(document: unknown): Promise<string> {
  const script = `const p = require('@apidevtools/swagger-parser'); let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () =>
    p.validate(JSON.parse(s)).then(() => process.stdout.write('valid'), (e) => { process.stdout.write(String(e.message)); process.exitCode = 1; }));`;
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['-e', script], { cwd: __dirname, maxBuffer: 1 << 24 }, (_error, stdout) => resolve(String(stdout)));
    child.stdin!.end(JSON.stringify(document));
  });
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

  describe('issue 33: a document generated clients and Swagger UI can use', () => {
    let document: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Record<string, unknown>> } };
    const operations = () =>
      Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, path, operation })));
    beforeAll(async () => {
      document = (await t.http.get('/api/docs-json')).body;
    });

    it('validates as OpenAPI 3 (its JSON schema, every $ref resolved)', async () => {
      expect(await validateOpenApi(document)).toBe('valid');
      // The validator does refuse a broken document.
      expect(await validateOpenApi({ ...document, paths: { '/x': { get: { responses: { 200: { descriptio: 'typo' } } } } } })).not.toBe('valid');
    });

    it('gives every operation a summary', () => {
      expect(operations().length).toBeGreaterThan(150);
      expect(operations().filter(({ operation }) => !operation.summary?.trim()).map(({ name }) => name)).toEqual([]);
      expect(document.paths['/api/entities/{entityId}/invoices/{invoiceId}/book'].post.summary).toBe('Book invoice');
    });

    it('gives every error response the error envelope schema { requestId, statusCode, code, message, params }', () => {
      expect(document.components.schemas.ErrorEnvelope).toMatchObject({
        type: 'object',
        required: ['requestId', 'statusCode', 'code', 'message', 'params'],
        properties: { requestId: { type: 'string' }, statusCode: { type: 'integer' }, code: { type: 'string' }, message: { type: 'string' }, params: { type: 'object' } },
      });
      const bare: string[] = [];
      let errorResponses = 0;
      for (const { name, operation } of operations()) {
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          if (!/^[45]/.test(status)) continue;
          errorResponses++;
          if (response.content?.['application/json']?.schema?.$ref !== '#/components/schemas/ErrorEnvelope') bare.push(`${name} ${status}`);
        }
      }
      expect(errorResponses).toBeGreaterThan(400);
      expect(bare).toEqual([]);
    });

    it('declares every path parameter, as format uuid, and 400 on every operation that takes a path id, a query parameter or a body', () => {
      const undeclared: string[] = [];
      const notUuid: string[] = [];
      for (const { name, path, operation } of operations()) {
        if (((operation.parameters ?? []).length > 0 || operation.requestBody) && !operation.responses?.['400']) undeclared.push(name);
        for (const [, id] of path.matchAll(/\{([^}]+)\}/g)) {
          if (!(operation.parameters ?? []).some((parameter) => parameter.in === 'path' && parameter.name === id)) undeclared.push(`${name}: path parameter ${id}`);
        }
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in === 'path' && (parameter.schema?.type !== 'string' || parameter.schema?.format !== 'uuid')) notUuid.push(`${name} ${parameter.name}`);
        }
      }
      expect(undeclared).toEqual([]);
      expect(notUuid).toEqual([]);
    });

    it('answers 400 where it says so: a malformed path id on a route that did not declare it before', async () => {
      // /chart-templates had no declared parameter at all; the UuidParamsPipe still answers 400.
      const response = await t.http.get('/api/entities/not-a-uuid/ledger/chart-templates');
      expect([400, 401]).toContain(response.status);
      expect(document.paths['/api/entities/{entityId}/ledger/chart-templates'].get.responses!['400']).toBeDefined();
    });

    it('types amounts as integer (no bare number; a fraction says format double), the CSV body as a string', () => {
      const bareNumbers: string[] = [];
      const walk = (node: unknown, at: string) => {
        if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${at}[${i}]`));
        if (typeof node !== 'object' || node === null) return;
        const object = node as Record<string, unknown>;
        if (object.type === 'number' && object.format !== 'double' && object.format !== 'float') bareNumbers.push(at);
        for (const [key, value] of Object.entries(object)) walk(value, `${at}.${key}`);
      };
      walk(document.paths, 'paths');
      walk(document.components.schemas, 'schemas');
      expect(bareNumbers).toEqual([]);
      expect(document.components.schemas.InvoiceResponse).toMatchObject({ properties: { totalAmount: { type: 'integer' } } });
      expect(document.components.schemas.NewLineBody).toMatchObject({ properties: { amount: { type: 'integer' } } });
      expect(document.components.schemas.RecommendationResponse).toMatchObject({ properties: { confidence: { type: 'number', format: 'double' } } });
      const csv = document.paths['/api/entities/{entityId}/bank-accounts/{bankAccountId}/movements/import'].post.requestBody!.content['text/csv'].schema;
      expect(csv).toMatchObject({ type: 'string', format: 'binary' });
    });
  });
});
