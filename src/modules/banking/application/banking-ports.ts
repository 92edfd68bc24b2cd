import type { BankAccount, BankAccountSummary } from '../domain/bank-account';
import type { BankMovement } from '../domain/bank-movement';
import type { StatementRow } from '../domain/statement';

export interface MovementFilter {
  from?: string;
  to?: string;
  booked?: boolean;
  /** Keyset: rows strictly after this (movementDate, id) in the list order (newest first). */
  after?: { date: string; id: string } | null;
  limit: number;
}

export abstract class BankAccountRepository {
  /** Every bank account of the Entity with its balance and unreconciled count: one query (D78). */
  abstract summaries(entityId: string, bankAccountId?: string): Promise<BankAccountSummary[]>;
  abstract find(entityId: string, bankAccountId: string): Promise<BankAccount | null>;
  /** Row-locked for the rest of the transaction (rename, delete). */
  abstract lock(entityId: string, bankAccountId: string): Promise<BankAccount | null>;
  /** Key-share-locked: movements are being written to it, it must not be deleted meanwhile. */
  abstract hold(entityId: string, bankAccountId: string): Promise<BankAccount | null>;
  abstract insert(account: BankAccount): Promise<void>;
  abstract rename(account: BankAccount): Promise<void>;
  abstract delete(entityId: string, bankAccountId: string): Promise<void>;
  abstract hasMovements(entityId: string, bankAccountId: string): Promise<boolean>;
  /** Which ledger accounts (of these, or all) a bank account maps: one query (chart `deleteBlockedBy`). */
  abstract ledgerAccountIdsInUse(entityId: string, accountIds?: string[]): Promise<Set<string>>;
}

export abstract class BankMovementRepository {
  abstract page(entityId: string, bankAccountId: string, filter: MovementFilter): Promise<BankMovement[]>;
  abstract find(entityId: string, movementId: string): Promise<BankMovement | null>;
  abstract lock(entityId: string, movementId: string): Promise<BankMovement | null>;
  abstract insert(movement: BankMovement): Promise<void>;
  /** Lands the rows not landed before (by content hash, under concurrent imports too); answers how many landed. */
  abstract importRows(entityId: string, bankAccountId: string, rows: StatementRow[], ids: string[], now: Date): Promise<number>;
  abstract delete(entityId: string, movementId: string): Promise<void>;
  abstract setEntry(entityId: string, movementId: string, entryId: string, now: Date): Promise<void>;
  /** Unbooks the movements booked by these entries; answers them as they are now. */
  abstract severByEntries(entityId: string, entryIds: string[], now: Date): Promise<BankMovement[]>;
  abstract byEntries(entityId: string, entryIds: string[]): Promise<BankMovement[]>;
}

/** Reads a statement file's records (CSV: quoted fields, BOM, CRLF, `,` or `;` separators). */
export abstract class StatementFileReader {
  /** The records, the header first; throws BANK_IMPORT_ROW_INVALID_ERROR naming the row on malformed CSV. */
  abstract records(file: Buffer): string[][];
}
