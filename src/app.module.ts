import { DynamicModule, Module, Type } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_GUARD, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { ClsPluginTransactional } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { ClsModule } from 'nestjs-cls';
import { AgentsModule } from './modules/agents';
import { AuditModule } from './modules/audit';
import { FxModule } from './modules/fx';
import { RecommendationsModule } from './modules/recommendations';
import { BankingModule } from './modules/banking';
import { BankFeedsModule } from './modules/bank-feeds';
import { EntitiesModule } from './modules/entities';
import { IdentityModule } from './modules/identity';
import { LedgerModule } from './modules/ledger';
import { OrganizationsModule } from './modules/organizations';
import { PartnersModule } from './modules/partners';
import { InvoicesModule } from './modules/invoices';
import { ReportsModule } from './modules/reports';
import { ConsolidationModule } from './modules/consolidation';
import { TaxModule } from './modules/tax';
import { ReferenceModule } from './modules/reference';
import { AttachmentsModule } from './modules/attachments';
import { CommentsModule } from './modules/comments';
import { RecordHostsModule } from './modules/record-hosts';
import { TodosModule } from './modules/todos';
import { AuditedMutations } from './platform/audit/audited-routes';
import {
  AuditActorGuard,
  AuthenticationGuard,
  AuthSurfaceGuard,
  RateLimitGuard,
  ReadOnlyKeyGuard,
  StaffOnlyGuard,
} from './platform/auth/guards/access.guards';
import { TenantGuard } from './platform/auth/guards/tenant.guard';
import { Clock, SystemClock } from './platform/clock/clock';
import { ClockModule } from './platform/clock/clock.module';
import type { RuntimeConfig } from './platform/config/app-config';
import { DatabaseModule } from './platform/database/database.module';
import { RECORDS } from './schema';
import { HealthModule } from './platform/health/health.module';
import { AllExceptionsFilter } from './platform/http/all-exceptions.filter';
import { HeavyReadsModule } from './platform/http/heavy-reads';
import { ImportParseModule } from './platform/imports/parse-pool';
import { JsonBodyGuard } from './platform/http/media-type';
import { TextInputPipe } from './platform/http/text-input.pipe';
import { UuidParamsPipe } from './platform/http/uuid-params.pipe';
import { createValidationPipe } from './platform/http/validation';
import { LoggingModule } from './platform/logging/logging.module';
import { ObjectStoreModule } from './platform/object-store/object-store.module';

export interface AppModuleOptions {
  /** Extra controllers, for tests that need a route the service does not have. */
  extraControllers?: Type[];
  /** Extra modules, for tests that plug into a port (e.g. a ledger lifecycle listener). */
  extraModules?: Type[];
  /** The time of the service; tests fix it (D5). */
  clock?: Clock;
}

@Module({})
export class AppModule {
  static forRoot(config: RuntimeConfig, options: AppModuleOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => config] }),
        LoggingModule,
        DiscoveryModule,
        DatabaseModule.forRoot(RECORDS),
        ClsModule.forRoot({
          global: true,
          // No Proxy Providers here: resolving them would cost every request a dynamic import.
          middleware: { mount: true, resolveProxyProviders: false },
          plugins: [
            new ClsPluginTransactional({
              imports: [TypeOrmModule],
              adapter: new TransactionalAdapterTypeOrm({ dataSourceToken: getDataSourceToken() }),
            }),
          ],
        }),
        ClockModule.forRoot(options.clock ?? new SystemClock(config.businessTimezone)),
        ObjectStoreModule,
        HeavyReadsModule,
        ImportParseModule,
        AuditModule,
        HealthModule,
        ReferenceModule,
        IdentityModule,
        OrganizationsModule,
        EntitiesModule,
        LedgerModule,
        PartnersModule,
        InvoicesModule,
        ReportsModule,
        ConsolidationModule,
        RecordHostsModule,
        AttachmentsModule,
        TodosModule,
        CommentsModule,
        AgentsModule,
        FxModule,
        RecommendationsModule,
        BankingModule,
        BankFeedsModule,
        TaxModule,
        ...(options.extraModules ?? []),
      ],
      controllers: options.extraControllers ?? [],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        // The global guards, in this order (ARCHITECTURE "The request path"; TenantGuard last of the
        // access rules, then the media type of the body).
        { provide: APP_GUARD, useClass: AuthSurfaceGuard },
        { provide: APP_GUARD, useClass: AuthenticationGuard },
        { provide: APP_GUARD, useClass: StaffOnlyGuard },
        { provide: APP_GUARD, useClass: ReadOnlyKeyGuard },
        { provide: APP_GUARD, useClass: AuditActorGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: TenantGuard },
        { provide: APP_GUARD, useClass: JsonBodyGuard },
        // D18's transaction and audit row around each mutation: platform/audit/audited-routes.ts.
        AuditedMutations,
        { provide: APP_PIPE, useClass: TextInputPipe },
        { provide: APP_PIPE, useClass: UuidParamsPipe },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
