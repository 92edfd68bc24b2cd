/**
 * The ledger's application API for other modules: import from here only (the lint rule
 * `boundaries/module-api` refuses deeper imports). docs/ARCHITECTURE.md shows how a module posts,
 * allocates, listens and is wired.
 */
export { LedgerModule } from './ledger.module';

// Posting: the one way lines are written (the ledger's own route uses it too).
export { LedgerPostings } from './application/post-entry/ledger-postings';
export type { ConditionalPostingOptions, LedgerPosting, PostingLine, PostingOptions, PostingSource, PostedEntry } from './application/post-entry/ledger-postings';
export type { PostingSources } from './domain/ledger-entry';
export type { BatchRefusal, PostedBatch } from './application/post-entry/ledger-postings';
export type { FieldPath } from './application/post-entry/field-paths';
// Batches of entries in the body shape of POST .../ledger/entries (the entry-batches route, the ledger:import command).
export { LedgerEntryBatches } from './infrastructure/import/entry-batches';
export { readEntryFile } from './infrastructure/import/entry-file';
export type { EntryFileItem } from './infrastructure/import/entry-file';
export type { EntryLine as PostedLine, EntrySource, EntryStatus, Side } from './domain/ledger-entry';

// Allocations: settle open-item lines (a bank match reuses them).
export { LedgerAllocations } from './application/ledger-allocations';
export type { AllocationInput, MatchResult } from './application/ledger-allocations';
export type { AllocationRow as Allocation } from './domain/entry-ports';

// Lifecycle: listeners told when entries leave the books; sources of the documents entries booked.
export { LedgerDocumentSource, LedgerLifecycleListener } from './application/entry-lifecycle';
export type {
  EntryDocumentSource,
  EntryLifecycleEvent,
  EntryLifecycleListener,
  EntryLifecycleReason,
  MadeAllocation,
  RelatedDocuments,
  ReleasedAllocation,
  SeveredDocuments,
  RelatedDocumentKinds,
  SeveredDocumentKinds,
} from './application/entry-lifecycle';

// The chart, Books and Dimensions, for modules that name accounts or read by Book.
export { BooksService } from './application/books.service';
export { ChartService } from './application/chart.service';
export { DimensionsService } from './application/dimensions.service';
// Port: a module whose records keep a ledger account from deletion marks a provider with it (D31).
export { AccountUsageProvider } from './application/account-usage';
export type { AccountUsageProbe } from './application/account-usage';
// A booking of another module (banking) answers its entry as the entry routes present it.
export { EntryPresenter } from './infrastructure/http/entry-presenter';
export { EntryResponse } from './infrastructure/http/entries.dto';
export { ACCOUNT_TYPES, isResultType, normalSideOf, sameFamily } from './domain/account-types';
export type { AccountType, Tracking } from './domain/account-types';
export { ledgerAccountNotFound, tooManyLines } from './domain/ledger-errors';
export { dimensionNotFound } from './domain/books-dimensions';
// D39/D66: the checks of a match selection, for a module matching lines with the ledger's codes (banking).
export { judgeMatchSelection } from './domain/allocation';

// Reads for document modules: an entry in the entry routes' shape.
export { LedgerReads } from './infrastructure/http/ledger-reads';
export { EntryResponse as LedgerEntryResponse } from './infrastructure/http/entries.dto';

// The read seam (issue 32): balances, live lines and open items, read only through these.
// LedgerReadSql: statement parts (relations, conditions) composed into another module's statement;
// LedgerFigures: balances by account, Book and range from the monthly totals, with D90's closing rule.
export { CLOSING_SOURCE, LedgerReadSql } from './infrastructure/reads/ledger-read-sql';
export type { BookScope, ClosingRule, LedgerScope, SqlExpression } from './infrastructure/reads/ledger-read-sql';
export { LedgerFigures } from './infrastructure/reads/ledger-figures';
export type { AccountGroupRow, AccountPeriodFigures, ClosingRange, GroupAccountBalance, LineKey } from './infrastructure/reads/ledger-figures';
export { splitBefore, splitRange } from './domain/month-ranges';
export type { DateSpan, SplitRange } from './domain/month-ranges';

// The books read whole, streamed (D2a) for the journal, general ledger and Libro Mayor exports (D93).
export { LedgerBookReads, LedgerBookReader } from './infrastructure/persistence/ledger-book-reads';
export type { BookLineRow, BookSpans, JournalFilter } from './infrastructure/persistence/ledger-book-reads';

// Issue 36c: past months' monthly totals folded into one row each (the periodic job; the CLI folds at once).
export { MonthlyTotalsFolding } from './application/monthly-totals/monthly-totals-folding';
export type { FoldedTotals } from './application/monthly-totals/monthly-totals-folding';
export type { FoldRound } from './domain/monthly-totals';

// Ports the ledger owns and another module implements.
export { PartnerDirectoryProvider } from './application/partner-directory';
export type { PartnerDirectoryPort } from './application/partner-directory';
export { LedgerPartnerFacts } from './application/ledger-partner-facts';

import { ENTRY_RECORDS } from './infrastructure/persistence/entry.records';
import { LEDGER_RECORDS as CHART_RECORDS } from './infrastructure/persistence/ledger.records';
import { CLOSING_RECORDS } from './infrastructure/persistence/closing.records';
/** The module's tables, for the schema list of the composition root (src/schema.ts). */
export const LEDGER_RECORDS = [...CHART_RECORDS, ...ENTRY_RECORDS, ...CLOSING_RECORDS];

/** The key that stands for "no Book" (a common entry's) in the per-Book totals and read models. */
export { NIL_BOOK } from './infrastructure/persistence/ledger-sql';
