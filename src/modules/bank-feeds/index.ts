export { BankFeedsModule } from './bank-feeds.module';
