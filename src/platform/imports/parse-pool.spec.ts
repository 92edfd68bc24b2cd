import { join } from 'node:path';
import { DomainError } from '../../../libs/shared-kernel/src';
import { toErrorResponse } from '../http/error-envelope';
import { importParser, ImportParsePool } from './parse-pool';

const FIXTURE = importParser<{ length: number; text: string; amount: bigint }>(join(__dirname, '..', '..', '..', 'test', 'harness'), 'parse-pool-fixture');
const poolOf = (size: number) => new ImportParsePool({ get: () => size } as never);
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => error,
  );

/**
 * D2b: the import-parsing pool (worker threads, started here from the TypeScript sources through
 * @swc-node/register, as under jest; the service starts the compiled worker). What crosses the
 * thread: the bytes, the result, a module's DomainError unchanged; a failed worker is 503.
 */
describe('ImportParsePool', () => {
  let pool: ImportParsePool;
  beforeEach(() => (pool = poolOf(2)));
  afterEach(() => pool.onApplicationShutdown());

  it('parses in a worker: only the Buffer\'s own bytes cross (not the rest of its pool), the result comes back (bigint included)', async () => {
    const larger = Buffer.from('xxxxok:Ñuñoa yyyy');
    const view = larger.subarray(4, larger.length - 5);
    expect(await pool.run(FIXTURE, view)).toEqual({ length: Buffer.byteLength('ok:Ñuñoa'), text: 'Ñuñoa', amount: 12345678901234567890n });
    expect(view.toString()).toBe('ok:Ñuñoa');
  }, 30_000);

  it("a module's refusal crosses unchanged: the same code, message, params and status (400 in the envelope)", async () => {
    const error = await refusal(pool.run(FIXTURE, Buffer.from('refuse')));
    expect(error).toBeInstanceOf(DomainError);
    expect(toErrorResponse(error)).toMatchObject({
      statusCode: 400,
      body: { statusCode: 400, code: 'BANK_IMPORT_ROW_INVALID_ERROR', message: 'Statement row 7: amount must not be zero', params: { row: 7, reason: 'amount must not be zero' } },
      unexpected: false,
    });
  }, 30_000);

  it("a parser's bug is an unexpected error (500, logged with the worker's stack); the worker goes on", async () => {
    const error = (await refusal(pool.run(FIXTURE, Buffer.from('bug')))) as Error;
    expect(error).not.toBeInstanceOf(DomainError);
    expect(error.message).toBe('import parser: cannot read the fixture');
    expect(error.stack).toMatch(/parse-pool-fixture/);
    expect(toErrorResponse(error)).toMatchObject({ statusCode: 500, body: { code: 'INTERNAL_SERVER_ERROR' }, unexpected: true });
    expect((await pool.run(FIXTURE, Buffer.from('ok:again'))).text).toBe('again');
    expect(pool.workers).toBe(1);
  }, 30_000);

  it('a worker that dies or runs out of memory: 503 SERVICE_UNAVAILABLE_ERROR with Retry-After; the next parse gets a new worker', async () => {
    for (const [fixture, reason] of [
      ['exit', 'the parser stopped'],
      ['oom', 'the parse ran out of memory'],
    ]) {
      const response = toErrorResponse(await refusal(pool.run(FIXTURE, Buffer.from(fixture))));
      expect(response).toMatchObject({ statusCode: 503, body: { code: 'SERVICE_UNAVAILABLE_ERROR', params: { dependency: 'importParser', reason } }, headers: { 'Retry-After': '1' } });
      expect((await pool.run(FIXTURE, Buffer.from('ok:after'))).text).toBe('after');
    }
  }, 60_000);

  it('bounded: never more workers than its size (the heavy-work limit); parses beyond wait their turn', async () => {
    const texts = Array.from({ length: 7 }, (_, i) => `file ${i}`);
    const answers = await Promise.all(texts.map((text) => pool.run(FIXTURE, Buffer.from(`ok:${text}`))));
    expect(answers.map((a) => a.text)).toEqual(texts);
    expect(pool.workers).toBeLessThanOrEqual(2);
  }, 30_000);

  it('on shutdown, parses still waiting are refused (503) and the workers stop', async () => {
    const one = poolOf(1);
    const running = refusal(one.run(FIXTURE, Buffer.from('ok:first')));
    const waiting = refusal(one.run(FIXTURE, Buffer.from('ok:second')));
    await one.onApplicationShutdown();
    expect(toErrorResponse(await waiting)).toMatchObject({ statusCode: 503, body: { params: { reason: 'the service is stopping' } } });
    expect(toErrorResponse(await running)).toMatchObject({ statusCode: 503 });
    expect(one.workers).toBe(0);
    await refusal(one.run(FIXTURE, Buffer.from('ok:late')));
  }, 30_000);
});
