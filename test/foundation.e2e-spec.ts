import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { ApplicationConfig } from '@nestjs/core';
import { ApiOkResponse } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMinSize, IsInt, IsPositive, IsString, ValidateNested } from 'class-validator';
import { Public } from '../src/platform/auth/decorators';
import { createTestApp, TestApp } from './harness/test-app';
import { signInStaff } from './harness/world';

class ProbeLine {
  @IsInt()
  @IsPositive()
  amount: number;
}

class ProbeBody {
  @IsString()
  memo: string;

  @ValidateNested({ each: true })
  @ArrayMinSize(1)
  @Type(() => ProbeLine)
  lines: ProbeLine[];
}

/** Routes that exist only in this test, to drive the pipeline's error paths. */
@Public()
@Controller('test-probe')
class ProbeController {
  @Get('boom')
  @ApiOkResponse({ description: 'never' })
  boom(): never {
    throw new Error('secret internal detail');
  }

  @Post('echo')
  @ApiOkResponse({ description: 'echo' })
  echo(@Body() body: ProbeBody): ProbeBody {
    return body;
  }

  @Get('things/:thingId')
  @ApiOkResponse({ description: 'thing' })
  thing(@Param('thingId') thingId: string) {
    return { thingId };
  }
}

const ENVELOPE_KEYS = ['code', 'message', 'params', 'requestId', 'statusCode'];

describe('foundation: request pipeline, health, docs and reference data', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ extraControllers: [ProbeController] });
  });
  afterAll(() => t.close());

  describe('request path', () => {
    it('runs no global interceptor and no do-nothing guard (D18 wraps each mutating route instead)', () => {
      const config = (t.app as unknown as { config: ApplicationConfig }).config;
      expect(config.getGlobalInterceptors()).toHaveLength(0);
      expect(config.getGlobalGuards().length).toBeGreaterThan(0);
      for (const guard of config.getGlobalGuards()) expect(Object.getPrototypeOf(guard)).not.toBe(Object.prototype);
    });
  });

  describe('request id (D1)', () => {
    it('keeps a valid incoming x-request-id', async () => {
      const res = await t.http.get('/api/health').set('x-request-id', 'client-id-123');
      expect(res.headers['x-request-id']).toBe('client-id-123');
    });

    it('makes a UUID when none is sent', async () => {
      const res = await t.http.get('/api/health');
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('replaces an unacceptable id (too long or not visible ASCII)', async () => {
      const long = await t.http.get('/api/health').set('x-request-id', 'x'.repeat(129));
      expect(long.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const spaced = await t.http.get('/api/health').set('x-request-id', 'has space');
      expect(spaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('puts the same id in the error body as in the header', async () => {
      const res = await t.http.get('/api/nowhere').set('x-request-id', 'trace-me');
      expect(res.headers['x-request-id']).toBe('trace-me');
      expect(res.body.requestId).toBe('trace-me');
    });
  });

  describe('error envelope (D1-D2)', () => {
    it('answers an unknown route with 404 ROUTE_NOT_FOUND_ERROR', async () => {
      const res = await t.http.get('/api/does-not-exist');
      expect(res.status).toBe(404);
      expect(Object.keys(res.body).sort()).toEqual(ENVELOPE_KEYS);
      expect(res.body).toMatchObject({ statusCode: 404, code: 'ROUTE_NOT_FOUND_ERROR', params: {} });
    });

    it('answers malformed JSON with 400 MALFORMED_JSON_ERROR', async () => {
      const res = await t.http.post('/api/test-probe/echo').set('content-type', 'application/json').send('{"memo": ');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, code: 'MALFORMED_JSON_ERROR', params: {} });
      expect(typeof res.body.requestId).toBe('string');
    });

    it('reads a body of exactly 1 MB (1,000,000 bytes) and refuses one byte more with 413', async () => {
      const body = (size: number) => {
        const shell = JSON.stringify({ memo: '', lines: [] });
        return JSON.stringify({ memo: 'x'.repeat(size - shell.length), lines: [] });
      };
      expect(Buffer.byteLength(body(1_000_000))).toBe(1_000_000);
      const read = await t.http.post('/api/test-probe/echo').set('content-type', 'application/json').send(body(1_000_000));
      expect(read.body.code).not.toBe('PAYLOAD_TOO_LARGE_ERROR');
      const over = await t.http.post('/api/test-probe/echo').set('content-type', 'application/json').send(body(1_000_001));
      expect(over.status).toBe(413);
      expect(over.body).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE_ERROR' });
    });

    it('answers a body over 1 MB with 413 PAYLOAD_TOO_LARGE_ERROR', async () => {
      const res = await t.http
        .post('/api/test-probe/echo')
        .set('content-type', 'application/json')
        .send(JSON.stringify({ memo: 'x'.repeat(1024 * 1024 + 10), lines: [] }));
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE_ERROR' });
    });

    it('answers validation failures with 400 VALIDATION_ERROR and a path per problem', async () => {
      const res = await t.http.post('/api/test-probe/echo').send({ memo: 5, lines: [{ amount: 1 }, { amount: 1 }, { amount: -3 }] });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      const paths = res.body.params.errors.map((e: { path: string }) => e.path);
      expect(paths).toEqual(expect.arrayContaining(['memo', 'lines[2].amount']));
      for (const error of res.body.params.errors) expect(typeof error.message).toBe('string');
    });

    it('refuses unknown properties (no mass assignment)', async () => {
      const res = await t.http.post('/api/test-probe/echo').send({ memo: 'm', lines: [{ amount: 1 }], isAdmin: true });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.params.errors).toEqual([expect.objectContaining({ path: 'isAdmin' })]);
    });

    it('refuses unknown properties of nested objects', async () => {
      const res = await t.http.post('/api/test-probe/echo').send({ memo: 'm', lines: [{ amount: 1, sneaky: 1 }] });
      expect(res.status).toBe(400);
      expect(res.body.params.errors).toEqual([expect.objectContaining({ path: 'lines[0].sneaky' })]);
    });

    it('answers a valid body with 2xx', async () => {
      const res = await t.http.post('/api/test-probe/echo').send({ memo: 'm', lines: [{ amount: 1 }] });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ memo: 'm', lines: [{ amount: 1 }] });
    });

    it('answers a malformed UUID in the path with 400 VALIDATION_ERROR naming the parameter', async () => {
      const res = await t.http.get('/api/test-probe/things/not-a-uuid');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', params: { errors: [{ path: 'thingId' }] } });
      const ok = await t.http.get('/api/test-probe/things/3f0b5c1e-8d4a-4b6f-9a51-2b7d9e0c4a11');
      expect(ok.status).toBe(200);
    });

    it('answers an unhandled error with the exact 500 body and no stack', async () => {
      const res = await t.http.get('/api/test-probe/boom').set('x-request-id', 'boom-1');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        requestId: 'boom-1',
        statusCode: 500,
        code: 'INTERNAL_SERVER_ERROR',
        message: 'Internal server error',
        params: {},
      });
      expect(res.text).not.toContain('secret internal detail');
      expect(res.text).not.toContain('at ');
    });

    it('answers headers over 16 KB with 431 HEADERS_TOO_LARGE_ERROR in the envelope and an x-request-id (Node refuses them before Express)', async () => {
      const res = await t.http.get('/api/health').set('x-audit-reason', 'x'.repeat(20_000));
      expect(res.status).toBe(431);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body).toEqual({ requestId: res.headers['x-request-id'], statusCode: 431, code: 'HEADERS_TOO_LARGE_ERROR', message: expect.any(String), params: {} });
    });

    it('answers a request that is not HTTP with 400 MALFORMED_REQUEST_ERROR in the envelope', async () => {
      const server = t.app.getHttpServer();
      if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      const answer = await new Promise<string>((resolve, reject) => {
        let received = '';
        const socket = connect(port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
        socket.on('data', (chunk) => (received += chunk));
        socket.on('error', reject);
        socket.on('close', () => resolve(received));
      });
      const [head, body] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      const requestId = /\r\nx-request-id: ([0-9a-f-]{36})\r\n/.exec(head)?.[1];
      expect(JSON.parse(body)).toEqual({ requestId, statusCode: 400, code: 'MALFORMED_REQUEST_ERROR', message: expect.any(String), params: {} });
    });

    it('answers a compressed body that does not decompress with 400 VALIDATION_ERROR, not a 500', async () => {
      for (const encoding of ['gzip', 'deflate', 'br']) {
        const res = await t.http.post('/api/test-probe/echo').set('content-type', 'application/json').set('content-encoding', encoding).send(Buffer.from('not compressed'));
        expect({ encoding, status: res.status, code: res.body.code, keys: Object.keys(res.body).sort() }).toEqual({ encoding, status: 400, code: 'VALIDATION_ERROR', keys: ENVELOPE_KEYS });
      }
    });

    it('answers a body in a content encoding it does not read with 400 MALFORMED_JSON_ERROR naming the encoding, not the charset', async () => {
      const res = await t.http.post('/api/test-probe/echo').set('content-type', 'application/json').set('content-encoding', 'compress').send(Buffer.from('{}'));
      expect({ status: res.status, code: res.body.code, keys: Object.keys(res.body).sort() }).toEqual({ status: 400, code: 'MALFORMED_JSON_ERROR', keys: ENVELOPE_KEYS });
      expect(res.body.message).toContain('Content-Encoding');
      const latin1 = await t.http.post('/api/test-probe/echo').set('content-type', 'application/json; charset=latin1').send('{}');
      expect({ status: latin1.status, code: latin1.body.code }).toEqual({ status: 400, code: 'MALFORMED_JSON_ERROR' });
      expect(latin1.body.message).toContain('UTF-8');
    });

    it('answers every error as JSON', async () => {
      const res = await t.http.get('/api/does-not-exist');
      expect(res.headers['content-type']).toMatch(/application\/json/);
    });
  });

  describe('health', () => {
    it('is 200 when the database and the object store answer', async () => {
      const res = await t.http.get('/api/health');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'ok', info: { database: { status: 'up' }, objectStore: { status: 'up' } } });
    });

    it('is 503 with the envelope when the object store does not answer', async () => {
      const broken = await createTestApp({ databaseUrl: t.databaseUrl, env: { S3_BUCKET: 'no-such-bucket' } });
      try {
        const res = await broken.http.get('/api/health');
        expect(res.status).toBe(503);
        expect(res.body).toMatchObject({
          statusCode: 503,
          code: 'SERVICE_UNAVAILABLE_ERROR',
          params: { error: { objectStore: { status: 'down' } }, info: { database: { status: 'up' } } },
        });
      } finally {
        await broken.close();
      }
    });
  });

  describe('reference data', () => {
    it('requires authentication', async () => {
      for (const path of ['/api/countries', '/api/currencies']) {
        const res = await t.http.get(path);
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('UNAUTHENTICATED_ERROR');
      }
    });

    it('lists ISO 3166-1 countries as { code, name }', async () => {
      const res = await (await signInStaff(t)).get('/api/countries');
      expect(res.status).toBe(200);
      expect(res.body.length).toBeGreaterThanOrEqual(249);
      expect(res.body).toContainEqual({ code: 'CL', name: 'Chile' });
      for (const country of res.body) expect(Object.keys(country).sort()).toEqual(['code', 'name']);
    });

    it('lists ISO 4217 currencies with their minor units', async () => {
      const res = await (await signInStaff(t)).get('/api/currencies');
      expect(res.status).toBe(200);
      const byCode = new Map(res.body.map((c: { code: string }) => [c.code, c]));
      expect(byCode.get('CLP')).toEqual({ code: 'CLP', name: 'Chilean Peso', minorUnits: 0 });
      expect(byCode.get('USD')).toMatchObject({ minorUnits: 2 });
      expect(byCode.get('CLF')).toMatchObject({ minorUnits: 4 });
      expect(byCode.get('XDR')).toMatchObject({ code: 'XDR' });
    });

    it('leaves out the ISO 4217 codes that are not money: metals, bond units, testing, no currency', async () => {
      const res = await (await signInStaff(t)).get('/api/currencies');
      const codes = res.body.map((c: { code: string }) => c.code);
      for (const code of ['XAU', 'XAG', 'XPT', 'XPD', 'XBA', 'XBD', 'XTS', 'XXX']) expect(codes).not.toContain(code);
    });
  });
});

describe('text input', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ extraControllers: [ProbeController] });
  });
  afterAll(() => t.close());

  it('refuses a NUL character anywhere in the body or query with 400 VALIDATION_ERROR naming its path', async () => {
    const res = await t.http.post('/api/test-probe/echo').send({ memo: 'a\u0000b', lines: [{ amount: 1 }] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', params: { errors: [{ path: 'memo' }] } });
  });

  it('refuses a lone surrogate (stored, it would silently become U+FFFD) with 400 VALIDATION_ERROR naming its path', async () => {
    for (const memo of ['a\ud800b', '\udc00']) {
      const res = await t.http.post('/api/test-probe/echo').send({ memo, lines: [{ amount: 1 }] });
      expect([res.status, res.body.code, res.body.params.errors[0].path]).toEqual([400, 'VALIDATION_ERROR', 'memo']);
    }
    // A well-formed pair (an emoji) is text like any other.
    const ok = await t.http.post('/api/test-probe/echo').send({ memo: 'a\ud83d\ude00b', lines: [{ amount: 1 }] });
    expect([ok.status, ok.body.memo]).toEqual([201, 'a😀b']);
  });

  it('refuses property names of Object.prototype (__proto__, constructor...) in a body or a query with 400 VALIDATION_ERROR naming them', async () => {
    // The unknown-property check looks names up in a plain object, where these are always found.
    for (const [name, json] of [
      ['__proto__', '{"memo":"m","lines":[{"amount":1}],"__proto__":{"isAdmin":true}}'],
      ['constructor', '{"memo":"m","lines":[{"amount":1}],"constructor":{"prototype":{"isAdmin":true}}}'],
      ['lines[0].hasOwnProperty', '{"memo":"m","lines":[{"amount":1,"hasOwnProperty":1}]}'],
    ]) {
      const res = await t.http.post('/api/test-probe/echo').set('content-type', 'application/json').send(json);
      expect({ name, status: res.status, code: res.body.code, paths: res.body.params?.errors?.map((e: { path: string }) => e.path) }).toEqual({ name, status: 400, code: 'VALIDATION_ERROR', paths: [name] });
    }
    const staff = await signInStaff(t);
    for (const name of ['constructor', 'toString', '__proto__']) {
      const res = await staff.get('/api/organizations/00000000-0000-4000-8000-000000000000/audit-trail').query(`${name}=1`);
      expect({ name, status: res.status, code: res.body.code, paths: res.body.params?.errors?.map((e: { path: string }) => e.path) }).toEqual({ name, status: 400, code: 'VALIDATION_ERROR', paths: [name] });
    }
  });

  it('refuses input nested deeper than the validators can walk with 400 VALIDATION_ERROR, not a stack overflow', async () => {
    const deep = `{"memo":${'['.repeat(100_000)}${']'.repeat(100_000)},"lines":[{"amount":1}]}`;
    const res = await t.http.post('/api/test-probe/echo').set('content-type', 'application/json').send(deep);
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(res.body.params.errors[0].message).toMatch(/nested more than 16 levels/);
  });
});
