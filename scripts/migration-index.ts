// Rewrites migrations/index.ts from the files in migrations/ (name order = run order):
// `node -r @swc-node/register scripts/migration-index.ts` after adding a hand-written migration.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const MIGRATIONS_DIR = join(__dirname, '..', 'migrations');

/** migrations/index.ts lists every migration file in name (timestamp) order. */
export function writeMigrationIndex(): void {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((file) => /^\d+-[A-Za-z0-9]+\.ts$/.test(file))
    .sort();
  const imports = files.map((file, i) => `import { ${file.replace(/^\d+-/, '').replace(/\.ts$/, '')}${file.split('-')[0]} as M${i} } from './${file.replace(/\.ts$/, '')}';`);
  writeFileSync(
    join(MIGRATIONS_DIR, 'index.ts'),
    [
      '// The migrations in the order they run. Written by `npm run migration:generate`.',
      ...imports,
      '',
      '// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type',
      `export const MIGRATIONS: Function[] = [${files.map((_, i) => `M${i}`).join(', ')}];`,
      '',
    ].join('\n'),
  );
}


if (require.main === module) writeMigrationIndex();
