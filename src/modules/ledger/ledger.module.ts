import { Module, OnModuleInit } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { BookkeepingProbes } from '../entities/application/bookkeeping-probes';
import { ReferenceModule } from '../reference/reference.module';
import { AccountUsageProbes } from './application/account-usage';
import { LedgerAllocations } from './application/ledger-allocations';
import { AllocationsController } from './infrastructure/http/allocations.controller';
import { BooksService } from './application/books.service';
import { ChartService } from './application/chart.service';
import { DimensionsService } from './application/dimensions.service';
import { EntryLifecycle } from './application/entry-lifecycle';
import { LedgerPostings } from './application/post-entry/ledger-postings';
import { LedgerEntriesService } from './application/ledger-entries.service';
import { EntryRepository, PostingReader } from './domain/entry-ports';
import { SqlPostingReader } from './infrastructure/persistence/posting-reader';
import { EntriesController } from './infrastructure/http/entries.controller';
import { EntryPresenter } from './infrastructure/http/entry-presenter';
import { LedgerReads } from './infrastructure/http/ledger-reads';
import { SqlEntryRepository } from './infrastructure/persistence/entry.repository';
import { BookRepository, ChartRepository, DimensionRepository } from './domain/ledger-ports';
import { BooksController, DimensionsController } from './infrastructure/http/books-dimensions.controller';
import { ChartController } from './infrastructure/http/chart.controller';
import { TypeOrmBookRepository, TypeOrmChartRepository, TypeOrmDimensionRepository } from './infrastructure/persistence/ledger.repositories';

/** The books of an Entity: chart of accounts, Books, Dimensions, entries and their lines. */
@Module({
  imports: [ReferenceModule, DiscoveryModule],
  controllers: [ChartController, BooksController, DimensionsController, EntriesController, AllocationsController],
  providers: [
    { provide: ChartRepository, useClass: TypeOrmChartRepository },
    { provide: BookRepository, useClass: TypeOrmBookRepository },
    { provide: DimensionRepository, useClass: TypeOrmDimensionRepository },
    { provide: EntryRepository, useClass: SqlEntryRepository },
    { provide: PostingReader, useClass: SqlPostingReader },
    AccountUsageProbes,
    EntryLifecycle,
    LedgerPostings,
    LedgerEntriesService,
    LedgerAllocations,
    EntryPresenter,
    LedgerReads,
    ChartService,
    BooksService,
    DimensionsService,
  ],
  exports: [AccountUsageProbes, ChartService, BooksService, DimensionsService, LedgerPostings, LedgerAllocations, LedgerEntriesService, EntryRepository, LedgerReads, EntryPresenter],
})
export class LedgerModule implements OnModuleInit {
  constructor(
    private readonly entries: EntryRepository,
    private readonly usage: AccountUsageProbes,
    private readonly bookkeeping: BookkeepingProbes,
    private readonly dimensions: DimensionsService,
  ) {}

  /** What the rest of the books must know about entries (D22, D24, D31, value deletion). */
  onModuleInit(): void {
    this.bookkeeping.register({
      hasRecords: (entityId) => this.entries.hasAnyEntry(entityId),
      earliestScheduledEntryDate: (entityId) => this.entries.earliestScheduledEntryDate(entityId),
    });
    this.usage.registerLines({ accountIdsWithLines: (entityId, ids) => this.entries.accountIdsWithLines(entityId, ids) });
    this.dimensions.registerUsageProbe({ isTagged: (entityId, valueId) => this.entries.dimensionValueIsTagged(entityId, valueId) });
  }
}
