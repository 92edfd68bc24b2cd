import { DataSource } from 'typeorm';
import { appDataSourceOptions as dataSourceOptions } from '../src/schema';
import { createTestDatabase } from './harness/test-app';

describe('database schema', () => {
  it('matches the entities: generating a migration would be empty', async () => {
    const dataSource = await new DataSource(dataSourceOptions(await createTestDatabase(), 1)).initialize();
    try {
      const pending = await dataSource.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((query) => query.query)).toEqual([]);
    } finally {
      await dataSource.destroy();
    }
  });

  it('has every migration applied in the template', async () => {
    const dataSource = await new DataSource(dataSourceOptions(await createTestDatabase(), 1)).initialize();
    try {
      expect(await dataSource.showMigrations()).toBe(false);
    } finally {
      await dataSource.destroy();
    }
  });
});
