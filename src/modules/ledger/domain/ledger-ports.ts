import type { Book, Dimension, DimensionValue } from './books-dimensions';
import type { AccountGroup, LedgerAccount } from './chart';

/** Every method takes the Entity first: no query leaves its Entity (ARCHITECTURE, D40). */
export abstract class ChartRepository {
  abstract groups(entityId: string): Promise<AccountGroup[]>;
  abstract findGroup(entityId: string, groupId: string): Promise<AccountGroup | null>;
  abstract findGroupByPrefix(entityId: string, codePrefix: string): Promise<AccountGroup | null>;
  abstract insertGroups(groups: AccountGroup[]): Promise<void>;
  abstract accounts(entityId: string): Promise<LedgerAccount[]>;
  abstract findAccount(entityId: string, accountId: string): Promise<LedgerAccount | null>;
  /** Share-locks the account for the rest of the transaction: a record that names it is being written. */
  abstract holdAccountForReference(entityId: string, accountId: string): Promise<LedgerAccount | null>;
  abstract lockAccount(entityId: string, accountId: string): Promise<LedgerAccount | null>;
  abstract findAccountByCode(entityId: string, code: string): Promise<LedgerAccount | null>;
  /**
   * With `hold`, key-share-locks them (in id order) for the rest of the transaction, as the
   * foreign key of a line naming them would: lines about to name them are judged on their latest
   * version, and a delete or type change waits for the transaction, then sees its lines.
   */
  abstract accountsByIds(entityId: string, accountIds: string[], hold?: boolean): Promise<LedgerAccount[]>;
  abstract insertAccounts(accounts: LedgerAccount[]): Promise<void>;
  abstract saveAccount(account: LedgerAccount): Promise<void>;
  abstract deleteAccount(entityId: string, accountId: string): Promise<void>;
  abstract isEmpty(entityId: string): Promise<boolean>;
  abstract initializationExists(entityId: string, initializationId: string): Promise<boolean>;
  abstract recordInitialization(entityId: string, initializationId: string, templateKey: string, templateVersion: string, now: Date): Promise<void>;
  /**
   * Serializes chart-wide changes of one Entity (initialization): waits for every group and
   * account create of the Entity in flight, and holds off new ones, until the transaction ends.
   */
  abstract lockChart(entityId: string): Promise<void>;
  /** The shared side of lockChart: a group or account create, which may run beside another. */
  abstract holdChart(entityId: string): Promise<void>;
}

export abstract class BookRepository {
  abstract list(entityId: string): Promise<Book[]>;
  /** The Books of several Entities in one read (a consolidated report), each Entity's in its order. */
  abstract listOfEach(entityIds: readonly string[]): Promise<Map<string, Book[]>>;
  abstract find(entityId: string, bookId: string): Promise<Book | null>;
  abstract insert(book: Book): Promise<'inserted' | 'name_taken'>;
}

export abstract class DimensionRepository {
  abstract list(entityId: string): Promise<Dimension[]>;
  abstract find(entityId: string, dimensionId: string): Promise<Dimension | null>;
  abstract insert(dimension: Dimension): Promise<'inserted' | 'name_taken'>;
  abstract save(dimension: Dimension): Promise<'saved' | 'name_taken'>;
  abstract delete(entityId: string, dimensionId: string): Promise<void>;
  abstract hasValues(entityId: string, dimensionId: string): Promise<boolean>;
  abstract values(entityId: string, dimensionId: string): Promise<DimensionValue[]>;
  abstract findValue(entityId: string, valueId: string): Promise<DimensionValue | null>;
  /** With `hold`, key-share-locks them (in id order) for the rest of the transaction, as ChartRepository.accountsByIds. */
  abstract valuesByIds(entityId: string, valueIds: string[], hold?: boolean): Promise<DimensionValue[]>;
  abstract insertValue(value: DimensionValue): Promise<'inserted' | 'code_taken'>;
  abstract saveValue(value: DimensionValue): Promise<'saved' | 'code_taken'>;
  abstract deleteValue(entityId: string, valueId: string): Promise<void>;
  /** Locks the value FOR UPDATE: lines being written that name it (which key-share-lock it) finish first. */
  abstract lockValue(entityId: string, valueId: string): Promise<void>;
  abstract hasChildren(entityId: string, valueId: string): Promise<boolean>;
  /** The chain of parents above a value, nearest first. */
  abstract ancestorIds(entityId: string, valueId: string): Promise<string[]>;
  /** Serializes hierarchy changes of one Dimension (cycle checks). */
  abstract lockDimension(entityId: string, dimensionId: string): Promise<void>;
}
