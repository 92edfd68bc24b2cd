/** The partners module's API for other modules; import from here only (eslint `boundaries` rule). */
export { PartnersModule } from './partners.module';
export { partnerNotFound } from './domain/partner';
// For invoices (issue 18): a partner's RUT, name and default purchase account; the in-use probe.
export { PartnersService } from './application/partners.service';
// Port: a module whose records name partners (invoices) marks a provider with it (D45).
export { PartnerUsageProvider } from './application/partners.service';
export type { PartnerUsageProbe } from './application/partners.service';
export type { Partner, PartnerIdentity } from './domain/partner';

import { PartnerRecord } from './infrastructure/persistence/partner.record';
/** The module's tables, for the schema list of the composition root (src/schema.ts). */
export const PARTNER_RECORDS = [PartnerRecord];

// Read seam (issue 32): SQL parts for the statements of other modules (names by id, RUTs).
export { groupPartnerFactsSql, partnerFactsSql, partnerNameSql } from './infrastructure/persistence/partner-read.sql';
