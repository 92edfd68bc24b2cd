import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Pool } from 'pg';
import type { RuntimeConfig } from '../config/app-config';

/**
 * The readiness probe's own database connection (D2a): under a flood of requests the
 * application's pool has a queue, and a probe waiting in it would report a busy service as down.
 * This one connection answers `SELECT 1` whatever the pool is doing.
 */
@Injectable()
export class HealthConnection implements OnModuleDestroy {
  private readonly pool: Pool;

  constructor(config: ConfigService<RuntimeConfig, true>) {
    this.pool = new Pool({ connectionString: config.get('databaseUrl', { infer: true }), max: 1, idleTimeoutMillis: 60_000, application_name: 'health' });
    this.pool.on('error', () => undefined); // a dropped idle connection is replaced by the next ping
  }

  /** Resolves when the database answers within `timeoutMs`. */
  async ping(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.pool.query({ text: 'SELECT 1', query_timeout: timeoutMs } as never),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('database did not answer in time')), timeoutMs))),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.end();
  }
}
