import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { RuntimeConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source-options';
import { runMigrationsExclusively } from './migrate';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<RuntimeConfig, true>) =>
        dataSourceOptions(config.get('databaseUrl', { infer: true }), config.get('databasePoolSize', { infer: true })),
      // Migrations run before anything can use the connection.
      dataSourceFactory: async (options) => {
        const dataSource = await new DataSource(options!).initialize();
        await runMigrationsExclusively(dataSource);
        return dataSource;
      },
    }),
  ],
})
export class DatabaseModule {}
