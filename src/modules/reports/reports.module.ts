import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { ReferenceModule } from '../reference/reference.module';
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
