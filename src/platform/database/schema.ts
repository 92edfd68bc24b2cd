import type { MixedList } from 'typeorm';
import { MIGRATIONS } from '../../../migrations';
import { BANKING_RECORDS } from '../../modules/banking/infrastructure/persistence/banking.records';
import { AuditTrailRecord } from '../../modules/audit/infrastructure/audit-trail.record';
import { FxRateRecord } from '../../modules/fx/infrastructure/persistence/fx-rate.record';
import { EntityRecord } from '../../modules/entities/infrastructure/persistence/entity.records';
import { ENTRY_RECORDS } from '../../modules/ledger/infrastructure/persistence/entry.records';
import { LEDGER_RECORDS } from '../../modules/ledger/infrastructure/persistence/ledger.records';
import { PartnerRecord } from '../../modules/partners/infrastructure/persistence/partner.record';
import { INVOICE_RECORDS } from '../../modules/invoices/infrastructure/persistence/invoice.records';
import { IDENTITY_RECORDS } from '../../modules/identity/infrastructure/persistence/identity.records';
import { ORGANIZATION_RECORDS } from '../../modules/organizations/infrastructure/persistence/organization.records';

/**
 * Every TypeORM entity of the service. The migrations are the schema's source of truth; a test
 * fails when generating a migration from these entities would not be empty.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const ENTITIES: MixedList<Function> = [...IDENTITY_RECORDS, ...ORGANIZATION_RECORDS, EntityRecord, AuditTrailRecord, ...LEDGER_RECORDS, PartnerRecord, ...ENTRY_RECORDS, FxRateRecord, ...INVOICE_RECORDS, ...BANKING_RECORDS];

export { MIGRATIONS };
