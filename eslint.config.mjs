// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import moduleBoundaries from './eslint-rules/module-boundaries.mjs';
import sqlBoundaries from './eslint-rules/sql-boundaries.mjs';

const boundaries = { rules: { ...moduleBoundaries.rules, ...sqlBoundaries.rules } };

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly', setTimeout: 'readonly', setImmediate: 'readonly', AbortSignal: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read configuration through src/platform/config (ARCHITECTURE: no process.env outside the config module).',
        },
      ],
    },
  },
  {
    files: ['src/platform/config/**', 'test/**', 'bench/**', 'scripts/**', 'ormconfig.ts', 'src/main.ts', 'src/cli.ts', '*.js', '*.mjs'],
    rules: { 'no-restricted-syntax': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'class-validator',
              importNames: ['IsUUID'],
              message: 'Use IsUuid from src/platform/http/validators: ids in bodies and queries take the shape path ids take.',
            },
          ],
        },
      ],
    },
  },
  {
    // Architecture rule: modules meet only through each other's index.ts; platform/ and libs/
    // import no module (eslint-rules/module-boundaries.mjs, docs/ARCHITECTURE.md); a module's SQL
    // names only its own tables (eslint-rules/sql-boundaries.mjs, issue 32).
    files: ['src/**/*.ts', 'libs/**/*.ts'],
    plugins: { boundaries },
    rules: { 'boundaries/module-boundaries': 'error', 'boundaries/sql-boundaries': 'error' },
  },
  {
    // Architecture rule: the domain is plain TypeScript.
    files: ['src/modules/*/domain/**/*.ts', 'libs/shared-kernel/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@nestjs/*', '@nestjs-cls/*', 'nestjs-*'], message: 'domain/ must not import NestJS.' },
            { group: ['typeorm', 'typeorm/*', 'pg', 'express', 'express-*'], message: 'domain/ must not import persistence or HTTP libraries.' },
            { group: ['**/infrastructure/**', '**/application/**'], message: 'domain/ must not import application/ or infrastructure/.' },
          ],
        },
      ],
    },
  },
);
