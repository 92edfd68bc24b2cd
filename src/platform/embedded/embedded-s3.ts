import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';

// @20minutes/s3rver has no type declarations. It is the maintained fork of s3rver that verifies
// SigV4 signatures (header and query string), so a presigned URL binds what it signs here as it
// does on AWS: a tampered signature, another length or another signed content type is refused.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('@20minutes/s3rver') as new (options: Record<string, unknown>) => {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  /** Koa's middleware list, composed when the server starts listening. */
  middleware: Array<(ctx: KoaContext, next: () => Promise<void>) => Promise<void>>;
};
// The server's account registry: its built-in account holds the public pair `S3RVER`/`S3RVER`.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const AWSAccount = require('@20minutes/s3rver/lib/models/account') as {
  DUMMY_ACCOUNT: { createKeyPair(accessKeyId: string, secretAccessKey: string): void; revokeAccessKey(accessKeyId: string): void };
};

interface KoaContext {
  method: string;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
}

/** The fixed, published key pair of s3rver: never accepted here (issue 33). */
export const S3RVER_PUBLIC_KEY = 'S3RVER';

export interface EmbeddedS3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface RunningS3 extends EmbeddedS3Credentials {
  endpoint: string;
  stop(): Promise<void>;
}

/** A fresh key pair for an embedded store (kept in DATA_DIR/secrets.json by the service). */
export function newEmbeddedS3Credentials(): EmbeddedS3Credentials {
  return {
    accessKeyId: `AKEMB${randomBytes(10).toString('hex').toUpperCase()}`,
    secretAccessKey: randomBytes(30).toString('base64url'),
  };
}

/** The access key id a request is signed with (SigV4 header or query), or null when it is not SigV4-signed. */
export function signedAccessKeyId(headers: KoaContext['headers'], query: KoaContext['query']): string | null {
  const authorization = headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^AWS4-HMAC-SHA256\s+Credential=([^/,\s]+)\//.exec(authorization);
    return match ? match[1] : null;
  }
  const algorithm = query['X-Amz-Algorithm'];
  const credential = query['X-Amz-Credential'];
  if (algorithm === 'AWS4-HMAC-SHA256' && typeof credential === 'string' && !('Signature' in query)) {
    const accessKeyId = credential.split('/')[0];
    return accessKeyId || null;
  }
  return null;
}

/**
 * Starts an S3 protocol server (@20minutes/s3rver) on a free loopback port, with the bucket
 * created, accepting only requests SigV4-signed with `credentials` (issue 33). s3rver alone lets
 * unsigned requests through and knows a public key pair (`S3RVER`/`S3RVER`): here an unsigned
 * request, a SigV2 one, or one naming any other access key is refused (403 AccessDenied) before
 * s3rver sees it, and s3rver then checks the signature with the secret.
 */
export async function startEmbeddedS3(directory: string, bucket: string, credentials: EmbeddedS3Credentials = newEmbeddedS3Credentials()): Promise<RunningS3> {
  if (credentials.accessKeyId === S3RVER_PUBLIC_KEY || credentials.secretAccessKey === S3RVER_PUBLIC_KEY) {
    throw new Error('the embedded S3 server does not take the public S3RVER key pair');
  }
  mkdirSync(directory, { recursive: true });
  AWSAccount.DUMMY_ACCOUNT.revokeAccessKey(S3RVER_PUBLIC_KEY);
  AWSAccount.DUMMY_ACCOUNT.createKeyPair(credentials.accessKeyId, credentials.secretAccessKey);
  const server = new S3rver({
    address: '127.0.0.1',
    // The kernel's choice, read back once listening: a port found free and then bound later can be
    // taken meanwhile by another process.
    port: 0,
    directory,
    silent: true,
    // Signatures are checked (the default); the bucket is made here, not by a signed CreateBucket.
    allowMismatchedSignatures: false,
    configureBuckets: [{ name: bucket }],
  });
  server.middleware.unshift(async (ctx, next) => {
    if (signedAccessKeyId(ctx.headers, ctx.query) === credentials.accessKeyId) return next();
    ctx.status = 403;
    ctx.type = 'application/xml';
    ctx.body =
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Only requests signed (SigV4) with this store\'s key are accepted</Message></Error>';
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    stop: () => server.close(),
  };
}
