export { BankingModule } from './banking.module';
export { BankAccountsService } from './application/bank-accounts.service';
export { BankMovementsService } from './application/bank-movements.service';
export { BankBookingService } from './application/bank-booking.service';
export type { BankAccount, BankAccountKind, BankAccountSummary, BankFeed } from './domain/bank-account';
export type { BankMovement, MovementSide, MovementSource } from './domain/bank-movement';
export { BANKING_RECORDS } from './infrastructure/persistence/banking.records';
