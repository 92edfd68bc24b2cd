// The migrations in the order they run. Written by `npm run migration:generate`.
import { Initial1795334684983 as M0 } from './1795334684983-Initial';
import { IdentitySessions1795334684984 as M1 } from './1795334684984-IdentitySessions';
import { Chart1795335175779 as M2 } from './1795335175779-Chart';
import { Partners1795335449984 as M3 } from './1795335449984-Partners';
import { LedgerEntries1795336504982 as M4 } from './1795336504982-LedgerEntries';
import { ApiKeyAuthentication1795337000000 as M5 } from './1795337000000-ApiKeyAuthentication';
import { MonthlyTotals1795338209499 as M6 } from './1795338209499-MonthlyTotals';
import { PartnerAccountIndex1795339959321 as M7 } from './1795339959321-PartnerAccountIndex';
import { ApiKeyAuthenticationWithTenant1795340000000 as M8 } from './1795340000000-ApiKeyAuthenticationWithTenant';
import { PartnerLedgerCoveringIndex1795437098623 as M9 } from './1795437098623-PartnerLedgerCoveringIndex';
import { SignInFailuresPerAddress1795500000017 as M10 } from './1795500000017-SignInFailuresPerAddress';
import { AgentGateway1795500000023 as M11 } from './1795500000023-AgentGateway';
import { FxRates1795500022000 as M12 } from './1795500022000-FxRates';
import { AuditTrailByEntity1795512160016 as M13 } from './1795512160016-AuditTrailByEntity';
import { Invoices1795702463288 as M14 } from './1795702463288-Invoices';
import { Banking1795702486988 as M15 } from './1795702486988-Banking';
import { BankMatchCandidates1795702486990 as M16 } from './1795702486990-BankMatchCandidates';
import { Attachments1795702771925 as M17 } from './1795702771925-Attachments';
import { TodosComments1795703230869 as M18 } from './1795703230869-TodosComments';
import { BankFeeds1795705307251 as M19 } from './1795705307251-BankFeeds';
import { HistoryReads1795712531025 as M20 } from './1795712531025-HistoryReads';
import { SeveredBookings1795712617051 as M21 } from './1795712617051-SeveredBookings';
import { ReportReadModels1795712882541 as M22 } from './1795712882541-ReportReadModels';
import { DteExportAndLiquidacionTotals1795713090289 as M23 } from './1795713090289-DteExportAndLiquidacionTotals';
import { DashboardIndexes1795714871651 as M24 } from './1795714871651-DashboardIndexes';
import { ReportOpenPositions1795716589094 as M25 } from './1795716589094-ReportOpenPositions';
import { OpenPositionSlots1795718402037 as M26 } from './1795718402037-OpenPositionSlots';
import { SeveredBookingHistory1795722225284 as M27 } from './1795722225284-SeveredBookingHistory';
import { ProposalApplyClaim1795722737805 as M28 } from './1795722737805-ProposalApplyClaim';
import { LineAggregatesInStatements1795724724976 as M29 } from './1795724724976-LineAggregatesInStatements';
import { LedgerReadSeam1796604841914 as M32a } from './1796604841914-LedgerReadSeam';
import { BankCountsWithoutTriggers1796604958635 as M34a } from './1796604958635-BankCountsWithoutTriggers';
import { LedgerClosings1796607529126 as M35a } from './1796607529126-LedgerClosings';
import { AttachmentConfirmClaim1796607543192 as M33a } from './1796607543192-AttachmentConfirmClaim';
import { DteFolioLeadingZeros1796607552089 as M33b } from './1796607552089-DteFolioLeadingZeros';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const MIGRATIONS: Function[] = [M0, M1, M2, M3, M4, M5, M6, M7, M8, M9, M10, M11, M12, M13, M14, M15, M16, M17, M18, M19, M20, M21, M22, M23, M24, M25, M26, M27, M28, M29, M32a, M34a, M35a, M33a, M33b];
