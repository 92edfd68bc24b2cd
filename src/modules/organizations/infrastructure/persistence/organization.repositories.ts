import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { In } from 'typeorm';
import { writeUnlessTaken } from '../../../../platform/database/guarded-write';
import type { MembershipRole } from '../../domain/membership';
import { Organization } from '../../domain/organization';
import { MembershipRepository, MembershipRow, OrganizationRepository } from '../../domain/organization-ports';
import { MembershipRecord, OrganizationRecord } from './organization.records';

const NAME_KEY = 'organizations_name_key_key';

const toOrganization = ({ id, name, createdAt, updatedAt }: OrganizationRecord) => Organization.restore({ id, name, createdAt, updatedAt });
const toRecord = (organization: Organization): OrganizationRecord => ({ ...organization.snapshot(), nameKey: organization.nameKey });

@Injectable()
export class TypeOrmOrganizationRepository extends OrganizationRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private get records() {
    return this.txHost.tx.getRepository(OrganizationRecord);
  }

  async findById(organizationId: string): Promise<Organization | null> {
    const record = await this.records.findOneBy({ id: organizationId });
    return record ? toOrganization(record) : null;
  }

  async findByNameKey(nameKey: string): Promise<Organization | null> {
    const record = await this.records.findOneBy({ nameKey });
    return record ? toOrganization(record) : null;
  }

  async lock(organizationId: string): Promise<Organization | null> {
    const record = await this.records.findOne({ where: { id: organizationId }, lock: { mode: 'pessimistic_write' } });
    return record ? toOrganization(record) : null;
  }

  async holdForReference(organizationId: string): Promise<Organization | null> {
    const record = await this.records.findOne({ where: { id: organizationId }, lock: { mode: 'for_key_share' } });
    return record ? toOrganization(record) : null;
  }

  async insert(organization: Organization): Promise<'inserted' | 'name_taken'> {
    const written = await writeUnlessTaken(this.txHost, NAME_KEY, () => this.records.insert(toRecord(organization)));
    return written ? 'inserted' : 'name_taken';
  }

  async save(organization: Organization): Promise<'saved' | 'name_taken'> {
    const { id, ...rest } = toRecord(organization);
    const written = await writeUnlessTaken(this.txHost, NAME_KEY, () => this.records.update({ id }, rest));
    return written ? 'saved' : 'name_taken';
  }

  async delete(organizationId: string): Promise<void> {
    // Memberships go with it (ON DELETE CASCADE).
    await this.records.delete({ id: organizationId });
  }

  async listAll(): Promise<Organization[]> {
    return (await this.records.find({ order: { nameKey: 'ASC', id: 'ASC' } })).map(toOrganization);
  }

  async listByIds(organizationIds: string[]): Promise<Organization[]> {
    if (organizationIds.length === 0) return [];
    return (await this.records.find({ where: { id: In(organizationIds) }, order: { nameKey: 'ASC', id: 'ASC' } })).map(toOrganization);
  }
}

@Injectable()
export class TypeOrmMembershipRepository extends MembershipRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private get records() {
    return this.txHost.tx.getRepository(MembershipRecord);
  }

  async upsert(membership: MembershipRow, now: Date): Promise<void> {
    await this.txHost.tx.query(
      `INSERT INTO memberships (organization_id, user_id, role, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
       ON CONFLICT (organization_id, user_id) DO UPDATE SET role = EXCLUDED.role, updated_at = EXCLUDED.updated_at`,
      [membership.organizationId, membership.userId, membership.role, now],
    );
  }

  async delete(userId: string, organizationId: string): Promise<void> {
    await this.records.delete({ userId, organizationId });
  }

  async roleOf(userId: string, organizationId: string): Promise<MembershipRole | null> {
    const record = await this.records.findOneBy({ userId, organizationId });
    return record?.role ?? null;
  }

  async listForOrganization(organizationId: string): Promise<MembershipRow[]> {
    const records = await this.records.findBy({ organizationId });
    return records.map(({ userId, role }) => ({ userId, organizationId, role }));
  }

  async listForUser(userId: string): Promise<MembershipRow[]> {
    const records = await this.records.findBy({ userId });
    return records.map(({ organizationId, role }) => ({ userId, organizationId, role }));
  }

  async organizationIdsOf(userId: string, roles?: MembershipRole[]): Promise<string[]> {
    const records = await this.records.findBy(roles ? { userId, role: In(roles) } : { userId });
    return records.map((record) => record.organizationId);
  }
}
