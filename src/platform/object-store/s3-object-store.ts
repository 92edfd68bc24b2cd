import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { RuntimeConfig } from '../config/app-config';
import { ObjectStore, PresignedGet, PresignedPut, StoredObject } from './object-store';
import { contentDisposition } from './content-disposition';

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
    // Otherwise the SDK puts a checksum of the (empty) body it presigns into the URL, and the
    // store would refuse the client's real bytes.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

const TIMEOUT_MS = 5000;
const HEALTH_PROBE_KEY = 'health/never-written';

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

  /**
   * A GET of a key that is never written: `NoSuchKey` proves the bucket is there and the
   * credentials are good (`NoSuchBucket`, `AccessDenied` and the rest fail the check). Not
   * HeadBucket: the embedded server checks bucket-level signatures against another canonical
   * path than the SDK signs, and a HEAD answer has no body to tell a missing bucket from a
   * missing key.
   */
  async checkReachable(): Promise<void> {
    try {
      const probe = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: HEALTH_PROBE_KEY, Range: 'bytes=0-0' }), {
        abortSignal: AbortSignal.timeout(3000),
      });
      probe.Body?.transformToByteArray().catch(() => undefined);
    } catch (error) {
      if ((error as { name?: string }).name !== 'NoSuchKey') throw error;
    }
  }

  /**
   * The presigner leaves `content-type` unsigned unless named in `signableHeaders`
   * (phase2-anchors section 5): both it and `content-length` are named, so both are bound.
   */
  presignPut(put: PresignedPut): Promise<string> {
    return getSignedUrl(this.client, new PutObjectCommand({ Bucket: this.bucket, Key: put.key, ContentType: put.contentType, ContentLength: put.byteSize }), {
      expiresIn: put.expiresInSeconds,
      signingDate: put.signedAt,
      signableHeaders: new Set(['content-type', 'content-length']),
    });
  }

  presignGet(get: PresignedGet): Promise<string> {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: get.key,
        ResponseContentDisposition: contentDisposition(get.filename),
        ResponseContentType: get.contentType,
      }),
      { expiresIn: get.expiresInSeconds, signingDate: get.signedAt },
    );
  }

  async head(key: string): Promise<StoredObject | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }), { abortSignal: AbortSignal.timeout(TIMEOUT_MS) });
      return { byteSize: head.ContentLength ?? 0, contentType: head.ContentType ?? null };
    } catch (error) {
      const name = (error as { name?: string }).name;
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (name === 'NotFound' || name === 'NoSuchKey' || status === 404) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }), { abortSignal: AbortSignal.timeout(TIMEOUT_MS) });
  }

  onApplicationShutdown(): void {
    this.client.destroy();
  }
}
