/** The Entities module's API for other modules; import from here only (eslint `boundaries` rule). */
export { EntitiesModule } from './entities.module';
export { EntitiesService } from './application/entities.service';
export type { EntityViewer } from './application/entities.service';
// Port: a module whose records lock an Entity's identity fields (D22) marks a provider with it.
export { BookkeepingProbeProvider } from './application/bookkeeping-probes';
export type { BookkeepingProbe } from './application/bookkeeping-probes';
// Errors other modules answer with the Entities' own code (declared once, here).
export { entityNotFound } from './domain/entity-errors';
export { EntityRecord } from './infrastructure/persistence/entity.records';
// The posting terms as a subquery, for the ledger's one-statement posting.
export { entityFactsSql, postingTermsSql } from './infrastructure/persistence/posting-terms.sql';
export { entityRowLockSql } from './infrastructure/persistence/entity-row-lock.sql';

import { EntityRecord } from './infrastructure/persistence/entity.records';
/** The module's tables, for the schema list of the composition root (src/schema.ts). */
export const ENTITY_RECORDS = [EntityRecord];
