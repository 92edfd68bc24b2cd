/**
 * The ledger's application API for other modules: import from here only (the lint rule
 * `boundaries/module-api` refuses deeper imports). docs/ARCHITECTURE.md shows how a module posts,
 * allocates, listens and is wired.
 */
export { LedgerModule } from './ledger.module';

// Posting: the one way lines are written (the ledger's own route uses it too).
export { LedgerPostings } from './application/post-entry/ledger-postings';
export type { LedgerPosting, PostingLine, PostingOptions, PostingSource, PostedEntry } from './application/post-entry/ledger-postings';
export type { FieldPath } from './application/post-entry/field-paths';
export type { EntryLine as PostedLine, EntrySource, EntryStatus, Side } from './domain/ledger-entry';

// Allocations: settle open-item lines (a bank match reuses them).
export { LedgerAllocations } from './application/ledger-allocations';
export type { AllocationInput, MatchResult } from './application/ledger-allocations';
export type { AllocationRow as Allocation } from './domain/entry-ports';

// Lifecycle: listeners told when entries leave the books; sources of the documents entries booked.
export { LedgerDocumentSource, LedgerLifecycleListener } from './application/entry-lifecycle';
export type {
  BankMovementSummary,
  EntryDocumentSource,
  EntryLifecycleEvent,
  EntryLifecycleListener,
  EntryLifecycleReason,
  InvoiceSummary,
  RelatedDocuments,
  ReleasedAllocation,
  SeveredDocuments,
  SeveredInvoice,
  SeveredMovement,
} from './application/entry-lifecycle';

// Reads for document modules: an entry in the entry routes' shape, accounts by subtype.
export { LedgerReads } from './infrastructure/http/ledger-reads';
export type { EntryResponse as LedgerEntryResponse } from './infrastructure/http/entries.dto';
// Read by document modules (issue-19, banking): a bank account maps a ledger account (held while
// it is referenced; its usage probe blocks deleting it), book-scoped reads resolve the Book, and a
// booking answers its entry as the entry routes present it.
export { AccountUsageProbes } from './application/account-usage';
export { BooksService } from './application/books.service';
export { ChartService } from './application/chart.service';
export { EntryPresenter } from './infrastructure/http/entry-presenter';
export { EntryResponse } from './infrastructure/http/entries.dto';
