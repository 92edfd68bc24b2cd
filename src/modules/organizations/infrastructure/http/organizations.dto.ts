import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Validate, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { IsUuid } from '../../../../platform/http/validators';
import type { MembershipRole, OrganizationMember, OrganizationRecord, OrganizationSummary, UserMembership } from '../../../../../libs/contracts/src';
import { MEMBERSHIP_ROLES } from '../../domain/membership';
import { organizationNameProblem } from '../../domain/organization';

@ValidatorConstraint({ name: 'organizationName' })
class OrganizationNameRule implements ValidatorConstraintInterface {
  private problem: string | null = null;

  validate(value: unknown): boolean {
    // A value that is not a string is IsString's to report (once, not twice).
    this.problem = typeof value === 'string' ? organizationNameProblem(value) : null;
    return this.problem === null;
  }

  defaultMessage(): string {
    return this.problem ?? 'name is invalid';
  }
}

export class CreateOrganizationBody {
  @ApiPropertyOptional({ format: 'uuid', description: 'Idempotency id; made by the service when absent' })
  @IsOptional()
  @IsUuid()
  id?: string;

  @ApiProperty({ example: 'Grupo Andes', description: '1 to 200 characters after trimming, unique ignoring case' })
  @IsString()
  @Validate(OrganizationNameRule)
  name: string;
}

export class RenameOrganizationBody {
  @ApiProperty({ example: 'Grupo Andes' })
  @IsString()
  @Validate(OrganizationNameRule)
  name: string;
}

export class MembershipBody {
  @ApiProperty({ format: 'uuid' })
  @IsUuid()
  organizationId: string;

  @ApiProperty({ enum: MEMBERSHIP_ROLES })
  @IsIn(MEMBERSHIP_ROLES)
  role: MembershipRole;
}

export class EntityRef {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
}

export class OrganizationResponse implements OrganizationRecord {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class OrganizationSummaryResponse implements OrganizationSummary {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: EntityRef, isArray: true }) entities: EntityRef[];
}

export class UserMembershipResponse implements UserMembership {
  @ApiProperty({ format: 'uuid' }) organizationId: string;
  @ApiProperty() organizationName: string;
  @ApiProperty({ enum: MEMBERSHIP_ROLES }) role: MembershipRole;
}

export class OrganizationMemberResponse implements OrganizationMember {
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty() name: string;
  @ApiProperty() email: string;
  @ApiProperty({ enum: MEMBERSHIP_ROLES }) role: MembershipRole;
}
