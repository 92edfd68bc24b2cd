import { randomUUID } from 'node:crypto';
import { FixedClock } from '../src/platform/clock/clock';
import { checkAccessMatrix } from './harness/access-matrix';
import type { TestApp } from './harness/test-app';
import { Agent, createWorldApp, freshEntity, World } from './harness/world';

const NOW = new Date('2026-03-20T15:00:00Z');
const LANDLORD_RUT = '76086428-5';

describe('Recommendations (D73, D73a)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let entityId: string;
  const ids: Record<string, string> = {};

  const base = () => `/api/entities/${entityId}`;
  const post = async (path: string, body: Record<string, unknown>) => {
    const res = await staff.post(`${base()}${path}`).send(body);
    expect({ path, status: res.status, body: res.status === 201 ? 'ok' : res.body }).toEqual({ path, status: 201, body: 'ok' });
    return res.body;
  };
  const account = async (key: string, code: string, type: string, extra: Record<string, unknown> = {}) => {
    ids[key] = randomUUID();
    await post('/ledger/accounts', { id: ids[key], name: `${key} ${code}`, code, type, tracking: 'balance', ...extra });
  };
  /** A movement as a feed lands it (counterparty fields come from imports and feeds only, D76a). */
  const movement = async (description: string, side: 'debit' | 'credit', counterpartyTaxId: string | null, movementDate = '2026-03-01') => {
    const id = randomUUID();
    await post(`/bank-accounts/${ids.banco}/movements`, { id, movementDate, description, amount: 1000, side });
    await t.sql('UPDATE bank_movements SET counterparty_tax_id = $3 WHERE entity_id = $1 AND id = $2', [entityId, id, counterpartyTaxId]);
    return id;
  };
  /** Books a movement through its route (D66): bank against the counter line. */
  const bookMovement = async (movementId: string, counter: { account: string; partnerId?: string; dimensionValueIds?: string[] }) => {
    const res = await staff.post(`${base()}/bank-movements/${movementId}/book`).send({ entryId: randomUUID(), counterAccountId: ids[counter.account], partnerId: counter.partnerId, dimensionValueIds: counter.dimensionValueIds });
    expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
  };
  const ask = (query: Record<string, string>) => staff.get(`${base()}/recommendations`).query(query);

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock: new FixedClock(NOW) }));
    entityId = await freshEntity(world);
    await account('bank', '1101', 'asset');
    await account('payable', '2201', 'liability', { tracking: 'open_item', subtype: 'payable' });
    await account('rent', '5101', 'operating_expense');
    await account('commonExpenses', '5102', 'operating_expense');
    await account('software', '5301', 'operating_expense');
    ids.banco = randomUUID();
    await post('/bank-accounts', { id: ids.banco, name: 'Banco', kind: 'bank', ledgerAccountId: ids.bank, currency: 'CLP' });
    ids.landlord = randomUUID();
    await post('/partners', { id: ids.landlord, name: 'Inmobiliaria Austral SpA', type: 'company', country: 'CL', taxId: LANDLORD_RUT });
    ids.dimension = randomUUID();
    await post('/dimensions', { id: ids.dimension, name: 'Cost center' });
    ids.design = randomUUID();
    await post(`/dimensions/${ids.dimension}/values`, { id: ids.design, code: 'DES', name: 'Design' });

    await bookMovement(await movement('PAGO ARRIENDO OFICINA 01/2026', 'credit', LANDLORD_RUT), { account: 'rent', partnerId: ids.landlord });
    await bookMovement(await movement('PAGO ARRIENDO OFICINA 02/2026 Nº 4431', 'credit', LANDLORD_RUT), { account: 'rent', partnerId: ids.landlord });
    await bookMovement(await movement('TRANSF GASTOS COMUNES FEB', 'credit', LANDLORD_RUT), { account: 'commonExpenses', partnerId: ids.landlord });
    await bookMovement(await movement('ADOBE *CREATIVE CLOUD 02/2026', 'credit', null), { account: 'software', dimensionValueIds: [ids.design] });
    // An unbooked movement is no precedent.
    await movement('ADOBE CREATIVE CLOUD 01/2026', 'credit', null);
  });
  afterAll(() => t.close());

  it('ranks the bookings of the same counterparty with a similar description first, with counts, confidence and a reason', async () => {
    const target = await movement('Pago arriendo oficina 03/2026', 'credit', LANDLORD_RUT);
    const res = await ask({ bankMovementId: target });
    expect(res.status).toBe(200);
    expect(res.body.map(({ ledgerAccountId, partnerId, dimensionValueIds, basedOnCount }: Record<string, unknown>) => ({ ledgerAccountId, partnerId, dimensionValueIds, basedOnCount }))).toEqual([
      { ledgerAccountId: ids.rent, partnerId: ids.landlord, dimensionValueIds: [], basedOnCount: 2 },
      { ledgerAccountId: ids.commonExpenses, partnerId: ids.landlord, dimensionValueIds: [], basedOnCount: 1 },
    ]);
    expect(res.body[0].confidence).toBeGreaterThan(res.body[1].confidence);
    for (const r of res.body) {
      expect(r.confidence).toBeGreaterThan(0);
      expect(r.confidence).toBeLessThanOrEqual(1);
    }
    expect(res.body[0].reason).toBe('2 similar records were booked this way, sharing the same counterparty RUT and description words "arriendo", "oficina".');
    expect(res.body[1].reason).toBe('1 similar record was booked this way, sharing the same counterparty RUT.');
  });

  it('finds a booking by description words alone, with its dimension values', async () => {
    const res = await ask({ bankMovementId: await movement('ADOBE CREATIVE CLOUD 03/2026', 'credit', null) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { ledgerAccountId: ids.software, partnerId: null, dimensionValueIds: [ids.design], confidence: expect.any(Number), basedOnCount: 1, reason: '1 similar record was booked this way, sharing description words "adobe", "creative", "cloud".' },
    ]);
  });

  it('reads a RUT printed in the description as the counterparty', async () => {
    const res = await ask({ bankMovementId: await movement('TEF A 76.086.428-5', 'credit', null) });
    expect(res.body.map((r: { ledgerAccountId: string }) => r.ledgerAccountId)).toEqual([ids.rent, ids.commonExpenses]);
  });

  it('answers [] when nothing similar was booked: only dates and numbers, or money flowing the other way', async () => {
    expect((await ask({ bankMovementId: await movement('12/03/2026 4431', 'credit', null) })).body).toEqual([]);
    expect((await ask({ bankMovementId: await movement('DEVOLUCION ARRIENDO OFICINA', 'debit', LANDLORD_RUT) })).body).toEqual([]);
  });

  it('recommends for an invoice from the bookings of earlier invoices of the same partner', async () => {
    const invoice = async (documentNumber: string, description: string) => {
      const id = randomUUID();
      await post('/invoices', { id, direction: 'ap', documentKind: 'invoice', documentNumber, issueDate: '2026-02-01', partnerId: ids.landlord, currency: 'CLP', netAmount: 1000, totalAmount: 1000, description });
      return id;
    };
    const bookedId = await invoice('501', 'Arriendo oficina febrero');
    const booked = await staff.post(`${base()}/invoices/${bookedId}/book`).send({ entryId: randomUUID(), counterAccountId: ids.rent, dimensionValueIds: [ids.design] });
    expect(booked.status).toBe(200);
    const res = await ask({ invoiceId: await invoice('502', 'Arriendo oficina marzo') });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ ledgerAccountId: ids.rent, partnerId: ids.landlord, dimensionValueIds: [ids.design], confidence: expect.any(Number), basedOnCount: 1, reason: expect.stringMatching(/^1 similar record was booked this way, sharing the same counterparty RUT and description words "arriendo", "oficina"/) }]);
  });

  it('refuses anything but exactly one record with 400 VALIDATION_ERROR, and a record it does not know with 404', async () => {
    const queries: Array<Record<string, string>> = [{}, { bankMovementId: randomUUID(), invoiceId: randomUUID() }, { bankMovementId: 'x' }, { other: '1' }];
    for (const query of queries) {
      const res = await ask(query);
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'VALIDATION_ERROR' });
    }
    const movementMissing = await ask({ bankMovementId: randomUUID() });
    expect([movementMissing.status, movementMissing.body.code]).toEqual([404, 'BANK_MOVEMENT_NOT_FOUND_ERROR']);
    const invoiceMissing = await ask({ invoiceId: randomUUID() });
    expect([invoiceMissing.status, invoiceMissing.body.code]).toEqual([404, 'INVOICE_NOT_FOUND_ERROR']);
  });

  it('does not see another Entity’s movement (404)', async () => {
    const own = await movement('ARRIENDO', 'credit', null);
    const other = await freshEntity(world);
    const res = await staff.get(`/api/entities/${other}/recommendations`).query({ bankMovementId: own });
    expect([res.status, res.body.code]).toEqual([404, 'BANK_MOVEMENT_NOT_FOUND_ERROR']);
  });

  it('GET /recommendations goes through the access matrix', () =>
    checkAccessMatrix(t, world, { method: 'get', path: (id) => `/api/entities/${id}/recommendations?bankMovementId=${randomUUID()}` }));
});
