import { mkdirSync } from 'node:fs';
import { freeLoopbackPort } from './free-port';

// s3rver has no type declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
};

export interface RunningS3 {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

/** Starts an S3 protocol server (s3rver) on a free loopback port, with the bucket created. */
export async function startEmbeddedS3(directory: string, bucket: string): Promise<RunningS3> {
  mkdirSync(directory, { recursive: true });
  const port = await freeLoopbackPort();
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    // s3rver verifies signatures made with these fixed credentials.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    stop: () => server.close(),
  };
}
