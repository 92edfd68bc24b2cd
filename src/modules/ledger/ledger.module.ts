import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ReferenceModule } from '../reference';
import { AccountUsageProbes } from './application/account-usage';
import { LedgerAllocations } from './application/ledger-allocations';
import { AllocationsController } from './infrastructure/http/allocations.controller';
import { BooksService } from './application/books.service';
import { ChartService } from './application/chart.service';
import { DimensionsService } from './application/dimensions.service';
import { EntryLifecycle } from './application/entry-lifecycle';
import { PartnerDirectory } from './application/partner-directory';
import { LedgerPostings } from './application/post-entry/ledger-postings';
import { LedgerPartnerFacts } from './application/ledger-partner-facts';
import { EditEntry } from './application/edit-entry/edit-entry';
import { EntryLocks } from './application/entry-locks';
import { EntryQueries } from './application/entry-queries/entry-queries';
import { LineEdits } from './application/line-edits/line-edits';
import { ReverseEntry } from './application/reverse-entry/reverse-entry';
import { ScheduledEntries } from './application/scheduled-entries/scheduled-entries';
import { UnbookEntry } from './application/unbook-entry/unbook-entry';
import { AllocationRepository, EntryRepository, LedgerUsageQueries, PostingReader, PostingWriter } from './domain/entry-ports';
import { SqlPostingReader } from './infrastructure/persistence/posting-reader';
import { EntriesController } from './infrastructure/http/entries.controller';
import { EntryPresenter } from './infrastructure/http/entry-presenter';
import { LedgerReads } from './infrastructure/http/ledger-reads';
import { LedgerFigures } from './infrastructure/reads/ledger-figures';
import { SqlEntryRepository } from './infrastructure/persistence/entry.repository';
import { SqlAllocationRepository } from './infrastructure/persistence/allocation.repository';
import { SqlLedgerUsage } from './infrastructure/persistence/ledger-usage.queries';
import { SqlPostingWriter } from './infrastructure/persistence/posting-writer';
import { LedgerEntryBatches } from './infrastructure/import/entry-batches';
import { BookRepository, ChartRepository, DimensionRepository } from './domain/ledger-ports';
import { BooksController, DimensionsController } from './infrastructure/http/books-dimensions.controller';
import { ChartController } from './infrastructure/http/chart.controller';
import { TypeOrmBookRepository, TypeOrmChartRepository, TypeOrmDimensionRepository } from './infrastructure/persistence/ledger.repositories';

/** The books of an Entity: chart of accounts, Books, Dimensions, entries and their lines. */
import { LedgerEntryHost } from './infrastructure/ledger-entry-host';
import { LedgerClosings } from './application/closings/closings';
import { ClosingRepository } from './domain/closing';
import { ClosingsController } from './infrastructure/http/closings.controller';
import { SqlClosingRepository } from './infrastructure/persistence/closing.repository';
import { LedgerBookReads } from './infrastructure/persistence/ledger-book-reads';
import { LedgerBookkeeping } from './infrastructure/ledger-bookkeeping';
import { MonthlyTotalsFolding } from './application/monthly-totals/monthly-totals-folding';
import { MonthlyTotalsFolds } from './domain/monthly-totals';
import { SqlMonthlyTotalsFolds } from './infrastructure/persistence/monthly-totals-folds';

@Module({
  imports: [ReferenceModule, DiscoveryModule],
  controllers: [ChartController, BooksController, DimensionsController, EntriesController, AllocationsController, ClosingsController],
  providers: [
    LedgerEntryHost,
    LedgerEntryBatches,
    LedgerBookkeeping,
    { provide: ChartRepository, useClass: TypeOrmChartRepository },
    { provide: BookRepository, useClass: TypeOrmBookRepository },
    { provide: DimensionRepository, useClass: TypeOrmDimensionRepository },
    { provide: EntryRepository, useClass: SqlEntryRepository },
    { provide: PostingWriter, useClass: SqlPostingWriter },
    { provide: AllocationRepository, useClass: SqlAllocationRepository },
    { provide: LedgerUsageQueries, useClass: SqlLedgerUsage },
    { provide: PostingReader, useClass: SqlPostingReader },
    { provide: ClosingRepository, useClass: SqlClosingRepository },
    { provide: MonthlyTotalsFolds, useClass: SqlMonthlyTotalsFolds },
    MonthlyTotalsFolding,
    LedgerClosings,
    AccountUsageProbes,
    EntryLifecycle,
    PartnerDirectory,
    LedgerPostings,
    EntryLocks,
    EntryQueries,
    EditEntry,
    ReverseEntry,
    UnbookEntry,
    ScheduledEntries,
    LineEdits,
    LedgerAllocations,
    LedgerPartnerFacts,
    EntryPresenter,
    LedgerReads,
    LedgerFigures,
    ChartService,
    BooksService,
    DimensionsService,
    LedgerBookReads,
  ],
  exports: [MonthlyTotalsFolding, LedgerBookReads, ChartService, BooksService, DimensionsService, LedgerPostings, LedgerAllocations, LedgerPartnerFacts, EntryPresenter, LedgerReads, LedgerFigures, LedgerEntryBatches],
})
export class LedgerModule {}
