import { types } from 'pg';
import type { DataSourceOptions, MixedList } from 'typeorm';
import { SnakeNamingStrategy } from './snake-naming.strategy';

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

/**
 * The schema of the service, assembled at the composition root (src/schema.ts, `SCHEMA`): the
 * records of every module and the migrations (migrations/index.ts). The platform imports neither.
 */
export interface DatabaseSchema {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  records: MixedList<Function>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: Function[];
}

export function dataSourceOptions(url: string, schema: DatabaseSchema, poolSize = 10): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: schema.records,
    migrations: schema.migrations,
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    migrationsTableName: 'schema_migrations',
    logging: false,
    extra: { max: poolSize, application_name: 'accounting' },
  };
}
