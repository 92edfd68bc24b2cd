import { AGENT_RECORDS } from './modules/agents';
import { ATTACHMENT_RECORDS } from './modules/attachments';
import { COMMENT_RECORDS } from './modules/comments';
import { TODO_RECORDS } from './modules/todos';
import { AUDIT_RECORDS } from './modules/audit';
import { BANKING_RECORDS } from './modules/banking';
import { BANK_FEEDS_RECORDS } from './modules/bank-feeds';
import { ENTITY_RECORDS } from './modules/entities';
import { FX_RECORDS } from './modules/fx';
import { IDENTITY_RECORDS } from './modules/identity';
import { INVOICE_RECORDS } from './modules/invoices';
import { LEDGER_RECORDS } from './modules/ledger';
import { ORGANIZATION_RECORDS } from './modules/organizations';
import { PARTNER_RECORDS } from './modules/partners';
import { REPORT_RECORDS } from './modules/reports';
import { TAX_RECORDS } from './modules/tax';
import { MIGRATIONS } from '../migrations';
import { DatabaseSchema, dataSourceOptions } from './platform/database/data-source-options';
import type { DataSourceOptions } from 'typeorm';

/**
 * Every TypeORM entity of the service, assembled at the composition root from what each module's
 * index exports (platform/ imports no module; a new module adds its line here and in
 * app.module.ts). The migrations are the schema's source of truth; a test fails when generating a
 * migration from these entities would not be empty.
 */
export const RECORDS = [
  ...IDENTITY_RECORDS,
  ...ORGANIZATION_RECORDS,
  ...ENTITY_RECORDS,
  ...AUDIT_RECORDS,
  ...LEDGER_RECORDS,
  ...PARTNER_RECORDS,
  ...AGENT_RECORDS,
  ...BANKING_RECORDS,
  ...INVOICE_RECORDS,
  ...ATTACHMENT_RECORDS,
  ...TODO_RECORDS,
  ...COMMENT_RECORDS,
  ...FX_RECORDS,
  ...BANK_FEEDS_RECORDS,
  ...REPORT_RECORDS,
  ...TAX_RECORDS,
];

/** The service's schema: the records above and the migrations (migrations/index.ts), given to the platform's database. */
export const SCHEMA: DatabaseSchema = { records: RECORDS, migrations: MIGRATIONS };

/** The service's data source: its entities and migrations on this database. */
export function appDataSourceOptions(url: string, poolSize?: number): DataSourceOptions {
  return dataSourceOptions(url, SCHEMA, poolSize);
}
