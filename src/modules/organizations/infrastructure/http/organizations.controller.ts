import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { OrganizationMember, OrganizationRecord, OrganizationSummary, UserMembership } from '../../../../../libs/contracts/src';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { NoBody } from '../../../../platform/http/validation';
import { AuditContext } from '../../../../platform/audit/audit-context';
import { Authenticated, CurrentPrincipal, StaffOnly } from '../../../../platform/auth/decorators';
import type { Principal } from '../../../../platform/auth/principal';
import { MembershipsService } from '../../application/memberships.service';
import { OrganizationsService, OrganizationSummary as Summary } from '../../application/organizations.service';
import type { Organization } from '../../domain/organization';
import {
  CreateOrganizationBody,
  MembershipBody,
  OrganizationMemberResponse,
  OrganizationResponse,
  OrganizationSummaryResponse,
  RenameOrganizationBody,
  UserMembershipResponse,
} from './organizations.dto';

const present = (organization: Organization): OrganizationRecord => ({
  id: organization.id,
  name: organization.name,
  createdAt: organization.createdAt.toISOString(),
});

const presentSummary = ({ organization, entities }: Summary): OrganizationSummary => ({ ...present(organization), entities });

@ApiTags('organizations')
@Authenticated()
@Controller('organizations')
export class OrganizationsController {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly memberships: MembershipsService,
    private readonly audit: AuditContext,
  ) {}

  @Get()
  @ApiOkResponse({
    type: OrganizationSummaryResponse,
    isArray: true,
    description: 'Global staff: all; others: where they hold the staff role; an Entity-scoped key: none',
  })
  async list(@CurrentPrincipal() principal: Principal): Promise<OrganizationSummary[]> {
    const summaries = await this.organizations.listVisible({
      userId: principal.user.id,
      role: principal.user.role,
      scopedToEntity: Boolean(principal.apiKey?.entityId),
    });
    return summaries.map(presentSummary);
  }

  @Post()
  @StaffOnly()
  @Audit('organization.create', 'organization')
  @ApiCreatedResponse({ type: OrganizationResponse, description: 'The new Organization' })
  @ApiConflictResponse({ description: 'ORGANIZATION_ALREADY_EXISTS_ERROR (id) or ORGANIZATION_NAME_ALREADY_EXISTS_ERROR' })
  async create(@Body() body: CreateOrganizationBody): Promise<OrganizationRecord> {
    const organization = await this.organizations.create(body);
    this.audit.describe({ organizationId: organization.id });
    return present(organization);
  }

  @Get(':organizationId')
  @StaffOnly()
  @ApiOkResponse({ type: OrganizationSummaryResponse, description: 'The Organization with its Entities' })
  @ApiNotFoundResponse({ description: 'ORGANIZATION_NOT_FOUND_ERROR' })
  async get(@Param('organizationId') organizationId: string): Promise<OrganizationSummary> {
    return presentSummary(await this.organizations.summary(organizationId));
  }

  @Patch(':organizationId')
  @StaffOnly()
  @Audit('organization.rename', 'organization')
  @ApiOkResponse({ type: OrganizationResponse, description: 'The renamed Organization' })
  @ApiNotFoundResponse({ description: 'ORGANIZATION_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'ORGANIZATION_NAME_ALREADY_EXISTS_ERROR' })
  async rename(@Param('organizationId') organizationId: string, @Body() body: RenameOrganizationBody): Promise<OrganizationRecord> {
    return present(await this.organizations.rename(organizationId, body.name));
  }

  @Delete(':organizationId')
  @StaffOnly()
  @HttpCode(204)
  @Audit('organization.delete', 'organization')
  @ApiNoContentResponse({ description: 'Deleted with its Memberships' })
  @ApiNotFoundResponse({ description: 'ORGANIZATION_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'ORGANIZATION_NOT_EMPTY_ERROR: it still holds an Entity' })
  async delete(@Param('organizationId') organizationId: string, @NoBody() _body: unknown): Promise<void> {
    await this.organizations.delete(organizationId);
  }

  @Get(':organizationId/members')
  @StaffOnly()
  @ApiOkResponse({ type: OrganizationMemberResponse, isArray: true, description: 'Members by name' })
  @ApiNotFoundResponse({ description: 'ORGANIZATION_NOT_FOUND_ERROR' })
  members(@Param('organizationId') organizationId: string): Promise<OrganizationMember[]> {
    return this.memberships.members(organizationId);
  }
}

/** D15: Membership grant (upsert of the role) and revoke, on the onboarding surface. */
@ApiTags('onboarding')
@Authenticated()
@StaffOnly()
@Controller('onboarding/users/:userId/memberships')
export class MembershipsController {
  constructor(
    private readonly memberships: MembershipsService,
    private readonly audit: AuditContext,
  ) {}

  @Get()
  @ApiOperation({ summary: "List a User's Memberships" })
  @ApiOkResponse({ type: UserMembershipResponse, isArray: true, description: 'The Organizations the User is a member of, by name, with the role' })
  @ApiNotFoundResponse({ description: 'USER_NOT_FOUND_ERROR' })
  list(@Param('userId') userId: string): Promise<UserMembership[]> {
    return this.memberships.membershipsOf(userId);
  }

  @Post()
  @HttpCode(204)
  @Audit('membership.grant', 'membership')
  @ApiNoContentResponse({ description: 'The User holds the role in the Organization' })
  @ApiNotFoundResponse({ description: 'USER_NOT_FOUND_ERROR or ORGANIZATION_NOT_FOUND_ERROR' })
  async grant(@Param('userId') userId: string, @Body() body: MembershipBody): Promise<void> {
    await this.memberships.grant(userId, body.organizationId, body.role);
    this.audit.describe({ organizationId: body.organizationId, resourceId: userId });
  }

  @Delete()
  @HttpCode(204)
  @Audit('membership.revoke', 'membership')
  @ApiNoContentResponse({ description: 'The User no longer holds a Membership in the Organization' })
  @ApiNotFoundResponse({ description: 'USER_NOT_FOUND_ERROR or ORGANIZATION_NOT_FOUND_ERROR' })
  async revoke(@Param('userId') userId: string, @Body() body: MembershipBody): Promise<void> {
    await this.memberships.revoke(userId, body.organizationId);
    this.audit.describe({ organizationId: body.organizationId, resourceId: userId });
  }
}
