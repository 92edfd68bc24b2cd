/** The reports module, for the composition root. */
export { ReportsModule } from './reports.module';
