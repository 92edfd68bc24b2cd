import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { RuntimeConfig } from '../config/app-config';
import { ObjectStore } from './object-store';
import { createS3Client, S3_CLIENT, S3ObjectStore } from './s3-object-store';

@Global()
@Module({
  providers: [
    {
      provide: S3_CLIENT,
      inject: [ConfigService],
      useFactory: (config: ConfigService<RuntimeConfig, true>) => createS3Client(config.get('s3', { infer: true })),
    },
    { provide: ObjectStore, useClass: S3ObjectStore },
  ],
  exports: [ObjectStore, S3_CLIENT],
})
export class ObjectStoreModule {}
