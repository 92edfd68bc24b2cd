import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { ConfigService } from '@nestjs/config';
import type { RuntimeConfig } from '../src/platform/config/app-config';
import { contentDisposition, safeFilename } from '../src/platform/object-store/content-disposition';
import { createS3Client, S3ObjectStore } from '../src/platform/object-store/s3-object-store';
import { readTestServers, TEST_BUCKET } from './harness/test-servers';

/**
 * The object store of the tests (@20minutes/s3rver, as `npm start`'s embedded default) against
 * the S3 adapter: a presigned PUT binds the content type and the length, and the store itself
 * refuses other bytes, another type and a changed signature (D70).
 */
describe('Object store (embedded S3 server, SigV4 verified)', () => {
  let store: S3ObjectStore;

  beforeAll(() => {
    const servers = readTestServers();
    const s3 = {
      endpoint: servers.s3Endpoint,
      bucket: TEST_BUCKET,
      region: 'us-east-1',
      accessKeyId: servers.s3AccessKeyId,
      secretAccessKey: servers.s3SecretAccessKey,
      forcePathStyle: true,
    } as RuntimeConfig['s3'];
    const config = { get: () => s3 } as unknown as ConfigService<RuntimeConfig, true>;
    store = new S3ObjectStore(createS3Client(s3), config);
  });

  afterAll(() => store.onApplicationShutdown());

  const put = (url: string, body: Buffer, contentType: string) => fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body });

  async function signed(bytes: Buffer, contentType = 'application/pdf') {
    const key = `tests/${randomUUID()}`;
    const url = await store.presignPut({ key, contentType, byteSize: bytes.length, signedAt: new Date(), expiresInSeconds: 900 });
    return { key, url };
  }

  it('signs the content type and the length into the URL', async () => {
    const { url } = await signed(Buffer.from('%PDF'));
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('900');
  });

  it('stores the bytes PUT to the URL as signed; HEAD reads their length and type; GET returns them under the file name', async () => {
    const bytes = randomBytes(2048);
    const { key, url } = await signed(bytes);
    expect((await put(url, bytes, 'application/pdf')).status).toBe(200);
    expect(await store.head(key)).toEqual({ byteSize: 2048, contentType: 'application/pdf' });
    const download = await fetch(await store.presignGet({ key, filename: 'factura 1.pdf', contentType: 'application/pdf', signedAt: new Date(), expiresInSeconds: 300 }));
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="factura 1.pdf"');
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    await store.delete(key);
    expect(await store.head(key)).toBeNull();
  });

  it('issue 33: copies an object with its type to another key, and lists the keys under a prefix with their time', async () => {
    const bytes = randomBytes(300);
    const prefix = `tests/${randomUUID()}/`;
    const { key, url } = await signed(bytes, 'image/png').then(async (s) => ({ ...s, key: s.key }));
    expect((await put(url, bytes, 'image/png')).status).toBe(200);
    await store.copy(key, `${prefix}copy`);
    expect(await store.head(`${prefix}copy`)).toEqual({ byteSize: 300, contentType: 'image/png' });
    await store.copy(key, `${prefix}other`);
    const listed = await store.list(prefix, { limit: 1000 });
    expect(listed.map((o) => o.key)).toEqual([`${prefix}copy`, `${prefix}other`]);
    expect(Math.abs(listed[0].lastModified.getTime() - Date.now())).toBeLessThan(60_000);
    expect((await store.list(prefix, { limit: 1 })).map((o) => o.key)).toEqual([`${prefix}copy`]);
    expect((await store.list(prefix, { limit: 10, startAfter: `${prefix}copy` })).map((o) => o.key)).toEqual([`${prefix}other`]);
    for (const k of [key, `${prefix}copy`, `${prefix}other`]) await store.delete(k);
    expect(await store.list(prefix, { limit: 10 })).toEqual([]);
  });

  it.each([
    ['a wrong length (one byte more)', (bytes: Buffer) => Buffer.concat([bytes, Buffer.from('x')]), 'application/pdf', (url: string) => url],
    ['a wrong length (one byte less)', (bytes: Buffer) => bytes.subarray(1), 'application/pdf', (url: string) => url],
    ['a wrong content type', (bytes: Buffer) => bytes, 'image/png', (url: string) => url],
    [
      'a tampered signature',
      (bytes: Buffer) => bytes,
      'application/pdf',
      (url: string) => url.replace(/X-Amz-Signature=([0-9a-f])/, (_m, c: string) => `X-Amz-Signature=${c === '0' ? '1' : '0'}`),
    ],
    ['a URL naming another key', (bytes: Buffer) => bytes, 'application/pdf', (url: string) => url.replace('/tests/', '/tests/other-')],
    ['a longer validity', (bytes: Buffer) => bytes, 'application/pdf', (url: string) => url.replace('X-Amz-Expires=900', 'X-Amz-Expires=3600')],
  ])('the store refuses a PUT with %s (403) and stores nothing', async (_label, body, contentType, tamper) => {
    const bytes = randomBytes(100);
    const { key, url } = await signed(bytes);
    const answer = await put(tamper(url), body(bytes), contentType);
    expect(answer.status).toBe(403);
    expect(await answer.text()).toContain('SignatureDoesNotMatch');
    expect(await store.head(key)).toBeNull();
  });

  it('the store refuses a URL whose validity has passed', async () => {
    const bytes = randomBytes(10);
    const key = `tests/${randomUUID()}`;
    const url = await store.presignPut({ key, contentType: 'text/csv', byteSize: 10, signedAt: new Date(Date.now() - 16 * 60_000), expiresInSeconds: 900 });
    expect((await put(url, bytes, 'text/csv')).status).toBe(403);
    expect(await store.head(key)).toBeNull();
  });

  it('HEAD of a missing key is null; deleting a missing key is no error', async () => {
    expect(await store.head(`tests/${randomUUID()}`)).toBeNull();
    await expect(store.delete(`tests/${randomUUID()}`)).resolves.toBeUndefined();
  });

  it('a download named with every character the header allows is signed as the store checks it', async () => {
    const bytes = randomBytes(10);
    const { key, url } = await signed(bytes, 'text/csv');
    expect((await put(url, bytes, 'text/csv')).status).toBe(200);
    const download = await fetch(await store.presignGet({ key, filename: "Año 'x' (1)! *.csv", contentType: 'text/csv', signedAt: new Date(), expiresInSeconds: 300 }));
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="Ano _x_ _1__ _.csv"');
  });

  describe('the signer built once (issue 21) signs the URL the SDK would', () => {
    const storeOf = (s3: RuntimeConfig['s3']) => new S3ObjectStore(createS3Client(s3), { get: () => s3 } as unknown as ConfigService<RuntimeConfig, true>);
    const configs: Array<[string, RuntimeConfig['s3']]> = [
      ['a custom endpoint, path style (the embedded store)', { endpoint: 'http://127.0.0.1:4568', bucket: 'accounting', region: 'us-east-1', accessKeyId: 'AK', secretAccessKey: 'SK', forcePathStyle: true }],
      ['a custom endpoint, virtual host style', { endpoint: 'https://s3.example.test', bucket: 'accounting', region: 'sa-east-1', accessKeyId: 'AK', secretAccessKey: 'SK/+=', forcePathStyle: false }],
      ["AWS's own endpoint", { endpoint: undefined, bucket: 'accounting-prod', region: 'sa-east-1', accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG', forcePathStyle: false }],
    ];
    // Segments as object keys have them (never empty): any text, accents, spaces, reserved characters.
    const key = fc.array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((segment) => !segment.includes('/')), { minLength: 1, maxLength: 4 }).map((segments) => segments.join('/'));
    const sorted = (url: string) => {
      const parsed = new URL(url);
      return { origin: parsed.origin, path: parsed.pathname, query: [...parsed.searchParams].sort(([a], [b]) => (a < b ? -1 : 1)) };
    };

    it.each(configs)('%s: the same URL as getSignedUrl, whatever the key, type, length and time', async (_label, s3) => {
      const subject = storeOf(s3);
      try {
        await fc.assert(
          fc.asyncProperty(
            key,
            fc.constantFrom('application/pdf', 'image/png', 'text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
            fc.integer({ min: 1, max: 26_214_400 }),
            fc.date({ min: new Date('2020-01-01'), max: new Date('2035-01-01'), noInvalidDate: true }),
            async (k, contentType, byteSize, signedAt) => {
              const put = { key: k, contentType, byteSize, signedAt, expiresInSeconds: 900 };
              const sdk = jest.spyOn(subject, 'presignPutWithSdk');
              const fast = await subject.presignPut(put);
              expect(sdk).not.toHaveBeenCalled();
              sdk.mockRestore();
              expect(sorted(fast)).toEqual(sorted(await subject.presignPutWithSdk(put)));
            },
          ),
          { numRuns: 60 },
        );
      } finally {
        subject.onApplicationShutdown();
      }
    });

    it.each(configs)('%s: the same download URL as getSignedUrl, whatever the key, file name, type and time', async (_label, s3) => {
      const subject = storeOf(s3);
      try {
        await fc.assert(
          fc.asyncProperty(
            key,
            fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
            fc.constantFrom('application/pdf', 'image/jpeg', 'text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
            fc.date({ min: new Date('2020-01-01'), max: new Date('2035-01-01'), noInvalidDate: true }),
            async (k, filename, contentType, signedAt) => {
              const get = { key: k, filename, contentType, signedAt, expiresInSeconds: 300 };
              const sdk = jest.spyOn(subject, 'presignGetWithSdk');
              const fast = await subject.presignGet(get);
              expect(sdk).not.toHaveBeenCalled();
              sdk.mockRestore();
              expect(sorted(fast)).toEqual(sorted(await subject.presignGetWithSdk(get)));
            },
          ),
          { numRuns: 60 },
        );
      } finally {
        subject.onApplicationShutdown();
      }
    });

    it("HEAD through a URL it signs answers what the SDK's HeadObject does: the object's length and type, null for no object, an error for refused credentials", async () => {
      const bytes = randomBytes(300);
      const { key, url } = await signed(bytes, 'image/png');
      expect((await put(url, bytes, 'image/png')).status).toBe(200);
      const sdk = jest.spyOn(store, 'headWithSdk');
      expect(await store.head(key)).toEqual({ byteSize: 300, contentType: 'image/png' });
      expect(await store.head(`tests/${randomUUID()}/Año (1).pdf`)).toBeNull();
      expect(sdk).not.toHaveBeenCalled();
      sdk.mockRestore();
      expect(await store.headWithSdk(key)).toEqual({ byteSize: 300, contentType: 'image/png' });
      // Many at once share the keep-alive connections.
      expect(await Promise.all(Array.from({ length: 20 }, () => store.head(key)))).toEqual(Array.from({ length: 20 }, () => ({ byteSize: 300, contentType: 'image/png' })));
      const servers = readTestServers();
      const wrong = storeOf({ endpoint: servers.s3Endpoint, bucket: TEST_BUCKET, region: 'us-east-1', accessKeyId: servers.s3AccessKeyId, secretAccessKey: 'not-the-secret', forcePathStyle: true });
      try {
        await expect(wrong.head(key)).rejects.toThrow(/403/);
        await expect(wrong.headWithSdk(key)).rejects.toThrow();
      } finally {
        wrong.onApplicationShutdown();
      }
      await store.delete(key);
    });

    it('a URL it signs is accepted by the store for a key with spaces and accents, and refused for another length', async () => {
      const bytes = randomBytes(64);
      const k = `tests/${randomUUID()}/Año (1) ñandú!.pdf`;
      const url = await store.presignPut({ key: k, contentType: 'application/pdf', byteSize: 64, signedAt: new Date(), expiresInSeconds: 900 });
      expect((await put(url, bytes.subarray(1), 'application/pdf')).status).toBe(403);
      expect((await put(url, bytes, 'application/pdf')).status).toBe(200);
      expect(await store.head(k)).toEqual({ byteSize: 64, contentType: 'application/pdf' });
      await store.delete(k);
    });
  });

  it('file names cannot end the Content-Disposition header or name a path', () => {
    expect(safeFilename('../../etc/passwd')).toBe('passwd');
    expect(safeFilename('C:\\x\\report.pdf')).toBe('report.pdf');
    expect(safeFilename('..')).toBe('file');
    expect(safeFilename('a\u0000b\r\n.pdf')).toBe('ab.pdf');
    expect(contentDisposition('x"; filename=evil.exe.pdf')).toBe('attachment; filename="x__ filename=evil.exe.pdf"');
    expect(contentDisposition('Año Ñandú (1).pdf')).toBe('attachment; filename="Ano Nandu _1_.pdf"');
    expect(contentDisposition('../../etc/passwd')).toBe('attachment; filename="passwd"');
  });
});
