/** The partners module's API for other modules; import from here only (eslint `boundaries` rule). */
export { PartnersModule } from './partners.module';
export { partnerNotFound } from './domain/partner';

import { PartnerRecord } from './infrastructure/persistence/partner.record';
/** The module's tables, for the schema list of the composition root (src/schema.ts). */
export const PARTNER_RECORDS = [PartnerRecord];
