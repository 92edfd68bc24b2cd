import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { IfPresent, IsUuid, OptionalNullableUuid } from '../../../../platform/http/validators';

const TEXT_DOC = { minLength: 1, maxLength: 500, description: '1 to 500 characters after trimming; stored trimmed', example: 'Pedir la factura corregida' };

export class TodoListQuery {
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUuid() invoiceId?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUuid() bankMovementId?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUuid() ledgerEntryId?: string;
}

export class CreateTodoBody {
  @ApiProperty({ format: 'uuid' }) @IsUuid() id: string;
  // Length is judged after trimming (the service); this bound only stops huge strings early.
  @ApiProperty(TEXT_DOC) @IsString() @MaxLength(10_000) text: string;
  @OptionalNullableUuid('at most one of invoiceId, bankMovementId, ledgerEntryId') invoiceId?: string | null;
  @OptionalNullableUuid('at most one of invoiceId, bankMovementId, ledgerEntryId') bankMovementId?: string | null;
  @OptionalNullableUuid('at most one of invoiceId, bankMovementId, ledgerEntryId') ledgerEntryId?: string | null;
}

/** The link fields are not here: naming them is an unknown property, 400 (D61a). */
export class UpdateTodoBody {
  @ApiPropertyOptional(TEXT_DOC) @IfPresent() @IsString() @MaxLength(10_000) text?: string;
  @ApiPropertyOptional({ description: 'true completes (an earlier completedAt is kept); false reopens' }) @IfPresent() @IsBoolean() completed?: boolean;
}

export class TodoLinkResponse {
  @ApiProperty({ enum: ['invoice', 'bank_movement', 'ledger_entry'] }) kind: string;
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiPropertyOptional({ enum: ['ar', 'ap'], description: 'invoice' }) direction?: string;
  @ApiPropertyOptional({ description: 'invoice' }) documentKind?: string;
  @ApiPropertyOptional({ description: 'invoice' }) documentNumber?: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'invoice' }) partnerName?: string | null;
  @ApiPropertyOptional({ format: 'uuid', description: 'bank_movement' }) bankAccountId?: string;
  @ApiPropertyOptional({ format: 'date', description: 'bank_movement' }) movementDate?: string;
  @ApiPropertyOptional({ description: 'bank_movement, minor units' }) amount?: number;
  @ApiPropertyOptional({ enum: ['debit', 'credit'], description: 'bank_movement' }) side?: string;
  @ApiPropertyOptional({ description: 'bank_movement' }) bankAccountCurrency?: string;
  @ApiPropertyOptional({ format: 'date', description: 'ledger_entry' }) entryDate?: string;
  @ApiPropertyOptional({ description: 'ledger_entry' }) memo?: string;
}

export class TodoResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) entityId: string;
  @ApiProperty() text: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completedAt: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) invoiceId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) bankMovementId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) ledgerEntryId: string | null;
  @ApiProperty({ type: TodoLinkResponse, nullable: true, description: 'Summary of the linked record; null when stand-alone' }) link: TodoLinkResponse | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}
