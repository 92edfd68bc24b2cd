import { Module } from '@nestjs/common';
import { AccountUsageProbes } from './application/account-usage';
import { BooksService } from './application/books.service';
import { ChartService } from './application/chart.service';
import { DimensionsService } from './application/dimensions.service';
import { BookRepository, ChartRepository, DimensionRepository } from './domain/ledger-ports';
import { BooksController, DimensionsController } from './infrastructure/http/books-dimensions.controller';
import { ChartController } from './infrastructure/http/chart.controller';
import { TypeOrmBookRepository, TypeOrmChartRepository, TypeOrmDimensionRepository } from './infrastructure/persistence/ledger.repositories';

/** The books of an Entity: chart of accounts, Books and Dimensions (entries arrive with the ledger issue). */
@Module({
  controllers: [ChartController, BooksController, DimensionsController],
  providers: [
    { provide: ChartRepository, useClass: TypeOrmChartRepository },
    { provide: BookRepository, useClass: TypeOrmBookRepository },
    { provide: DimensionRepository, useClass: TypeOrmDimensionRepository },
    AccountUsageProbes,
    ChartService,
    BooksService,
    DimensionsService,
  ],
  exports: [AccountUsageProbes, ChartService, BooksService, DimensionsService],
})
export class LedgerModule {}
