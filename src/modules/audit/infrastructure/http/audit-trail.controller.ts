import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import type { AuditTrailRow, Page } from '../../../../../libs/contracts/src';
import { Authenticated, StaffOnly } from '../../../../platform/auth/decorators';
import { IsCursor, IsIsoDateOrDateTime, IsUuid, PageLimit } from '../../../../platform/http/validators';
import { AuditTrailQueryService } from '../../application/audit-trail-query.service';
import { OrganizationsService } from '../../../organizations';

export class AuditTrailQuery {
  @ApiPropertyOptional({ description: 'ISO date (whole day, business time zone) or date-time' })
  @IsOptional()
  @IsIsoDateOrDateTime()
  from?: string;

  @ApiPropertyOptional({ description: 'ISO date (whole day, business time zone) or date-time' })
  @IsOptional()
  @IsIsoDateOrDateTime()
  to?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUuid()
  actorUserId?: string;

  @ApiPropertyOptional({ example: 'organization' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  resourceType?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(200)
  resourceId?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsCursor()
  cursor?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 })
  @PageLimit()
  limit?: number;
}

class AuditTrailRowResponse implements AuditTrailRow {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'date-time' }) occurredAt: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) entityId: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) organizationId: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) actorUserId: string | null;
  @ApiProperty({ nullable: true, type: String, description: '`x-audit-actor` of an API key request, verbatim; `system:...` for a write made outside an HTTP request (a job)' })
  declaredActor: string | null;
  @ApiProperty({ enum: ['session', 'api_key'], nullable: true }) credential: 'session' | 'api_key' | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) apiKeyId: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Null for a write made outside an HTTP request' }) method: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Null for a write made outside an HTTP request' }) path: string | null;
  @ApiProperty({ example: 'organization.create' }) action: string;
  @ApiProperty({ nullable: true, type: String }) resourceType: string | null;
  @ApiProperty({ nullable: true, type: String }) resourceId: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Null for a write made outside an HTTP request' }) requestId: string | null;
  @ApiProperty({ nullable: true, type: String, description: '`x-audit-reason`' }) reason: string | null;
}

class AuditTrailPage implements Page<AuditTrailRow> {
  @ApiProperty({ type: AuditTrailRowResponse, isArray: true }) rows: AuditTrailRowResponse[];
  @ApiProperty({ nullable: true, type: String }) nextCursor: string | null;
}

@ApiTags('audit trail')
@Authenticated()
@Controller()
export class AuditTrailController {
  constructor(
    private readonly auditTrail: AuditTrailQueryService,
    private readonly organizations: OrganizationsService,
  ) {}

  @Get('entities/:entityId/audit-trail')
  @ApiOkResponse({ type: AuditTrailPage, description: 'Mutations of the Entity, newest first' })
  @ApiNotFoundResponse({ description: 'ENTITY_NOT_FOUND_ERROR (also for an Entity the caller cannot reach)' })
  forEntity(@Param('entityId') entityId: string, @Query() query: AuditTrailQuery): Promise<Page<AuditTrailRow>> {
    return this.auditTrail.forEntity(entityId, query);
  }

  @Get('organizations/:organizationId/audit-trail')
  @StaffOnly()
  @ApiOkResponse({ type: AuditTrailPage, description: 'Mutations of the Organization and its Entities, newest first' })
  @ApiNotFoundResponse({ description: 'ORGANIZATION_NOT_FOUND_ERROR' })
  async forOrganization(@Param('organizationId') organizationId: string, @Query() query: AuditTrailQuery): Promise<Page<AuditTrailRow>> {
    await this.organizations.get(organizationId);
    return this.auditTrail.forOrganization(organizationId, query);
  }
}
