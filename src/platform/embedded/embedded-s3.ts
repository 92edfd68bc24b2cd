import { mkdirSync } from 'node:fs';
import { freeLoopbackPort } from './free-port';

// @20minutes/s3rver has no type declarations. It is the maintained fork of s3rver that verifies
// SigV4 signatures (header and query string), so a presigned URL binds what it signs here as it
// does on AWS: a tampered signature, another length or another signed content type is refused.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('@20minutes/s3rver') as new (options: Record<string, unknown>) => {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
};

export interface RunningS3 {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

/** Starts an S3 protocol server (@20minutes/s3rver) on a free loopback port, with the bucket created. */
export async function startEmbeddedS3(directory: string, bucket: string): Promise<RunningS3> {
  mkdirSync(directory, { recursive: true });
  const port = await freeLoopbackPort();
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    directory,
    silent: true,
    // Signatures are checked (the default); the bucket is made here, not by a signed CreateBucket.
    allowMismatchedSignatures: false,
    configureBuckets: [{ name: bucket }],
  });
  await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    // The server's built-in account: it verifies signatures made with these fixed credentials.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    stop: () => server.close(),
  };
}
