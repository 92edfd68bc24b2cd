// The fx module's application API (D80): other modules use only what is exported here.
export { FxModule } from './fx.module';
export { FxRatesService } from './application/fx-rates.service';
export { fxRateNotFound, MAX_RATE_AGE_DAYS } from './domain/fx-rate';
export type { EffectiveFxRate, FxRate } from './domain/fx-rate';
export { FX_RECORDS } from './infrastructure/persistence/fx-rate.record';
