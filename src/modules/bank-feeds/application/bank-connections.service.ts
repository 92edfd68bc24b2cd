import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { validationError } from '../../../../libs/shared-kernel/src';
import { OfferedAuditRow } from '../../../platform/audit/offered-audit-row';
import { Clock } from '../../../platform/clock/clock';
import { translateUniqueViolation } from '../../../platform/database/pg-errors';
import { BankAccount, BankAccountsService, BankAccountSummary, BankFeedAccounts } from '../../banking';
import type { BankConnection, BankProviderKind, HolderType } from '../domain/bank-connection';
import {
  accountPublicationUnsupported,
  bankAccountAlreadyFed,
  bankConnectionAlreadyExists,
  bankConnectionNotFound,
  bankProviderError,
  feedCurrencyMismatch,
  providerAccountNotFound,
} from '../domain/bank-feeds-errors';
import { BankConnectionRepository, StoredConnection } from './bank-feeds-ports';
import { BankProvider, BankProviderFailure, BankProviders, CredentialCipher, LinkIntent, openLink, ProviderAccount } from './bank-provider';

export interface ConnectionWithFeeds {
  connection: BankConnection;
  fedBankAccounts: BankAccount[];
}

export interface PanelAccount {
  providerAccountId: string;
  name: string;
  number: string;
  type: string;
  currency: string;
  balances: { available: number; current: number } | null;
  refreshedAt: Date | null;
  /** Discovered by this read of the provider (false: an account a feed names that the provider no longer lists). */
  observed: boolean;
  fedBankAccount: BankAccount | null;
}

/** D68, D68a, D77: bank connections, their live accounts panel and the feeds they serve. */
@Injectable()
export class BankConnectionsService {
  constructor(
    private readonly connections: BankConnectionRepository,
    private readonly providers: BankProviders,
    private readonly cipher: CredentialCipher,
    private readonly feedAccounts: BankFeedAccounts,
    private readonly bankAccounts: BankAccountsService,
    private readonly clock: Clock,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly auditRow: OfferedAuditRow,
  ) {}

  /** 400 when the provider is not enabled (sandbox unless BANK_SANDBOX_ENABLED=false; fintoc with FINTOC_SECRET_KEY). */
  private adapter(kind: BankProviderKind): BankProvider {
    const adapter = this.providers.get(kind);
    if (!adapter) throw validationError('provider', `must be an enabled provider: ${this.providers.enabled().join(', ') || 'none is enabled'}`);
    return adapter;
  }

  /** A provider call: a failure answers 502 BANK_PROVIDER_ERROR (recorded on the connection when there is one). */
  private async call<T>(connection: StoredConnection | null, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof BankProviderFailure)) throw error;
      if (error.inputRejected) throw validationError('exchangeToken', `was refused by the provider: ${error.info.message}`);
      if (connection) await this.connections.recordFailureNow(connection.entityId, connection.id, error.info, this.clock.now());
      throw bankProviderError({ provider: connection?.provider, bankConnectionId: connection?.id ?? null, status: error.info.status, reason: error.info.message });
    }
  }

  async linkIntent(entityId: string, input: { provider: BankProviderKind; holderType?: HolderType }): Promise<LinkIntent & { provider: BankProviderKind }> {
    const adapter = this.adapter(input.provider);
    const intent = await this.call(null, () => adapter.createLinkIntent({ holderType: input.holderType ?? 'business' }));
    return { provider: input.provider, ...intent };
  }

  /** Finalize: 409 for a reused id before the provider is asked; the link token is stored encrypted. */
  async finalize(entityId: string, input: { id: string; provider: BankProviderKind; exchangeToken: string }): Promise<ConnectionWithFeeds> {
    const adapter = this.adapter(input.provider);
    if (await this.connections.find(entityId, input.id)) throw bankConnectionAlreadyExists({ bankConnectionId: input.id });
    const link = await this.call(null, () => adapter.exchange(input.exchangeToken, input.id));
    const now = this.clock.now();
    const connection: StoredConnection = {
      entityId,
      id: input.id,
      provider: input.provider,
      institutionName: link.institutionName,
      holderName: link.holderName,
      status: 'active',
      lastError: null,
      linkTokenCiphertext: this.cipher.encrypt(link.linkToken),
      createdAt: now,
      updatedAt: now,
    };
    await this.txHost.withTransaction(async () => {
      await translateUniqueViolation(() => this.connections.insert(connection), () => bankConnectionAlreadyExists({ bankConnectionId: input.id }));
      await this.auditRow.record(input.id);
    });
    return { connection: publicPart(connection), fedBankAccounts: [] };
  }

  async reconnect(entityId: string, bankConnectionId: string, exchangeToken: string): Promise<ConnectionWithFeeds> {
    const found = await this.get(entityId, bankConnectionId);
    const adapter = this.providers.get(found.provider);
    if (!adapter) throw bankProviderError({ provider: found.provider, bankConnectionId, status: found.status, reason: 'The provider is not enabled' });
    const link = await this.call(null, () => adapter.exchange(exchangeToken, bankConnectionId));
    return this.txHost.withTransaction(async () => {
      const current = await this.connections.lock(entityId, bankConnectionId);
      if (!current) throw bankConnectionNotFound({ bankConnectionId });
      const restored: StoredConnection = {
        ...current,
        institutionName: link.institutionName,
        holderName: link.holderName,
        status: 'active',
        lastError: null,
        linkTokenCiphertext: this.cipher.encrypt(link.linkToken),
        updatedAt: this.clock.now(),
      };
      await this.connections.update(restored);
      await this.auditRow.record(bankConnectionId);
      return { connection: publicPart(restored), fedBankAccounts: await this.feedAccounts.fedByConnections(entityId, [bankConnectionId]) };
    });
  }

  async list(entityId: string): Promise<ConnectionWithFeeds[]> {
    const connections = await this.connections.list(entityId);
    const fed = await this.feedAccounts.fedByConnections(
      entityId,
      connections.map((c) => c.id),
    );
    return connections.map((connection) => ({ connection, fedBankAccounts: fed.filter((a) => a.feed!.bankConnectionId === connection.id) }));
  }

  async panel(entityId: string, bankConnectionId: string): Promise<PanelAccount[]> {
    const connection = await this.get(entityId, bankConnectionId);
    const discovered = await this.discovered(connection);
    const fed = await this.feedAccounts.fedByConnections(entityId, [bankConnectionId]);
    const fedBy = new Map(fed.map((a) => [a.feed!.providerAccountId, a]));
    const rows: PanelAccount[] = discovered.map((a) => ({ ...a, observed: true, fedBankAccount: fedBy.get(a.providerAccountId) ?? null }));
    const seen = new Set(discovered.map((a) => a.providerAccountId));
    for (const account of fed) {
      if (seen.has(account.feed!.providerAccountId)) continue;
      rows.push({
        providerAccountId: account.feed!.providerAccountId,
        name: account.name,
        number: '',
        type: 'unknown',
        currency: account.currency,
        balances: null,
        refreshedAt: null,
        observed: false,
        fedBankAccount: account,
      });
    }
    return rows;
  }

  /** D77: no adapter today needs account ids published. */
  async publish(entityId: string, bankConnectionId: string): Promise<ConnectionWithFeeds> {
    const connection = await this.get(entityId, bankConnectionId);
    const adapter = this.providers.get(connection.provider);
    if (!adapter?.needsAccountPublication) throw accountPublicationUnsupported({ bankConnectionId, provider: connection.provider });
    return { connection: publicPart(connection), fedBankAccounts: await this.feedAccounts.fedByConnections(entityId, [bankConnectionId]) };
  }

  /**
   * Attach: 404 connection, 404 bank account, 404 undiscovered provider account (D68a), then under
   * locks 409 BANK_ACCOUNT_ALREADY_FED_ERROR (the bank account, or the provider account elsewhere),
   * 409 BANK_FEED_CURRENCY_MISMATCH_ERROR.
   */
  async attachFeed(entityId: string, bankConnectionId: string, input: { bankAccountId: string; providerAccountId: string }): Promise<BankAccount> {
    const connection = await this.get(entityId, bankConnectionId);
    if (!(await this.feedAccounts.find(entityId, input.bankAccountId))) {
      // BankAccountsService.get throws BANK_ACCOUNT_NOT_FOUND_ERROR.
      await this.bankAccounts.get(entityId, input.bankAccountId);
    }
    const providerAccount = await this.discoveredAccount(connection, input.providerAccountId);
    return this.txHost.withTransaction(async () => {
      const held = await this.connections.lock(entityId, bankConnectionId);
      if (!held) throw bankConnectionNotFound({ bankConnectionId });
      const account = await this.feedAccounts.lock(entityId, input.bankAccountId);
      if (!account) return this.bankAccounts.get(entityId, input.bankAccountId);
      if (account.feed) throw bankAccountAlreadyFed({ bankAccountId: account.id, bankConnectionId: account.feed.bankConnectionId });
      await this.assertProviderAccountFree(entityId, bankConnectionId, input.providerAccountId);
      if (account.currency !== providerAccount.currency) {
        throw feedCurrencyMismatch({ bankAccountId: account.id, currency: account.currency, providerAccountId: input.providerAccountId, providerCurrency: providerAccount.currency });
      }
      const now = this.clock.now();
      const feed = { bankConnectionId, providerAccountId: input.providerAccountId, institutionName: held.institutionName };
      await this.setFeed(entityId, account.id, feed, now);
      await this.auditRow.record(account.id);
      return { ...account, feed: { ...feed, lastSyncedAt: null }, updatedAt: now };
    });
  }

  /** Create-and-feed: a Bank Account of kind bank in the provider account's currency (400 unless its ledger account is an asset). */
  async createAndFeed(
    entityId: string,
    bankConnectionId: string,
    input: { id: string; name: string; ledgerAccountId: string; providerAccountId: string },
  ): Promise<BankAccountSummary> {
    const connection = await this.get(entityId, bankConnectionId);
    const providerAccount = await this.discoveredAccount(connection, input.providerAccountId);
    return this.txHost.withTransaction(async () => {
      const held = await this.connections.lock(entityId, bankConnectionId);
      if (!held) throw bankConnectionNotFound({ bankConnectionId });
      await this.assertProviderAccountFree(entityId, bankConnectionId, input.providerAccountId);
      const created = await this.bankAccounts.create(entityId, {
        id: input.id,
        name: input.name,
        kind: 'bank',
        ledgerAccountId: input.ledgerAccountId,
        currency: providerAccount.currency,
      });
      const feed = { bankConnectionId, providerAccountId: input.providerAccountId, institutionName: held.institutionName };
      await this.setFeed(entityId, input.id, feed, created.account.updatedAt);
      await this.auditRow.record(input.id);
      return { ...created, account: { ...created.account, feed: { ...feed, lastSyncedAt: null } } };
    });
  }

  /** Removes the connection and every feed it held (the bank accounts and their movements remain). */
  deleteConnection(entityId: string, bankConnectionId: string): Promise<{ deletedBankConnectionId: string; unfedBankAccountIds: string[] }> {
    return this.txHost.withTransaction(async () => {
      if (!(await this.connections.lock(entityId, bankConnectionId))) throw bankConnectionNotFound({ bankConnectionId });
      const unfedBankAccountIds = await this.feedAccounts.unfeedConnection(entityId, bankConnectionId, this.clock.now());
      await this.connections.delete(entityId, bankConnectionId);
      return { deletedBankConnectionId: bankConnectionId, unfedBankAccountIds };
    });
  }

  private async get(entityId: string, bankConnectionId: string): Promise<StoredConnection> {
    const connection = await this.connections.find(entityId, bankConnectionId);
    if (!connection) throw bankConnectionNotFound({ bankConnectionId });
    return connection;
  }

  private async discovered(connection: StoredConnection): Promise<ProviderAccount[]> {
    const adapter = this.providers.get(connection.provider);
    if (!adapter) throw bankProviderError({ provider: connection.provider, bankConnectionId: connection.id, status: connection.status, reason: 'The provider is not enabled' });
    return this.call(connection, () => adapter.accounts(openLink(this.cipher, connection)));
  }

  private async discoveredAccount(connection: StoredConnection, providerAccountId: string): Promise<ProviderAccount> {
    const account = (await this.discovered(connection)).find((a) => a.providerAccountId === providerAccountId);
    if (!account) throw providerAccountNotFound({ bankConnectionId: connection.id, providerAccountId });
    return account;
  }

  private async assertProviderAccountFree(entityId: string, bankConnectionId: string, providerAccountId: string): Promise<void> {
    const fed = (await this.feedAccounts.fedByConnections(entityId, [bankConnectionId])).find((a) => a.feed!.providerAccountId === providerAccountId);
    if (fed) throw bankAccountAlreadyFed({ bankAccountId: fed.id, bankConnectionId, providerAccountId });
  }

  private setFeed(entityId: string, bankAccountId: string, feed: { bankConnectionId: string; providerAccountId: string; institutionName: string }, now: Date): Promise<void> {
    return translateUniqueViolation(
      () => this.feedAccounts.setFeed(entityId, bankAccountId, feed, now),
      () => bankAccountAlreadyFed({ bankAccountId, bankConnectionId: feed.bankConnectionId, providerAccountId: feed.providerAccountId }),
    );
  }
}

function publicPart(connection: StoredConnection): BankConnection {
  const { linkTokenCiphertext: _secret, ...rest } = connection;
  return rest;
}
