import { Module } from '@nestjs/common';
import { FxModule } from '../fx';
import { LedgerModule } from '../ledger';
import { PartnersModule } from '../partners';
import { ReferenceModule } from '../reference';
import { ConsolidatedReportsService } from './application/consolidated-reports.service';
import { ConsolidationController } from './infrastructure/http/consolidation.controller';

/** Consolidated reports over an Entity's controlled tree (D91): GET only, reads the members' books through the ledger's API. */
@Module({
  imports: [LedgerModule, PartnersModule, FxModule, ReferenceModule],
  controllers: [ConsolidationController],
  providers: [ConsolidatedReportsService],
})
export class ConsolidationModule {}
