import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger';
import { ReferenceModule } from '../reference';
import { BankingModule } from '../banking';
import { InvoicesModule } from '../invoices';
import { DashboardQueries } from './application/dashboard-ports';
import { DashboardsService } from './application/dashboards.service';
import { ReportQueries } from './infrastructure/persistence/report-queries';
import { ReportsService } from './application/reports.service';
import { LedgerBooksService } from './application/ledger-books.service';
import { ReportsController } from './infrastructure/http/reports.controller';
import { BookedInvoicesOnBooking, BookedInvoicesReadModel } from './infrastructure/persistence/booked-invoices.read-model';
import { SqlDashboardQueries } from './infrastructure/persistence/dashboard-queries';

/**
 * Financial reports: read models over the ledger (GET only, bare JSON), and the booked-invoices
 * read model kept in the booking, allocation and unbooking transactions (issue 22).
 */
@Module({
  imports: [LedgerModule, ReferenceModule, BankingModule, InvoicesModule],
  controllers: [ReportsController],
  providers: [ReportQueries, ReportsService, LedgerBooksService, DashboardsService, { provide: DashboardQueries, useClass: SqlDashboardQueries }, BookedInvoicesReadModel, BookedInvoicesOnBooking],
})
export class ReportsModule {}
