import { Module } from '@nestjs/common';
import { FxModule } from '../fx';
import { LedgerModule } from '../ledger';
import { ReferenceModule } from '../reference';
import { ConsolidatedReportsService } from './application/consolidated-reports.service';
import { ConsolidationController } from './infrastructure/http/consolidation.controller';
import { MemberBalances } from './infrastructure/persistence/member-balances';

/** Consolidated reports over an Entity's controlled tree (D91): GET only, reads the members' books through the ledger's API. */
@Module({
  imports: [LedgerModule, FxModule, ReferenceModule],
  controllers: [ConsolidationController],
  providers: [ConsolidatedReportsService, MemberBalances],
})
export class ConsolidationModule {}
