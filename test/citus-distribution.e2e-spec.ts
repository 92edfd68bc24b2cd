import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { CitusDistributionError, COORDINATOR_TABLES, distributeOnCitus, distributeNewEntityTable, planDistribution } from '../src/platform/database/citus';
import { dataSourceOptions } from '../src/platform/database/data-source-options';
import { MIGRATIONS } from '../migrations';
import { createTestApp, createTestDatabase } from './harness/test-app';

const run = promisify(execFile);

/**
 * D94 on the database CI has (embedded PostgreSQL, no Citus): `db:distribute` refuses clearly and
 * changes nothing; the plan it would carry out is read from the catalog. On a Citus cluster
 * (TEST_DATABASE_URL) this file checks the distributed schema instead. docs/CITUS.md.
 */
describe('db:distribute (D94)', () => {
  jest.setTimeout(120_000);
  let databaseUrl: string;
  let dataSource: DataSource;
  let citus: boolean;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptions(databaseUrl, { records: [], migrations: MIGRATIONS }, 1)).initialize();
    citus = (await dataSource.query(`SELECT 1 FROM pg_extension WHERE extname = 'citus'`)).length > 0;
  });
  afterAll(() => dataSource.destroy());

  const schemaFingerprint = async () =>
    (await dataSource.query(
      `SELECT string_agg(format('%s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid)), E'\\n' ORDER BY conrelid::regclass::text, conname) AS keys
         FROM pg_constraint WHERE connamespace = current_schema()::regnamespace`,
    ))[0].keys as string;

  it('plans from the catalog: every table keyed by entity_id is an Entity table, the shared ones reference tables, the bookkeeping ones stay on the coordinator', async () => {
    const plan = await planDistribution(dataSource);
    const keyed = (await dataSource.query(
      `SELECT c.relname AS name FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
        WHERE k.contype = 'p' AND a.attname = 'entity_id' AND c.relnamespace = current_schema()::regnamespace ORDER BY 1`,
    )) as Array<{ name: string }>;
    expect(plan.entityTables).toEqual(keyed.map((r) => r.name));
    expect(plan.entityTables).toEqual(expect.arrayContaining(['ledger_entries', 'ledger_lines', 'partners', 'bank_movements', 'entity_audit_trail', 'invoices', 'dtes']));
    expect(plan.referenceTables).toEqual(
      expect.arrayContaining(['organizations', 'users', 'memberships', 'entities', 'api_keys', 'fx_rates', 'global_audit_trail']),
    );
    expect(plan.coordinatorTables.sort()).toEqual([...COORDINATOR_TABLES].sort());
    // api_keys has an entity_id (a key confined to an Entity) but is keyed by its own id: shared.
    expect(plan.entityTables).not.toContain('api_keys');
    const all = [...plan.entityTables, ...plan.referenceTables, ...plan.coordinatorTables];
    expect(new Set(all).size).toBe(all.length);
  });

  it('no Entity table has a trigger (Citus distributes none; the bank counts are kept by the statements)', async () => {
    const triggers = await dataSource.query(`SELECT tgrelid::regclass::text AS t, tgname FROM pg_trigger WHERE NOT tgisinternal`);
    const plan = await planDistribution(dataSource);
    expect(triggers.filter((row: { t: string }) => plan.entityTables.includes(row.t))).toEqual([]);
  });

  it('refuses without Citus with a message that says what is missing, and changes nothing', async () => {
    if (citus) return;
    const before = await schemaFingerprint();
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      const refusal = distributeOnCitus(runner);
      await expect(refusal).rejects.toThrow(CitusDistributionError);
      await expect(refusal).rejects.toThrow(/needs a Citus coordinator: database "[^"]+" has no citus extension/);
    } finally {
      await runner.release();
    }
    expect(await schemaFingerprint()).toBe(before);
    // The helper for migrations does nothing on plain PostgreSQL.
    await distributeNewEntityTable(dataSource, 'partners');
    expect(await schemaFingerprint()).toBe(before);
  });

  it('npm run cli -- db:distribute exits 1 with that message on plain PostgreSQL, before migrating: an empty database stays empty', async () => {
    if (citus) return;
    // A database no migration has touched: the refusal comes before the migrations db:distribute applies.
    const server = new URL(databaseUrl);
    const empty = `${server.pathname.slice(1)}_empty`;
    server.pathname = '/postgres';
    const admin = new Client({ connectionString: server.toString() });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${empty}`);
      const emptyUrl = new URL(databaseUrl);
      emptyUrl.pathname = `/${empty}`;
      const outcome = await run(process.execPath, ['-r', '@swc-node/register', join(__dirname, '..', 'src', 'cli.ts'), 'db:distribute'], {
        env: { ...process.env, DATABASE_URL: emptyUrl.toString(), LOG_LEVEL: 'silent', NODE_ENV: 'test' },
        cwd: join(__dirname, '..'),
      }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      );
      expect(outcome.code).toBe(1);
      expect(outcome.stderr).toContain('db:distribute needs a Citus coordinator');
      const probe = new Client({ connectionString: emptyUrl.toString() });
      await probe.connect();
      const tables = await probe.query(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = current_schema()`).finally(() => probe.end());
      expect(tables.rows).toEqual([{ n: 0 }]);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${empty} WITH (FORCE)`);
      await admin.end();
    }
  });

  it('DATABASE_DISTRIBUTION=citus stops the start-up on plain PostgreSQL with the same refusal', async () => {
    if (citus) return;
    await expect(createTestApp({ databaseUrl, env: { DATABASE_DISTRIBUTION: 'citus' } })).rejects.toThrow(/needs a Citus coordinator/);
  });

  it('on Citus: every Entity table distributed by entity_id in one co-location group, the shared ones reference tables, and a second run changes nothing', async () => {
    if (!citus) return;
    const plan = await planDistribution(dataSource);
    const partitions = (await dataSource.query(
      `SELECT logicalrelid::text AS name, partmethod, repmodel, colocationid, column_to_column_name(logicalrelid, partkey) AS column FROM pg_dist_partition`,
    )) as Array<{ name: string; partmethod: string; repmodel: string; colocationid: number; column: string | null }>;
    const byName = new Map(partitions.map((p) => [p.name, p]));
    for (const name of plan.entityTables) expect({ name, ...byName.get(name) }).toMatchObject({ name, partmethod: 'h', column: 'entity_id' });
    expect(new Set(plan.entityTables.map((name) => byName.get(name)!.colocationid)).size).toBe(1);
    for (const name of plan.referenceTables) expect({ name, ...byName.get(name) }).toMatchObject({ name, partmethod: 'n', repmodel: 't' });
    const before = await schemaFingerprint();
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      expect((await distributeOnCitus(runner)).changes).toEqual([]);
    } finally {
      await runner.release();
    }
    expect(await schemaFingerprint()).toBe(before);
  });
});
