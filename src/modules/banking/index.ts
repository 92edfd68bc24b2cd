export { BankingModule } from './banking.module';
export { BankAccountsService } from './application/bank-accounts.service';
export { BankMovementsService } from './application/bank-movements.service';
export { BankBookingService } from './application/bank-booking.service';
export type { BankAccount, BankAccountKind, BankAccountSummary, BankFeed } from './domain/bank-account';
export type { BankMovement, MovementSide, MovementSource } from './domain/bank-movement';
export { BankFeedAccounts } from './application/bank-feed-accounts.service';
export type { FedMovementInput, FeedColumns } from './application/bank-feed-accounts.service';
export { BankAccountResponse, BankAccountWithSummaryResponse } from './infrastructure/http/banking.dto';
export { presentAccount, presentSummary } from './infrastructure/http/presenters';
export { BANKING_RECORDS } from './infrastructure/persistence/banking.records';
// Read seam (issue 32): the movements and accounts as SQL parts, for other modules' statements.
export { bankAccountsSql, bankMovementsSql } from './infrastructure/persistence/banking-read.sql';
