// `npm run migration:generate -- Name`: starts a throwaway PostgreSQL, applies every migration,
// compares the schema with the TypeORM entities and writes the difference as a new migration.
import 'reflect-metadata';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { appDataSourceOptions as dataSourceOptions } from '../src/schema';
import { runMigrationsExclusively } from '../src/platform/database/migrate';
import { ensureDatabase, startEmbeddedPostgres } from '../src/platform/embedded/embedded-postgres';
import { writeMigrationIndex } from './migration-index';

const MIGRATIONS_DIR = join(__dirname, '..', 'migrations');

function quote(sql: string): string {
  return '`' + sql.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${') + '`';
}

async function main(): Promise<void> {
  const name = process.argv[2];
  if (!name || !/^[A-Z][A-Za-z0-9]+$/.test(name)) {
    throw new Error('Usage: npm run migration:generate -- PascalCaseName');
  }
  const root = mkdtempSync(join(tmpdir(), 'accounting-migration-'));
  chmodSync(root, 0o755);
  const server = await startEmbeddedPostgres({ directory: join(root, 'pg'), password: 'generate', persistent: false, fast: true });
  try {
    await ensureDatabase(server.urlFor('postgres'), 'generate');
    const dataSource = await new DataSource(dataSourceOptions(server.urlFor('generate'), 2)).initialize();
    await runMigrationsExclusively(dataSource);
    const sql = await dataSource.driver.createSchemaBuilder().log();
    await dataSource.destroy();
    if (sql.upQueries.length === 0) {
      process.stdout.write('The entities match the migrations: nothing to generate.\n');
      return;
    }
    const timestamp = Date.now();
    const className = `${name}${timestamp}`;
    const up = sql.upQueries.map((q) => `    await queryRunner.query(${quote(q.query)});`).join('\n');
    const down = sql.downQueries.reverse().map((q) => `    await queryRunner.query(${quote(q.query)});`).join('\n');
    const file = join(MIGRATIONS_DIR, `${timestamp}-${name}.ts`);
    writeFileSync(
      file,
      `import { MigrationInterface, QueryRunner } from 'typeorm';\n\nexport class ${className} implements MigrationInterface {\n  name = '${className}';\n\n  async up(queryRunner: QueryRunner): Promise<void> {\n${up}\n  }\n\n  async down(queryRunner: QueryRunner): Promise<void> {\n${down}\n  }\n}\n`,
    );
    writeMigrationIndex();
    process.stdout.write(`Wrote ${file}\n`);
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
