import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { FixedClock } from '../src/platform/clock/clock';
import { auditRowCount } from './harness/db-checks';
import { buildLedgerFixture, LedgerFixture } from './harness/ledger-fixture';
import type { TestApp } from './harness/test-app';
import { Agent, createWorldApp, World } from './harness/world';

/**
 * Rule 1: one tenant's data is never shown or touched from another. Two Entities in two
 * Organizations are filled with one of everything (buildLedgerFixture, with a Book each). Every
 * id a route takes, in its path, body or query, is then sent to one Entity with the id of the
 * other Entity's record, and once more with an id nobody has: both answers must be the same
 * (status, code and body, the id aside), a refusal must write nothing, no answer may carry an id
 * of the other Entity that the request did not send, and the other Entity's rows must end as
 * they began. The table is asked by every kind of caller: global staff (who reaches both
 * Entities, so only the queries keep them apart), a client member's key, a viewer, a read-only
 * key, and a staff key confined to the other Entity (asking it with this Entity's ids).
 */

const clock = new FixedClock(new Date('2026-06-15T15:00:00Z'));
const uuid = () => randomUUID();

type IdSource = Omit<LedgerFixture, 'entityId' | 'bookId'> & { bookId: string };

/** A fixture-shaped set of ids that nothing has. */
function missingIds(): IdSource {
  return {
    bookId: uuid(),
    groupId: uuid(),
    cash: uuid(),
    receivable: uuid(),
    sales: uuid(),
    partnerId: uuid(),
    dimensionId: uuid(),
    valueId: uuid(),
    saleEntryId: uuid(),
    cashLineId: uuid(),
    salesLineId: uuid(),
    invoiceEntryId: uuid(),
    receivableDebitLineId: uuid(),
    receivableCreditLineId: uuid(),
    allocationId: uuid(),
    reversedEntryId: uuid(),
    reversalEntryId: uuid(),
    scheduledEntryId: uuid(),
    bankAccountId: uuid(),
    movementId: uuid(),
    documentInvoiceId: uuid(),
    dteId: uuid(),
    bankConnectionId: uuid(),
    providerAccountId: 'acc_missing',
  };
}

function idsOf(fixture: LedgerFixture): IdSource {
  const { entityId: _e, bookId, ...rest } = fixture;
  return { ...rest, bookId: bookId! };
}

interface Probe {
  method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  path: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

interface IsolationCase {
  /** What the route answers when the id is missing (and so when it is another Entity's). */
  status: number;
  code?: string;
  /** A To-do route: only global staff (and staff Members) get past the guard (D17); the others get 403. */
  todo?: boolean;
  /** `home`: the Entity asked; `other`: where the foreign ids come from (or missing ones); `fresh`: new ids for the request. */
  probe: (home: LedgerFixture, other: IdSource, fresh: string[]) => Probe;
}

const line = (side: 'debit' | 'credit', ledgerAccountId: string, extra: Record<string, unknown> = {}) => ({ side, ledgerAccountId, amount: 10, ...extra });
const e = (home: LedgerFixture, path: string) => `/api/entities/${home.entityId}${path}`;
const entryBody = (fresh: string[], lines: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) => ({
  id: fresh[0],
  entryDate: '2026-06-10',
  memo: 'isolation',
  newLedgerEntryLines: lines,
  ...extra,
});

/** Every id a tenant route takes, given another Entity's record. */
const CASES: Record<string, IsolationCase> = {
  // Books
  'GET books/:bookId': { status: 404, code: 'BOOK_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'get', path: e(h, `/books/${o.bookId}`) }) },
  // Dimensions and values
  'PATCH dimensions/:dimensionId': { status: 404, code: 'DIMENSION_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'patch', path: e(h, `/dimensions/${o.dimensionId}`), body: { name: 'Renamed' } }) },
  'DELETE dimensions/:dimensionId': { status: 404, code: 'DIMENSION_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'delete', path: e(h, `/dimensions/${o.dimensionId}`) }) },
  'GET dimensions/:dimensionId/values': { status: 404, code: 'DIMENSION_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'get', path: e(h, `/dimensions/${o.dimensionId}/values`) }) },
  'POST dimensions/:dimensionId/values': {
    status: 404,
    code: 'DIMENSION_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, `/dimensions/${o.dimensionId}/values`), body: { id: f[0], code: 'X1', name: 'X' } }),
  },
  'POST dimensions/:dimensionId/values { parentId }': {
    status: 404,
    code: 'DIMENSION_VALUE_PARENT_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, `/dimensions/${h.dimensionId}/values`), body: { id: f[0], code: 'X2', name: 'X', parentId: o.valueId } }),
  },
  'PATCH dimensions/:dimensionId/values/:valueId': {
    status: 404,
    code: 'DIMENSION_VALUE_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'patch', path: e(h, `/dimensions/${h.dimensionId}/values/${o.valueId}`), body: { name: 'Renamed' } }),
  },
  'PATCH dimensions/:dimensionId/values/:valueId { parentId }': {
    status: 404,
    code: 'DIMENSION_VALUE_PARENT_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'patch', path: e(h, `/dimensions/${h.dimensionId}/values/${h.valueId}`), body: { parentId: o.valueId } }),
  },
  'PATCH dimensions/:otherDimensionId/values/:otherValueId': {
    status: 404,
    code: 'DIMENSION_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'patch', path: e(h, `/dimensions/${o.dimensionId}/values/${o.valueId}`), body: { name: 'Renamed' } }),
  },
  'DELETE dimensions/:dimensionId/values/:valueId': {
    status: 404,
    code: 'DIMENSION_VALUE_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'delete', path: e(h, `/dimensions/${h.dimensionId}/values/${o.valueId}`) }),
  },
  // Chart
  'POST account-groups { parentGroupId }': {
    status: 404,
    code: 'LEDGER_ACCOUNT_GROUP_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, '/ledger/account-groups'), body: { id: f[0], parentGroupId: o.groupId, codePrefix: '19', name: 'G', type: 'asset' } }),
  },
  'POST accounts { groupId }': {
    status: 404,
    code: 'LEDGER_ACCOUNT_GROUP_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, '/ledger/accounts'), body: { id: f[0], name: 'A', code: '1199', type: 'asset', tracking: 'balance', groupId: o.groupId } }),
  },
  'PATCH accounts/:accountId': { status: 404, code: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'patch', path: e(h, `/ledger/accounts/${o.cash}`), body: { name: 'Renamed' } }) },
  'PATCH accounts/:accountId { groupId }': {
    status: 404,
    code: 'LEDGER_ACCOUNT_GROUP_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'patch', path: e(h, `/ledger/accounts/${h.cash}`), body: { groupId: o.groupId } }),
  },
  'DELETE accounts/:accountId': { status: 404, code: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'delete', path: e(h, `/ledger/accounts/${o.cash}`) }) },
  // Attachments, To-dos and comments on ledger entries (issue 21)
  'POST entries/:entryId/attachments/presign': {
    status: 404,
    code: 'ATTACHMENT_HOST_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'post', path: e(h, `/ledger/entries/${o.saleEntryId}/attachments/presign`), body: { filename: 'f.pdf', contentType: 'application/pdf', byteSize: 10 } }),
  },
  'GET entries/:entryId/attachments': { status: 404, code: 'ATTACHMENT_HOST_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'get', path: e(h, `/ledger/entries/${o.saleEntryId}/attachments`) }) },
  'POST todos { ledgerEntryId }': {
    todo: true,
    status: 404,
    code: 'TODO_LINKED_RECORD_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, '/todos'), body: { id: f[0], text: 'x', ledgerEntryId: o.saleEntryId } }),
  },
  'POST comments { hostId }': {
    status: 404,
    code: 'COMMENT_HOST_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, '/comments'), body: { id: f[0], hostKind: 'ledger_entry', hostId: o.saleEntryId, text: 'x' } }),
  },
  'GET comments ?hostId': { status: 404, code: 'COMMENT_HOST_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'get', path: e(h, `/comments?hostKind=ledger_entry&hostId=${o.saleEntryId}`) }) },
  // Partners
  'GET partners/:partnerId': { status: 404, code: 'PARTNER_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'get', path: e(h, `/partners/${o.partnerId}`) }) },
  'PATCH partners/:partnerId': { status: 404, code: 'PARTNER_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'patch', path: e(h, `/partners/${o.partnerId}`), body: { name: 'Renamed' } }) },
  'DELETE partners/:partnerId': { status: 404, code: 'PARTNER_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'delete', path: e(h, `/partners/${o.partnerId}`) }) },
  'POST partners { defaultPurchaseAccountId }': {
    status: 404,
    code: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({
      method: 'post',
      path: e(h, '/partners'),
      body: { id: f[0], name: 'P', type: 'company', country: 'AR', taxId: f[1], defaultPurchaseAccountId: o.sales },
    }),
  },
  'PATCH partners/:partnerId { defaultPurchaseAccountId }': {
    status: 404,
    code: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'patch', path: e(h, `/partners/${h.partnerId}`), body: { defaultPurchaseAccountId: o.sales } }),
  },
  'GET partners/pages?bookId': { status: 404, code: 'BOOK_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'get', path: e(h, '/partners/pages'), query: { bookId: o.bookId } }) },
  // Entries
  'GET entries/:entryId': { status: 404, code: 'LEDGER_ENTRY_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'get', path: e(h, `/ledger/entries/${o.saleEntryId}`) }) },
  'PATCH entries/:entryId': { status: 404, code: 'LEDGER_ENTRY_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'patch', path: e(h, `/ledger/entries/${o.saleEntryId}`), body: { memo: 'x' } }) },
  'POST entries/:entryId/reverse': {
    status: 404,
    code: 'LEDGER_ENTRY_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, `/ledger/entries/${o.saleEntryId}/reverse`), body: { id: f[0], reversalDate: '2026-06-12' } }),
  },
  'DELETE entries/:entryId (a reversal)': { status: 404, code: 'LEDGER_ENTRY_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'delete', path: e(h, `/ledger/entries/${o.reversalEntryId}`) }) },
  'POST entries { ledgerAccountId }': {
    status: 404,
    code: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, '/ledger/entries'), body: entryBody(f, [line('debit', o.cash), line('credit', h.sales)], { bookId: h.bookId }) }),
  },
  'POST entries { partnerId }': {
    status: 404,
    code: 'PARTNER_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, '/ledger/entries'), body: entryBody(f, [line('debit', h.cash, { partnerId: o.partnerId }), line('credit', h.sales)]) }),
  },
  'POST entries { dimensionValueIds }': {
    status: 404,
    code: 'DIMENSION_VALUE_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, '/ledger/entries'), body: entryBody(f, [line('debit', h.cash), line('credit', h.sales, { dimensionValueIds: [o.valueId] })]) }),
  },
  'POST entries { bookId }': {
    status: 404,
    code: 'BOOK_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, '/ledger/entries'), body: entryBody(f, [line('debit', h.cash), line('credit', h.sales)], { bookId: o.bookId }) }),
  },
  'POST ledger/closings { retainedEarningsAccountId }': {
    status: 404,
    code: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({
      method: 'post',
      path: e(h, '/ledger/closings'),
      body: { id: f[0], exerciseStart: '2025-01-01', exerciseEnd: '2025-12-31', retainedEarningsAccountId: o.cash, bookId: h.bookId },
    }),
  },
  'POST ledger/closings { bookId }': {
    status: 404,
    code: 'BOOK_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, '/ledger/closings'), body: { id: f[0], exerciseStart: '2025-01-01', exerciseEnd: '2025-12-31', retainedEarningsAccountId: h.cash, bookId: o.bookId } }),
  },
  'GET ledger/closings?bookId': { status: 404, code: 'BOOK_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'get', path: e(h, '/ledger/closings'), query: { bookId: o.bookId } }) },
  'POST scheduled-entries { ledgerAccountId }': {
    status: 404,
    code: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, '/ledger/scheduled-entries'), body: entryBody(f, [line('debit', o.cash), line('credit', h.sales)], { entryDate: '2026-08-01' }) }),
  },
  'POST scheduled-entries { partnerId }': {
    status: 404,
    code: 'PARTNER_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({
      method: 'post',
      path: e(h, '/ledger/scheduled-entries'),
      body: entryBody(f, [line('debit', h.cash), line('credit', h.sales, { partnerId: o.partnerId })], { entryDate: '2026-08-01' }),
    }),
  },
  'POST scheduled-entries { dimensionValueIds }': {
    status: 404,
    code: 'DIMENSION_VALUE_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({
      method: 'post',
      path: e(h, '/ledger/scheduled-entries'),
      body: entryBody(f, [line('debit', h.cash), line('credit', h.sales, { dimensionValueIds: [o.valueId] })], { entryDate: '2026-08-01' }),
    }),
  },
  'POST scheduled-entries { bookId }': {
    status: 404,
    code: 'BOOK_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, '/ledger/scheduled-entries'), body: entryBody(f, [line('debit', h.cash), line('credit', h.sales)], { entryDate: '2026-08-01', bookId: o.bookId }) }),
  },
  'POST scheduled-entries/:entryId/book': { status: 404, code: 'LEDGER_ENTRY_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'post', path: e(h, `/ledger/scheduled-entries/${o.scheduledEntryId}/book`) }) },
  'PATCH scheduled-entries/:entryId': {
    status: 404,
    code: 'LEDGER_ENTRY_NOT_FOUND_ERROR',
    probe: (h, o) => ({
      method: 'patch',
      path: e(h, `/ledger/scheduled-entries/${o.scheduledEntryId}`),
      body: { entryDate: '2026-08-01', memo: 'x', newLedgerEntryLines: [line('debit', h.cash), line('credit', h.sales)] },
    }),
  },
  'PATCH scheduled-entries/:entryId { ledgerAccountId }': {
    status: 404,
    code: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR',
    probe: (h, o) => ({
      method: 'patch',
      path: e(h, `/ledger/scheduled-entries/${h.scheduledEntryId}`),
      body: { entryDate: '2026-08-01', memo: 'x', newLedgerEntryLines: [line('debit', o.cash), line('credit', h.sales)] },
    }),
  },
  'PATCH scheduled-entries/:entryId { partnerId, dimensionValueIds }': {
    status: 404,
    code: 'PARTNER_NOT_FOUND_ERROR',
    probe: (h, o) => ({
      method: 'patch',
      path: e(h, `/ledger/scheduled-entries/${h.scheduledEntryId}`),
      body: { entryDate: '2026-08-01', memo: 'x', newLedgerEntryLines: [line('debit', h.cash, { partnerId: o.partnerId }), line('credit', h.sales, { dimensionValueIds: [o.valueId] })] },
    }),
  },
  'DELETE scheduled-entries/:entryId': { status: 404, code: 'LEDGER_ENTRY_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'delete', path: e(h, `/ledger/scheduled-entries/${o.scheduledEntryId}`) }) },
  'GET entries?accountId&partnerId (filters)': {
    status: 200,
    probe: (h, o) => ({ method: 'get', path: e(h, '/ledger/entries'), query: { accountId: o.cash, status: 'all' } }),
  },
  'GET entries?partnerId (filter)': { status: 200, probe: (h, o) => ({ method: 'get', path: e(h, '/ledger/entries'), query: { partnerId: o.partnerId } }) },
  'GET entries?bookId': { status: 404, code: 'BOOK_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'get', path: e(h, '/ledger/entries'), query: { bookId: o.bookId } }) },
  'GET lines?accountId (filter)': { status: 200, probe: (h, o) => ({ method: 'get', path: e(h, '/ledger/lines'), query: { accountId: o.receivable, status: 'all' } }) },
  'GET lines?partnerId (filter)': { status: 200, probe: (h, o) => ({ method: 'get', path: e(h, '/ledger/lines'), query: { partnerId: o.partnerId } }) },
  'GET lines?bookId': { status: 404, code: 'BOOK_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'get', path: e(h, '/ledger/lines'), query: { bookId: o.bookId } }) },
  'PATCH lines/:lineId/partner': { status: 404, code: 'LEDGER_LINE_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'patch', path: e(h, `/ledger/lines/${o.salesLineId}/partner`), body: { partnerId: null } }) },
  'PATCH lines/:lineId/partner { partnerId }': {
    status: 404,
    code: 'PARTNER_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'patch', path: e(h, `/ledger/lines/${h.salesLineId}/partner`), body: { partnerId: o.partnerId } }),
  },
  'PATCH lines/:lineId/account': { status: 404, code: 'LEDGER_LINE_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'patch', path: e(h, `/ledger/lines/${o.cashLineId}/account`), body: { ledgerAccountId: h.cash } }) },
  'PATCH lines/:lineId/account { ledgerAccountId }': {
    status: 404,
    code: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'patch', path: e(h, `/ledger/lines/${h.cashLineId}/account`), body: { ledgerAccountId: o.cash } }),
  },
  'PUT lines/:lineId/dimension-values': { status: 404, code: 'LEDGER_LINE_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'put', path: e(h, `/ledger/lines/${o.salesLineId}/dimension-values`), body: { dimensionValueIds: [] } }) },
  'PUT lines/:lineId/dimension-values { dimensionValueIds }': {
    status: 404,
    code: 'DIMENSION_VALUE_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'put', path: e(h, `/ledger/lines/${h.salesLineId}/dimension-values`), body: { dimensionValueIds: [o.valueId] } }),
  },
  // Bank connections and feeds
  'GET bank-connections/:bankConnectionId/accounts': { status: 404, code: 'BANK_CONNECTION_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'get', path: e(h, `/bank-connections/${o.bankConnectionId}/accounts`) }) },
  'POST bank-connections/:bankConnectionId/reconnect': {
    status: 404,
    code: 'BANK_CONNECTION_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'post', path: e(h, `/bank-connections/${o.bankConnectionId}/reconnect`), body: { exchangeToken: 'sandbox_wt_00000000000000000000000000000000' } }),
  },
  'POST bank-connections/:bankConnectionId/accounts': {
    status: 404,
    code: 'BANK_CONNECTION_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'post', path: e(h, `/bank-connections/${o.bankConnectionId}/accounts`), body: { providerAccountIds: ['acc_1'] } }),
  },
  'POST bank-connections/:bankConnectionId/feeds': {
    status: 404,
    code: 'BANK_CONNECTION_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'post', path: e(h, `/bank-connections/${o.bankConnectionId}/feeds`), body: { bankAccountId: h.bankAccountId, providerAccountId: h.providerAccountId } }),
  },
  'POST bank-connections/:bankConnectionId/feeds { bankAccountId }': {
    status: 404,
    code: 'BANK_ACCOUNT_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'post', path: e(h, `/bank-connections/${h.bankConnectionId}/feeds`), body: { bankAccountId: o.bankAccountId, providerAccountId: h.providerAccountId } }),
  },
  'POST bank-connections/:bankConnectionId/bank-accounts': {
    status: 404,
    code: 'BANK_CONNECTION_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, `/bank-connections/${o.bankConnectionId}/bank-accounts`), body: { id: f[0], name: 'Fed', ledgerAccountId: h.cash, providerAccountId: h.providerAccountId } }),
  },
  'POST bank-connections/:bankConnectionId/bank-accounts { ledgerAccountId }': {
    status: 404,
    code: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, `/bank-connections/${h.bankConnectionId}/bank-accounts`), body: { id: f[0], name: 'Fed', ledgerAccountId: o.cash, providerAccountId: h.providerAccountId } }),
  },
  'DELETE bank-connections/:bankConnectionId': { status: 404, code: 'BANK_CONNECTION_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'delete', path: e(h, `/bank-connections/${o.bankConnectionId}`) }) },
  'DELETE bank-accounts/:bankAccountId/feed': { status: 404, code: 'BANK_ACCOUNT_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'delete', path: e(h, `/bank-accounts/${o.bankAccountId}/feed`) }) },
  'POST bank-accounts/:bankAccountId/feed/sync': { status: 404, code: 'BANK_ACCOUNT_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'post', path: e(h, `/bank-accounts/${o.bankAccountId}/feed/sync`) }) },
  // Banking
  'PATCH bank-accounts/:bankAccountId': { status: 404, code: 'BANK_ACCOUNT_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'patch', path: e(h, `/bank-accounts/${o.bankAccountId}`), body: { name: 'Renamed' } }) },
  'DELETE bank-accounts/:bankAccountId': { status: 404, code: 'BANK_ACCOUNT_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'delete', path: e(h, `/bank-accounts/${o.bankAccountId}`) }) },
  'POST bank-accounts { ledgerAccountId }': {
    status: 404,
    code: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, '/bank-accounts'), body: { id: f[0], name: 'Banco', kind: 'bank', ledgerAccountId: o.cash, currency: 'CLP' } }),
  },
  'GET bank-accounts/:bankAccountId/movements': { status: 404, code: 'BANK_ACCOUNT_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'get', path: e(h, `/bank-accounts/${o.bankAccountId}/movements`) }) },
  'POST bank-accounts/:bankAccountId/movements': {
    status: 404,
    code: 'BANK_ACCOUNT_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, `/bank-accounts/${o.bankAccountId}/movements`), body: { id: f[0], movementDate: '2026-06-01', description: 'x', amount: 1, side: 'debit' } }),
  },
  'GET bank-movements/:movementId': { status: 404, code: 'BANK_MOVEMENT_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'get', path: e(h, `/bank-movements/${o.movementId}`) }) },
  'DELETE bank-movements/:movementId': { status: 404, code: 'BANK_MOVEMENT_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'delete', path: e(h, `/bank-movements/${o.movementId}`) }) },
  'POST bank-movements/:movementId/book': {
    status: 404,
    code: 'BANK_MOVEMENT_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, `/bank-movements/${o.movementId}/book`), body: { entryId: f[0], counterAccountId: h.sales } }),
  },
  'POST bank-movements/:movementId/book { counterAccountId }': {
    status: 404,
    code: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, `/bank-movements/${h.movementId}/book`), body: { entryId: f[0], counterAccountId: o.sales } }),
  },
  'POST bank-movements/:movementId/book { partnerId }': {
    status: 404,
    code: 'PARTNER_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, `/bank-movements/${h.movementId}/book`), body: { entryId: f[0], counterAccountId: h.sales, partnerId: o.partnerId } }),
  },
  'POST bank-movements/:movementId/match { lineIds }': {
    status: 404,
    code: 'RECONCILIATION_MATCH_LINE_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, `/bank-movements/${h.movementId}/match`), body: { entryId: f[0], lineIds: [o.receivableDebitLineId] } }),
  },
  'GET bank-movements/:movementId/match-candidates': {
    status: 404,
    code: 'BANK_MOVEMENT_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'get', path: e(h, `/bank-movements/${o.movementId}/match-candidates`), query: { bookId: h.bookId! } }),
  },
  'GET bank-movements/:movementId/match-candidates?bookId': {
    status: 404,
    code: 'BOOK_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'get', path: e(h, `/bank-movements/${h.movementId}/match-candidates`), query: { bookId: o.bookId } }),
  },
  // Reconciliation
  'GET allocations?lineId': { status: 404, code: 'LEDGER_LINE_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'get', path: e(h, '/ledger/allocations'), query: { lineId: o.receivableDebitLineId } }) },
  'POST allocations { debitLineId }': {
    status: 404,
    code: 'RECONCILIATION_ALLOCATION_DEBIT_LINE_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, '/ledger/allocations'), body: { id: f[0], debitLineId: o.receivableDebitLineId, creditLineId: h.receivableCreditLineId, amount: 1 } }),
  },
  'POST allocations { creditLineId }': {
    status: 404,
    code: 'RECONCILIATION_ALLOCATION_CREDIT_LINE_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, '/ledger/allocations'), body: { id: f[0], debitLineId: h.receivableDebitLineId, creditLineId: o.receivableCreditLineId, amount: 1 } }),
  },
  'DELETE allocations/:allocationId': { status: 404, code: 'RECONCILIATION_ALLOCATION_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'delete', path: e(h, `/ledger/allocations/${o.allocationId}`) }) },
  'POST allocations/match { lineIds }': {
    status: 404,
    code: 'RECONCILIATION_MATCH_LINE_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'post', path: e(h, '/ledger/allocations/match'), body: { lineIds: [h.receivableDebitLineId, o.receivableCreditLineId] } }),
  },
  'GET open-item-lines?accountId': {
    status: 404,
    code: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'get', path: e(h, '/ledger/open-item-lines'), query: { accountId: o.receivable, bookId: h.bookId! } }),
  },
  'GET open-item-lines?partnerId (filter)': {
    status: 200,
    probe: (h, o) => ({ method: 'get', path: e(h, '/ledger/open-item-lines'), query: { accountId: h.receivable, partnerId: o.partnerId, bookId: h.bookId! } }),
  },
  'GET open-item-lines?bookId': {
    status: 404,
    code: 'BOOK_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'get', path: e(h, '/ledger/open-item-lines'), query: { accountId: h.receivable, bookId: o.bookId } }),
  },
  // Invoices and DTEs (issue 18)
  'GET invoices/:invoiceId': { status: 404, code: 'INVOICE_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'get', path: e(h, `/invoices/${o.documentInvoiceId}`) }) },
  'PATCH invoices/:invoiceId': { status: 404, code: 'INVOICE_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'patch', path: e(h, `/invoices/${o.documentInvoiceId}`), body: { description: 'x' } }) },
  'DELETE invoices/:invoiceId': { status: 404, code: 'INVOICE_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'delete', path: e(h, `/invoices/${o.documentInvoiceId}`) }) },
  'PUT invoices/:invoiceId/dte': { status: 404, code: 'INVOICE_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'put', path: e(h, `/invoices/${o.documentInvoiceId}/dte`), body: { dteId: h.dteId } }) },
  'DELETE invoices/:invoiceId/dte': { status: 404, code: 'INVOICE_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'delete', path: e(h, `/invoices/${o.documentInvoiceId}/dte`) }) },
  'POST invoices/:invoiceId/book': {
    status: 404,
    code: 'INVOICE_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({ method: 'post', path: e(h, `/invoices/${o.documentInvoiceId}/book`), body: { entryId: f[0], counterAccountId: h.sales, taxAccountId: h.sales } }),
  },
  'PUT invoices/:invoiceId/dte { dteId }': { status: 404, code: 'DTE_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'put', path: e(h, `/invoices/${h.documentInvoiceId}/dte`), body: { dteId: o.dteId } }) },
  'POST invoices { partnerId }': {
    status: 404,
    code: 'PARTNER_NOT_FOUND_ERROR',
    probe: (h, o, f) => ({
      method: 'post',
      path: e(h, '/invoices'),
      body: { id: f[0], direction: 'ar', documentKind: 'invoice', documentNumber: '77', issueDate: '2026-06-10', partnerId: o.partnerId, currency: 'CLP', netAmount: 1, totalAmount: 1 },
    }),
  },
  'PATCH invoices/:invoiceId { partnerId }': { status: 404, code: 'PARTNER_NOT_FOUND_ERROR', probe: (h, o) => ({ method: 'patch', path: e(h, `/invoices/${h.documentInvoiceId}`), body: { partnerId: o.partnerId } }) },
  'GET invoices?partnerId (filter)': { status: 200, probe: (h, o) => ({ method: 'get', path: e(h, '/invoices'), query: { partnerId: o.partnerId } }) },
  'GET invoices/pages?partnerId (filter)': { status: 200, probe: (h, o) => ({ method: 'get', path: e(h, '/invoices/pages'), query: { partnerId: o.partnerId } }) },
  ...Object.fromEntries(
    (
      [
        ['counterAccountId', 'LEDGER_ACCOUNT_NOT_FOUND_ERROR', (o: IdSource) => ({ counterAccountId: o.sales })],
        ['openItemAccountId', 'LEDGER_ACCOUNT_NOT_FOUND_ERROR', (o: IdSource) => ({ openItemAccountId: o.receivable })],
        ['taxAccountId', 'LEDGER_ACCOUNT_NOT_FOUND_ERROR', (o: IdSource) => ({ taxAccountId: o.sales })],
        ['partnerId', 'PARTNER_NOT_FOUND_ERROR', (o: IdSource) => ({ partnerId: o.partnerId })],
        ['dimensionValueIds', 'DIMENSION_VALUE_NOT_FOUND_ERROR', (o: IdSource) => ({ dimensionValueIds: [o.valueId] })],
        ['bookId', 'BOOK_NOT_FOUND_ERROR', (o: IdSource) => ({ bookId: o.bookId })],
      ] as const
    ).map(([field, code, ids]) => [
      `POST invoices/:invoiceId/book { ${field} }`,
      {
        status: 404,
        code,
        probe: (h: LedgerFixture, o: IdSource, f: string[]) => ({
          method: 'post' as const,
          path: e(h, `/invoices/${h.documentInvoiceId}/book`),
          body: { entryId: f[0], counterAccountId: h.sales, taxAccountId: h.sales, ...ids(o) },
        }),
      },
    ]),
  ),
  // Reports
  ...Object.fromEntries(
    [
      ['/reports/balance-sheet', { exerciseStart: '2026-01-01', cutoffDate: '2026-06-30' }],
      ['/reports/income-statement', { from: '2026-01-01', to: '2026-06-30' }],
      ['/reports/journal', {}],
      ['/reports/home', {}],
      ['/reports/revenue-realization', { from: '2026-01-01', to: '2026-06-30' }],
      ['/ledger/reports/eight-column-balance', { exerciseStart: '2026-01-01', cutoffDate: '2026-06-30' }],
    ].map(([path, query]) => [
      `GET ${path}?bookId`,
      { status: 404, code: 'BOOK_NOT_FOUND_ERROR', probe: (h: LedgerFixture, o: IdSource) => ({ method: 'get' as const, path: e(h, path as string), query: { ...(query as object), bookId: o.bookId } }) },
    ]),
  ),
  'GET income-statement-by-dimension?dimensionId': {
    status: 404,
    code: 'DIMENSION_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'get', path: e(h, '/reports/income-statement-by-dimension'), query: { dimensionId: o.dimensionId, from: '2026-01-01', to: '2026-06-30', bookId: h.bookId! } }),
  },
  'GET general-ledger?accountId': {
    status: 404,
    code: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'get', path: e(h, '/ledger/general-ledger'), query: { accountId: o.cash, bookId: h.bookId! } }),
  },
  'GET general-ledger?cursor (a line id)': {
    status: 400,
    code: 'VALIDATION_ERROR',
    probe: (h, o) => ({ method: 'get', path: e(h, '/ledger/general-ledger'), query: { accountId: h.cash, cursor: o.cashLineId, bookId: h.bookId! } }),
  },
  'GET partner-ledger?accountId': {
    status: 404,
    code: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR',
    probe: (h, o) => ({ method: 'get', path: e(h, '/ledger/partner-ledger'), query: { accountId: o.receivable, from: '2026-01-01', to: '2026-06-30', bookId: h.bookId! } }),
  },
  'GET partner-ledger?partnerIds': {
    status: 404,
    code: 'PARTNER_NOT_FOUND_ERROR',
    probe: (h, o) => ({
      method: 'get',
      path: e(h, '/ledger/partner-ledger'),
      query: { accountId: h.receivable, from: '2026-01-01', to: '2026-06-30', partnerIds: o.partnerId, bookId: h.bookId! },
    }),
  },
  // Audit trail
  'GET audit-trail?resourceId (filter)': { status: 200, probe: (h, o) => ({ method: 'get', path: e(h, '/audit-trail'), query: { resourceId: o.saleEntryId } }) },
};

/** The two bodies are the same but for the request id and the id each was asked about. */
function sameAnswer(body: unknown, id: string, otherBody: unknown, otherId: string): boolean {
  const text = (b: unknown, i: string) => JSON.stringify({ ...(b as object), requestId: undefined }).split(i).join('<id>');
  return text(body, id) === text(otherBody, otherId);
}

/** Every row of every Entity table that belongs to `entityId`, as one digest per table. */
async function entityFingerprint(t: TestApp, entityId: string): Promise<Record<string, string>> {
  const tables = await t.sql<{ table_name: string }>(
    `SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'entity_id' AND table_name <> 'audit_trail' ORDER BY table_name`,
  );
  const state: Record<string, string> = {};
  for (const { table_name } of tables) {
    const [row] = await t.sql<{ n: number; digest: string }>(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS digest FROM ${table_name} x WHERE x.entity_id = $1`,
      [entityId],
    );
    state[table_name] = `${row.n} rows, ${row.digest}`;
  }
  const [entity] = await t.sql('SELECT * FROM entities WHERE id = $1', [entityId]);
  state.entities = JSON.stringify(entity);
  return state;
}

describe('tenant isolation: another Entity’s ids are missing ids', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let a: LedgerFixture;
  let b: LedgerFixture;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock }));
    a = await buildLedgerFixture(staff, world.entityId, { withBook: true });
    b = await buildLedgerFixture(staff, world.otherEntityId, { withBook: true });
  });
  afterAll(() => t.close());

  /** `staff`: global staff, who pass the To-do routes' guard (D17). */
  type Caller = { label: string; send: (probe: Probe) => request.Test; writes: boolean; staff?: boolean };

  function callers(): Caller[] {
    const http = () => request(t.app.getHttpServer());
    const build = (agent: () => Agent | ReturnType<typeof http>, key?: string) => (p: Probe) => {
      let req = agent()[p.method](p.path);
      if (p.query) req = req.query(p.query);
      if (key) req = req.set('x-api-key', key).set('x-audit-actor', 'isolation-test');
      return p.body ? req.send(p.body) : req;
    };
    return [
      { label: 'global staff', send: build(() => staff), writes: true, staff: true },
      { label: "a client member's key", send: build(http, world.keys.member), writes: true },
      { label: 'a viewer', send: build(() => world.viewerMember.agent), writes: false },
      { label: 'a read-only key', send: build(http, world.keys.memberReadOnly), writes: false },
    ];
  }

  /** The body with every id of `ids` replaced by its name, and without the request id. */
  function normalized(body: unknown, ids: IdSource): string {
    let text = JSON.stringify({ ...(body as object), requestId: undefined });
    for (const [name, id] of Object.entries(ids)) text = text.split(id).join(`<${name}>`);
    return text;
  }

  /** Asks `home` every case with `other`'s ids and with missing ones, as `caller`; returns the differences. */
  async function askAll(caller: Caller, home: LedgerFixture, other: LedgerFixture): Promise<unknown[]> {
    const problems: unknown[] = [];
    const foreign = idsOf(other);
    const otherIds = new Set(Object.values(foreign));
    for (const [name, kase] of Object.entries(CASES)) {
      const fresh = [uuid(), uuid(), uuid()];
      const missing = missingIds();
      const probeForeign = kase.probe(home, foreign, fresh);
      const write = probeForeign.method !== 'get';
      const before = await auditRowCount(t);
      const answer = await caller.send(probeForeign);
      const control = await caller.send(kase.probe(home, missing, fresh));
      // A caller who may not write is refused before any id is looked at (the access matrix says how).
      const refusedFirst = (write && !caller.writes) || (kase.todo && !caller.staff);
      const expected = refusedFirst ? { status: 403 } : { status: kase.status, code: kase.code };
      const got = refusedFirst ? { status: answer.status } : { status: answer.status, code: answer.body?.code };
      if (JSON.stringify(got) !== JSON.stringify(expected)) problems.push({ case: name, expected, got, body: answer.body });
      if (normalized(answer.body, foreign) !== normalized(control.body, missing) || answer.status !== control.status) {
        problems.push({ case: name, problem: 'another Entity’s id is answered otherwise than a missing one', foreign: answer.body, missing: control.body });
      }
      // The request named the other Entity's id; the answer may echo only that one.
      const sent = JSON.stringify(probeForeign);
      const leaked = [...otherIds].filter((id) => !sent.includes(id) && JSON.stringify(answer.body).includes(id));
      if (leaked.length > 0) problems.push({ case: name, problem: 'the answer carries ids of the other Entity', leaked });
      if (answer.status >= 400 && (await auditRowCount(t)) !== before) problems.push({ case: name, problem: 'a refusal wrote an audit row' });
    }
    return problems;
  }

  it.each([0, 1, 2, 3])('treats the other Entity’s ids as missing ones, for caller %#', async (index) => {
    const caller = callers()[index];
    const untouched = await entityFingerprint(t, b.entityId);
    expect({ caller: caller.label, problems: await askAll(caller, a, b) }).toEqual({ caller: caller.label, problems: [] });
    expect(await entityFingerprint(t, b.entityId)).toEqual(untouched);
  });

  it("a staff key confined to one Entity treats the other Entity's ids as missing ones, in the other direction too", async () => {
    const caller: Caller = {
      label: 'a staff key confined to the other Entity',
      staff: true,
      send: (p) => {
        let req = request(t.app.getHttpServer())[p.method](p.path).set('x-api-key', world.keys.scopedToOtherEntity).set('x-audit-actor', 'isolation-test');
        if (p.query) req = req.query(p.query);
        return p.body ? req.send(p.body) : req;
      },
      writes: true,
    };
    const untouched = await entityFingerprint(t, a.entityId);
    expect({ problems: await askAll(caller, b, a) }).toEqual({ problems: [] });
    expect(await entityFingerprint(t, a.entityId)).toEqual(untouched);
  });

  it('D4: creating with an id another Entity uses is no conflict, reveals nothing and links nothing to it', async () => {
    const before = await entityFingerprint(t, b.entityId);
    const f = (path: string) => e(a, path);
    const created = async (path: string, body: Record<string, unknown>) => {
      const res = await staff.post(f(path)).send(body);
      expect({ path, status: res.status, body: res.status === 201 ? 'ok' : res.body }).toEqual({ path, status: 201, body: 'ok' });
      return res.body;
    };
    await created('/books', { id: b.bookId, name: 'Second Book' });
    await created('/dimensions', { id: b.dimensionId, name: 'Second Dimension' });
    await created(`/dimensions/${a.dimensionId}/values`, { id: b.valueId, code: 'CC-9', name: 'Nine' });
    await created('/ledger/account-groups', { id: b.groupId, codePrefix: '12', name: 'Second group', type: 'asset' });
    await created('/ledger/accounts', { id: b.cash, code: '1102', name: 'Second cash', type: 'asset', tracking: 'balance' });
    await created('/partners', { id: b.partnerId, name: 'Second partner', type: 'company', country: 'AR', taxId: uuid() });
    const entry = await created('/ledger/entries', {
      id: b.saleEntryId,
      entryDate: '2026-06-10',
      memo: 'same ids',
      newLedgerEntryLines: [
        { id: b.cashLineId, ...line('debit', b.cash) },
        { id: b.salesLineId, ...line('credit', a.sales) },
      ],
    });
    expect([entry.entityId, entry.lines.map((l: { id: string }) => l.id)]).toEqual([a.entityId, [b.cashLineId, b.salesLineId]]);
    await created('/ledger/scheduled-entries', { id: b.scheduledEntryId, entryDate: '2026-08-01', memo: 'same id', newLedgerEntryLines: [line('debit', a.cash), line('credit', a.sales)] });
    await created(`/ledger/entries/${a.saleEntryId}/reverse`, { id: b.reversalEntryId, reversalDate: '2026-06-12' });
    await created('/ledger/allocations', { id: b.allocationId, debitLineId: a.receivableDebitLineId, creditLineId: a.receivableCreditLineId, amount: 1 });
    // Each of them is the home Entity's record, and the other Entity's are as they were.
    expect((await staff.get(f(`/ledger/entries/${b.saleEntryId}`))).body.memo).toBe('same ids');
    expect((await staff.get(e(b, `/ledger/entries/${b.saleEntryId}`))).body.memo).toBe('Fixture');
    expect(await entityFingerprint(t, b.entityId)).toEqual(before);
  });

  it('lists of Entities and Organizations show each caller only what it reaches', async () => {
    const ids = (res: request.Response) => res.body.map((x: { id: string }) => x.id);
    const http = () => request(t.app.getHttpServer());
    // Entities: the members of Organization A see its Entities, never B; the outsider only B's.
    for (const agent of [world.clientMember.agent, world.viewerMember.agent, world.staffMember.agent]) {
      const listed = ids(await agent.get('/api/entities').expect(200));
      expect(listed).toContain(a.entityId);
      expect(listed).not.toContain(b.entityId);
    }
    expect(ids(await world.outsider.agent.get('/api/entities').expect(200))).toEqual([b.entityId]);
    expect(ids(await http().get('/api/entities').set('x-api-key', world.keys.scopedToOtherEntity).expect(200))).toEqual([b.entityId]);
    expect(ids(await http().get('/api/entities').set('x-api-key', world.keys.memberReadOnly).expect(200))).not.toContain(b.entityId);
    // Organizations: only where the caller holds the staff role; a confined key sees none.
    const staffMemberOrgs = (await world.staffMember.agent.get('/api/organizations').expect(200)).body;
    expect(staffMemberOrgs.map((o: { id: string }) => o.id)).toEqual([world.organizationId]);
    expect(JSON.stringify(staffMemberOrgs)).not.toContain(b.entityId);
    for (const agent of [world.clientMember.agent, world.viewerMember.agent, world.outsider.agent]) expect((await agent.get('/api/organizations').expect(200)).body).toEqual([]);
    expect((await http().get('/api/organizations').set('x-api-key', world.keys.scopedToOtherEntity).expect(200)).body).toEqual([]);
  });

  it('a key cannot be minted for an Entity its owner does not reach: the same 404 as a missing one', async () => {
    const foreign = await world.clientMember.agent.post('/api/auth/api-keys').send({ name: 'k', entityId: b.entityId });
    const missingId = uuid();
    const missing = await world.clientMember.agent.post('/api/auth/api-keys').send({ name: 'k', entityId: missingId });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'ENTITY_NOT_FOUND_ERROR']);
    expect(sameAnswer(foreign.body, b.entityId, missing.body, missingId)).toBe(true);
  });

  describe('a staff key confined to one Entity names no other Entity or Organization', () => {
    const scoped = (method: 'patch', path: string, body: Record<string, unknown>) =>
      request(t.app.getHttpServer())[method](path).set('x-api-key', world.keys.scopedToOtherEntity).set('x-audit-actor', 'isolation-test').send(body);

    it('PATCH parent: another Entity is ENTITY_PARENT_NOT_FOUND_ERROR, as a missing one, and nothing changes', async () => {
      const before = await entityFingerprint(t, b.entityId);
      const audit = await auditRowCount(t);
      const missingId = uuid();
      const foreign = await scoped('patch', `/api/entities/${b.entityId}/parent`, { parentEntityId: a.entityId });
      const missing = await scoped('patch', `/api/entities/${b.entityId}/parent`, { parentEntityId: missingId });
      expect([foreign.status, foreign.body.code]).toEqual([404, 'ENTITY_PARENT_NOT_FOUND_ERROR']);
      expect(sameAnswer(foreign.body, a.entityId, missing.body, missingId)).toBe(true);
      expect([await entityFingerprint(t, b.entityId), await auditRowCount(t)]).toEqual([before, audit]);
      // Its own Entity is still its to change: clearing the parent passes.
      expect((await scoped('patch', `/api/entities/${b.entityId}/parent`, { parentEntityId: null })).status).toBe(200);
    });

    it('PATCH organization: another Organization is ORGANIZATION_NOT_FOUND_ERROR, as a missing one, and nothing changes', async () => {
      const before = await entityFingerprint(t, b.entityId);
      const audit = await auditRowCount(t);
      const missingId = uuid();
      const foreign = await scoped('patch', `/api/entities/${b.entityId}/organization`, { organizationId: world.organizationId });
      const missing = await scoped('patch', `/api/entities/${b.entityId}/organization`, { organizationId: missingId });
      expect([foreign.status, foreign.body.code]).toEqual([404, 'ORGANIZATION_NOT_FOUND_ERROR']);
      expect(sameAnswer(foreign.body, world.organizationId, missing.body, missingId)).toBe(true);
      expect([await entityFingerprint(t, b.entityId), await auditRowCount(t)]).toEqual([before, audit]);
      // Its own Organization is a move to where it is.
      expect((await scoped('patch', `/api/entities/${b.entityId}/organization`, { organizationId: world.otherOrganizationId })).status).toBe(200);
    });
  });
});
