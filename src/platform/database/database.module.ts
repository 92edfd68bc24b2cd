import { DynamicModule, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { RuntimeConfig } from '../config/app-config';
import { DatabaseSchema, dataSourceOptions } from './data-source-options';
import { runMigrationsExclusively } from './migrate';
import { CitusDistributionError, distributeOnCitus, refuseUnlessCoordinator } from './citus';

/** The database connection; the composition root gives the records of every module and the migrations (src/schema.ts). */
@Module({})
export class DatabaseModule {
  static forRoot(schema: DatabaseSchema): DynamicModule {
    let distribution: RuntimeConfig['databaseDistribution'] = 'none';
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [ConfigService],
          useFactory: (config: ConfigService<RuntimeConfig, true>) => {
            distribution = config.get('databaseDistribution', { infer: true });
            return {
              ...dataSourceOptions(config.get('databaseUrl', { infer: true }), schema, config.get('databasePoolSize', { infer: true })),
              // A refusal to distribute (no Citus) is not a connection problem: no retry.
              toRetry: (error: unknown) => !(error instanceof CitusDistributionError),
            };
          },
          // Migrations run before anything can use the connection; then, on Citus, distribution
          // (D94: idempotent, so a table a migration added is distributed at the next start).
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
            // Refused before the migrations: on plain PostgreSQL or a worker nothing is changed.
            if (distribution === 'citus') {
              try {
                await refuseUnlessCoordinator(dataSource.manager);
              } catch (error) {
                await dataSource.destroy();
                throw error;
              }
            }
            await runMigrationsExclusively(dataSource);
            if (distribution === 'citus') {
              const runner = dataSource.createQueryRunner();
              await runner.connect();
              await distributeOnCitus(runner).finally(() => runner.release());
            }
            return dataSource;
          },
        }),
      ],
    };
  }
}
