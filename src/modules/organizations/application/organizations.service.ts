import { Transactional } from '@nestjs-cls/transactional';
import { Injectable } from '@nestjs/common';
import { newId } from '../../../../libs/shared-kernel/src';
import { Clock } from '../../../platform/clock/clock';
import { translateUniqueViolation } from '../../../platform/database/pg-errors';
import { candidateOrganizationName, Organization, organizationNameKey } from '../domain/organization';
import {
  organizationAlreadyExists,
  organizationNameAlreadyExists,
  organizationNotEmpty,
  organizationNotFound,
} from '../domain/organization-errors';
import { MembershipRepository, OrganizationEntities, OrganizationRepository } from '../domain/organization-ports';

export interface OrganizationSummary {
  organization: Organization;
  entities: Array<{ id: string; name: string }>;
}

/** Who asks for the list: global role, and the Entity a scoped key is confined to. */
export interface OrganizationViewer {
  userId: string;
  role: 'staff' | 'client';
  scopedToEntity: boolean;
}

@Injectable()
export class OrganizationsService {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly memberships: MembershipRepository,
    private readonly entities: OrganizationEntities,
    private readonly clock: Clock,
  ) {}

  @Transactional()
  async create(input: { id?: string; name: string }): Promise<Organization> {
    const id = input.id ?? newId();
    if (input.id && (await this.organizations.findById(input.id))) throw organizationAlreadyExists(input.id);
    const organization = Organization.create(id, input.name, this.clock.now());
    const inserted = await translateUniqueViolation(() => this.organizations.insert(organization), () => organizationAlreadyExists(id));
    if (inserted === 'name_taken') throw organizationNameAlreadyExists(organization.name);
    return organization;
  }

  /** D20: an Organization named after a new Entity, suffixed ` (2)`, ` (3)` ... when taken. */
  @Transactional()
  async createNamedAfter(entityName: string): Promise<Organization> {
    for (let attempt = 1; ; attempt++) {
      const name = candidateOrganizationName(entityName, attempt);
      if (await this.organizations.findByNameKey(organizationNameKey(name))) continue;
      const organization = Organization.create(newId(), name, this.clock.now());
      if ((await this.organizations.insert(organization)) === 'inserted') return organization;
    }
  }

  async get(organizationId: string): Promise<Organization> {
    const organization = await this.organizations.findById(organizationId);
    if (!organization) throw organizationNotFound(organizationId);
    return organization;
  }

  /**
   * The Organization a write is about to point at (an Entity created or moved into it), held so
   * that a concurrent delete cannot remove it under the write: 404 rather than a foreign-key error.
   */
  async holdForReference(organizationId: string): Promise<Organization> {
    const organization = await this.organizations.holdForReference(organizationId);
    if (!organization) throw organizationNotFound(organizationId);
    return organization;
  }

  async summary(organizationId: string): Promise<OrganizationSummary> {
    const organization = await this.get(organizationId);
    const entities = await this.entities.summaries([organizationId]);
    return { organization, entities: entities.get(organizationId) ?? [] };
  }

  /** Global staff see all; others the Organizations where they hold the `staff` role; a scoped key none. */
  async listVisible(viewer: OrganizationViewer): Promise<OrganizationSummary[]> {
    if (viewer.scopedToEntity) return [];
    const organizations =
      viewer.role === 'staff'
        ? await this.organizations.listAll()
        : await this.organizations.listByIds(await this.memberships.organizationIdsOf(viewer.userId, ['staff']));
    const entities = await this.entities.summaries(organizations.map((o) => o.id));
    return organizations.map((organization) => ({ organization, entities: entities.get(organization.id) ?? [] }));
  }

  @Transactional()
  async rename(organizationId: string, name: string): Promise<Organization> {
    const organization = await this.organizations.lock(organizationId);
    if (!organization) throw organizationNotFound(organizationId);
    organization.rename(name, this.clock.now());
    if ((await this.organizations.save(organization)) === 'name_taken') throw organizationNameAlreadyExists(organization.name);
    return organization;
  }

  /** Refused while it holds an Entity; removes its Memberships. */
  @Transactional()
  async delete(organizationId: string): Promise<void> {
    const organization = await this.organizations.lock(organizationId);
    if (!organization) throw organizationNotFound(organizationId);
    if (await this.entities.holdsAny(organizationId)) throw organizationNotEmpty(organizationId);
    await this.organizations.delete(organizationId);
  }
}
