/** Partners for other modules: import from here only. */
export { PartnersModule } from './partners.module';
export { PartnersService } from './application/partners.service';
export type { PartnerLedgerProbe } from './application/partners.service';
export type { Partner } from './domain/partner';
