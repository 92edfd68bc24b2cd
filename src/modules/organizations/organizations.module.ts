import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity';
import { MembershipsService } from './application/memberships.service';
import { OrganizationsService } from './application/organizations.service';
import { MembershipRepository, OrganizationRepository, UserDirectory } from './domain/organization-ports';
import { MembershipsController, OrganizationsController } from './infrastructure/http/organizations.controller';
import { TypeOrmMembershipRepository, TypeOrmOrganizationRepository } from './infrastructure/persistence/organization.repositories';
import { IdentityUserDirectory } from './infrastructure/user-directory.adapter';

/** Organizations and Memberships. The Entities it holds come through the OrganizationEntities port. */
@Module({
  imports: [IdentityModule],
  controllers: [OrganizationsController, MembershipsController],
  providers: [
    { provide: OrganizationRepository, useClass: TypeOrmOrganizationRepository },
    { provide: MembershipRepository, useClass: TypeOrmMembershipRepository },
    { provide: UserDirectory, useClass: IdentityUserDirectory },
    OrganizationsService,
    MembershipsService,
  ],
  exports: [OrganizationsService, MembershipsService],
})
export class OrganizationsModule {}
