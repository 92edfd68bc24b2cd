import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import type { Entity, EntityEditability } from '../../../../../libs/contracts/src';
import { IfPresent, IsIsoDate, IsUuid, NotBlank, VisibleName } from '../../../../platform/http/validators';


export class CreateEntityBody {
  @ApiProperty({ format: 'uuid', description: 'Idempotency id' })
  @IsUuid()
  id: string;

  @ApiProperty({ example: 'Comercial Andes SpA' })
  @IsString()
  @IsNotEmpty()
  @VisibleName()
  @MaxLength(200)
  name: string;

  @ApiProperty({ example: 'CL', description: 'ISO 3166-1 alpha-2' })
  @IsString()
  @IsNotEmpty()
  country: string;

  @ApiProperty({ example: '76.086.428-5', description: 'For CL a RUT, stored canonical (76086428-5)' })
  @IsString()
  @IsNotEmpty()
  @NotBlank()
  @MaxLength(50)
  taxId: string;

  @ApiProperty({ example: 'CLP', description: 'Functional currency, ISO 4217' })
  @IsString()
  @IsNotEmpty()
  currency: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Without it, a new Organization named after the Entity is made (D20)' })
  @IsOptional()
  @IsUuid()
  organizationId?: string;
}

export class UpdateEntityBody {
  @ApiPropertyOptional()
  @IfPresent()
  @IsString()
  @IsNotEmpty()
  @VisibleName()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ description: 'Sent together with taxId' })
  @IfPresent()
  @IsString()
  @IsNotEmpty()
  country?: string;

  @ApiPropertyOptional({ description: 'Sent together with country' })
  @IfPresent()
  @IsString()
  @IsNotEmpty()
  @NotBlank()
  @MaxLength(50)
  taxId?: string;

  @ApiPropertyOptional()
  @IfPresent()
  @IsString()
  @IsNotEmpty()
  currency?: string;
}

export class LedgerLockDateBody {
  @ApiProperty({ type: String, format: 'date', nullable: true, description: 'Frozen up to and including this date; null clears' })
  @IsDefined()
  @ValidateIf((_, value) => value !== null)
  @IsIsoDate()
  ledgerLockDate: string | null;
}

export class ParentBody {
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  @IsDefined()
  @ValidateIf((_, value) => value !== null)
  @IsUuid()
  parentEntityId: string | null;
}

export class AccountingPoliciesBody {
  @ApiProperty({ type: String, nullable: true })
  @IsDefined()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(20000)
  accountingPolicies: string | null;
}

export class MoveEntityBody {
  @ApiProperty({ format: 'uuid' })
  @IsUuid()
  organizationId: string;
}

export class EntityResponse implements Entity {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) organizationId: string;
  @ApiProperty() name: string;
  @ApiProperty() country: string;
  @ApiProperty() taxId: string;
  @ApiProperty() currency: string;
  @ApiProperty({ type: String, format: 'date', nullable: true }) ledgerLockDate: string | null;
  @ApiProperty({ type: String, nullable: true }) accountingPolicies: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) parentEntityId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class EditabilityResponse implements EntityEditability {
  @ApiProperty({ description: 'False once the Entity has a ledger entry or an invoice (D22)' })
  identityFieldsEditable: boolean;
}
