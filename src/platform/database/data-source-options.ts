import { types } from 'pg';
import type { DataSourceOptions } from 'typeorm';
import { SnakeNamingStrategy } from './snake-naming.strategy';
import { ENTITIES, MIGRATIONS } from './schema';

/**
 * bigint (int8) values arrive as numbers: amounts are kept within Number.MAX_SAFE_INTEGER (D6),
 * and a value beyond it is an error rather than a silently rounded amount.
 */
types.setTypeParser(types.builtins.INT8, (text: string) => {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new Error(`int8 ${text} is beyond the safe integer range`);
  return value;
});

/** Calendar dates stay ISO strings (D5): a JavaScript Date would shift them by the time zone. */
types.setTypeParser(types.builtins.DATE, (text: string) => text);

export function dataSourceOptions(url: string, poolSize = 10): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    migrationsTableName: 'schema_migrations',
    logging: false,
    extra: { max: poolSize, application_name: 'accounting' },
  };
}
