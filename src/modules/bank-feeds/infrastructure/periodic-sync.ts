import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ClsService } from 'nestjs-cls';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../../libs/shared-kernel/src';
import { SystemWrites } from '../../../platform/audit/system-writes';
import type { RuntimeConfig } from '../../../platform/config/app-config';
import { BankFeedAccounts } from '../../banking';
import { FeedSyncService } from '../application/feed-sync.service';

/** One key for the whole service: one instance at a time runs the periodic sync. */
const ADVISORY_LOCK_KEY = 'bank-feeds:periodic-sync';

export interface PeriodicRun {
  /** false when another instance (or run) held the lock: nothing done. */
  ran: boolean;
  synced: number;
  failed: number;
  landed: number;
}

/**
 * Optional periodic sync (BANK_SYNC_INTERVAL_MINUTES, off at 0): every fed bank account, one
 * sync each, as the system actor `system:bank-sync` (each sync's audit row in its transaction),
 * on one instance at a time (a session-level PostgreSQL advisory lock held for the run). A
 * failed sync is logged and the run goes on; the connection status records it (D69).
 */
@Injectable()
export class PeriodicBankSync implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('BankFeeds');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<PeriodicRun> | null = null;

  constructor(
    private readonly config: ConfigService<RuntimeConfig, true>,
    private readonly dataSource: DataSource,
    private readonly cls: ClsService,
    private readonly systemWrites: SystemWrites,
    private readonly feedAccounts: BankFeedAccounts,
    private readonly feeds: FeedSyncService,
  ) {}

  onApplicationBootstrap(): void {
    const minutes = this.config.get('bankFeeds', { infer: true }).syncIntervalMinutes;
    if (minutes <= 0) return;
    this.timer = setInterval(() => void this.runOnce().catch((error: unknown) => this.logger.error(`periodic bank sync stopped: ${String(error)}`)), minutes * 60_000);
    this.timer.unref();
    this.logger.log(`periodic bank sync every ${minutes} minutes`);
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One run now (the timer's, or a test's). */
  runOnce(): Promise<PeriodicRun> {
    const run = this.run();
    this.running = run;
    return run;
  }

  private async run(): Promise<PeriodicRun> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const [{ locked }] = (await runner.query(`SELECT pg_try_advisory_lock(hashtext($1)) AS locked`, [ADVISORY_LOCK_KEY])) as Array<{ locked: boolean }>;
      if (!locked) {
        this.logger.log('periodic bank sync skipped: another instance is running it');
        return { ran: false, synced: 0, failed: 0, landed: 0 };
      }
      try {
        return await this.syncAll();
      } finally {
        await runner.query(`SELECT pg_advisory_unlock(hashtext($1))`, [ADVISORY_LOCK_KEY]);
      }
    } finally {
      await runner.release();
    }
  }

  private async syncAll(): Promise<PeriodicRun> {
    const feeds = await this.cls.run(() => this.feedAccounts.everyFeed());
    this.logger.log(`periodic bank sync: ${feeds.length} feeds`);
    const result: PeriodicRun = { ran: true, synced: 0, failed: 0, landed: 0 };
    for (const { entityId, bankAccountId } of feeds) {
      try {
        const synced = await this.systemWrites.run({ actor: 'system:bank-sync', action: 'bank_feed.sync', resourceType: 'bank_account', entityId, resourceId: bankAccountId, ownTransaction: true }, () =>
          this.feeds.sync(entityId, bankAccountId),
        );
        result.synced++;
        result.landed += synced.landedCount;
      } catch (error) {
        result.failed++;
        const what = error instanceof DomainError ? `${error.code} ${JSON.stringify(error.params)}` : error instanceof Error ? error.message : String(error);
        this.logger.warn(`periodic sync of bank account ${bankAccountId} (entity ${entityId}) failed: ${what}`);
      }
    }
    this.logger.log(`periodic bank sync done: ${result.synced} synced (${result.landed} movements landed), ${result.failed} failed`);
    return result;
  }
}
