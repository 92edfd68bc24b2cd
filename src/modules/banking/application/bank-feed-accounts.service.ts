import { Injectable } from '@nestjs/common';
import type { BankAccount } from '../domain/bank-account';
import type { MovementSide } from '../domain/bank-movement';
import { BankAccountRepository } from './banking-ports';

/** A provider movement as a feed lands it (D65 fields of source `feed`). */
export interface FedMovementInput {
  id: string;
  providerMovementId: string;
  movementDate: string;
  description: string;
  amount: number;
  side: MovementSide;
  reference: string | null;
  counterpartyName: string | null;
  counterpartyTaxId: string | null;
}

export interface FeedColumns {
  bankConnectionId: string;
  providerAccountId: string;
  institutionName: string;
}

/** The feed columns of bank_accounts and the landing of fed movements (SQL in infrastructure). */
export abstract class BankFeedStore {
  abstract setFeed(entityId: string, bankAccountId: string, feed: FeedColumns | null, now: Date): Promise<void>;
  /** Clears every feed of the connection; answers the bank accounts that lost it (ordered by id). */
  abstract unfeedConnection(entityId: string, bankConnectionId: string, now: Date): Promise<string[]>;
  abstract fedByConnections(entityId: string, bankConnectionIds: string[]): Promise<BankAccount[]>;
  /** INSERT ... ON CONFLICT (provider id) DO NOTHING: answers how many landed. */
  abstract land(entityId: string, bankAccountId: string, movements: FedMovementInput[], now: Date): Promise<number>;
  abstract markSynced(entityId: string, bankAccountId: string, at: Date): Promise<void>;
  abstract everyFeed(): Promise<Array<{ entityId: string; bankAccountId: string }>>;
}

/**
 * Banking's side of bank feeds (used by the bank-feeds module through banking's index): the
 * feed columns of a bank account and the landing of its provider's movements, each movement
 * once per bank account and provider id (unique key bank_movements_provider_key). Callers run
 * these inside their use case's transaction; the feed rules (currency, already fed) are theirs.
 */
@Injectable()
export class BankFeedAccounts {
  constructor(
    private readonly accounts: BankAccountRepository,
    private readonly store: BankFeedStore,
  ) {}

  /** The account row-locked to the end of the transaction (a feed change or a sync's landing). */
  lock(entityId: string, bankAccountId: string): Promise<BankAccount | null> {
    return this.accounts.lock(entityId, bankAccountId);
  }

  find(entityId: string, bankAccountId: string): Promise<BankAccount | null> {
    return this.accounts.find(entityId, bankAccountId);
  }

  setFeed(entityId: string, bankAccountId: string, feed: FeedColumns | null, now: Date): Promise<void> {
    return this.store.setFeed(entityId, bankAccountId, feed, now);
  }

  unfeedConnection(entityId: string, bankConnectionId: string, now: Date): Promise<string[]> {
    return this.store.unfeedConnection(entityId, bankConnectionId, now);
  }

  fedByConnections(entityId: string, bankConnectionIds: string[]): Promise<BankAccount[]> {
    return this.store.fedByConnections(entityId, bankConnectionIds);
  }

  land(entityId: string, bankAccountId: string, movements: FedMovementInput[], now: Date): Promise<number> {
    return this.store.land(entityId, bankAccountId, movements, now);
  }

  markSynced(entityId: string, bankAccountId: string, at: Date): Promise<void> {
    return this.store.markSynced(entityId, bankAccountId, at);
  }

  everyFeed(): Promise<Array<{ entityId: string; bankAccountId: string }>> {
    return this.store.everyFeed();
  }

}
