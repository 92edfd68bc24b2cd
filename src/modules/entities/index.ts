/** Entities for other modules: import from here only. */
export { EntitiesModule } from './entities.module';
export { EntitiesService } from './application/entities.service';
export { BookkeepingProbes } from './application/bookkeeping-probes';
export type { BookkeepingProbe } from './application/bookkeeping-probes';
