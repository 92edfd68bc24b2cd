/** The consolidation module, for the composition root (D91). */
export { ConsolidationModule } from './consolidation.module';
