import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { In } from 'typeorm';
import { TenantAccess, TenantScope } from '../../../../platform/auth/ports';
import { EntityRepository } from '../../domain/entity-ports';
import { LegalEntity } from '../../domain/legal-entity';
import { EntityRecord } from './entity.records';
import { entityRowLockSql } from './entity-row-lock.sql';
import { membershipRoleSql } from '../../../organizations';


const toEntity = (record: EntityRecord) => {
  const { organization: _o, parent: _p, ...state } = record;
  return LegalEntity.restore(state);
};

@Injectable()
export class TypeOrmEntityRepository extends EntityRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private get records() {
    return this.txHost.tx.getRepository(EntityRecord);
  }

  async findById(entityId: string): Promise<LegalEntity | null> {
    const record = await this.records.findOneBy({ id: entityId });
    return record ? toEntity(record) : null;
  }

  async lock(entityId: string): Promise<LegalEntity | null> {
    // Locked on the Entity's shard group on Citus (entityRowLockSql), then read.
    if ((await this.txHost.tx.query(entityRowLockSql('UPDATE'), [entityId])).length === 0) return null;
    const record = await this.records.findOneBy({ id: entityId });
    return record ? toEntity(record) : null;
  }

  async postingTerms(entityId: string): Promise<{ currency: string; ledgerLockDate: string | null } | null> {
    const [row]: Array<{ currency: string; ledger_lock_date: string | null }> = await this.txHost.tx.query(
      entityRowLockSql('SHARE', 'e.currency, e.ledger_lock_date'),
      [entityId],
    );
    return row ? { currency: row.currency, ledgerLockDate: row.ledger_lock_date } : null;
  }

  async insert(entity: LegalEntity): Promise<void> {
    await this.records.insert(entity.snapshot());
  }

  async save(entity: LegalEntity): Promise<void> {
    const { id, ...rest } = entity.snapshot();
    await this.records.update({ id }, rest);
  }

  async listAll(): Promise<LegalEntity[]> {
    return (await this.records.find({ order: { name: 'ASC', id: 'ASC' } })).map(toEntity);
  }

  async listInOrganizations(organizationIds: string[]): Promise<LegalEntity[]> {
    if (organizationIds.length === 0) return [];
    return (await this.records.find({ where: { organizationId: In(organizationIds) }, order: { name: 'ASC', id: 'ASC' } })).map(toEntity);
  }

  async ancestorIds(entityId: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.txHost.tx.query(
      `WITH RECURSIVE chain(id, parent_entity_id, depth) AS (
         SELECT id, parent_entity_id, 0 FROM entities WHERE id = $1
         UNION ALL
         SELECT e.id, e.parent_entity_id, c.depth + 1 FROM entities e JOIN chain c ON e.id = c.parent_entity_id
          WHERE c.depth < 1000
       )
       SELECT id FROM chain WHERE depth > 0 ORDER BY depth`,
      [entityId],
    );
    return rows.map((row) => row.id);
  }

  async withDescendants(entityId: string): Promise<LegalEntity[]> {
    const rows: Array<{ id: string }> = await this.txHost.tx.query(
      `WITH RECURSIVE tree(id, depth) AS (
         SELECT id, 0 FROM entities WHERE id = $1
         UNION ALL
         SELECT e.id, t.depth + 1 FROM entities e JOIN tree t ON e.parent_entity_id = t.id WHERE t.depth < 1000
       )
       SELECT id FROM tree`,
      [entityId],
    );
    if (rows.length === 0) return [];
    return (await this.records.findBy({ id: In(rows.map((r) => r.id)) })).map(toEntity);
  }

  async summaries(organizationIds: string[]): Promise<Array<{ id: string; name: string; organizationId: string }>> {
    if (organizationIds.length === 0) return [];
    return this.records.find({
      select: { id: true, name: true, organizationId: true },
      where: { organizationId: In(organizationIds) },
      order: { name: 'ASC', id: 'ASC' },
    });
  }

  async countInOrganization(organizationId: string): Promise<number> {
    return this.records.countBy({ organizationId });
  }
}

/**
 * The tenant guard's read model: one query for the Entity's Organization and the caller's
 * Membership role there (entities and memberships read together on the hot path of every
 * Entity route).
 */
@Injectable()
export class PgTenantAccess extends TenantAccess {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  async scopeFor(entityId: string, userId: string): Promise<TenantScope | null> {
    const rows: Array<{ organization_id: string; role: TenantScope['membershipRole'] }> = await this.txHost.tx.query(
      `SELECT e.organization_id, ${membershipRoleSql('e.organization_id', '$2')} AS role FROM entities e WHERE e.id = $1`,
      [entityId, userId],
    );
    return rows[0] ? { organizationId: rows[0].organization_id, membershipRole: rows[0].role } : null;
  }
}
