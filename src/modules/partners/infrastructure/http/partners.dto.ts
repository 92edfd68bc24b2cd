import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IfPresent, IsCursor, IsUuid, NotBlank, OptionalNullableUuid, PageLimit, VisibleName } from '../../../../platform/http/validators';
import { PARTNER_TYPES, PartnerType } from '../../domain/partner';

export class CreatePartnerBody {
  @ApiProperty({ format: 'uuid' }) @IsUuid() id: string;
  @ApiProperty({ example: 'Distribuidora Austral SpA' }) @IsString() @IsNotEmpty() @VisibleName() @MaxLength(200) name: string;
  @ApiProperty({ enum: PARTNER_TYPES }) @IsIn(PARTNER_TYPES) type: PartnerType;
  @ApiProperty({ example: 'CL' }) @IsString() @IsNotEmpty() country: string;
  @ApiProperty({ example: '76.086.428-5', description: 'For CL a RUT, stored canonical; unique in the Entity' })
  @IsString()
  @IsNotEmpty()
  @NotBlank()
  @MaxLength(50)
  taxId: string;

  @OptionalNullableUuid() defaultPurchaseAccountId?: string | null;
}

export class UpdatePartnerBody {
  @ApiPropertyOptional() @IfPresent() @IsString() @IsNotEmpty() @VisibleName() @MaxLength(200) name?: string;
  @ApiPropertyOptional({ enum: PARTNER_TYPES }) @IfPresent() @IsIn(PARTNER_TYPES) type?: PartnerType;
  @ApiPropertyOptional() @IfPresent() @IsString() @IsNotEmpty() country?: string;
  @ApiPropertyOptional() @IfPresent() @IsString() @IsNotEmpty() @NotBlank() @MaxLength(50) taxId?: string;

  @OptionalNullableUuid('null clears') defaultPurchaseAccountId?: string | null;
}

export class PartnerPageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Required once the Entity keeps Books' })
  @IsOptional()
  @IsUuid()
  bookId?: string;

  @ApiPropertyOptional({ description: 'Case-insensitive part of the name or tax id' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional() @IsOptional() @IsCursor() cursor?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 })
  @PageLimit()
  limit?: number;
}

export class PartnerResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) entityId: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: PARTNER_TYPES }) type: PartnerType;
  @ApiProperty() country: string;
  @ApiProperty() taxId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) defaultPurchaseAccountId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class PartnerPageRowResponse extends PartnerResponse {
  @ApiProperty({ description: 'Open receivable balance in the Book read, minor units' }) receivableOpenBalance: number;
  @ApiProperty({ description: 'Open payable balance in the Book read, minor units' }) payableOpenBalance: number;
}

export class PartnerPageResponse {
  @ApiProperty({ type: PartnerPageRowResponse, isArray: true }) rows: PartnerPageRowResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}
