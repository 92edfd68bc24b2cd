import fc from 'fast-check';
import { OpenApiDocument, parseArguments, readRequestOf, readToolsOf, toolNameOf } from './tools';

const DOC: OpenApiDocument = {
  paths: {
    '/api/entities/{entityId}/partners/{partnerId}': {
      get: { summary: 'One partner', parameters: [{ name: 'entityId', in: 'path', required: true, schema: { type: 'string' } }, { name: 'partnerId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }] },
      patch: { parameters: [] },
    },
    '/api/entities/{entityId}/partners/pages': {
      get: {
        parameters: [
          { name: 'entityId', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'limit', in: 'query', required: false, schema: { type: 'number', minimum: 1, maximum: 100 } },
          { name: 'kind', in: 'query', required: false, schema: { $ref: '#/components/schemas/Kind' } },
          { name: 'ids', in: 'query', required: false, schema: { type: 'array', items: { type: 'string' } } },
        ],
      },
    },
    '/api/entities/{entityId}/agents/conversations': { get: { parameters: [] } },
    '/api/entities/{entityId}': { get: { parameters: [] } },
    '/api/organizations': { get: { parameters: [] } },
    '/api/entities/{entityId}/partners': { post: { parameters: [] } },
  },
  components: { schemas: { Kind: { type: 'string', enum: ['ar', 'ap'] } } },
};

describe('readToolsOf (D88)', () => {
  const tools = readToolsOf(DOC);

  it('makes one tool per GET under the Entity, agents left out, entityId never a parameter', () => {
    expect(tools.map((tool) => tool.name)).toEqual(['get_partners_pages', 'get_partners_by_partnerId']);
    expect(tools[1].description).toBe('GET /api/entities/{entityId}/partners/{partnerId}: One partner');
    expect(tools[1].schema).toEqual({ type: 'object', properties: { partnerId: { type: 'string', format: 'uuid' } }, required: ['partnerId'], additionalProperties: false });
    expect(tools[0].schema.properties).toEqual({
      limit: { type: 'number', minimum: 1, maximum: 100 },
      kind: { type: 'string', enum: ['ar', 'ap'] },
      ids: { type: 'array', items: { type: 'string' } },
    });
    expect(tools[0].schema.required).toEqual([]);
  });

  it('names tools within the protocol: [a-zA-Z0-9_-], at most 64 characters, unique', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.array(fc.string({ minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 5 }), { maxLength: 12 }), (paths) => {
        const doc: OpenApiDocument = { paths: Object.fromEntries(paths.map((segments) => [`/api/entities/{entityId}/${segments.join('/')}`, { get: {} }])) };
        const names = readToolsOf(doc).map((tool) => tool.name);
        for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
        expect(new Set(names).size).toBe(names.length);
      }),
    );
    expect(toolNameOf('/api/entities/{entityId}/reports/balance-sheet')).toBe('get_reports_balance-sheet');
  });

  it('builds the request: entityId by the gateway, path values encoded (dots too), query values as text', () => {
    const [pages, one] = tools;
    expect(readRequestOf(one, 'E', { partnerId: '../x' })).toBe('/api/entities/E/partners/%2E%2E%2Fx');
    expect(readRequestOf(pages, 'E', { limit: 5, kind: 'ar', ids: ['a', 'b'] })).toBe('/api/entities/E/partners/pages?limit=5&kind=ar&ids=a&ids=b');
    expect(readRequestOf(pages, 'E', {})).toBe('/api/entities/E/partners/pages');
  });
});

describe('parseArguments', () => {
  const [pages, one] = readToolsOf(DOC);
  it.each([
    ['{not json', 'arguments are not valid JSON'],
    ['[]', 'arguments must be a JSON object'],
    ['{"entityId":"x","partnerId":"y"}', 'unknown parameter entityId'],
    ['{}', 'missing required parameter partnerId'],
    ['{"partnerId":5}', 'partnerId must be a string'],
  ])('refuses %s: %s', (text, error) => {
    expect(parseArguments(text, one.schema)).toEqual({ ok: false, error });
  });

  it('takes valid arguments and an empty text as no arguments', () => {
    expect(parseArguments('', pages.schema)).toEqual({ ok: true, values: {} });
    expect(parseArguments('{"limit":5,"kind":"ap","ids":["a"]}', pages.schema)).toEqual({ ok: true, values: { limit: 5, kind: 'ap', ids: ['a'] } });
    expect(parseArguments('{"kind":"zz"}', pages.schema)).toEqual({ ok: false, error: 'kind must be one of "ar", "ap"' });
    expect(parseArguments('{"ids":["a",1]}', pages.schema)).toEqual({ ok: false, error: 'ids[1] must be a string' });
  });

  it('never throws, whatever the model sends', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), (text) => void parseArguments(text, pages.schema)));
  });
});
