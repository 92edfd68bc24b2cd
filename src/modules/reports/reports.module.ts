import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger';
import { ReferenceModule } from '../reference';
import { ReportQueries } from './application/report-queries';
import { ReportsService } from './application/reports.service';
import { ReportsController } from './infrastructure/http/reports.controller';

/** Financial reports: read models over the ledger (GET only, bare JSON). */
@Module({
  imports: [LedgerModule, ReferenceModule],
  controllers: [ReportsController],
  providers: [ReportQueries, ReportsService],
})
export class ReportsModule {}
