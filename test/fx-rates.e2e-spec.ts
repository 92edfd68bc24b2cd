import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { FixedClock } from '../src/platform/clock/clock';
import { auditRowCount, countRows, expectAudited, expectRefused, sendNow, waitUntil } from './harness/db-checks';
import type { TestApp } from './harness/test-app';
import { Agent, createWorldApp, mintKey, World } from './harness/world';

/** 2026-01-20 (a Tuesday) at noon in Santiago. */
const NOW = new Date('2026-01-20T15:00:00Z');
const FX_TABLES = ['fx_rates', 'audit_trail'];

describe('FX rates with the offline provider (D80, D80a)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock: new FixedClock(NOW) }));
  });
  afterAll(() => t.close());

  it('lists nothing before a sync', async () => {
    const res = await staff.get('/api/fx-rates');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('syncs the 30 days ending today by default (201, audited), and a repeated sync stores 0', async () => {
    const first = await expectAudited(t, staff.post('/api/fx-rates/sync').send({}), 201, { action: 'fx_rates.sync', resource_type: 'fx_rates', entity_id: null, method: 'POST', path: '/api/fx-rates/sync' });
    expect(first.body).toEqual({ fetchedCount: 90, storedCount: 90 });
    expect(await countRows(t, 'fx_rates')).toBe(90);
    expect((await t.sql(`SELECT min(date)::text AS min, max(date)::text AS max FROM fx_rates`))[0]).toEqual({ min: '2025-12-22', max: '2026-01-20' });

    const again = await expectAudited(t, staff.post('/api/fx-rates/sync'), 201, { action: 'fx_rates.sync' });
    expect(again.body).toEqual({ fetchedCount: 90, storedCount: 0 });
    expect(await countRows(t, 'fx_rates')).toBe(90);
  });

  it('stores each rate once when two syncs of overlapping ranges race', async () => {
    const [a, b] = await Promise.all([
      staff.post('/api/fx-rates/sync').send({ from: '2025-11-01', to: '2025-11-30' }),
      staff.post('/api/fx-rates/sync').send({ from: '2025-11-16', to: '2025-12-15' }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    // 2025-11-01..2025-12-15 is 45 days, 3 currencies each; none was stored before.
    expect(a.body.storedCount + b.body.storedCount).toBe(135);
    expect(await countRows(t, 'fx_rates')).toBe(90 + 135);
  });

  it('lists by date then currency, inclusive of from and to (D64a), with exact decimal strings', async () => {
    const res = await world.clientMember.agent.get('/api/fx-rates').query({ from: '2026-01-08', to: '2026-01-09' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { date: '2026-01-08', currency: 'CLF', functionalCurrency: 'CLP', rate: '39752.05', source: 'offline' },
      { date: '2026-01-08', currency: 'EUR', functionalCurrency: 'CLP', rate: '1052.11', source: 'offline' },
      { date: '2026-01-08', currency: 'USD', functionalCurrency: 'CLP', rate: '897.65', source: 'offline' },
      { date: '2026-01-09', currency: 'CLF', functionalCurrency: 'CLP', rate: '39755.6', source: 'offline' },
      { date: '2026-01-09', currency: 'EUR', functionalCurrency: 'CLP', rate: '1050.6', source: 'offline' },
      { date: '2026-01-09', currency: 'USD', functionalCurrency: 'CLP', rate: '896.02', source: 'offline' },
    ]);
    const usd = await staff.get('/api/fx-rates').query({ currency: 'USD' });
    expect(usd.body).toHaveLength(30);
    expect(usd.body.every((r: { currency: string; rate: string }) => r.currency === 'USD' && /^[0-9]+(\.[0-9]+)?$/.test(r.rate))).toBe(true);
    expect(usd.body[0].date).toBe('2025-12-22');
    expect(usd.body[29].date).toBe('2026-01-20');
  });

  it('refuses a bad list query with 400 VALIDATION_ERROR', async () => {
    for (const query of [{ from: '2026-01-10', to: '2026-01-09' }, { currency: 'GBP' }, { from: '2026-02-30' }]) {
      const res = await staff.get('/api/fx-rates').query(query);
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'VALIDATION_ERROR' });
    }
  });

  it('answers a day with its own rate (ageDays 0), and the functional currency as 1', async () => {
    const res = await staff.get('/api/fx-rates/effective').query({ currency: 'USD', date: '2026-01-09' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ date: '2026-01-09', currency: 'USD', functionalCurrency: 'CLP', rate: '896.02', source: 'offline', requestedDate: '2026-01-09', rateDate: '2026-01-09', ageDays: 0 });
    const clp = await staff.get('/api/fx-rates/effective').query({ currency: 'CLP', date: '2026-01-09' });
    expect(clp.body).toMatchObject({ rate: '1', ageDays: 0 });
  });

  it('answers a day without a stored rate with the last one at most 7 days earlier, naming its date', async () => {
    const last = (await t.sql<{ rate: string }>(`SELECT rate::text AS rate FROM fx_rates WHERE currency = 'EUR' AND date = '2026-01-20'`))[0].rate;
    const res = await staff.get('/api/fx-rates/effective').query({ currency: 'EUR', date: '2026-01-27' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ date: '2026-01-20', currency: 'EUR', functionalCurrency: 'CLP', rate: last, source: 'offline', requestedDate: '2026-01-27', rateDate: '2026-01-20', ageDays: 7 });
  });

  it('refuses a rate more than 7 days old with 409 FX_RATE_STALE_ERROR, and a day before any rate with 404 FX_RATE_NOT_FOUND_ERROR', async () => {
    const stale = await staff.get('/api/fx-rates/effective').query({ currency: 'EUR', date: '2026-01-28' });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'FX_RATE_STALE_ERROR', params: { currency: 'EUR', date: '2026-01-28', lastRateDate: '2026-01-20', maxAgeDays: 7 } });
    const none = await staff.get('/api/fx-rates/effective').query({ currency: 'USD', date: '2025-10-01' });
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ code: 'FX_RATE_NOT_FOUND_ERROR', params: { currency: 'USD', date: '2025-10-01' } });
  });

  it('syncs a range that ends after today: the offline adapter answers every day of any range (D80a)', async () => {
    const res = await staff.post('/api/fx-rates/sync').send({ from: '2026-01-19', to: '2026-01-22' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ fetchedCount: 12 });
    expect(await countRows(t, 'fx_rates', "date = '2026-01-22'")).toBe(3);
  });

  it('refuses a sync backwards or over 3,660 days (ten years) with 400 VALIDATION_ERROR and writes nothing', async () => {
    for (const body of [{ from: '2026-01-10', to: '2026-01-09' }, { from: '2014-01-01', to: '2025-01-01' }, { from: 'yesterday' }, { to: 20260101 }, { extra: 1 }]) {
      await expectRefused(t, FX_TABLES, staff.post('/api/fx-rates/sync').send(body), 400, 'VALIDATION_ERROR');
    }
  });

  it('syncs a range of more than a year in one call (201)', async () => {
    const res = await staff.post('/api/fx-rates/sync').send({ from: '2024-01-01', to: '2025-06-30' });
    expect(res.status).toBe(201);
    expect(res.body.fetchedCount).toBeGreaterThan(366);
  });

  it('keeps the sync to staff: 401 without credentials, 403 for clients, viewers and read-only keys, 400 for a key without x-audit-actor', async () => {
    const staffKey = await mintKey(staff);
    const before = await auditRowCount(t);
    const anonymous = await request(t.app.getHttpServer()).post('/api/fx-rates/sync').send({});
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 'UNAUTHENTICATED_ERROR']);
    for (const agent of [world.clientMember.agent, world.viewerMember.agent, world.staffMember.agent, world.outsider.agent]) {
      const res = await agent.post('/api/fx-rates/sync').send({});
      expect([res.status, res.body.code]).toEqual([403, 'PERMISSION_DENIED_ERROR']);
    }
    const readOnly = await request(t.app.getHttpServer()).post('/api/fx-rates/sync').set('x-api-key', world.keys.memberReadOnly).set('x-audit-actor', 'test').send({});
    expect([readOnly.status, readOnly.body.code]).toEqual([403, 'PERMISSION_DENIED_ERROR']);
    const memberKey = await request(t.app.getHttpServer()).post('/api/fx-rates/sync').set('x-api-key', world.keys.member).set('x-audit-actor', 'test').send({});
    expect([memberKey.status, memberKey.body.code]).toEqual([403, 'PERMISSION_DENIED_ERROR']);
    const noActor = await request(t.app.getHttpServer()).post('/api/fx-rates/sync').set('x-api-key', staffKey.key).send({});
    expect([noActor.status, noActor.body.code]).toEqual([400, 'AUDIT_ACTOR_REQUIRED_ERROR']);
    expect(await auditRowCount(t)).toBe(before);
  });

  it('lets every signed-in caller read the list and the effective rate', async () => {
    for (const agent of [world.clientMember.agent, world.viewerMember.agent, world.outsider.agent]) {
      expect((await agent.get('/api/fx-rates')).status).toBe(200);
      expect((await agent.get('/api/fx-rates/effective').query({ currency: 'CLF', date: '2026-01-20' })).status).toBe(200);
    }
    const key = await request(t.app.getHttpServer()).get('/api/fx-rates').set('x-api-key', world.keys.memberReadOnly);
    expect(key.status).toBe(200);
    expect((await request(t.app.getHttpServer()).get('/api/fx-rates')).status).toBe(401);
  });
});

type Series = 'dolar' | 'euro' | 'uf';
type Play = (url: URL, res: ServerResponse) => void;

/**
 * A local stand-in for the CMF API (api-sbifv3 recursos_api) playing its documented answers:
 * `{ "Dolares": [{ "Valor": "896,02", "Fecha": "2026-01-09" }] }` with comma decimals and dot
 * thousands, 404 with `{ CodigoHTTP, CodigoError, Mensaje }` when a range has no data, refusals
 * of a bad key, garbage, and an answer that never comes.
 */
class FakeCmf {
  server!: Server;
  requests: URL[] = [];
  plays: Record<Series, Play> = { dolar: FakeCmf.ok('Dolares', []), euro: FakeCmf.ok('Euros', []), uf: FakeCmf.ok('UFs', []) };
  private hanging: ServerResponse[] = [];

  static ok(key: string, rows: Array<[string, string]>): Play {
    return (_url, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ [key]: rows.map(([Fecha, Valor]) => ({ Valor, Fecha })) }));
    };
  }

  static status(code: number, body: string): Play {
    return (_url, res) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(body);
    };
  }

  readonly hang: Play = (_url, res) => {
    this.hanging.push(res);
  };

  async start(): Promise<string> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      this.requests.push(url);
      const series = url.pathname.split('/')[3] as Series;
      (this.plays[series] ?? FakeCmf.status(404, '{}'))(url, res);
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api-sbifv3/recursos_api`;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('FX rates with the CMF provider against a local CMF (D80, phase2-anchors 3)', () => {
  let t: TestApp;
  let staff: Agent;
  const cmf = new FakeCmf();

  beforeAll(async () => {
    const baseUrl = await cmf.start();
    ({ t, staff } = await createWorldApp({
      clock: new FixedClock(NOW),
      env: { FX_PROVIDER: 'cmf', CMF_API_KEY: 'test-key-123', CMF_BASE_URL: baseUrl, FX_PROVIDER_TIMEOUT_MS: '300' },
    }));
  });
  afterAll(async () => {
    await t.close();
    await cmf.stop();
  });

  beforeEach(() => {
    cmf.requests = [];
  });

  it('reads dólar, euro and UF for the range with the key, comma decimals parsed exactly; weekends absent', async () => {
    // Friday 9, Monday 12 (the weekend of 10-11 January has no dollar or euro); the UF every day.
    cmf.plays.dolar = FakeCmf.ok('Dolares', [['2026-01-09', '896,02'], ['2026-01-12', '1.001,5']]);
    cmf.plays.euro = FakeCmf.status(404, JSON.stringify({ CodigoHTTP: 404, CodigoError: 81, Mensaje: 'No existen datos para el periodo' }));
    cmf.plays.uf = FakeCmf.ok('UFs', [['2026-01-09', '39.755,60'], ['2026-01-10', '39.759,15'], ['2026-01-11', '39.762,70'], ['2026-01-12', '39.766,25']]);
    const res = await expectAudited(t, staff.post('/api/fx-rates/sync').send({ from: '2026-01-09', to: '2026-01-12' }), 201, { action: 'fx_rates.sync' });
    expect(res.body).toEqual({ fetchedCount: 6, storedCount: 6 });

    expect(cmf.requests.map((u) => u.pathname)).toEqual([
      '/api-sbifv3/recursos_api/dolar/periodo/2026/01/dias_i/09/2026/01/dias_f/12',
      '/api-sbifv3/recursos_api/euro/periodo/2026/01/dias_i/09/2026/01/dias_f/12',
      '/api-sbifv3/recursos_api/uf/periodo/2026/01/dias_i/09/2026/01/dias_f/12',
    ]);
    expect(cmf.requests.every((u) => u.searchParams.get('apikey') === 'test-key-123' && u.searchParams.get('formato') === 'json')).toBe(true);

    const list = await staff.get('/api/fx-rates').query({ from: '2026-01-09', to: '2026-01-12' });
    expect(list.body).toEqual([
      { date: '2026-01-09', currency: 'CLF', functionalCurrency: 'CLP', rate: '39755.6', source: 'cmf' },
      { date: '2026-01-09', currency: 'USD', functionalCurrency: 'CLP', rate: '896.02', source: 'cmf' },
      { date: '2026-01-10', currency: 'CLF', functionalCurrency: 'CLP', rate: '39759.15', source: 'cmf' },
      { date: '2026-01-11', currency: 'CLF', functionalCurrency: 'CLP', rate: '39762.7', source: 'cmf' },
      { date: '2026-01-12', currency: 'CLF', functionalCurrency: 'CLP', rate: '39766.25', source: 'cmf' },
      { date: '2026-01-12', currency: 'USD', functionalCurrency: 'CLP', rate: '1001.5', source: 'cmf' },
    ]);
    expect(await t.sql(`SELECT rate::text AS rate FROM fx_rates WHERE currency = 'USD' ORDER BY date`)).toEqual([{ rate: '896.02' }, { rate: '1001.5' }]);
  });

  it('a repeated sync of unchanged rates stores 0', async () => {
    const res = await staff.post('/api/fx-rates/sync').send({ from: '2026-01-09', to: '2026-01-12' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ fetchedCount: 6, storedCount: 0 });
  });

  it('answers the Saturday with the Friday dollar (rateDate 2026-01-09, ageDays 1), the UF with its own day', async () => {
    const usd = await staff.get('/api/fx-rates/effective').query({ currency: 'USD', date: '2026-01-10' });
    expect(usd.body).toEqual({ date: '2026-01-09', currency: 'USD', functionalCurrency: 'CLP', rate: '896.02', source: 'cmf', requestedDate: '2026-01-10', rateDate: '2026-01-09', ageDays: 1 });
    const uf = await staff.get('/api/fx-rates/effective').query({ currency: 'CLF', date: '2026-01-10' });
    expect(uf.body).toMatchObject({ rate: '39759.15', rateDate: '2026-01-10', ageDays: 0 });
    const eur = await staff.get('/api/fx-rates/effective').query({ currency: 'EUR', date: '2026-01-10' });
    expect([eur.status, eur.body.code]).toEqual([404, 'FX_RATE_NOT_FOUND_ERROR']);
    const stale = await staff.get('/api/fx-rates/effective').query({ currency: 'USD', date: '2026-01-20' });
    expect([stale.status, stale.body.code, stale.body.params.lastRateDate]).toEqual([409, 'FX_RATE_STALE_ERROR', '2026-01-12']);
  });

  const refusals: Array<[string, () => void, RegExp]> = [
    ['a refused key (HTTP 401)', () => (cmf.plays.euro = FakeCmf.status(401, JSON.stringify({ CodigoHTTP: 401, CodigoError: 10, Mensaje: 'apikey no valida' }))), /HTTP 401: apikey no valida/],
    ['a server error (HTTP 500)', () => (cmf.plays.euro = FakeCmf.status(500, 'oops')), /HTTP 500/],
    ['an answer that is not JSON', () => (cmf.plays.euro = FakeCmf.status(200, '<html>maintenance</html>')), /not JSON/],
    ['JSON without the series', () => (cmf.plays.euro = FakeCmf.status(200, '{"Dolares":[]}')), /no Euros array/],
    ['a value with a dot decimal', () => (cmf.plays.euro = FakeCmf.ok('Euros', [['2026-01-13', '1050.60']])), /Euros\[0\]\.Valor is not a rate/],
    ['a value that is not a number', () => (cmf.plays.euro = FakeCmf.ok('Euros', [['2026-01-13', 'ND']])), /Euros\[0\]\.Valor/],
    ['a bad date', () => (cmf.plays.euro = FakeCmf.ok('Euros', [['13-01-2026', '1.050,60']])), /Euros\[0\]\.Fecha/],
    ['an answer that never comes', () => (cmf.plays.euro = cmf.hang), /no answer within 300 ms/],
  ];

  it.each(refusals)('refuses %s with 502 FX_PROVIDER_ERROR and stores nothing, not even the series read before it', async (_label, arrange, reason) => {
    cmf.plays.dolar = FakeCmf.ok('Dolares', [['2026-01-13', '899,99']]);
    arrange();
    const res = await expectRefused(t, FX_TABLES, staff.post('/api/fx-rates/sync').send({ from: '2026-01-13', to: '2026-01-13' }), 502, 'FX_PROVIDER_ERROR');
    expect(res.body.message).toMatch(reason);
    expect(res.body.params).toMatchObject({ source: 'cmf' });
  });

  it('holds no transaction open while the CMF is asked', async () => {
    cmf.plays.dolar = FakeCmf.ok('Dolares', [['2026-01-13', '899,99']]);
    cmf.plays.euro = cmf.hang;
    const sync = sendNow(staff.post('/api/fx-rates/sync').send({ from: '2026-01-13', to: '2026-01-13' }));
    await waitUntil(() => cmf.requests.some((u) => u.pathname.includes('/euro/')));
    const open = await t.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name NOT LIKE 'citus_internal%' AND state LIKE 'idle in transaction%'`,
    );
    expect(open[0].n).toBe(0);
    expect((await sync.response).status).toBe(502);
  });
});
