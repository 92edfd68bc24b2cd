import type { BankConnection, ProviderFailureInfo } from '../domain/bank-connection';

export interface StoredConnection extends BankConnection {
  linkTokenCiphertext: string;
}

export abstract class BankConnectionRepository {
  abstract find(entityId: string, id: string): Promise<StoredConnection | null>;
  /** Row-locked to the end of the transaction (finalize again, reconnect, delete, a sync's landing). */
  abstract lock(entityId: string, id: string): Promise<StoredConnection | null>;
  abstract list(entityId: string): Promise<BankConnection[]>;
  abstract insert(connection: StoredConnection): Promise<void>;
  abstract update(connection: StoredConnection): Promise<void>;
  abstract delete(entityId: string, id: string): Promise<void>;
  /**
   * Records a provider failure on the connection in its own transaction, committed at once: it
   * outlives the rollback of the request that met the failure (D69 "status updated").
   */
  abstract recordFailureNow(entityId: string, id: string, failure: ProviderFailureInfo, now: Date): Promise<void>;
}
