import type { MixedList } from 'typeorm';
import { MIGRATIONS } from '../../../migrations';
import { AUDIT_RECORDS } from '../../modules/audit/infrastructure/audit-trail.record';
import { BANKING_RECORDS } from '../../modules/banking/infrastructure/persistence/banking.records';
import { BANK_FEEDS_RECORDS } from '../../modules/bank-feeds/infrastructure/persistence/bank-feeds.records';
import { EntityRecord } from '../../modules/entities/infrastructure/persistence/entity.records';
import { ENTRY_RECORDS } from '../../modules/ledger/infrastructure/persistence/entry.records';
import { LEDGER_RECORDS } from '../../modules/ledger/infrastructure/persistence/ledger.records';
import { PartnerRecord } from '../../modules/partners/infrastructure/persistence/partner.record';
import { IDENTITY_RECORDS } from '../../modules/identity/infrastructure/persistence/identity.records';
import { ORGANIZATION_RECORDS } from '../../modules/organizations/infrastructure/persistence/organization.records';

/**
 * Every TypeORM entity of the service. The migrations are the schema's source of truth; a test
 * fails when generating a migration from these entities would not be empty.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const ENTITIES: MixedList<Function> = [...IDENTITY_RECORDS, ...ORGANIZATION_RECORDS, EntityRecord, ...AUDIT_RECORDS, ...LEDGER_RECORDS, PartnerRecord, ...ENTRY_RECORDS, ...BANKING_RECORDS, ...BANK_FEEDS_RECORDS];

export { MIGRATIONS };
