/** The reports module, for the composition root. */
export { ReportsModule } from './reports.module';
// D52's results over any five sections (the consolidated income statement, issue 36).
export { withResults } from './domain/statements';

import { REPORT_RECORDS as RECORDS } from './infrastructure/persistence/report.records';
/** The module's read-model tables, for the schema list of the composition root (src/schema.ts). */
export const REPORT_RECORDS = RECORDS;
