import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { In } from 'typeorm';
import { writeUnlessTaken } from '../../../../platform/database/guarded-write';
import type { AccountType, Subtype, Tracking } from '../../domain/account-types';
import type { Book, Dimension, DimensionValue } from '../../domain/books-dimensions';
import { AccountGroup, LedgerAccount } from '../../domain/chart';
import { BookRepository, ChartRepository, DimensionRepository } from '../../domain/ledger-ports';
import {
  AccountGroupRecord,
  BookRecord,
  ChartInitializationRecord,
  DimensionRecord,
  DimensionValueRecord,
  LedgerAccountRecord,
} from './ledger.records';

const toGroup = ({ entity: _e, parent: _p, ...r }: AccountGroupRecord): AccountGroup => ({ ...r, type: r.type as AccountType });
const toAccount = ({ entity: _e, group: _g, ...r }: LedgerAccountRecord) =>
  LedgerAccount.restore({ ...r, type: r.type as AccountType, tracking: r.tracking as Tracking, subtype: r.subtype as Subtype | null });

@Injectable()
export class TypeOrmChartRepository extends ChartRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private get groupRecords() {
    return this.txHost.tx.getRepository(AccountGroupRecord);
  }
  private get accountRecords() {
    return this.txHost.tx.getRepository(LedgerAccountRecord);
  }

  async groups(entityId: string): Promise<AccountGroup[]> {
    return (await this.groupRecords.find({ where: { entityId }, order: { codePrefix: 'ASC', id: 'ASC' } })).map(toGroup);
  }

  async findGroup(entityId: string, groupId: string): Promise<AccountGroup | null> {
    const record = await this.groupRecords.findOneBy({ entityId, id: groupId });
    return record ? toGroup(record) : null;
  }

  async findGroupByPrefix(entityId: string, codePrefix: string): Promise<AccountGroup | null> {
    const record = await this.groupRecords.findOneBy({ entityId, codePrefix });
    return record ? toGroup(record) : null;
  }

  async insertGroups(groups: AccountGroup[]): Promise<void> {
    // Parents first: a template's groups arrive in tree order.
    for (let i = 0; i < groups.length; i += 500) await this.groupRecords.insert(groups.slice(i, i + 500));
  }

  async accounts(entityId: string): Promise<LedgerAccount[]> {
    return (await this.accountRecords.find({ where: { entityId }, order: { code: 'ASC', id: 'ASC' } })).map(toAccount);
  }

  async findAccount(entityId: string, accountId: string): Promise<LedgerAccount | null> {
    const record = await this.accountRecords.findOneBy({ entityId, id: accountId });
    return record ? toAccount(record) : null;
  }

  /** Share-locks the account: it cannot be deleted until the transaction that names it ends. */
  async holdAccountForReference(entityId: string, accountId: string): Promise<LedgerAccount | null> {
    const record = await this.accountRecords.findOne({ where: { entityId, id: accountId }, lock: { mode: 'pessimistic_read' } });
    return record ? toAccount(record) : null;
  }

  async lockAccount(entityId: string, accountId: string): Promise<LedgerAccount | null> {
    const record = await this.accountRecords.findOne({ where: { entityId, id: accountId }, lock: { mode: 'pessimistic_write' } });
    return record ? toAccount(record) : null;
  }

  async findAccountByCode(entityId: string, code: string): Promise<LedgerAccount | null> {
    const record = await this.accountRecords.findOneBy({ entityId, code });
    return record ? toAccount(record) : null;
  }

  /** One plain query (with `hold`, a locking one). */
  async accountsByIds(entityId: string, accountIds: string[], hold = false): Promise<LedgerAccount[]> {
    if (accountIds.length === 0) return [];
    const rows: Array<Record<string, unknown>> = await this.txHost.tx.query(
      `SELECT entity_id, id, group_id, code, name, type, tracking, subtype, created_at, updated_at
         FROM ledger_accounts WHERE entity_id = $1 AND id = ANY($2::uuid[])${hold ? ' ORDER BY id FOR KEY SHARE' : ''}`,
      [entityId, [...new Set(accountIds)]],
    );
    return rows.map((r) =>
      LedgerAccount.restore({
        entityId: r.entity_id as string,
        id: r.id as string,
        groupId: r.group_id as string | null,
        code: r.code as string,
        name: r.name as string,
        type: r.type as AccountType,
        tracking: r.tracking as Tracking,
        subtype: r.subtype as Subtype | null,
        createdAt: r.created_at as Date,
        updatedAt: r.updated_at as Date,
      }),
    );
  }

  async insertAccounts(accounts: LedgerAccount[]): Promise<void> {
    const rows = accounts.map((account) => account.snapshot());
    for (let i = 0; i < rows.length; i += 500) await this.accountRecords.insert(rows.slice(i, i + 500));
  }

  async saveAccount(account: LedgerAccount): Promise<void> {
    const { entityId, id, ...rest } = account.snapshot();
    await this.accountRecords.update({ entityId, id }, rest);
  }

  async deleteAccount(entityId: string, accountId: string): Promise<void> {
    await this.accountRecords.delete({ entityId, id: accountId });
  }

  async isEmpty(entityId: string): Promise<boolean> {
    return !(await this.groupRecords.existsBy({ entityId })) && !(await this.accountRecords.existsBy({ entityId }));
  }

  async initializationExists(entityId: string, initializationId: string): Promise<boolean> {
    return this.txHost.tx.getRepository(ChartInitializationRecord).existsBy({ entityId, id: initializationId });
  }

  async recordInitialization(entityId: string, id: string, templateKey: string, templateVersion: string, now: Date): Promise<void> {
    await this.txHost.tx.getRepository(ChartInitializationRecord).insert({ entityId, id, templateKey, templateVersion, createdAt: now });
  }

  async lockChart(entityId: string): Promise<void> {
    await this.txHost.tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('chart:' || $1::text, 0))`, [entityId]);
  }

  async holdChart(entityId: string): Promise<void> {
    await this.txHost.tx.query(`SELECT pg_advisory_xact_lock_shared(hashtextextended('chart:' || $1::text, 0))`, [entityId]);
  }
}

@Injectable()
export class TypeOrmBookRepository extends BookRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private get records() {
    return this.txHost.tx.getRepository(BookRecord);
  }

  /** On every book-scoped request: one plain query. */
  async list(entityId: string): Promise<Book[]> {
    const rows: Array<Record<string, unknown>> = await this.txHost.tx.query(
      `SELECT id, name, created_at, updated_at FROM books WHERE entity_id = $1 ORDER BY position`,
      [entityId],
    );
    return rows.map((r) => ({ entityId, id: r.id as string, name: r.name as string, createdAt: r.created_at as Date, updatedAt: r.updated_at as Date }));
  }

  async listOfEach(entityIds: readonly string[]): Promise<Map<string, Book[]>> {
    const rows: Array<Record<string, unknown>> = await this.txHost.tx.query(
      `/* citus:multi-shard a consolidated report (D91): the Books of every member */
       SELECT entity_id, id, name, created_at, updated_at FROM books WHERE entity_id = ANY($1::uuid[]) ORDER BY entity_id, position`,
      [entityIds],
    );
    const books = new Map<string, Book[]>(entityIds.map((id) => [id, []]));
    for (const r of rows) {
      books.get(r.entity_id as string)?.push({ entityId: r.entity_id as string, id: r.id as string, name: r.name as string, createdAt: r.created_at as Date, updatedAt: r.updated_at as Date });
    }
    return books;
  }

  async find(entityId: string, bookId: string): Promise<Book | null> {
    const record = await this.records.findOneBy({ entityId, id: bookId });
    return record ? { entityId, id: record.id, name: record.name, createdAt: record.createdAt, updatedAt: record.updatedAt } : null;
  }

  async insert(book: Book): Promise<'inserted' | 'name_taken'> {
    return (await writeUnlessTaken(this.txHost, 'books_name_key', () => this.records.insert(book))) ? 'inserted' : 'name_taken';
  }
}

const toValue = ({ dimension: _d, parent: _p, ...r }: DimensionValueRecord): DimensionValue => r;

@Injectable()
export class TypeOrmDimensionRepository extends DimensionRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private get dimensions() {
    return this.txHost.tx.getRepository(DimensionRecord);
  }
  private get valueRecords() {
    return this.txHost.tx.getRepository(DimensionValueRecord);
  }

  async list(entityId: string): Promise<Dimension[]> {
    return (await this.dimensions.find({ where: { entityId }, order: { name: 'ASC', id: 'ASC' } })).map(({ entity: _e, ...d }) => d);
  }

  async find(entityId: string, dimensionId: string): Promise<Dimension | null> {
    const record = await this.dimensions.findOneBy({ entityId, id: dimensionId });
    if (!record) return null;
    const { entity: _e, ...dimension } = record;
    return dimension;
  }

  async insert(dimension: Dimension): Promise<'inserted' | 'name_taken'> {
    return (await writeUnlessTaken(this.txHost, 'dimensions_name_key', () => this.dimensions.insert(dimension))) ? 'inserted' : 'name_taken';
  }

  async save(dimension: Dimension): Promise<'saved' | 'name_taken'> {
    const { entityId, id, ...rest } = dimension;
    const written = await writeUnlessTaken(this.txHost, 'dimensions_name_key', () => this.dimensions.update({ entityId, id }, rest));
    return written ? 'saved' : 'name_taken';
  }

  async delete(entityId: string, dimensionId: string): Promise<void> {
    await this.dimensions.delete({ entityId, id: dimensionId });
  }

  async hasValues(entityId: string, dimensionId: string): Promise<boolean> {
    return this.valueRecords.existsBy({ entityId, dimensionId });
  }

  async values(entityId: string, dimensionId: string): Promise<DimensionValue[]> {
    return (await this.valueRecords.find({ where: { entityId, dimensionId }, order: { code: 'ASC', id: 'ASC' } })).map(toValue);
  }

  async findValue(entityId: string, valueId: string): Promise<DimensionValue | null> {
    const record = await this.valueRecords.findOneBy({ entityId, id: valueId });
    return record ? toValue(record) : null;
  }

  async valuesByIds(entityId: string, valueIds: string[], hold = false): Promise<DimensionValue[]> {
    if (valueIds.length === 0) return [];
    const where = { entityId, id: In([...new Set(valueIds)]) };
    const records = hold ? await this.valueRecords.find({ where, order: { id: 'ASC' }, lock: { mode: 'for_key_share' } }) : await this.valueRecords.findBy(where);
    return records.map(toValue);
  }

  async insertValue(value: DimensionValue): Promise<'inserted' | 'code_taken'> {
    return (await writeUnlessTaken(this.txHost, 'dimension_values_code_key', () => this.valueRecords.insert(value))) ? 'inserted' : 'code_taken';
  }

  async saveValue(value: DimensionValue): Promise<'saved' | 'code_taken'> {
    const { entityId, id, ...rest } = value;
    const written = await writeUnlessTaken(this.txHost, 'dimension_values_code_key', () => this.valueRecords.update({ entityId, id }, rest));
    return written ? 'saved' : 'code_taken';
  }

  async deleteValue(entityId: string, valueId: string): Promise<void> {
    await this.valueRecords.delete({ entityId, id: valueId });
  }

  async lockValue(entityId: string, valueId: string): Promise<void> {
    await this.valueRecords.findOne({ where: { entityId, id: valueId }, lock: { mode: 'pessimistic_write' } });
  }

  async hasChildren(entityId: string, valueId: string): Promise<boolean> {
    return this.valueRecords.existsBy({ entityId, parentId: valueId });
  }

  async ancestorIds(entityId: string, valueId: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.txHost.tx.query(
      `WITH RECURSIVE chain(id, parent_id, depth) AS (
         SELECT id, parent_id, 0 FROM dimension_values WHERE entity_id = $1 AND id = $2
         UNION ALL
         SELECT v.id, v.parent_id, c.depth + 1 FROM dimension_values v JOIN chain c ON v.entity_id = $1 AND v.id = c.parent_id
          WHERE c.depth < 1000
       )
       SELECT id FROM chain WHERE depth > 0 ORDER BY depth`,
      [entityId, valueId],
    );
    return rows.map((row) => row.id);
  }

  async lockDimension(entityId: string, dimensionId: string): Promise<void> {
    await this.dimensions.findOne({ where: { entityId, id: dimensionId }, lock: { mode: 'pessimistic_write' } });
  }
}
