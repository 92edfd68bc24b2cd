import { Injectable } from '@nestjs/common';
import { TenantAccess } from '../../../platform/auth/ports';
import { EntityReachability } from '../../identity';
import { OrganizationEntities } from '../../organizations';
import { EntityRepository } from '../domain/entity-ports';
import { entityNotFound } from '../domain/entity-errors';
import type { DomainError } from '../../../../libs/shared-kernel/src';

/** What other modules may ask about Entities: who reaches them, which an Organization holds. */
@Injectable()
export class EntityReachabilityService extends EntityReachability {
  constructor(private readonly tenantAccess: TenantAccess) {
    super();
  }

  async canReach(user: { id: string; role: 'staff' | 'client' }, entityId: string): Promise<boolean> {
    const scope = await this.tenantAccess.scopeFor(entityId, user.id);
    return scope !== null && (user.role === 'staff' || scope.membershipRole !== null);
  }

  notFound(entityId: string): DomainError {
    return entityNotFound(entityId);
  }
}

@Injectable()
export class OrganizationEntitiesService extends OrganizationEntities {
  constructor(private readonly entities: EntityRepository) {
    super();
  }

  async summaries(organizationIds: string[]): Promise<Map<string, Array<{ id: string; name: string }>>> {
    const byOrganization = new Map<string, Array<{ id: string; name: string }>>();
    for (const { id, name, organizationId } of await this.entities.summaries(organizationIds)) {
      const list = byOrganization.get(organizationId) ?? [];
      list.push({ id, name });
      byOrganization.set(organizationId, list);
    }
    return byOrganization;
  }

  async holdsAny(organizationId: string): Promise<boolean> {
    return (await this.entities.countInOrganization(organizationId)) > 0;
  }
}
