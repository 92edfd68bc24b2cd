import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { RuntimeConfig } from '../../platform/config/app-config';
import { FxRateProvider, FxRateRepository } from './application/fx-ports';
import { FxRatesService } from './application/fx-rates.service';
import { CmfFxProvider } from './infrastructure/cmf-fx-provider';
import { FxRatesController } from './infrastructure/http/fx-rates.controller';
import { OfflineFxProvider } from './infrastructure/offline-fx-provider';
import { TypeOrmFxRateRepository } from './infrastructure/persistence/fx-rate.repository';

/** The provider named by FX_PROVIDER: `offline` (embedded default) or `cmf` (needs CMF_API_KEY). */
function providerFor(config: ConfigService<RuntimeConfig, true>): FxRateProvider {
  const fx = config.get('fx', { infer: true });
  if (fx.provider === 'cmf' && fx.cmfApiKey) return new CmfFxProvider({ baseUrl: fx.cmfBaseUrl, apiKey: fx.cmfApiKey, timeoutMs: fx.timeoutMs });
  return new OfflineFxProvider();
}

@Module({
  controllers: [FxRatesController],
  providers: [
    { provide: FxRateProvider, useFactory: providerFor, inject: [ConfigService] },
    { provide: FxRateRepository, useClass: TypeOrmFxRateRepository },
    FxRatesService,
  ],
  exports: [FxRatesService],
})
export class FxModule {}
