import { Injectable } from '@nestjs/common';
import { unicodeCollateClause } from '../../../../platform/database/unicode-collation';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { In, IsNull, Not } from 'typeorm';
import { writeUnlessTaken } from '../../../../platform/database/guarded-write';
import { Partner, PartnerIdentity, PartnerRepository } from '../../domain/partner';
import { PartnerRecord } from './partner.record';

const TAX_ID_KEY = 'partners_tax_id_key';
const toPartner = ({ entity: _e, defaultPurchaseAccount: _a, ...partner }: PartnerRecord): Partner => partner;

@Injectable()
export class TypeOrmPartnerRepository extends PartnerRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private get records() {
    return this.txHost.tx.getRepository(PartnerRecord);
  }

  async list(entityId: string): Promise<Partner[]> {
    return (await this.records.find({ where: { entityId }, order: { name: 'ASC', id: 'ASC' } })).map(toPartner);
  }

  async page(entityId: string, after: { name: string; id: string } | null, limit: number, search?: string): Promise<Partner[]> {
    const query = this.records.createQueryBuilder('p').where('p.entity_id = :entityId', { entityId });
    if (after) query.andWhere('(p.name, p.id) > (:name, :id)', after);
    if (search) {
      // Case-insensitive for every letter (`ÑANDÚ` finds `Ñandú`), whatever the database's locale.
      const like = `CAST(:pattern AS text)${await unicodeCollateClause((text) => this.txHost.tx.query(text))}`;
      query.andWhere(`(p.name ILIKE ${like} OR p.tax_id ILIKE ${like})`, { pattern: `%${search.replace(/[\\%_]/g, '\\$&')}%` });
    }
    const records = await query.orderBy('p.name', 'ASC').addOrderBy('p.id', 'ASC').limit(limit + 1).getMany();
    return records.map(toPartner);
  }

  async find(entityId: string, partnerId: string): Promise<Partner | null> {
    const record = await this.records.findOneBy({ entityId, id: partnerId });
    return record ? toPartner(record) : null;
  }

  async lock(entityId: string, partnerId: string): Promise<Partner | null> {
    const record = await this.records.findOne({ where: { entityId, id: partnerId }, lock: { mode: 'pessimistic_write' } });
    return record ? toPartner(record) : null;
  }

  async insert(partner: Partner): Promise<'inserted' | 'tax_id_taken'> {
    return (await writeUnlessTaken(this.txHost, TAX_ID_KEY, () => this.records.insert(partner))) ? 'inserted' : 'tax_id_taken';
  }

  async save(partner: Partner): Promise<'saved' | 'tax_id_taken'> {
    const { entityId, id, ...rest } = partner;
    return (await writeUnlessTaken(this.txHost, TAX_ID_KEY, () => this.records.update({ entityId, id }, rest))) ? 'saved' : 'tax_id_taken';
  }

  async delete(entityId: string, partnerId: string): Promise<void> {
    await this.records.delete({ entityId, id: partnerId });
  }

  async holdExisting(entityId: string, partnerIds: string[]): Promise<Set<string>> {
    if (partnerIds.length === 0) return new Set();
    const records = await this.records.find({
      select: { id: true },
      where: { entityId, id: In([...new Set(partnerIds)]) },
      order: { id: 'ASC' },
      lock: { mode: 'for_key_share' },
    });
    return new Set(records.map((r) => r.id));
  }

  async defaultPurchaseAccountIds(entityId: string, accountIds?: string[]): Promise<Set<string>> {
    const records = await this.records.find({
      select: { defaultPurchaseAccountId: true },
      where: { entityId, defaultPurchaseAccountId: accountIds ? In(accountIds) : Not(IsNull()) },
    });
    return new Set(records.map((r) => r.defaultPurchaseAccountId!));
  }

  async identities(entityId: string, partnerIds: string[]): Promise<Map<string, PartnerIdentity>> {
    if (partnerIds.length === 0) return new Map();
    const rows = (await this.txHost.tx.query(`SELECT id, name, tax_id FROM partners WHERE entity_id = $1 AND id = ANY($2::uuid[])`, [
      entityId,
      [...new Set(partnerIds)],
    ])) as Array<{ id: string; name: string; tax_id: string }>;
    return new Map(rows.map((r) => [r.id, { name: r.name, taxId: r.tax_id }]));
  }
}
