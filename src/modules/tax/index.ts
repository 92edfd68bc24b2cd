/** The tax module's API (issue 37, D92): its Nest module and its tables; import from here only. */
export { TaxModule } from './tax.module';

import { TAX_RECORDS as RECORDS } from './infrastructure/persistence/rcv.records';
/** The module's tables, for the schema list of the composition root (src/schema.ts). */
export const TAX_RECORDS = RECORDS;
