import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { FixedClock } from '../src/platform/clock/clock';
import { auditRowCount } from './harness/db-checks';
import { buildLedgerFixture, LedgerFixture } from './harness/ledger-fixture';
import type { TestApp } from './harness/test-app';
import { Agent, createEntity, createWorldApp, onboardUser, uniqueName, World } from './harness/world';

/**
 * The never-500 hunt: hostile but plausible input to every route that takes a body, and to the
 * query strings of the list and report routes. Every answer must be below 500, every refusal must
 * carry the D1 envelope (VALIDATION_ERROR with `params.errors`), and a refused mutation must
 * write nothing (the audit trail, written in the mutation's transaction, keeps its row count).
 * Failures are collected per route and compared with [] so one run reports them all.
 */

const clock = new FixedClock(new Date('2026-06-15T15:00:00Z'));

/** A JSON literal sent as written (`-0`, `1e400`, `9007199254740993` cannot survive JSON.stringify). */
class Raw {
  constructor(readonly text: string) {}
}
const raw = (text: string) => new Raw(text);

type Value = unknown;
type Case = [label: string, value: Value];

function toJson(body: unknown): string {
  const literals: string[] = [];
  const text = JSON.stringify(body, (_key, value) => {
    if (value instanceof Raw) {
      literals.push(value.text);
      return `\u0001raw${literals.length - 1}\u0001`;
    }
    return value;
  });
  return text.replace(/"\\u0001raw(\d+)\\u0001"/g, (_, i) => literals[Number(i)]);
}

const uuid = () => randomUUID();
const TYPE_CASES = (): Case[] => [
  ['null', null],
  ['an array', ['a']],
  ['an object', { a: 1 }],
  ['a boolean', true],
  ['a number', 12345],
  ['a numeric string', '100'],
];
const STRING_CASES = (): Case[] => [
  ['a NUL character', 'a\u0000b'],
  ['a lone surrogate', 'a\ud800b'],
  ['10k characters', 'x'.repeat(10_000)],
  ['an empty string', ''],
];
const KIND_CASES: Record<string, () => Case[]> = {
  string: () => [],
  enum: () => [['an unknown member', 'nope'], ['a member in upper case', 'DEBIT']],
  date: () => [
    ['2026-02-30', '2026-02-30'],
    ['2026-13-01', '2026-13-01'],
    ['0000-01-01', '0000-01-01'],
    ['99999-01-01', '99999-01-01'],
    ['2026-1-1', '2026-1-1'],
    ['a date-time', '2026-01-01T00:00:00Z'],
    ['a date with an impossible day-time', '2026-02-30T00:00:00Z'],
    ['the first date taken', '1000-01-01'],
    ['the last date taken', '9999-12-31'],
    ['the day before the first', '0999-12-31'],
  ],
  datetime: () => [
    ['an impossible day', '2026-02-30T10:00:00Z'],
    ['year 0', '0000-01-01T00:00:00Z'],
    ['hour 24', '2026-01-01T24:00:00Z'],
    ['a large offset', '2030-01-01T00:00:00+23:59'],
    ['year 99999', '+099999-01-01T00:00:00Z'],
    ['no zone', '2030-01-01T00:00:00'],
    ['an ISO week', '2030-W01'],
    ['an ordinal date', '2030-001'],
    ['the basic format', '20300101T100000Z'],
  ],
  uuid: () => [
    ['a malformed UUID', 'not-a-uuid'],
    ['the nil UUID', '00000000-0000-0000-0000-000000000000'],
    ['the max UUID', 'ffffffff-ffff-ffff-ffff-ffffffffffff'],
    ['an upper-case UUID', uuid().toUpperCase()],
    ['a braced UUID', `{${uuid()}}`],
    ['a UUID of dashes', '------------------------------------'],
  ],
  amount: () => [
    ['1e20', raw('1e20')],
    ['2^53 + 1', raw('9007199254740993')],
    ['-0', raw('-0')],
    ['1.5', 1.5],
    ['NaN as a string', 'NaN'],
    ['Infinity as a string', 'Infinity'],
    ['1e400 (Infinity)', raw('1e400')],
    ['0', 0],
    ['-1', -1],
  ],
  uuids: () => {
    const id = uuid();
    return [
      ['an empty array', []],
      ['a duplicated id', [id, id]],
      ['a malformed member', ['not-a-uuid']],
      ['a null member', [null]],
      ['a nested array', [[id]]],
      ['501 ids', Array.from({ length: 501 }, () => uuid())],
    ];
  },
  bool: () => [['the string true', 'true'], ['1', 1]],
  rate: () => [['a float', 950.5], ['an exponent', '1e3'], ['zero', '0'], ['negative', '-1'], ['13 digits', '1234567890123'], ['NaN', 'NaN']],
  object: () => [['a string', 'read'], ['an empty object', {}], ['a deep object', { erp: { read: ['read'] } }]],
};
const STRINGY = new Set(['string', 'enum', 'date', 'datetime', 'uuid', 'rate']);

function casesFor(kind: string): Case[] {
  return [...TYPE_CASES(), ...(STRINGY.has(kind) ? STRING_CASES() : []), ...KIND_CASES[kind]()];
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[keys[keys.length - 1]] = value;
}

interface BodyRoute {
  method: 'post' | 'patch' | 'put' | 'delete';
  path: () => string;
  body: () => Record<string, unknown>;
  /** Dotted paths into the body (`newLedgerEntryLines.0.amount`) and their kind. */
  fields: Record<string, string>;
}

interface Failure {
  case: string;
  status: number;
  body: unknown;
  problem: string;
}

/** The D1 envelope of a refusal, and D2's `params.errors` on VALIDATION_ERROR. */
function envelopeProblem(res: request.Response): string | null {
  if (res.status < 400) return null;
  if (res.status >= 500) return 'server error';
  const b = res.body as Record<string, unknown>;
  if (!b || typeof b !== 'object') return 'no JSON body';
  if (b.requestId !== res.headers['x-request-id'] || b.statusCode !== res.status || typeof b.code !== 'string' || typeof b.message !== 'string') {
    return 'not the D1 envelope';
  }
  if (typeof b.params !== 'object' || b.params === null) return 'params is not an object';
  if (b.code === 'VALIDATION_ERROR' && !Array.isArray((b.params as { errors?: unknown }).errors)) return 'VALIDATION_ERROR without params.errors';
  return null;
}

describe('hostile input never gets a 500', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let fx: LedgerFixture;
  /** An Entity without entries, whose identity fields may change. */
  let blankEntityId: string;
  let throwawayUserId: string;
  let hostileInvoiceId: string;
  const invoiceBody = () => ({
    id: uuid(),
    direction: 'ar',
    documentKind: 'invoice',
    documentNumber: String(Math.floor(Math.random() * 1e9)),
    issueDate: '2026-06-10',
    dueDate: '2026-07-10',
    partnerId: fx.partnerId,
    currency: 'CLP',
    exchangeRate: null,
    netAmount: 1000,
    exemptAmount: 0,
    taxAmount: 190,
    totalAmount: 1190,
    servicePeriodStart: null,
    servicePeriodEnd: null,
    description: 'd',
  });
  const INVOICE_FIELDS = {
    direction: 'enum',
    documentKind: 'enum',
    documentNumber: 'string',
    issueDate: 'date',
    dueDate: 'date',
    partnerId: 'uuid',
    currency: 'string',
    exchangeRate: 'rate',
    netAmount: 'amount',
    exemptAmount: 'amount',
    taxAmount: 'amount',
    totalAmount: 'amount',
    servicePeriodStart: 'date',
    servicePeriodEnd: 'date',
    description: 'string',
  };

  const ledger = (path = '') => `/api/entities/${fx.entityId}/ledger${path}`;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock }));
    fx = await buildLedgerFixture(staff, world.entityId);
    blankEntityId = (await createEntity(staff, world.organizationId)).id;
    throwawayUserId = (await onboardUser(t, staff, 'client', 'throwaway')).id;
    hostileInvoiceId = (await staff.post(`/api/entities/${fx.entityId}/invoices`).send(invoiceBody()).expect(201)).body.id;
  });
  afterAll(() => t.close());
  // Requests outside probe() (a test's own setup) may write: count afresh in each test.
  beforeEach(() => {
    auditRows = null;
  });

  /**
   * The audit trail's row count after the last mutation probed. Probes run one at a time and
   * nothing else writes meanwhile, so one count per mutation tells whether it wrote.
   */
  let auditRows: number | null = null;

  /** Sends one request; records a failure when it is a 500, breaks the envelope, or a refused mutation wrote. */
  async function probe(label: string, send: () => request.Test, mutation: boolean, failures: Failure[]): Promise<void> {
    const before = mutation ? (auditRows ?? (await auditRowCount(t))) : 0;
    const res = await send();
    const problem = envelopeProblem(res);
    if (problem) failures.push({ case: label, status: res.status, body: res.body, problem });
    if (!mutation) return;
    auditRows = await auditRowCount(t);
    if (res.status >= 400 && auditRows !== before) {
      failures.push({ case: label, status: res.status, body: res.body, problem: 'a refused mutation wrote an audit row' });
    }
  }

  async function hammerBody(route: BodyRoute): Promise<Failure[]> {
    const failures: Failure[] = [];
    const send = (payload: string) => () => staff[route.method](route.path()).set('content-type', 'application/json').send(payload);
    // The body as a whole.
    const wholes: Case[] = [
      ['top-level null', raw('null')],
      ['top-level array', raw('[]')],
      ['top-level string', raw('"x"')],
      ['top-level number', raw('1')],
      ['an empty object', {}],
      ['a __proto__ property', raw('{"__proto__":{"isAdmin":true}}')],
      ['a constructor property', raw('{"constructor":{"prototype":{"x":1}}}')],
      ['a property name with NUL', raw('{"na\\u0000me":"x"}')],
      ['deeply nested arrays', raw(`{"name":${'['.repeat(50_000)}${']'.repeat(50_000)}}`)],
      ['truncated JSON', raw('{"name":')],
    ];
    for (const [label, value] of wholes) {
      await probe(`body: ${label}`, send(value instanceof Raw ? value.text : toJson(value)), true, failures);
    }
    for (const [field, kind] of Object.entries(route.fields)) {
      for (const [label, value] of casesFor(kind)) {
        const body = route.body();
        setPath(body, field, value);
        await probe(`${field}: ${label}`, send(toJson(body)), true, failures);
      }
      // The field left out.
      const body = route.body();
      const keys = field.split('.');
      const parent = keys.slice(0, -1).reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, body);
      delete parent[keys[keys.length - 1]];
      await probe(`${field}: absent`, send(toJson(body)), true, failures);
    }
    return failures;
  }

  const line = (side: 'debit' | 'credit', ledgerAccountId: string, amount = 100) => ({ side, ledgerAccountId, amount });
  const lines = (): Array<Record<string, unknown>> => [
    { id: uuid(), ...line('debit', fx.cash), description: 'd', partnerId: null, dimensionValueIds: [] },
    { ...line('credit', fx.sales), partnerId: fx.partnerId, dimensionValueIds: [fx.valueId], transactionCurrency: null, transactionAmount: null, exchangeRate: null },
  ];
  const LINE_FIELDS = {
    'newLedgerEntryLines.0.id': 'uuid',
    'newLedgerEntryLines.0.side': 'enum',
    'newLedgerEntryLines.0.ledgerAccountId': 'uuid',
    'newLedgerEntryLines.0.amount': 'amount',
    'newLedgerEntryLines.0.description': 'string',
    'newLedgerEntryLines.0.partnerId': 'uuid',
    'newLedgerEntryLines.1.dimensionValueIds': 'uuids',
    'newLedgerEntryLines.1.transactionCurrency': 'string',
    'newLedgerEntryLines.1.transactionAmount': 'amount',
    'newLedgerEntryLines.1.exchangeRate': 'rate',
    newLedgerEntryLines: 'uuids',
  };
  /** Scheduled entries share the posting's line judgement: the lines' shape once more, briefly. */
  const SCHEDULED_LINE_FIELDS = {
    'newLedgerEntryLines.0.ledgerAccountId': 'uuid',
    'newLedgerEntryLines.0.amount': 'amount',
    'newLedgerEntryLines.1.dimensionValueIds': 'uuids',
    newLedgerEntryLines: 'uuids',
  };

  const BODY_ROUTES: Record<string, () => BodyRoute> = {
    'POST /fx-rates/sync': () => ({
      method: 'post',
      path: () => '/api/fx-rates/sync',
      body: () => ({ from: '2026-01-01', to: '2026-01-05' }),
      fields: { from: 'date', to: 'date' },
    }),
    'POST /entities': () => ({
      method: 'post',
      path: () => '/api/entities',
      body: () => ({ id: uuid(), name: uniqueName('E'), country: 'CL', taxId: '76.086.428-5', currency: 'CLP', organizationId: world.organizationId }),
      fields: { id: 'uuid', name: 'string', country: 'string', taxId: 'string', currency: 'string', organizationId: 'uuid' },
    }),
    'PATCH /entities/:id': () => ({
      method: 'patch',
      path: () => `/api/entities/${blankEntityId}`,
      body: () => ({ name: uniqueName('E'), country: 'CL', taxId: '76.086.428-5', currency: 'CLP' }),
      fields: { name: 'string', country: 'string', taxId: 'string', currency: 'string' },
    }),
    'PATCH /entities/:id/ledger-lock-date': () => ({
      method: 'patch',
      path: () => `/api/entities/${blankEntityId}/ledger-lock-date`,
      body: () => ({ ledgerLockDate: '2020-01-31' }),
      fields: { ledgerLockDate: 'date' },
    }),
    'PATCH /entities/:id/parent': () => ({
      method: 'patch',
      path: () => `/api/entities/${blankEntityId}/parent`,
      body: () => ({ parentEntityId: null }),
      fields: { parentEntityId: 'uuid' },
    }),
    'PATCH /entities/:id/accounting-policies': () => ({
      method: 'patch',
      path: () => `/api/entities/${blankEntityId}/accounting-policies`,
      body: () => ({ accountingPolicies: 'IFRS for SMEs' }),
      fields: { accountingPolicies: 'string' },
    }),
    'PATCH /entities/:id/organization': () => ({
      method: 'patch',
      path: () => `/api/entities/${blankEntityId}/organization`,
      body: () => ({ organizationId: world.organizationId }),
      fields: { organizationId: 'uuid' },
    }),
    'POST /organizations': () => ({
      method: 'post',
      path: () => '/api/organizations',
      body: () => ({ id: uuid(), name: uniqueName('Org') }),
      fields: { id: 'uuid', name: 'string' },
    }),
    'PATCH /organizations/:id': () => ({
      method: 'patch',
      path: () => `/api/organizations/${world.otherOrganizationId}`,
      body: () => ({ name: uniqueName('Org') }),
      fields: { name: 'string' },
    }),
    'POST /onboarding/users': () => ({
      method: 'post',
      path: () => '/api/onboarding/users',
      body: () => ({ id: uuid(), email: `${uuid()}@example.test`, name: 'Ana', role: 'client' }),
      fields: { id: 'uuid', email: 'string', name: 'string', role: 'enum' },
    }),
    'POST /onboarding/users/:id/memberships': () => ({
      method: 'post',
      path: () => `/api/onboarding/users/${throwawayUserId}/memberships`,
      body: () => ({ organizationId: world.otherOrganizationId, role: 'viewer' }),
      fields: { organizationId: 'uuid', role: 'enum' },
    }),
    'DELETE /onboarding/users/:id/memberships': () => ({
      method: 'delete',
      path: () => `/api/onboarding/users/${throwawayUserId}/memberships`,
      body: () => ({ organizationId: world.otherOrganizationId, role: 'viewer' }),
      fields: { organizationId: 'uuid', role: 'enum' },
    }),
    'POST /auth/api-keys': () => ({
      method: 'post',
      path: () => '/api/auth/api-keys',
      body: () => ({ name: 'hostile', expiresAt: '2030-01-01T00:00:00Z', permissions: { erp: ['read'] }, entityId: fx.entityId }),
      fields: { name: 'string', expiresAt: 'datetime', permissions: 'object', 'permissions.erp': 'uuids', entityId: 'uuid' },
    }),
    'POST /auth/sign-in/email': () => ({
      method: 'post',
      path: () => '/api/auth/sign-in/email',
      body: () => ({ email: `${uuid()}@example.test`, password: 'wrong-password-123' }),
      fields: { email: 'string', password: 'string' },
    }),
    'POST /auth/set-password': () => ({
      method: 'post',
      path: () => '/api/auth/set-password',
      body: () => ({ token: 'not-a-token', newPassword: 'a-long-enough-password' }),
      fields: { token: 'string', newPassword: 'string' },
    }),
    'POST /books': () => ({
      method: 'post',
      path: () => `/api/entities/${blankEntityId}/books`,
      body: () => ({ id: uuid(), name: uniqueName('Book') }),
      fields: { id: 'uuid', name: 'string' },
    }),
    'POST /dimensions': () => ({
      method: 'post',
      path: () => `/api/entities/${fx.entityId}/dimensions`,
      body: () => ({ id: uuid(), name: uniqueName('Dim') }),
      fields: { id: 'uuid', name: 'string' },
    }),
    'PATCH /dimensions/:id': () => ({
      method: 'patch',
      path: () => `/api/entities/${fx.entityId}/dimensions/${fx.dimensionId}`,
      body: () => ({ name: uniqueName('Dim') }),
      fields: { name: 'string' },
    }),
    'POST /dimensions/:id/values': () => ({
      method: 'post',
      path: () => `/api/entities/${fx.entityId}/dimensions/${fx.dimensionId}/values`,
      body: () => ({ id: uuid(), code: uniqueName('C'), name: 'V', parentId: fx.valueId }),
      fields: { id: 'uuid', code: 'string', name: 'string', parentId: 'uuid' },
    }),
    'PATCH /dimensions/:id/values/:id': () => ({
      method: 'patch',
      path: () => `/api/entities/${fx.entityId}/dimensions/${fx.dimensionId}/values/${fx.valueId}`,
      body: () => ({ code: 'CC-1', name: 'Santiago', parentId: null }),
      fields: { code: 'string', name: 'string', parentId: 'uuid' },
    }),
    'POST /ledger/chart-initializations': () => ({
      method: 'post',
      path: () => ledger('/chart-initializations'),
      body: () => ({ id: uuid(), templateKey: 'cl-pyme', templateVersion: '2025.1' }),
      fields: { id: 'uuid', templateKey: 'string', templateVersion: 'string' },
    }),
    'POST /ledger/account-groups': () => ({
      method: 'post',
      path: () => ledger('/account-groups'),
      body: () => ({ id: uuid(), parentGroupId: fx.groupId, codePrefix: `11${Math.floor(Math.random() * 1e6)}`, name: 'G', type: 'asset' }),
      fields: { id: 'uuid', parentGroupId: 'uuid', codePrefix: 'string', name: 'string', type: 'enum' },
    }),
    'POST /ledger/accounts': () => ({
      method: 'post',
      path: () => ledger('/accounts'),
      body: () => ({ id: uuid(), name: 'A', code: `11${Math.floor(Math.random() * 1e8)}`, type: 'asset', tracking: 'balance', subtype: null, groupId: fx.groupId }),
      fields: { id: 'uuid', name: 'string', code: 'string', type: 'enum', tracking: 'enum', subtype: 'enum', groupId: 'uuid' },
    }),
    'PATCH /ledger/accounts/:id': () => ({
      method: 'patch',
      path: () => ledger(`/accounts/${fx.cash}`),
      body: () => ({ name: 'Caja', code: '1101', type: 'asset', tracking: 'balance', subtype: null, groupId: fx.groupId }),
      fields: { name: 'string', code: 'string', type: 'enum', tracking: 'enum', subtype: 'enum', groupId: 'uuid' },
    }),
    'POST /agents/conversations': () => ({
      method: 'post',
      path: () => `/api/entities/${fx.entityId}/agents/conversations`,
      body: () => ({ id: uuid(), title: 'Cash questions' }),
      fields: { id: 'uuid', title: 'string', model: 'string' },
    }),
    'POST /partners': () => ({
      method: 'post',
      path: () => `/api/entities/${fx.entityId}/partners`,
      body: () => ({ id: uuid(), name: 'P', type: 'company', country: 'AR', taxId: uniqueName('T'), defaultPurchaseAccountId: fx.sales }),
      fields: { id: 'uuid', name: 'string', type: 'enum', country: 'string', taxId: 'string', defaultPurchaseAccountId: 'uuid' },
    }),
    'PATCH /partners/:id': () => ({
      method: 'patch',
      path: () => `/api/entities/${fx.entityId}/partners/${fx.partnerId}`,
      body: () => ({ name: 'Cliente Uno SpA', type: 'company', country: 'CL', taxId: '76.086.428-5', defaultPurchaseAccountId: null }),
      fields: { name: 'string', type: 'enum', country: 'string', taxId: 'string', defaultPurchaseAccountId: 'uuid' },
    }),
    'POST /bank-accounts': () => ({
      method: 'post',
      path: () => `/api/entities/${fx.entityId}/bank-accounts`,
      body: () => ({ id: uuid(), name: 'Banco', kind: 'bank', ledgerAccountId: fx.cash, currency: 'CLP' }),
      fields: { id: 'uuid', name: 'string', kind: 'enum', ledgerAccountId: 'uuid', currency: 'string' },
    }),
    'PATCH /bank-accounts/:id': () => ({
      method: 'patch',
      path: () => `/api/entities/${fx.entityId}/bank-accounts/${fx.bankAccountId}`,
      body: () => ({ name: 'Banco' }),
      fields: { name: 'string' },
    }),
    'POST /bank-accounts/:id/movements': () => ({
      method: 'post',
      path: () => `/api/entities/${fx.entityId}/bank-accounts/${fx.bankAccountId}/movements`,
      body: () => ({ id: uuid(), movementDate: '2026-06-01', description: 'Abono', amount: 100, side: 'debit', reference: 'R-1' }),
      fields: { id: 'uuid', movementDate: 'date', description: 'string', amount: 'amount', side: 'enum', reference: 'string' },
    }),
    'POST /bank-connections/link-intents': () => ({
      method: 'post',
      path: () => `/api/entities/${fx.entityId}/bank-connections/link-intents`,
      body: () => ({ provider: 'sandbox', holderType: 'business' }),
      fields: { provider: 'enum', holderType: 'enum' },
    }),
    'POST /bank-connections': () => ({
      method: 'post',
      path: () => `/api/entities/${fx.entityId}/bank-connections`,
      body: () => ({ id: uuid(), provider: 'sandbox', exchangeToken: 'sandbox_wt_00000000000000000000000000000000' }),
      fields: { id: 'uuid', provider: 'enum', exchangeToken: 'string' },
    }),
    'POST /bank-connections/:id/reconnect': () => ({
      method: 'post',
      path: () => `/api/entities/${fx.entityId}/bank-connections/${fx.bankConnectionId}/reconnect`,
      body: () => ({ exchangeToken: 'sandbox_wt_00000000000000000000000000000000' }),
      fields: { exchangeToken: 'string' },
    }),
    'POST /bank-connections/:id/accounts': () => ({
      method: 'post',
      path: () => `/api/entities/${fx.entityId}/bank-connections/${fx.bankConnectionId}/accounts`,
      body: () => ({ providerAccountIds: ['acc_1'] }),
      fields: { providerAccountIds: 'uuids' },
    }),
    'POST /bank-connections/:id/feeds': () => ({
      method: 'post',
      path: () => `/api/entities/${fx.entityId}/bank-connections/${fx.bankConnectionId}/feeds`,
      body: () => ({ bankAccountId: fx.bankAccountId, providerAccountId: fx.providerAccountId }),
      fields: { bankAccountId: 'uuid', providerAccountId: 'string' },
    }),
    'POST /bank-connections/:id/bank-accounts': () => ({
      method: 'post',
      path: () => `/api/entities/${fx.entityId}/bank-connections/${fx.bankConnectionId}/bank-accounts`,
      body: () => ({ id: uuid(), name: 'Fed', ledgerAccountId: fx.cash, providerAccountId: fx.providerAccountId }),
      fields: { id: 'uuid', name: 'string', ledgerAccountId: 'uuid', providerAccountId: 'string' },
    }),
    'POST /bank-movements/:id/book': () => ({
      method: 'post',
      path: () => `/api/entities/${fx.entityId}/bank-movements/${fx.movementId}/book`,
      body: () => ({ entryId: uuid(), counterAccountId: fx.sales, partnerId: fx.partnerId, dimensionValueIds: [fx.valueId], memo: 'm', bookId: null }),
      fields: { entryId: 'uuid', counterAccountId: 'uuid', partnerId: 'uuid', dimensionValueIds: 'uuids', memo: 'string', bookId: 'uuid' },
    }),
    'POST /bank-movements/:id/match': () => ({
      method: 'post',
      path: () => `/api/entities/${fx.entityId}/bank-movements/${fx.movementId}/match`,
      body: () => ({ entryId: uuid(), lineIds: [fx.receivableDebitLineId], bookId: null }),
      fields: { entryId: 'uuid', lineIds: 'uuids', bookId: 'uuid' },
    }),
    'POST /invoices': () => ({
      method: 'post',
      path: () => `/api/entities/${fx.entityId}/invoices`,
      body: invoiceBody,
      fields: { id: 'uuid', ...INVOICE_FIELDS },
    }),
    'PATCH /invoices/:id': () => ({
      method: 'patch',
      path: () => `/api/entities/${fx.entityId}/invoices/${hostileInvoiceId}`,
      body: () => {
        const { id: _id, direction: _d, ...change } = invoiceBody();
        return change;
      },
      fields: Object.fromEntries(Object.entries(INVOICE_FIELDS).filter(([name]) => name !== 'direction')),
    }),
    'PUT /invoices/:id/dte': () => ({
      method: 'put',
      path: () => `/api/entities/${fx.entityId}/invoices/${hostileInvoiceId}/dte`,
      body: () => ({ dteId: uuid() }),
      fields: { dteId: 'uuid' },
    }),
    'POST /invoices/:id/book': () => ({
      method: 'post',
      path: () => `/api/entities/${fx.entityId}/invoices/${hostileInvoiceId}/book`,
      body: () => ({ entryId: uuid(), entryDate: '2026-06-10', counterAccountId: fx.sales, openItemAccountId: fx.receivable, taxAccountId: fx.sales, partnerId: fx.partnerId, dimensionValueIds: [], memo: 'm', bookId: null }),
      fields: { entryId: 'uuid', entryDate: 'date', counterAccountId: 'uuid', openItemAccountId: 'uuid', taxAccountId: 'uuid', partnerId: 'uuid', dimensionValueIds: 'uuids', memo: 'string', bookId: 'uuid' },
    }),
    'POST /ledger/closings': () => ({
      method: 'post',
      path: () => ledger('/closings'),
      body: () => ({ id: uuid(), exerciseStart: '2025-01-01', exerciseEnd: '2025-12-31', retainedEarningsAccountId: fx.cash, bookId: null }),
      fields: { id: 'uuid', exerciseStart: 'date', exerciseEnd: 'date', retainedEarningsAccountId: 'uuid', bookId: 'uuid' },
    }),
    'POST /ledger/entries': () => ({
      method: 'post',
      path: () => ledger('/entries'),
      body: () => ({ id: uuid(), entryDate: '2026-06-10', memo: 'm', notes: 'n', bookId: null, newLedgerEntryLines: lines() }),
      fields: { id: 'uuid', entryDate: 'date', memo: 'string', notes: 'string', bookId: 'uuid', ...LINE_FIELDS },
    }),
    'PATCH /ledger/entries/:id': () => ({
      method: 'patch',
      path: () => ledger(`/entries/${fx.saleEntryId}`),
      body: () => ({ entryDate: '2026-06-01', memo: 'Fixture', notes: null }),
      fields: { entryDate: 'date', memo: 'string', notes: 'string' },
    }),
    'POST /ledger/entries/:id/reverse': () => ({
      method: 'post',
      path: () => ledger(`/entries/${fx.invoiceEntryId}/reverse`),
      body: () => ({ id: uuid(), reversalDate: '2026-06-20', memo: 'r' }),
      fields: { id: 'uuid', reversalDate: 'date', memo: 'string' },
    }),
    'POST /ledger/scheduled-entries': () => ({
      method: 'post',
      path: () => ledger('/scheduled-entries'),
      body: () => ({
        id: uuid(),
        entryDate: '2026-08-01',
        memo: 'm',
        notes: null,
        // Scheduled entries take no transaction-currency lines.
        newLedgerEntryLines: lines().map(({ transactionCurrency: _c, transactionAmount: _a, exchangeRate: _r, ...l }) => l),
      }),
      fields: { id: 'uuid', entryDate: 'date', memo: 'string', notes: 'string', bookId: 'uuid', ...SCHEDULED_LINE_FIELDS },
    }),
    'PATCH /ledger/scheduled-entries/:id': () => ({
      method: 'patch',
      path: () => ledger(`/scheduled-entries/${fx.scheduledEntryId}`),
      body: () => ({ entryDate: '2026-07-01', memo: 'Scheduled fixture', notes: null, newLedgerEntryLines: lines() }),
      fields: { entryDate: 'date', memo: 'string', notes: 'string', ...SCHEDULED_LINE_FIELDS },
    }),
    'PATCH /ledger/lines/:id/partner': () => ({
      method: 'patch',
      path: () => ledger(`/lines/${fx.salesLineId}/partner`),
      body: () => ({ partnerId: fx.partnerId }),
      fields: { partnerId: 'uuid' },
    }),
    'PATCH /ledger/lines/:id/account': () => ({
      method: 'patch',
      path: () => ledger(`/lines/${fx.cashLineId}/account`),
      body: () => ({ ledgerAccountId: fx.cash }),
      fields: { ledgerAccountId: 'uuid' },
    }),
    'PUT /ledger/lines/:id/dimension-values': () => ({
      method: 'put',
      path: () => ledger(`/lines/${fx.salesLineId}/dimension-values`),
      body: () => ({ dimensionValueIds: [fx.valueId] }),
      fields: { dimensionValueIds: 'uuids', 'dimensionValueIds.0': 'uuid' },
    }),
    'POST /ledger/allocations': () => ({
      method: 'post',
      path: () => ledger('/allocations'),
      body: () => ({ id: uuid(), debitLineId: fx.receivableDebitLineId, creditLineId: fx.receivableCreditLineId, amount: 1 }),
      fields: { id: 'uuid', debitLineId: 'uuid', creditLineId: 'uuid', amount: 'amount' },
    }),
    'POST /ledger/allocations/match': () => ({
      method: 'post',
      path: () => ledger('/allocations/match'),
      body: () => ({ lineIds: [fx.receivableDebitLineId, fx.receivableCreditLineId] }),
      fields: { lineIds: 'uuids', 'lineIds.0': 'uuid' },
    }),
    'POST attachments/presign': () => ({
      method: 'post',
      path: () => ledger(`/entries/${fx.saleEntryId}/attachments/presign`),
      body: () => ({ filename: 'f.pdf', contentType: 'application/pdf', byteSize: 10 }),
      fields: { filename: 'string', contentType: 'enum', byteSize: 'amount' },
    }),
    'POST attachments/confirm': () => ({
      method: 'post',
      path: () => ledger(`/entries/${fx.saleEntryId}/attachments/confirm`),
      body: () => ({ attachmentId: uuid(), filename: 'f.pdf' }),
      fields: { attachmentId: 'uuid', filename: 'string' },
    }),
    'POST /todos': () => ({
      method: 'post',
      path: () => `/api/entities/${fx.entityId}/todos`,
      body: () => ({ id: uuid(), text: 'Revisar', ledgerEntryId: fx.saleEntryId }),
      fields: { id: 'uuid', text: 'string', ledgerEntryId: 'uuid', invoiceId: 'uuid' },
    }),
    'PATCH /todos/:id': () => ({
      method: 'patch',
      path: () => `/api/entities/${fx.entityId}/todos/${uuid()}`,
      body: () => ({ text: 'Revisar', completed: true }),
      fields: { text: 'string', completed: 'bool' },
    }),
    'POST /comments': () => ({
      method: 'post',
      path: () => `/api/entities/${fx.entityId}/comments`,
      body: () => ({ id: uuid(), hostKind: 'ledger_entry', hostId: fx.saleEntryId, text: 'Revisar' }),
      fields: { id: 'uuid', hostKind: 'enum', hostId: 'uuid', text: 'string' },
    }),
    'PATCH /comments/:id': () => ({
      method: 'patch',
      path: () => `/api/entities/${fx.entityId}/comments/${uuid()}`,
      body: () => ({ text: 'Revisar' }),
      fields: { text: 'string' },
    }),
    'DELETE /organizations/:id (takes no body)': () => ({
      method: 'delete',
      path: () => `/api/organizations/${uuid()}`,
      body: () => ({}),
      fields: {},
    }),
  };

  describe('bodies', () => {
    it.each(Object.keys(BODY_ROUTES))('%s answers every hostile body below 500 with the envelope, writing nothing when it refuses', async (name) => {
      expect(await hammerBody(BODY_ROUTES[name]())).toEqual([]);
    });
  });

  // ---------------------------------------------------------------------------------------------
  // Query strings: values are written percent-encoded by hand, so that malformed escapes and
  // repeated or nested parameters reach the server as a client could send them.

  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
  const QUERY_GENERIC: Array<[label: string, encoded: (name: string, valid: string) => string]> = [
    ['repeated', (n, v) => `${n}=${encodeURIComponent(v)}&${n}=${encodeURIComponent(v)}`],
    ['repeated with two values', (n, v) => `${n}=${encodeURIComponent(v)}&${n}=other`],
    ['nested as an object', (n) => `${n}[a]=1`],
    ['nested as an array', (n, v) => `${n}[]=${encodeURIComponent(v)}`],
    ['an operator object', (n) => `${n}[$gt]=0`],
    ['empty', (n) => `${n}=`],
    ['without a value', (n) => n],
    ['a NUL escape', (n) => `${n}=a%00b`],
    ['an invalid UTF-8 escape', (n) => `${n}=%ED%A0%80`],
    ['a malformed escape', (n) => `${n}=%E0%A4%A`],
    ['a bare percent', (n) => `${n}=%`],
    ['10k characters', (n) => `${n}=${'x'.repeat(10_000)}`],
  ];
  const QUERY_KIND: Record<string, () => string[]> = {
    string: () => [],
    enum: () => ['nope', 'LIVE'],
    uuid: () => ['not-a-uuid', '00000000-0000-0000-0000-000000000000', uuid().toUpperCase(), '------------------------------------', `{${uuid()}}`],
    uuids: () => ['not-a-uuid', '00000000-0000-0000-0000-000000000000', uuid().toUpperCase()],
    date: () => ['2026-02-30', '2026-13-01', '0000-01-01', '99999-01-01', '1000-01-01', '9999-12-31', '2026-1-1', '2026-01-01T00:00:00Z'],
    datetime: () => [
      '2026-02-30',
      '2026-02-30T10:00:00Z',
      '0000-01-01T00:00:00Z',
      '0000-01-01',
      '2026-01-01T24:00:00Z',
      '2030-01-01T00:00:00+23:59',
      '2030-01-01T00:00:00-15:59',
      '9999-12-31T23:59:59+00:00',
      '1000-01-01T00:00:00Z',
      '2030-W01',
      '2030-001',
      '20300101T100000Z',
    ],
    limit: () => ['1000000', '-1', '0', '1.5', 'abc', '1e2', ' 1', '0x10', '99999999999999999999', '+5', 'Infinity', 'NaN'],
    bool: () => ['yes', '1', 'TRUE'],
    currency: () => ['usd', 'XXXX', '€'],
    rate: () => ['0', '-1', '1e3', '1'.repeat(13), 'NaN', '0.0000000000001'],
    'cursor:keyset': () => [
      'garbage',
      '!!!',
      b64('garbage'),
      b64(`2026-02-30|${uuid()}`),
      b64(`0000-01-01|${uuid()}`),
      b64(`2026-06-01|${'-'.repeat(36)}`),
      b64(`2026-06-01|${uuid()}|extra`),
      b64(`["a\u0000",${JSON.stringify(uuid())}]`),
      b64(JSON.stringify(['x', '------------------------------------'])),
      b64(JSON.stringify([1, uuid()])),
      b64(JSON.stringify({ name: 'x' })),
    ],
    'cursor:audit': () => [
      'garbage',
      b64(`2026-02-30T00:00:00.000Z|${uuid()}`),
      b64(`0000-01-01T00:00:00.000Z|${uuid()}`),
      b64(`-000001-01-01T00:00:00.000Z|${uuid()}`),
      b64(`+275760-09-13T00:00:00.000Z|${uuid()}`),
      b64(`2026-06-01T00:00:00.000Z|${'-'.repeat(36)}`),
    ],
    'cursor:journal': () => [
      'garbage',
      `2026-02-30~${uuid()}~${uuid()}`,
      `0000-01-01~${uuid()}~${uuid()}`,
      `2026-13-45~${uuid()}~${uuid()}`,
      `2026-06-01~${uuid()}`,
      '~~',
    ],
  };

  interface QueryRoute {
    path: () => string;
    /** A valid query: every parameter the route takes, with a good value. */
    query: () => Record<string, string>;
    params: Record<string, string>;
  }

  async function hammerQuery(route: QueryRoute): Promise<Failure[]> {
    const failures: Failure[] = [];
    const encode = (query: Record<string, string>) => Object.entries(query).map(([n, v]) => `${n}=${encodeURIComponent(v)}`);
    const get = (parts: string[]) => () => staff.get(`${route.path()}?${parts.join('&')}`);
    await probe('an unknown parameter', get([...encode(route.query()), 'unknownParameter=1']), false, failures);
    await probe('a parameter named __proto__', get([...encode(route.query()), '__proto__[x]=1']), false, failures);
    for (const [name, kind] of Object.entries(route.params)) {
      const others = Object.fromEntries(Object.entries(route.query()).filter(([n]) => n !== name));
      const valid = route.query()[name] ?? 'x';
      for (const [label, encoded] of QUERY_GENERIC) {
        await probe(`${name}: ${label}`, get([...encode(others), encoded(name, valid)]), false, failures);
      }
      for (const value of QUERY_KIND[kind]()) {
        await probe(`${name}: ${value.slice(0, 60)}`, get([...encode(others), `${name}=${encodeURIComponent(value)}`]), false, failures);
      }
    }
    return failures;
  }

  const QUERY_ROUTES: Record<string, () => QueryRoute> = {
    'GET /fx-rates': () => ({
      path: () => '/api/fx-rates',
      query: () => ({ from: '2026-01-01', to: '2026-01-31', currency: 'USD' }),
      params: { from: 'date', to: 'date', currency: 'enum' },
    }),
    'GET /fx-rates/effective': () => ({
      path: () => '/api/fx-rates/effective',
      query: () => ({ currency: 'USD', date: '2026-01-05' }),
      params: { currency: 'enum', date: 'date' },
    }),
    'GET /ledger/closings': () => ({
      path: () => ledger('/closings'),
      query: () => ({}),
      params: { bookId: 'uuid' },
    }),
    'GET /ledger/entries': () => ({
      path: () => ledger('/entries'),
      query: () => ({ from: '2026-01-01', to: '2026-12-31', status: 'live', search: 'Fix', accountId: fx.cash, partnerId: fx.partnerId, limit: '2' }),
      params: { from: 'date', to: 'date', status: 'enum', search: 'string', accountId: 'uuid', partnerId: 'uuid', bookId: 'uuid', cursor: 'cursor:keyset', limit: 'limit' },
    }),
    'GET /todos': () => ({
      path: () => `/api/entities/${fx.entityId}/todos`,
      query: () => ({ ledgerEntryId: fx.saleEntryId }),
      params: { ledgerEntryId: 'uuid', invoiceId: 'uuid', bankMovementId: 'uuid' },
    }),
    'GET /comments': () => ({
      path: () => `/api/entities/${fx.entityId}/comments`,
      query: () => ({ hostKind: 'ledger_entry', hostId: fx.saleEntryId }),
      params: { hostKind: 'enum', hostId: 'uuid' },
    }),
    'GET /ledger/lines': () => ({
      path: () => ledger('/lines'),
      query: () => ({ accountId: fx.cash, partnerId: fx.partnerId, from: '2026-01-01', to: '2026-12-31', status: 'all' }),
      params: { accountId: 'uuid', partnerId: 'uuid', from: 'date', to: 'date', status: 'enum', bookId: 'uuid' },
    }),
    'GET /ledger/open-item-lines': () => ({
      path: () => ledger('/open-item-lines'),
      query: () => ({ accountId: fx.receivable, partnerId: fx.partnerId, includeSettled: 'true', limit: '1' }),
      params: { accountId: 'uuid', partnerId: 'uuid', includeSettled: 'bool', bookId: 'uuid', cursor: 'cursor:keyset', limit: 'limit' },
    }),
    'GET /ledger/allocations': () => ({
      path: () => ledger('/allocations'),
      query: () => ({ lineId: fx.receivableDebitLineId }),
      params: { lineId: 'uuid' },
    }),
    'GET /bank-accounts/:id/movements': () => ({
      path: () => `/api/entities/${fx.entityId}/bank-accounts/${fx.bankAccountId}/movements`,
      query: () => ({ from: '2026-01-01', to: '2026-12-31', booked: 'false', limit: '1' }),
      params: { from: 'date', to: 'date', booked: 'bool', cursor: 'cursor:keyset', limit: 'limit' },
    }),
    'GET /bank-movements/:id/match-candidates': () => ({
      path: () => `/api/entities/${fx.entityId}/bank-movements/${fx.movementId}/match-candidates`,
      query: () => ({ limit: '5' }),
      params: { bookId: 'uuid', limit: 'limit' },
    }),
    'GET /invoices': () => ({
      path: () => `/api/entities/${fx.entityId}/invoices`,
      query: () => ({ direction: 'ar', documentKind: 'invoice', partnerId: fx.partnerId, bookStatus: 'unbooked', from: '2026-01-01', to: '2026-12-31' }),
      params: { direction: 'enum', documentKind: 'enum', partnerId: 'uuid', bookStatus: 'enum', from: 'date', to: 'date' },
    }),
    'GET /invoices/pages': () => ({
      path: () => `/api/entities/${fx.entityId}/invoices/pages`,
      query: () => ({ direction: 'ar', search: 'd', limit: '1' }),
      params: { direction: 'enum', documentKind: 'enum', partnerId: 'uuid', bookStatus: 'enum', from: 'date', to: 'date', search: 'string', cursor: 'cursor:keyset', limit: 'limit' },
    }),
    'GET /dtes': () => ({
      path: () => `/api/entities/${fx.entityId}/dtes`,
      query: () => ({ linked: 'false', from: '2026-01-01', to: '2026-12-31' }),
      params: { linked: 'bool', from: 'date', to: 'date' },
    }),
    'GET /dtes/pages': () => ({
      path: () => `/api/entities/${fx.entityId}/dtes/pages`,
      query: () => ({ linked: 'false', from: '2026-01-01', to: '2026-12-31', limit: '1' }),
      params: { linked: 'bool', from: 'date', to: 'date', cursor: 'cursor:keyset', limit: 'limit' },
    }),
    'GET /partners/pages': () => ({
      path: () => `/api/entities/${fx.entityId}/partners/pages`,
      query: () => ({ search: 'Cliente', limit: '1' }),
      params: { bookId: 'uuid', search: 'string', cursor: 'cursor:keyset', limit: 'limit' },
    }),
    'GET /entities/:id/audit-trail': () => ({
      path: () => `/api/entities/${fx.entityId}/audit-trail`,
      query: () => ({ from: '2026-01-01', to: '2026-12-31T00:00:00Z', actorUserId: uuid(), resourceType: 'ledger_entry', resourceId: fx.saleEntryId, limit: '5' }),
      params: { from: 'datetime', to: 'datetime', actorUserId: 'uuid', resourceType: 'string', resourceId: 'string', cursor: 'cursor:audit', limit: 'limit' },
    }),
    'GET /organizations/:id/audit-trail': () => ({
      path: () => `/api/organizations/${world.organizationId}/audit-trail`,
      query: () => ({ from: '2026-01-01', limit: '5' }),
      params: { from: 'datetime', to: 'datetime', cursor: 'cursor:audit', limit: 'limit' },
    }),
    'GET /onboarding/users': () => ({
      path: () => '/api/onboarding/users',
      query: () => ({ email: 'staff@example.test' }),
      params: { email: 'string' },
    }),
    'GET /reports/balance-sheet': () => ({
      path: () => `/api/entities/${fx.entityId}/reports/balance-sheet`,
      query: () => ({ exerciseStart: '2026-01-01', cutoffDate: '2026-06-30', presentationCurrency: 'USD', presentationRate: '0.00105' }),
      params: { exerciseStart: 'date', cutoffDate: 'date', bookId: 'uuid', presentationCurrency: 'currency', presentationRate: 'rate' },
    }),
    'GET /reports/consolidated-balance-sheet': () => ({
      path: () => `/api/entities/${fx.entityId}/reports/consolidated-balance-sheet`,
      query: () => ({ exerciseStart: '2026-01-01', cutoffDate: '2026-06-30', closingRate: 'USD:950.5', averageRate: 'USD:940.25' }),
      params: { exerciseStart: 'date', cutoffDate: 'date', bookName: 'string', closingRate: 'string', averageRate: 'string' },
    }),
    'GET /reports/consolidated-income-statement': () => ({
      path: () => `/api/entities/${fx.entityId}/reports/consolidated-income-statement`,
      query: () => ({ from: '2026-01-01', to: '2026-06-30', averageRate: 'USD:940.25' }),
      params: { from: 'date', to: 'date', bookName: 'string', closingRate: 'string', averageRate: 'string' },
    }),
    'GET /reports/income-statement': () => ({
      path: () => `/api/entities/${fx.entityId}/reports/income-statement`,
      query: () => ({ from: '2026-01-01', to: '2026-06-30', presentationCurrency: 'USD', presentationRate: '0.00105' }),
      params: { from: 'date', to: 'date', bookId: 'uuid', presentationCurrency: 'currency', presentationRate: 'rate' },
    }),
    'GET /reports/income-statement-by-dimension': () => ({
      path: () => `/api/entities/${fx.entityId}/reports/income-statement-by-dimension`,
      query: () => ({ dimensionId: fx.dimensionId, from: '2026-01-01', to: '2026-06-30' }),
      params: { dimensionId: 'uuid', from: 'date', to: 'date', bookId: 'uuid', presentationCurrency: 'currency', presentationRate: 'rate' },
    }),
    'GET /recommendations': () => ({
      path: () => `/api/entities/${fx.entityId}/recommendations`,
      query: () => ({ bankMovementId: uuid() }),
      params: { bankMovementId: 'uuid', invoiceId: 'uuid' },
    }),
    'GET /reports/home': () => ({
      path: () => `/api/entities/${fx.entityId}/reports/home`,
      query: () => ({}),
      params: { bookId: 'uuid' },
    }),
    'GET /reports/revenue-realization': () => ({
      path: () => `/api/entities/${fx.entityId}/reports/revenue-realization`,
      query: () => ({ from: '2026-01-01', to: '2026-06-30', presentationCurrency: 'USD', presentationRate: '0.00105' }),
      params: { from: 'date', to: 'date', bookId: 'uuid', presentationCurrency: 'currency', presentationRate: 'rate', invoiceLimit: 'limit', invoiceCursor: 'cursor:keyset' },
    }),
    'GET /reports/journal': () => ({
      path: () => `/api/entities/${fx.entityId}/reports/journal`,
      query: () => ({ from: '2026-01-01', to: '2026-12-31', search: 'Fix', limit: '2' }),
      params: { from: 'date', to: 'date', search: 'string', bookId: 'uuid', cursor: 'cursor:journal', limit: 'limit' },
    }),
    'GET /ledger/reports/eight-column-balance': () => ({
      path: () => `/api/entities/${fx.entityId}/ledger/reports/eight-column-balance`,
      query: () => ({ exerciseStart: '2026-01-01', cutoffDate: '2026-06-30' }),
      params: { exerciseStart: 'date', cutoffDate: 'date', bookId: 'uuid', presentationCurrency: 'currency', presentationRate: 'rate' },
    }),
    'GET /ledger/general-ledger': () => ({
      path: () => ledger('/general-ledger'),
      query: () => ({ accountId: fx.cash, from: '2026-01-01', to: '2026-12-31', limit: '1' }),
      params: { accountId: 'uuid', from: 'date', to: 'date', bookId: 'uuid', cursor: 'uuid', limit: 'limit' },
    }),
    'GET /ledger/partner-ledger': () => ({
      path: () => ledger('/partner-ledger'),
      query: () => ({ accountId: fx.receivable, from: '2026-01-01', to: '2026-12-31', partnerIds: fx.partnerId, includeUnassigned: 'true' }),
      params: { accountId: 'uuid', from: 'date', to: 'date', bookId: 'uuid', partnerIds: 'uuids', includeUnassigned: 'bool' },
    }),
    // Issue 37 (D92): the tax books.
    'GET /tax/purchase-sales-register': () => ({
      path: () => `/api/entities/${fx.entityId}/tax/purchase-sales-register`,
      query: () => ({ period: '2026-06', direction: 'sales' }),
      params: { period: 'date', direction: 'enum' },
    }),
    'GET /tax/rcv-reconciliation': () => ({
      path: () => `/api/entities/${fx.entityId}/tax/rcv-reconciliation`,
      query: () => ({ period: '2026-06', direction: 'purchases' }),
      params: { period: 'date', direction: 'enum' },
    }),
    'GET /tax/f29': () => ({
      path: () => `/api/entities/${fx.entityId}/tax/f29`,
      query: () => ({ period: '2026-06', carriedCredit: '1000', ppmRate: '0.25' }),
      params: { period: 'date', carriedCredit: 'limit', ppmRate: 'rate' },
    }),
  };

  describe('query strings', () => {
    it.each(Object.keys(QUERY_ROUTES))('%s answers every hostile query below 500 with the envelope', async (name) => {
      expect(await hammerQuery(QUERY_ROUTES[name]())).toEqual([]);
    });
  });

  // ---------------------------------------------------------------------------------------------

  it('answers hostile path parameters below 500 with the envelope', async () => {
    const failures: Failure[] = [];
    const segments = ['not-a-uuid', '00000000-0000-0000-0000-000000000000', '%00', '%ED%A0%80', '%', '..', 'a%2Fb', 'x'.repeat(5000), `${uuid()}%20`, `${uuid()}.json`];
    for (const segment of segments) {
      const label = segment.slice(0, 40);
      await probe(`entityId ${label}`, () => staff.get(`/api/entities/${segment}/ledger/entries`), false, failures);
      await probe(`entryId ${label}`, () => staff.get(ledger(`/entries/${segment}`)), false, failures);
      await probe(`DELETE allocationId ${label}`, () => staff.delete(ledger(`/allocations/${segment}`)), true, failures);
      await probe(`PATCH dimensionValueId ${label}`, () => staff.patch(`/api/entities/${fx.entityId}/dimensions/${fx.dimensionId}/values/${segment}`).send({ name: 'x' }), true, failures);
      await probe(`organizationId ${label}`, () => staff.get(`/api/organizations/${segment}/members`), false, failures);
      await probe(`userId ${label}`, () => staff.post(`/api/onboarding/users/${segment}/revoke-sessions`), true, failures);
    }
    expect(failures).toEqual([]);
  });

  it('answers routes that take no body, sent a hostile one, below 500 with the envelope, writing nothing', async () => {
    const failures: Failure[] = [];
    const bodies = [raw('{"x":"a\\u0000b"}'), raw(`{"x":${'['.repeat(50_000)}${']'.repeat(50_000)}}`), raw('{"__proto__":{"x":1}}'), raw('[1,2]'), raw('"text"')];
    const routes: Array<[string, () => request.Test]> = [
      ['set-password link', () => staff.post(`/api/onboarding/users/${throwawayUserId}/set-password-link`)],
      ['revoke sessions', () => staff.post(`/api/onboarding/users/${throwawayUserId}/revoke-sessions`)],
      ['key revocation', () => staff.delete(`/api/auth/api-keys/${uuid()}`)],
      ['Organization delete', () => staff.delete(`/api/organizations/${uuid()}`)],
      ['book a scheduled entry', () => staff.post(ledger(`/scheduled-entries/${uuid()}/book`))],
      ['unbook', () => staff.delete(ledger(`/entries/${uuid()}`))],
    ];
    for (const [name, send] of routes) {
      for (const body of bodies) {
        await probe(`${name}: ${body.text.slice(0, 30)}`, () => send().set('content-type', 'application/json').send(body.text), true, failures);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers hostile headers and credentials below 500 with the envelope, writing nothing when it refuses', async () => {
    const failures: Failure[] = [];
    const http = () => request(t.app.getHttpServer());
    const entry = () => ({ id: uuid(), entryDate: '2026-06-10', memo: 'm', newLedgerEntryLines: lines() });
    const keys = ['', 'mea_', 'mea_x_y', `mea_${'a'.repeat(12)}_${'b'.repeat(43)}`, 'x'.repeat(10_000), 'mea_ÿÿÿÿÿÿÿÿÿÿÿÿ_' + 'b'.repeat(43), `${world.keys.member}, ${world.keys.member}`];
    for (const key of keys) {
      await probe(`x-api-key ${key.slice(0, 30)}`, () => http().get(ledger('/entries')).set('x-api-key', key), false, failures);
    }
    const actors = ['x'.repeat(10_000), 'éñü', ' ', 'erwin:' + uuid()];
    for (const actor of actors) {
      await probe(`x-audit-actor ${actor.slice(0, 20)}`, () => http().post(ledger('/entries')).set('x-api-key', world.keys.member).set('x-audit-actor', actor).send(entry()), true, failures);
    }
    for (const reason of ['x'.repeat(10_000), 'éñü']) {
      await probe(`x-audit-reason ${reason.slice(0, 20)}`, () => staff.post(ledger('/entries')).set('x-audit-reason', reason).send(entry()), true, failures);
    }
    for (const requestId of ['x'.repeat(129), 'a b', '', 'é']) {
      await probe(`x-request-id ${requestId.slice(0, 20)}`, () => staff.get(ledger('/entries')).set('x-request-id', requestId), false, failures);
    }
    for (const cookie of ['accounting.sid=garbage', 'accounting.sid=s%3Agarbage.signature', 'accounting.sid=%', `accounting.sid=${'x'.repeat(4000)}`]) {
      await probe(`cookie ${cookie.slice(0, 30)}`, () => http().get(ledger('/entries')).set('cookie', cookie), false, failures);
    }
    const contentTypes = ['text/plain', 'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml'];
    for (const contentType of contentTypes) {
      await probe(`content-type ${contentType}`, () => staff.post(ledger('/entries')).set('content-type', contentType).send(JSON.stringify(entry())), true, failures);
    }
    await probe('a body on a GET', () => staff.get(ledger('/entries')).set('content-type', 'application/json').send('{"x":"a\\u0000"}'), false, failures);
    await probe('a body above 1 MB', () => staff.post(ledger('/entries')).set('content-type', 'application/json').send(`{"memo":"${'x'.repeat(1_100_000)}"}`), true, failures);
    expect(failures).toEqual([]);
  });
});
