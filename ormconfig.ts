import { DataSource } from 'typeorm';
import { loadConfig } from './src/platform/config/app-config';
import { appDataSourceOptions as dataSourceOptions } from './src/schema';

/**
 * The data source for TypeORM tooling against a real server (DATABASE_URL). The npm scripts
 * `migration:run` and `migration:generate` use embedded servers when DATABASE_URL is unset.
 */
const config = loadConfig(process.env);
if (!config.databaseUrl) {
  throw new Error('DATABASE_URL is required here; `npm run migration:run` uses the embedded server when it is unset.');
}

export default new DataSource(dataSourceOptions(config.databaseUrl));
