/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  roots: ['<rootDir>/src', '<rootDir>/libs', '<rootDir>/test'],
  testRegex: '\\.(spec|e2e-spec)\\.ts$',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  testEnvironment: 'node',
  setupFilesAfterEnv: ['<rootDir>/test/harness/sql-count-setup.ts'],
  globalSetup: '<rootDir>/test/harness/global-setup.ts',
  globalTeardown: '<rootDir>/test/harness/global-teardown.ts',
  // A Citus cluster (TEST_DATABASE_URL, docs/CITUS.md) clones each file's database on every node: slower hooks.
  testTimeout: process.env.TEST_DATABASE_URL ? 180000 : 30000,
  maxWorkers: 2,
};
