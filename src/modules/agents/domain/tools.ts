/**
 * D88: the model's tools, derived from the service's own OpenAPI document: one per GET route
 * under `/api/entities/{entityId}/` (the agents routes left out), whose parameters are the path
 * parameters other than `entityId` and the query parameters. `entityId` is the gateway's to fill.
 */

/** The subset of JSON Schema the tools use (what OpenAPI 3.0 parameter schemas carry). */
export interface JsonSchema {
  type?: string;
  format?: string;
  enum?: unknown[];
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: unknown;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
}

export interface ToolParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
}

export interface ReadTool {
  kind: 'read';
  name: string;
  description: string;
  /** e.g. `/api/entities/{entityId}/partners/{partnerId}` */
  pathTemplate: string;
  parameters: ToolParameter[];
  /** JSON Schema of the arguments (an object of the parameters, nothing else). */
  schema: JsonSchema;
}

export const PROPOSE_WRITE = 'propose_write';

export const PROPOSE_WRITE_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    method: { type: 'string', enum: ['POST', 'PUT', 'PATCH', 'DELETE'] },
    path: { type: 'string', description: 'Full path under /api/entities/{entityId}/ with the real Entity id, e.g. /api/entities/<id>/partners' },
    body: { type: 'object', description: 'The JSON body of the write, when it takes one' },
    summary: { type: 'string', description: 'One sentence for the person who decides: what the write does and why' },
  },
  required: ['method', 'path', 'summary'],
  additionalProperties: false,
};

export const PROPOSE_WRITE_DESCRIPTION =
  'Propose a write (POST, PUT, PATCH or DELETE) to the books of this Entity. Nothing is written: the proposal is shown to the person, who applies or rejects it.';

/** The parts of an OpenAPI 3 document read here. */
export interface OpenApiDocument {
  paths?: Record<string, Record<string, OpenApiOperation | unknown>>;
  components?: { schemas?: Record<string, unknown>; parameters?: Record<string, unknown> };
}

interface OpenApiOperation {
  summary?: string;
  description?: string;
  parameters?: unknown[];
}

const ENTITY_PREFIX = '/api/entities/{entityId}/';
const NAME_LIMIT = 64;
const SCHEMA_KEYS = ['type', 'format', 'enum', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'default', 'description'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function resolveRef(doc: OpenApiDocument, value: unknown): unknown {
  for (let hops = 0; hops < 8 && isObject(value) && typeof value.$ref === 'string'; hops++) {
    const match = /^#\/components\/(schemas|parameters)\/(.+)$/.exec(value.$ref);
    value = match ? doc.components?.[match[1] as 'schemas' | 'parameters']?.[decodeURIComponent(match[2])] : undefined;
  }
  return value;
}

/** The schema of a parameter, kept to the keys a model and the checker understand. */
function cleanSchema(doc: OpenApiDocument, raw: unknown, depth = 0): JsonSchema {
  const source = resolveRef(doc, raw);
  if (!isObject(source) || depth > 4) return { type: 'string' };
  // `allOf: [{ $ref }]` is how an enum with a name is referenced.
  if (Array.isArray(source.allOf) && source.allOf.length === 1) return { ...cleanSchema(doc, source.allOf[0], depth + 1), ...pick(source) };
  const schema: JsonSchema = pick(source);
  if (schema.type === 'array') schema.items = cleanSchema(doc, source.items, depth + 1);
  if (schema.type === undefined && schema.enum === undefined) schema.type = 'string';
  return schema;
}

function pick(source: Record<string, unknown>): JsonSchema {
  const schema: Record<string, unknown> = {};
  for (const key of SCHEMA_KEYS) if (source[key] !== undefined) schema[key] = source[key];
  return schema as JsonSchema;
}

/** `reports/balance-sheet` -> `get_reports_balance-sheet`; `{partnerId}` -> `by_partnerId`. */
export function toolNameOf(pathTemplate: string): string {
  const rest = pathTemplate.slice(ENTITY_PREFIX.length);
  const words = rest
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      return param ? `by_${param[1]}` : segment;
    })
    .map((word) => word.replace(/[^A-Za-z0-9_-]/g, '_'));
  return `get_${words.join('_')}`;
}

function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name.slice(0, NAME_LIMIT);
  for (let n = 2; taken.has(candidate); n++) {
    const suffix = `_${n}`;
    candidate = name.slice(0, NAME_LIMIT - suffix.length) + suffix;
  }
  taken.add(candidate);
  return candidate;
}

export function readToolsOf(doc: OpenApiDocument): ReadTool[] {
  const tools: ReadTool[] = [];
  const taken = new Set<string>([PROPOSE_WRITE]);
  for (const pathTemplate of Object.keys(doc.paths ?? {}).sort()) {
    if (!pathTemplate.startsWith(ENTITY_PREFIX) || pathTemplate.startsWith(`${ENTITY_PREFIX}agents`)) continue;
    const operation = doc.paths?.[pathTemplate]?.get;
    if (!isObject(operation)) continue;
    const parameters: ToolParameter[] = [];
    for (const raw of (operation as OpenApiOperation).parameters ?? []) {
      const parameter = resolveRef(doc, raw);
      if (!isObject(parameter) || typeof parameter.name !== 'string') continue;
      if (parameter.in !== 'path' && parameter.in !== 'query') continue;
      if (parameter.in === 'path' && parameter.name === 'entityId') continue;
      // D93's `format` asks for a CSV or XLSX file: a tool reads JSON only.
      if (parameter.in === 'query' && parameter.name === 'format') continue;
      if (parameters.some((p) => p.name === parameter.name)) continue;
      const schema = cleanSchema(doc, parameter.schema);
      if (typeof parameter.description === 'string' && !schema.description) schema.description = parameter.description;
      parameters.push({ name: parameter.name, in: parameter.in, required: parameter.in === 'path' || parameter.required === true, schema });
    }
    // A path parameter the document forgot is still a parameter of the path.
    for (const match of pathTemplate.matchAll(/\{([^}]+)\}/g)) {
      if (match[1] !== 'entityId' && !parameters.some((p) => p.name === match[1])) {
        parameters.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
      }
    }
    const { summary, description } = operation as OpenApiOperation;
    const about = [summary, description].filter((text): text is string => typeof text === 'string' && text.trim() !== '').join('. ');
    tools.push({
      kind: 'read',
      name: uniqueName(toolNameOf(pathTemplate), taken),
      description: `GET ${pathTemplate}${about ? `: ${about}` : ''}`,
      pathTemplate,
      parameters,
      schema: {
        type: 'object',
        properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
        required: parameters.filter((p) => p.required).map((p) => p.name),
        additionalProperties: false,
      },
    });
  }
  return tools;
}

export type ParsedArguments = { ok: true; values: Record<string, unknown> } | { ok: false; error: string };

function typeProblem(name: string, schema: JsonSchema, value: unknown): string | null {
  if (schema.enum && !schema.enum.includes(value)) return `${name} must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  switch (schema.type) {
    case 'string':
      return typeof value === 'string' ? null : `${name} must be a string`;
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? null : `${name} must be an integer`;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : `${name} must be a number`;
    case 'boolean':
      return typeof value === 'boolean' ? null : `${name} must be true or false`;
    case 'object':
      return isObject(value) ? null : `${name} must be an object`;
    case 'array': {
      if (!Array.isArray(value)) return `${name} must be an array`;
      for (let i = 0; i < value.length; i++) {
        const problem = typeProblem(`${name}[${i}]`, schema.items ?? {}, value[i]);
        if (problem) return problem;
      }
      return null;
    }
    default:
      return null;
  }
}

/**
 * The model's arguments text checked against a tool's schema: JSON, an object, no parameter the
 * tool does not have, every required one, each of its type. The model is told what was wrong.
 */
export function parseArguments(text: string, schema: JsonSchema): ParsedArguments {
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return { ok: false, error: 'arguments are not valid JSON' };
  }
  if (!isObject(value)) return { ok: false, error: 'arguments must be a JSON object' };
  const properties = schema.properties ?? {};
  for (const key of Object.keys(value)) {
    if (!Object.prototype.hasOwnProperty.call(properties, key)) return { ok: false, error: `unknown parameter ${key}` };
  }
  for (const key of schema.required ?? []) {
    if (value[key] === undefined || value[key] === null) return { ok: false, error: `missing required parameter ${key}` };
  }
  for (const [key, item] of Object.entries(value)) {
    if (item === null && !(schema.required ?? []).includes(key)) continue;
    const problem = typeProblem(key, properties[key], item);
    if (problem) return { ok: false, error: problem };
  }
  return { ok: true, values: value };
}

/** The request a read tool makes: its path with the parameters in, and its query string. */
export function readRequestOf(tool: ReadTool, entityId: string, values: Record<string, unknown>): string {
  let path = tool.pathTemplate.replace('{entityId}', encodeURIComponent(entityId));
  const query = new URLSearchParams();
  for (const parameter of tool.parameters) {
    const value = values[parameter.name];
    if (value === undefined || value === null) continue;
    if (parameter.in === 'path') {
      // Dots escaped too: a `..` value must not climb out of the path once a client normalises it.
      path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value)).replace(/\./g, '%2E'));
    } else if (Array.isArray(value)) {
      for (const item of value) query.append(parameter.name, typeof item === 'string' ? item : JSON.stringify(item));
    } else {
      query.append(parameter.name, typeof value === 'string' ? value : JSON.stringify(value));
    }
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}
