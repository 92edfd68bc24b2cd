import { DynamicModule, Module, Type } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { ClsPluginTransactional } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { ClsModule } from 'nestjs-cls';
import { ReferenceModule } from './modules/reference/reference.module';
import type { RuntimeConfig } from './platform/config/app-config';
import { DatabaseModule } from './platform/database/database.module';
import { HealthModule } from './platform/health/health.module';
import { AllExceptionsFilter } from './platform/http/all-exceptions.filter';
import { UuidParamsPipe } from './platform/http/uuid-params.pipe';
import { createValidationPipe } from './platform/http/validation';
import { LoggingModule } from './platform/logging/logging.module';
import { ObjectStoreModule } from './platform/object-store/object-store.module';

export interface AppModuleOptions {
  /** Extra controllers, for tests that need a route the service does not have. */
  extraControllers?: Type[];
}

@Module({})
export class AppModule {
  static forRoot(config: RuntimeConfig, options: AppModuleOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => config] }),
        LoggingModule,
        DatabaseModule,
        ClsModule.forRoot({
          global: true,
          middleware: { mount: true },
          plugins: [
            new ClsPluginTransactional({
              imports: [TypeOrmModule],
              adapter: new TransactionalAdapterTypeOrm({ dataSourceToken: getDataSourceToken() }),
            }),
          ],
        }),
        ObjectStoreModule,
        HealthModule,
        ReferenceModule,
      ],
      controllers: options.extraControllers ?? [],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_PIPE, useClass: UuidParamsPipe },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
