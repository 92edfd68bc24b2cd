import { Transactional } from '@nestjs-cls/transactional';
import { Injectable } from '@nestjs/common';
import { compareText } from '../../../../libs/shared-kernel/src';
import { Clock } from '../../../platform/clock/clock';
import type { MembershipRole } from '../domain/membership';
import { organizationNotFound } from '../domain/organization-errors';
import { MembershipRepository, OrganizationRepository, UserDirectory } from '../domain/organization-ports';
import { organizationError } from '../domain/organization-errors';

export interface UserMembership {
  organizationId: string;
  organizationName: string;
  role: MembershipRole;
}

export interface OrganizationMember {
  userId: string;
  name: string;
  email: string;
  role: MembershipRole;
}

@Injectable()
export class MembershipsService {
  constructor(
    private readonly memberships: MembershipRepository,
    private readonly organizations: OrganizationRepository,
    private readonly users: UserDirectory,
    private readonly clock: Clock,
  ) {}

  /** Grant is an upsert of the role (D15). */
  @Transactional()
  async grant(userId: string, organizationId: string, role: MembershipRole): Promise<void> {
    await this.requireUserAndOrganization(userId, organizationId, true);
    await this.memberships.upsert({ userId, organizationId, role }, this.clock.now());
  }

  /** Revoking a Membership that does not exist changes nothing and succeeds. */
  @Transactional()
  async revoke(userId: string, organizationId: string): Promise<void> {
    await this.requireUserAndOrganization(userId, organizationId);
    await this.memberships.delete(userId, organizationId);
  }

  roleOf(userId: string, organizationId: string): Promise<MembershipRole | null> {
    return this.memberships.roleOf(userId, organizationId);
  }

  organizationIdsOf(userId: string): Promise<string[]> {
    return this.memberships.organizationIdsOf(userId);
  }

  async members(organizationId: string): Promise<OrganizationMember[]> {
    if (!(await this.organizations.findById(organizationId))) throw organizationNotFound(organizationId);
    const rows = await this.memberships.listForOrganization(organizationId);
    const people = await this.users.describe(rows.map((row) => row.userId));
    return rows
      .map((row) => ({ userId: row.userId, role: row.role, name: people.get(row.userId)?.name ?? '', email: people.get(row.userId)?.email ?? '' }))
      .sort((a, b) => compareText(a.name, b.name) || compareText(a.userId, b.userId));
  }

  /** Issue 33: the Memberships a User holds, by Organization name (404 for a User that does not exist). */
  async membershipsOf(userId: string): Promise<UserMembership[]> {
    if (!(await this.users.exists(userId))) throw organizationError('USER_NOT_FOUND_ERROR', 'No User matches', { userId });
    const rows = await this.memberships.listForUser(userId);
    const organizations = await this.organizations.listByIds(rows.map((row) => row.organizationId));
    const roleIn = new Map(rows.map((row) => [row.organizationId, row.role]));
    // listByIds answers by name.
    return organizations.map((organization) => ({ organizationId: organization.id, organizationName: organization.name, role: roleIn.get(organization.id)! }));
  }

  /** `hold`: the write is about to point at the Organization (see OrganizationRepository.holdForReference). */
  private async requireUserAndOrganization(userId: string, organizationId: string, hold = false): Promise<void> {
    if (!(await this.users.exists(userId))) throw organizationError('USER_NOT_FOUND_ERROR', 'No User matches', { userId });
    const organization = hold ? await this.organizations.holdForReference(organizationId) : await this.organizations.findById(organizationId);
    if (!organization) throw organizationNotFound(organizationId);
  }
}
