import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TenantAccess } from '../../platform/auth/ports';
import { EntityReachability } from '../identity';
import { OrganizationEntities } from '../organizations';
import { OrganizationsModule } from '../organizations';
import { ReferenceModule } from '../reference';
import { BookkeepingProbes } from './application/bookkeeping-probes';
import { EntitiesService } from './application/entities.service';
import { EntityReachabilityService, OrganizationEntitiesService } from './application/entity-directory.service';
import { EntityRepository } from './domain/entity-ports';
import { EntitiesController } from './infrastructure/http/entities.controller';
import { PgTenantAccess, TypeOrmEntityRepository } from './infrastructure/persistence/entity.repositories';

/**
 * Entities. Global because other modules reach Entities through its ports: the tenant guard
 * (TenantAccess), API-key scoping (EntityReachability) and Organizations (OrganizationEntities).
 */
@Global()
@Module({
  imports: [OrganizationsModule, ReferenceModule, DiscoveryModule],
  controllers: [EntitiesController],
  providers: [
    { provide: EntityRepository, useClass: TypeOrmEntityRepository },
    { provide: TenantAccess, useClass: PgTenantAccess },
    { provide: EntityReachability, useClass: EntityReachabilityService },
    { provide: OrganizationEntities, useClass: OrganizationEntitiesService },
    BookkeepingProbes,
    EntitiesService,
  ],
  exports: [TenantAccess, EntityReachability, OrganizationEntities, EntitiesService],
})
export class EntitiesModule {}
