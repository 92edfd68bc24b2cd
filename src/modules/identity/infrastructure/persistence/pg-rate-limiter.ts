import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { ApiKeyRateLimiter, RateLimitDecision } from '../../../../platform/auth/ports';
import type { RuntimeConfig } from '../../../../platform/config/app-config';

/**
 * D14 in PostgreSQL so every instance shares it: one call of `consume_api_key_request`, which
 * locks the key's row, sums the minute buckets of the last hour and counts the request only when
 * it is admitted (migration IdentityFunctions).
 */
@Injectable()
export class PgApiKeyRateLimiter extends ApiKeyRateLimiter {
  private readonly limit: number;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(ConfigService) config: ConfigService<RuntimeConfig, true>,
  ) {
    super();
    this.limit = config.get('apiKeyRateLimitPerHour', { infer: true });
  }

  async consume(apiKeyId: string): Promise<RateLimitDecision> {
    const [row]: Array<{ allowed: boolean; retry_after_seconds: number }> = await this.dataSource.query(
      'SELECT allowed, retry_after_seconds FROM consume_api_key_request($1, $2)',
      [apiKeyId, this.limit],
    );
    return { allowed: row.allowed, retryAfterSeconds: row.retry_after_seconds };
  }
}
