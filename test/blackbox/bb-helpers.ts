import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { FixedClock } from '../../src/platform/clock/clock';
import type { Agent } from '../harness/world';

/** The harness's FixedClock standing at noon (Santiago) of TODAY, movable to noon of another day (D5). */
export class MovableClock extends FixedClock {
  constructor() {
    super(new Date('2026-06-15T16:00:00.000Z'));
  }

  /** Stands on noon (Santiago) of the given ISO date. */
  setToday(date: string): void {
    this.set(new Date(`${date}T16:00:00.000Z`));
  }
}

export const TODAY = '2026-06-15';

/** The D1 envelope with the given status and code. */
export function expectError(res: Response, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(Object.keys(res.body).sort()).toEqual(['code', 'message', 'params', 'requestId', 'statusCode']);
  expect(res.body.statusCode).toBe(status);
  expect(res.body.requestId).toBe(res.headers['x-request-id']);
  expect(typeof res.body.params).toBe('object');
  expect(res.body.params).not.toBeNull();
}

export function expectStatus(res: Response, status: number): void {
  expect({ status: res.status, body: res.status === status ? 'ok' : res.body }).toEqual({ status, body: 'ok' });
}

export interface Chart {
  cash: string;
  bank: string;
  receivable: string;
  payable: string;
  capital: string;
  sales: string;
  cogs: string;
  opex: string;
  otherIncome: string;
  otherExpense: string;
  assetsGroup: string;
}

export async function createAccount(
  agent: Agent,
  entityId: string,
  body: { code: string; type: string; tracking?: string; subtype?: string | null; groupId?: string | null; name?: string },
): Promise<string> {
  const id = randomUUID();
  const res = await agent
    .post(`/api/entities/${entityId}/ledger/accounts`)
    .send({ id, name: body.name ?? `Account ${body.code}`, code: body.code, type: body.type, tracking: body.tracking ?? 'balance', subtype: body.subtype ?? null, ...(body.groupId ? { groupId: body.groupId } : {}) });
  if (res.status !== 201) throw new Error(`account ${body.code}: ${res.status} ${JSON.stringify(res.body)}`);
  return id;
}

/** A small chart: an asset group 11 holding cash, bank and receivables, and one account of every other type. */
export async function buildChart(agent: Agent, entityId: string): Promise<Chart> {
  const assetsGroup = randomUUID();
  const g = await agent
    .post(`/api/entities/${entityId}/ledger/account-groups`)
    .send({ id: assetsGroup, parentGroupId: null, codePrefix: '11', name: 'Current assets', type: 'asset' });
  if (g.status !== 201) throw new Error(`group: ${g.status} ${JSON.stringify(g.body)}`);
  return {
    assetsGroup,
    cash: await createAccount(agent, entityId, { code: '1101', type: 'asset', groupId: assetsGroup, name: 'Cash' }),
    bank: await createAccount(agent, entityId, { code: '1102', type: 'asset', groupId: assetsGroup, name: 'Bank' }),
    receivable: await createAccount(agent, entityId, { code: '1105', type: 'asset', tracking: 'open_item', subtype: 'receivable', groupId: assetsGroup, name: 'Receivables' }),
    payable: await createAccount(agent, entityId, { code: '2101', type: 'liability', tracking: 'open_item', subtype: 'payable', name: 'Payables' }),
    capital: await createAccount(agent, entityId, { code: '3101', type: 'equity', name: 'Capital' }),
    sales: await createAccount(agent, entityId, { code: '4101', type: 'income', name: 'Sales' }),
    cogs: await createAccount(agent, entityId, { code: '5101', type: 'cost_of_goods_sold', name: 'Cost of sales' }),
    opex: await createAccount(agent, entityId, { code: '6101', type: 'operating_expense', name: 'Rent' }),
    otherIncome: await createAccount(agent, entityId, { code: '7101', type: 'other_income', name: 'Interest earned' }),
    otherExpense: await createAccount(agent, entityId, { code: '8101', type: 'other_expense', name: 'Bank fees' }),
  };
}

export type Line = Record<string, unknown> & { side: 'debit' | 'credit'; ledgerAccountId: string; amount: number };

export const dr = (ledgerAccountId: string, amount: number, extra: Record<string, unknown> = {}): Line => ({ side: 'debit', ledgerAccountId, amount, ...extra });
export const cr = (ledgerAccountId: string, amount: number, extra: Record<string, unknown> = {}): Line => ({ side: 'credit', ledgerAccountId, amount, ...extra });

/** The parts of a posted entry (D34) the tests read. */
export interface PostedEntry {
  id: string;
  bookId: string | null;
  memo: string;
  notes: string | null;
  lines: Array<{ id: string; openAmount: number | null } & Record<string, unknown>>;
}

/** Posts an entry and answers its body (must be 201). */
export async function post(agent: Agent, entityId: string, entryDate: string, lines: Line[], extra: Record<string, unknown> = {}): Promise<PostedEntry> {
  const res = await agent
    .post(`/api/entities/${entityId}/ledger/entries`)
    .send({ id: randomUUID(), entryDate, memo: `Entry ${entryDate}`, newLedgerEntryLines: lines, ...extra });
  if (res.status !== 201) throw new Error(`entry ${entryDate}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function createPartner(agent: Agent, entityId: string, name: string, taxId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const id = randomUUID();
  const res = await agent.post(`/api/entities/${entityId}/partners`).send({ id, name, type: 'company', country: 'CL', taxId, ...extra });
  if (res.status !== 201) throw new Error(`partner ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return id;
}

/** Valid Chilean RUTs (modulo 11). */
export function rut(body: number): string {
  let sum = 0;
  let factor = 2;
  for (const digit of String(body).split('').reverse()) {
    sum += Number(digit) * factor;
    factor = factor === 7 ? 2 : factor + 1;
  }
  const rest = 11 - (sum % 11);
  const check = rest === 11 ? '0' : rest === 10 ? 'K' : String(rest);
  return `${body}-${check}`;
}

let rutCounter = 10_000_000 + Math.floor(Math.random() * 50_000_000);
export function freshRut(): string {
  return rut(rutCounter++);
}

export function uuid(): string {
  return randomUUID();
}
