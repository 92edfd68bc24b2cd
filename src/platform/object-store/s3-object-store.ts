import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { RuntimeConfig } from '../config/app-config';
import { ObjectStore } from './object-store';

export const S3_CLIENT = Symbol('S3_CLIENT');

export function createS3Client(s3: RuntimeConfig['s3']): S3Client {
  return new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: s3.forcePathStyle,
    credentials:
      s3.accessKeyId && s3.secretAccessKey
        ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }
        : undefined,
    maxAttempts: 2,
  });
}

@Injectable()
export class S3ObjectStore extends ObjectStore implements OnApplicationShutdown {
  private readonly bucket: string;

  constructor(
    @Inject(S3_CLIENT) private readonly client: S3Client,
    config: ConfigService<RuntimeConfig, true>,
  ) {
    super();
    this.bucket = config.get('s3', { infer: true }).bucket;
  }

  async checkReachable(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), { abortSignal: AbortSignal.timeout(3000) });
  }

  onApplicationShutdown(): void {
    this.client.destroy();
  }
}
