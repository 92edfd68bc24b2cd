import fs from 'node:fs';
import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { Public } from '../src/platform/auth/decorators';
import { createTestApp, TestApp } from './harness/test-app';
import { BOOTSTRAP_STAFF } from './harness/world';

@Public()
@Controller('test-logging')
class LoggingProbeController {
  @Get('boom')
  @ApiOkResponse({ description: 'never' })
  boom(): never {
    throw new Error('probe failure');
  }
}

interface Line {
  level: number;
  msg?: string;
  req?: { id: string; method: string; url: string };
  res?: { statusCode: number; headers: Record<string, unknown> };
  responseTime?: number;
  requestId?: string;
  context?: string;
  err?: { message: string };
}

/** The service's log lines while `run` runs (pino writes on fd 1 with fs.write or fs.writeSync, or through process.stdout where Jest wraps it). */
async function logsOf(run: () => Promise<unknown>): Promise<Line[]> {
  const written: string[] = [];
  const capture = (original: (...args: never[]) => unknown) =>
    function (this: unknown, fd: unknown, data: unknown, ...rest: unknown[]) {
      if (fd === 1) {
        written.push(String(data));
        const callback = rest.find((r) => typeof r === 'function') as ((e: null, n: number) => void) | undefined;
        callback?.(null, Buffer.byteLength(String(data)));
        return Buffer.byteLength(String(data));
      }
      return (original as (...a: unknown[]) => unknown).call(this, fd, data, ...rest);
    };
  const spies = [
    jest.spyOn(fs, 'writeSync').mockImplementation(capture(fs.writeSync as never) as never),
    jest.spyOn(fs, 'write').mockImplementation(capture(fs.write as never) as never),
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
      written.push(String(chunk));
      return true;
    }),
  ];
  try {
    await run();
    // The line is written when the answer's socket is done with it: a turn of the event loop later.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return written
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line);
}

describe('request logging', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ extraControllers: [LoggingProbeController], env: { LOG_LEVEL: 'info' } });
    // Nest holds its own log calls until the server listens (the tests never call listen).
    t.app.flushLogs();
  });
  afterAll(() => t.close());

  it('writes one line per request when it is answered: the request, the status and the time taken, no credential', async () => {
    const lines = await logsOf(() => t.http.get('/api/organizations').set('x-request-id', 'log-probe-1').set('x-api-key', 'ak_secret_value').set('cookie', 'sid=cookie-secret'));
    const line = lines.find((l) => l.req?.id === 'log-probe-1');
    expect(line).toMatchObject({ level: 40, msg: 'request completed', req: { id: 'log-probe-1', method: 'GET', url: '/api/organizations' }, res: { statusCode: 401 } });
    expect(typeof line!.responseTime).toBe('number');
    expect(Object.keys(line!.req!).sort()).toEqual(['id', 'method', 'url']);
    const text = JSON.stringify(lines);
    expect(text).not.toContain('ak_secret_value');
    expect(text).not.toContain('cookie-secret');
  });

  it('logs a success at info and redacts the session cookie the answer sets', async () => {
    const lines = await logsOf(() => t.http.post('/api/auth/sign-in/email').set('x-request-id', 'log-probe-2').send(BOOTSTRAP_STAFF).expect(200));
    const line = lines.find((l) => l.req?.id === 'log-probe-2' && l.msg === 'request completed');
    expect(line).toMatchObject({ level: 30, res: { statusCode: 200, headers: { 'set-cookie': '[redacted]' } } });
    expect(JSON.stringify(lines)).not.toContain(BOOTSTRAP_STAFF.password);
  });

  it('logs an unhandled error with its request, then the request as errored', async () => {
    const lines = await logsOf(() => t.http.get('/api/test-logging/boom').set('x-request-id', 'log-probe-3').expect(500));
    const ofRequest = lines.filter((l) => l.req?.id === 'log-probe-3');
    expect(ofRequest.map((l) => [l.level, l.msg])).toEqual([
      [50, 'unhandled error'],
      [50, 'request errored'],
    ]);
    expect(ofRequest[0]).toMatchObject({ requestId: 'log-probe-3', context: 'Errors', err: { message: 'probe failure' } });
  });

  it('builds no line a level leaves out', async () => {
    const quiet = await createTestApp({ env: { LOG_LEVEL: 'warn' } });
    try {
      const lines = await logsOf(() => quiet.http.get('/api/health').set('x-request-id', 'log-probe-4'));
      expect(lines.filter((l) => l.req?.id === 'log-probe-4')).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});
