/** Reference data (countries, currencies) for other modules; import from here only (eslint `boundaries` rule). */
export { ReferenceModule } from './reference.module';
export { ReferenceDataService } from './application/reference-data.service';
