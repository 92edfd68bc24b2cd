export { BankFeedsModule } from './bank-feeds.module';
export { BANK_FEEDS_RECORDS } from './infrastructure/persistence/bank-feeds.records';
