import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { newTimeOrderedId } from '../../../../libs/shared-kernel/src';
import { OfferedAuditRow } from '../../../platform/audit/offered-audit-row';
import { Clock, isoDateIn } from '../../../platform/clock/clock';
import type { RuntimeConfig } from '../../../platform/config/app-config';
import { BankAccount, BankAccountsService, BankFeedAccounts } from '../../banking';
import { syncWindow } from '../domain/bank-connection';
import { bankFeedNotFound, bankProviderError } from '../domain/bank-feeds-errors';
import { BankConnectionRepository } from './bank-feeds-ports';
import { BankProviderFailure, BankProviders, CredentialCipher, openLink, ProviderMovement } from './bank-provider';

export interface SyncResult {
  landedCount: number;
  skippedCount: number;
}

/**
 * D69: a sync reads the whole window from the provider first (no lock held, nothing written);
 * a failure at any page answers 502 BANK_PROVIDER_ERROR with the connection's status recorded in
 * its own committed transaction, and nothing of the sync lands. Then, under the connection's and
 * the account's row locks (the order a connection's deletion takes them too), it checks the feed
 * is still the one read and lands each movement once (INSERT ... ON CONFLICT DO NOTHING on the
 * unique key per bank account and provider id), sets `lastSyncedAt` and the connection active.
 * No transaction is open while the provider is asked (the routes and the periodic job run it with
 * `ownTransaction`): the landing transaction inserts the sync's audit row.
 */
@Injectable()
export class FeedSyncService {
  private readonly logger = new Logger('BankFeeds');
  private readonly timeZone: string;

  constructor(
    private readonly connections: BankConnectionRepository,
    private readonly providers: BankProviders,
    private readonly cipher: CredentialCipher,
    private readonly feedAccounts: BankFeedAccounts,
    private readonly bankAccounts: BankAccountsService,
    private readonly clock: Clock,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly auditRow: OfferedAuditRow,
    config: ConfigService<RuntimeConfig, true>,
  ) {
    this.timeZone = config.get('businessTimezone', { infer: true });
  }

  async sync(entityId: string, bankAccountId: string): Promise<SyncResult> {
    const account = await this.bankAccounts.get(entityId, bankAccountId);
    if (!account.feed) throw bankFeedNotFound({ bankAccountId });
    const feed = account.feed;
    const connection = await this.connections.find(entityId, feed.bankConnectionId);
    if (!connection) throw bankFeedNotFound({ bankAccountId });
    const window = syncWindow(this.clock.today(), feed.lastSyncedAt ? isoDateIn(this.timeZone, feed.lastSyncedAt) : null);

    let movements: ProviderMovement[];
    try {
      const adapter = this.providers.get(connection.provider);
      if (!adapter) throw new BankProviderFailure({ status: 'error', message: `The ${connection.provider} provider is not enabled on this service` });
      movements = await adapter.movements(openLink(this.cipher, connection), feed.providerAccountId, window);
    } catch (error) {
      if (!(error instanceof BankProviderFailure)) throw error;
      await this.connections.recordFailureNow(entityId, connection.id, error.info, this.clock.now());
      this.logger.warn(`sync of bank account ${bankAccountId} (connection ${connection.id}) failed: ${error.info.status}: ${error.info.message}`);
      throw bankProviderError({ provider: connection.provider, bankConnectionId: connection.id, bankAccountId, status: error.info.status, reason: error.info.message });
    }

    return this.txHost.withTransaction(async () => {
      const held = await this.connections.lock(entityId, connection.id);
      const locked = await this.feedAccounts.lock(entityId, bankAccountId);
      if (!held || !locked || !sameFeed(locked, feed.bankConnectionId, feed.providerAccountId)) throw bankFeedNotFound({ bankAccountId, bankConnectionId: connection.id });
      const now = this.clock.now();
      const landedCount = await this.feedAccounts.land(
        entityId,
        bankAccountId,
        movements.map((m) => ({ ...m, id: newTimeOrderedId() })),
        now,
      );
      await this.feedAccounts.markSynced(entityId, bankAccountId, now);
      if (held.status !== 'active' || held.lastError !== null) await this.connections.update({ ...held, status: 'active', lastError: null, updatedAt: now });
      await this.auditRow.record(bankAccountId);
      this.logger.log(`synced bank account ${bankAccountId} ${window.since}..${window.until}: ${landedCount} landed, ${movements.length - landedCount} already there`);
      return { landedCount, skippedCount: movements.length - landedCount };
    });
  }

  /** DELETE .../feed: the account and its movements remain. */
  detach(entityId: string, bankAccountId: string): Promise<BankAccount> {
    return this.txHost.withTransaction(async () => {
      const account = await this.feedAccounts.lock(entityId, bankAccountId);
      if (!account) return this.bankAccounts.get(entityId, bankAccountId);
      if (!account.feed) throw bankFeedNotFound({ bankAccountId });
      const now = this.clock.now();
      await this.feedAccounts.setFeed(entityId, bankAccountId, null, now);
      return { ...account, feed: null, updatedAt: now };
    });
  }
}

function sameFeed(account: BankAccount, bankConnectionId: string, providerAccountId: string): boolean {
  return account.feed?.bankConnectionId === bankConnectionId && account.feed.providerAccountId === providerAccountId;
}
