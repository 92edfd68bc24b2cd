import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * Issue 33: what every operation of the document says, completed in one place after Nest's
 * generator ran, so a route added later by any module gets it without a decorator:
 *
 * - every 4xx/5xx response has the error envelope's schema (`ErrorEnvelope`);
 * - every operation that takes a path id, a query parameter or a body declares its 400
 *   (VALIDATION_ERROR: the UuidParamsPipe, the validation pipe and the body parser answer it);
 * - every path parameter is declared and is `format: uuid` (UuidParamsPipe: every path
 *   parameter of this API is an id);
 * - a `number` without a format is an `integer` (money is integer minor units, counts are
 *   counts); a property that really is a fraction says `format: 'double'` in its decorator;
 * - every operation has a summary: its decorator's, else one made from its handler's name and
 *   its path (`InvoicesController_book` on `/invoices/{invoiceId}/book`: "Book invoice");
 * - a `text/csv` request body is a string (the file's bytes), not an object.
 */

type Json = Record<string, unknown>;
type Operation = {
  operationId?: string;
  summary?: string;
  parameters?: Array<Json & { name?: string; in?: string; schema?: Json }>;
  requestBody?: { content?: Record<string, { schema?: Json }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Json }> }>;
};

export const ERROR_ENVELOPE_SCHEMA_NAME = 'ErrorEnvelope';

const ERROR_ENVELOPE_SCHEMA = {
  type: 'object',
  description: 'D1: every error answer. Clients match on `code`; `params` names the fields or figures involved.',
  required: ['requestId', 'statusCode', 'code', 'message', 'params'],
  properties: {
    requestId: { type: 'string', description: 'The request id (x-request-id), also in the log line of the request' },
    statusCode: { type: 'integer', minimum: 400, maximum: 599, description: 'The HTTP status, repeated' },
    code: { type: 'string', pattern: '^[A-Z0-9_]+_ERROR$', example: 'VALIDATION_ERROR', description: 'Stable machine-readable code' },
    message: { type: 'string', description: 'English text for a person; may change' },
    params: {
      type: 'object',
      additionalProperties: true,
      description: 'Details of the error; on VALIDATION_ERROR `errors: [{ path, message }]`',
    },
  },
};

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const VALIDATION_400 = 'VALIDATION_ERROR (a path id that is not a UUID, a query parameter or body field out of its rules; `params.errors` names them) or MALFORMED_JSON_ERROR';

/** Handler names whose words alone are no summary: they take the path's resource noun. */
const GENERIC_VERBS = new Set(['list', 'get', 'create', 'update', 'delete', 'rename', 'edit', 'pages', 'page', 'find', 'mint', 'revoke', 'import', 'presign', 'confirm', 'url', 'book', 'match', 'reverse', 'cancel', 'unbook', 'apply', 'reject', 'post', 'sync', 'move', 'check', 'publish', 'attach', 'detach', 'finalize', 'reconnect', 'panel', 'candidates', 'members', 'values', 'templates', 'effective', 'models', 'lines']);

function words(identifier: string): string[] {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The nouns of the path after /api: `entities/{entityId}/bank-movements/{movementId}/book`. */
function pathNouns(path: string): { last: string; lastIsParam: boolean; owner: string | undefined } {
  const segments = path.replace(/^\/api\/?/, '').split('/').filter(Boolean);
  const literals: Array<{ word: string; index: number }> = [];
  segments.forEach((segment, index) => {
    if (!segment.startsWith('{')) literals.push({ word: segment, index });
  });
  const lastIsParam = segments.length > 0 && segments[segments.length - 1].startsWith('{');
  const last = literals[literals.length - 1]?.word ?? '';
  // The resource an action segment acts on: the literal before the last parameter.
  const lastParam = segments.map((s) => s.startsWith('{')).lastIndexOf(true);
  const owner = lastParam > 0 ? segments[lastParam - 1] : undefined;
  return { last, lastIsParam, owner };
}

/**
 * Where the handler's name says too little: by method and path, so that every host of a shared
 * route (attachments on invoices, movements, entries, and any later one) reads the same.
 */
const SUMMARIES: Array<[string, RegExp, string]> = [
  ['get', /\/countries$/, 'List countries (ISO 3166)'],
  ['get', /\/currencies$/, 'List currencies (ISO 4217)'],
  ['post', /\/auth\/api-keys$/, 'Mint an API key'],
  ['get', /\/auth\/session$/, 'The signed-in session and its User'],
  ['post', /\/users\/\{userId\}\/set-password-link$/, 'Make a set-password link for a User'],
  ['post', /\/users\/\{userId\}\/revoke-sessions$/, 'Revoke every session of a User'],
  ['get', /\/organizations\/\{organizationId\}\/members$/, 'List the members of an Organization'],
  ['post', /\/users\/\{userId\}\/memberships$/, 'Grant a User a Membership'],
  ['delete', /\/users\/\{userId\}\/memberships$/, 'Revoke a Membership of a User'],
  ['get', /\/entities\/\{entityId\}\/editability$/, 'What of an Entity may still be edited'],
  ['patch', /\/entities\/\{entityId\}\/parent$/, 'Set the parent Entity'],
  ['patch', /\/entities\/\{entityId\}\/organization$/, 'Move an Entity to another Organization'],
  ['get', /\/ledger\/chart-templates$/, 'List chart-of-accounts templates'],
  ['post', /\/ledger\/chart-initializations$/, 'Initialize the chart of accounts from a template'],
  ['post', /\/ledger\/account-groups$/, 'Create an account group'],
  ['get', /\/ledger\/accounts$/, 'List ledger accounts'],
  ['post', /\/ledger\/accounts$/, 'Create a ledger account'],
  ['get', /\/dimensions\/\{dimensionId\}\/values$/, 'List the values of a dimension'],
  ['post', /\/dimensions\/\{dimensionId\}\/values$/, 'Create a dimension value'],
  ['post', /\/ledger\/entries$/, 'Post a ledger entry'],
  ['post', /\/ledger\/entry-batches$/, 'Post a batch of ledger entries'],
  ['post', /\/ledger\/scheduled-entries$/, 'Schedule a ledger entry'],
  ['patch', /\/ledger\/scheduled-entries\/\{entryId\}$/, 'Replace a scheduled entry'],
  ['get', /\/ledger\/lines$/, 'List ledger lines'],
  ['patch', /\/ledger\/lines\/\{lineId\}\/partner$/, "Set a line's partner"],
  ['patch', /\/ledger\/lines\/\{lineId\}\/account$/, "Move a line to another account"],
  ['put', /\/ledger\/lines\/\{lineId\}\/dimension-values$/, "Set a line's dimension values"],
  ['post', /\/ledger\/allocations\/match$/, 'Match open-item lines (oldest first)'],
  ['get', /\/ledger\/open-item-lines$/, 'List open-item lines'],
  ['put', /\/invoices\/\{invoiceId\}\/dte$/, 'Link a DTE to an invoice'],
  ['delete', /\/invoices\/\{invoiceId\}\/dte$/, 'Unlink the DTE of an invoice'],
  ['get', /\/dtes$/, 'List DTEs'],
  ['get', /\/dtes\/pages$/, 'List DTEs (keyset pages)'],
  ['post', /\/dtes\/import$/, 'Import DTEs (an EnvioDTE or DTE XML file)'],
  ['get', /\/reports\/home$/, 'Home figures of an Entity'],
  ['post', /\/attachments\/presign$/, 'Presign an attachment upload'],
  ['post', /\/attachments\/confirm$/, 'Confirm an uploaded attachment'],
  ['get', /\/attachments\/\{attachmentId\}\/url$/, 'Get a download URL of an attachment'],
  ['get', /\/agents\/models$/, 'List the agent models'],
  ['post', /\/conversations\/\{conversationId\}\/messages$/, 'Send a message to an agent conversation'],
  ['get', /\/fx-rates\/effective$/, 'Effective exchange rate on a date'],
  ['post', /\/fx-rates\/sync$/, 'Fetch exchange rates from the provider'],
  ['post', /\/movements\/import$/, 'Import a bank CSV statement'],
  ['get', /\/bank-movements\/\{movementId\}\/match-candidates$/, 'List what a bank movement may match'],
  ['post', /\/bank-connections\/link-intents$/, 'Start linking a bank (link intent)'],
  ['post', /\/bank-connections$/, 'Finalize a bank connection'],
  ['get', /\/bank-connections\/\{bankConnectionId\}\/accounts$/, "List a bank connection's accounts"],
  ['post', /\/bank-connections\/\{bankConnectionId\}\/accounts$/, "Publish a bank connection's accounts to the Entity"],
  ['post', /\/bank-connections\/\{bankConnectionId\}\/feeds$/, 'Attach a feed of the connection to a bank account'],
  ['post', /\/bank-connections\/\{bankConnectionId\}\/bank-accounts$/, 'Create a bank account fed by the connection'],
  ['post', /\/bank-accounts\/\{bankAccountId\}\/feed\/sync$/, "Sync a bank account's feed now"],
];

export function summaryOf(method: string, path: string, operationId: string | undefined): string {
  const known = SUMMARIES.find(([m, pattern]) => m === method && pattern.test(path));
  if (known) return known[2];
  const handler = operationId?.split('_').slice(1).join('_') ?? '';
  const verbWords = handler ? words(handler) : [method];
  const { last, lastIsParam, owner } = pathNouns(path);
  const lastWords = words(last);
  let text: string;
  if (verbWords.length > 1 || !GENERIC_VERBS.has(verbWords[0])) {
    text = verbWords.join(' ');
    // `forEntity` on `/audit-trail`: the noun first.
    if (verbWords[0] === 'for') text = `${lastWords.join(' ')} ${text}`;
  } else {
    const verb = verbWords[0];
    if (lastIsParam) text = `${verb} ${singular(owner ? words(owner).join(' ') : lastWords.join(' '))}`;
    else if (verb === 'list' || verb === 'find' || verb === 'pages' || verb === 'page') {
      text = `${verb === 'find' ? 'find' : 'list'} ${lastWords.join(' ')}${verb === 'pages' || verb === 'page' ? ' (keyset pages)' : ''}`;
      if (last === 'pages') text = `list ${words(path.split('/').filter((s) => s && !s.startsWith('{')).slice(-2, -1)[0] ?? '').join(' ')} (keyset pages)`;
    } else if (verb === 'create') text = `create ${singular(lastWords.join(' '))}`;
    else if (lastWords[0] === verb || lastWords.join('') === verb) text = owner ? `${verb} ${singular(words(owner).join(' '))}` : lastWords.join(' ');
    else text = owner ? `${verb} ${singular(words(owner).join(' '))} ${lastWords.join(' ')}` : `${verb} ${lastWords.join(' ')}`;
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function isErrorStatus(status: string): boolean {
  return /^[45]\d\d$/.test(status) || status === '4XX' || status === '5XX';
}

function integerNumbers(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(integerNumbers);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const object = node as Json;
  if (object.type === 'number' && object.format === undefined) object.type = 'integer';
  for (const value of Object.values(object)) integerNumbers(value);
}

export function completeOpenApiDocument(document: OpenAPIObject): OpenAPIObject {
  const components = (document.components ??= {});
  const schemas = (components.schemas ??= {});
  schemas[ERROR_ENVELOPE_SCHEMA_NAME] = ERROR_ENVELOPE_SCHEMA;
  const envelope = { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_ENVELOPE_SCHEMA_NAME}` } } };

  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation) continue;
      // Path parameters: declared, and ids.
      const parameters = (operation.parameters ??= []);
      for (const match of path.matchAll(/\{([^}]+)\}/g)) {
        if (!parameters.some((p) => p.in === 'path' && p.name === match[1])) {
          parameters.unshift({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
        }
      }
      for (const parameter of parameters) {
        if (parameter.in === 'path') parameter.schema = { ...(parameter.schema ?? {}), type: 'string', format: 'uuid' };
      }
      if (parameters.length === 0) delete operation.parameters;

      const responses = (operation.responses ??= {});
      if (!responses['400'] && (parameters.length > 0 || operation.requestBody)) {
        responses['400'] = { description: VALIDATION_400 };
      }
      for (const [status, response] of Object.entries(responses)) {
        if (!isErrorStatus(status)) continue;
        if (!response.description?.trim()) response.description = 'Error';
        response.content = { ...envelope };
      }
      // Sorted by status, as a reader expects.
      operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));

      // Raw bodies are strings.
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
        if (type === 'text/csv' && media.schema?.type !== 'string') media.schema = { type: 'string', format: 'binary', description: 'The CSV statement itself (README: bank CSV statements)' };
      }
      if (!operation.summary?.trim()) operation.summary = summaryOf(method, path, operation.operationId);
    }
  }
  integerNumbers(document.paths);
  integerNumbers(schemas);
  return document;
}
