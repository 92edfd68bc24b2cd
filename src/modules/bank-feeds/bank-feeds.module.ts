import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../../platform/clock/clock';
import { encryptionKeyBytes, type RuntimeConfig } from '../../platform/config/app-config';
import { BankingModule } from '../banking';
import { BankConnectionsService } from './application/bank-connections.service';
import { BankConnectionRepository } from './application/bank-feeds-ports';
import { BankProviders, CredentialCipher } from './application/bank-provider';
import { FeedSyncService } from './application/feed-sync.service';
import { AesGcmCipher } from './infrastructure/aes-gcm-cipher';
import { ConfiguredBankProviders } from './infrastructure/bank-providers.registry';
import { BankConnectionsController } from './infrastructure/http/bank-connections.controller';
import { BankFeedsController } from './infrastructure/http/bank-feeds.controller';
import { PeriodicBankSync } from './infrastructure/periodic-sync';
import { SqlBankConnectionRepository } from './infrastructure/persistence/bank-connection.repository';
import { FintocBank } from './infrastructure/providers/fintoc-bank';
import { SandboxBank } from './infrastructure/providers/sandbox-bank';

type Config = ConfigService<RuntimeConfig, true>;

/**
 * Bank connections and feeds (D67-D69, D77): the provider port and its adapters, connections,
 * feeds and their sync. Uses banking only through its index (BankFeedAccounts, BankAccountsService).
 */
@Module({
  imports: [BankingModule],
  controllers: [BankConnectionsController, BankFeedsController],
  providers: [
    { provide: BankConnectionRepository, useClass: SqlBankConnectionRepository },
    {
      provide: CredentialCipher,
      inject: [ConfigService],
      useFactory: (config: Config) => {
        const key = config.get('bankFeeds', { infer: true }).credentialsEncryptionKey;
        const bytes = key ? encryptionKeyBytes(key) : null;
        if (!bytes) throw new Error('CREDENTIALS_ENCRYPTION_KEY is not set (it is generated in DATA_DIR in embedded mode)');
        return new AesGcmCipher(bytes);
      },
    },
    {
      provide: SandboxBank,
      inject: [ConfigService, Clock],
      useFactory: (config: Config, clock: Clock) => {
        const settings = config.get('bankFeeds', { infer: true });
        return new SandboxBank(clock, { dailyMovements: settings.sandboxDailyMovements, failAtPage: settings.sandboxFailAtPage });
      },
    },
    {
      provide: BankProviders,
      inject: [ConfigService, SandboxBank],
      useFactory: (config: Config, sandbox: SandboxBank) => {
        const settings = config.get('bankFeeds', { infer: true });
        const fintoc = settings.fintocSecretKey
          ? new FintocBank({ baseUrl: settings.fintocBaseUrl, secretKey: settings.fintocSecretKey, publicKey: settings.fintocPublicKey, budgetMs: settings.fintocRequestBudgetMs })
          : null;
        return new ConfiguredBankProviders([settings.sandboxEnabled ? sandbox : null, fintoc]);
      },
    },
    BankConnectionsService,
    FeedSyncService,
    PeriodicBankSync,
  ],
})
export class BankFeedsModule {}
