import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IfPresent, IsUuid, OptionalNullableIn, OptionalNullableUuid, VisibleName } from '../../../../platform/http/validators';
import { ACCOUNT_TYPES, AccountType, NormalSide, SUBTYPES, Subtype, Tracking, TRACKINGS } from '../../domain/account-types';

/** A non-empty display name. */
const Name = () => applyDecorators(IsString(), IsNotEmpty(), VisibleName(), MaxLength(200));
/** A non-empty code. */
const Code = () => applyDecorators(IsString(), IsNotEmpty(), VisibleName(), MaxLength(50));

export class CreateGroupBody {
  @ApiProperty({ format: 'uuid' }) @IsUuid() id: string;

  @OptionalNullableUuid() parentGroupId?: string | null;

  @ApiProperty({ example: '11' }) @Code() codePrefix: string;
  @ApiProperty({ example: 'Activo corriente' }) @Name() name: string;
  @ApiProperty({ enum: ACCOUNT_TYPES }) @IsIn(ACCOUNT_TYPES) type: AccountType;
}

export class CreateAccountBody {
  @ApiProperty({ format: 'uuid' }) @IsUuid() id: string;
  @ApiProperty({ example: 'Caja' }) @Name() name: string;
  @ApiProperty({ example: '1101' }) @Code() code: string;
  @ApiProperty({ enum: ACCOUNT_TYPES }) @IsIn(ACCOUNT_TYPES) type: AccountType;
  @ApiProperty({ enum: TRACKINGS }) @IsIn(TRACKINGS) tracking: Tracking;

  @OptionalNullableIn(SUBTYPES) subtype?: Subtype | null;

  @OptionalNullableUuid() groupId?: string | null;
}

export class UpdateAccountBody {
  @ApiPropertyOptional() @IfPresent() @Name() name?: string;
  @ApiPropertyOptional() @IfPresent() @Code() code?: string;
  @ApiPropertyOptional({ enum: ACCOUNT_TYPES }) @IfPresent() @IsIn(ACCOUNT_TYPES) type?: AccountType;
  @ApiPropertyOptional({ enum: TRACKINGS }) @IfPresent() @IsIn(TRACKINGS) tracking?: Tracking;

  @OptionalNullableIn(SUBTYPES, 'null clears') subtype?: Subtype | null;

  @OptionalNullableUuid() groupId?: string | null;
}

export class InitializeChartBody {
  @ApiProperty({ format: 'uuid', description: 'Idempotency id of the initialization' }) @IsUuid() id: string;
  @ApiProperty({ example: 'cl-pyme' }) @applyDecorators(IsString(), IsNotEmpty(), MaxLength(100)) templateKey: string;
  @ApiProperty({ example: '2025.1' }) @applyDecorators(IsString(), IsNotEmpty(), MaxLength(100)) templateVersion: string;
}

export class CreateBookBody {
  @ApiProperty({ format: 'uuid' }) @IsUuid() id: string;
  @ApiProperty({ example: 'IFRS' }) @Name() name: string;
}

export class DimensionBody {
  @ApiProperty({ format: 'uuid' }) @IsUuid() id: string;
  @ApiProperty({ example: 'Cost center' }) @Name() name: string;
}

export class RenameDimensionBody {
  @ApiProperty({ example: 'Cost center' }) @Name() name: string;
}

export class CreateDimensionValueBody {
  @ApiProperty({ format: 'uuid' }) @IsUuid() id: string;
  @ApiProperty({ example: 'CC-01' }) @Code() code: string;
  @ApiProperty({ example: 'Santiago' }) @Name() name: string;

  @OptionalNullableUuid() parentId?: string | null;
}

export class UpdateDimensionValueBody {
  @ApiPropertyOptional() @IfPresent() @Code() code?: string;
  @ApiPropertyOptional() @IfPresent() @Name() name?: string;

  @OptionalNullableUuid() parentId?: string | null;
}

export class AccountGroupResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) parentGroupId: string | null;
  @ApiProperty() codePrefix: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ACCOUNT_TYPES }) type: AccountType;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class LedgerAccountResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) groupId: string | null;
  @ApiProperty() code: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ACCOUNT_TYPES }) type: AccountType;
  @ApiProperty({ enum: TRACKINGS }) tracking: Tracking;
  @ApiProperty({ enum: SUBTYPES, nullable: true }) subtype: Subtype | null;
  @ApiProperty({ enum: ['debit', 'credit'], description: 'Derived from the type' }) normalSide: NormalSide;
  @ApiProperty({ description: 'A live or scheduled line points at the account' }) hasEntries: boolean;
  @ApiProperty({ enum: ['entries', 'bank_account', 'default_purchase_account'], nullable: true }) deleteBlockedBy: string | null;
  @ApiProperty() isDefaultPurchaseAccount: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class ChartResponse {
  @ApiProperty({ type: AccountGroupResponse, isArray: true }) groups: AccountGroupResponse[];
  @ApiProperty({ type: LedgerAccountResponse, isArray: true }) accounts: LedgerAccountResponse[];
}

export class GroupCreatedResponse {
  @ApiProperty({ type: AccountGroupResponse }) group: AccountGroupResponse;
}

export class AccountResultResponse {
  @ApiProperty({ type: LedgerAccountResponse }) account: LedgerAccountResponse;
}

export class DeletedAccountResponse {
  @ApiProperty({ format: 'uuid' }) deletedAccountId: string;
}

export class ChartTemplateResponse {
  @ApiProperty({ example: 'cl-pyme' }) key: string;
  @ApiProperty({ example: '2025.1' }) version: string;
  @ApiProperty({ example: 'es-CL' }) locale: string;
  @ApiProperty({ format: 'date' }) effectiveFrom: string;
  @ApiProperty() groupCount: number;
  @ApiProperty() accountCount: number;
}

export class BookResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) entityId: string;
  @ApiProperty() name: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class DimensionResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) entityId: string;
  @ApiProperty() name: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class DimensionValueResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) entityId: string;
  @ApiProperty({ format: 'uuid' }) dimensionId: string;
  @ApiProperty() code: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) parentId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}
