import { ExportFormatParam } from '../../../../platform/exports/export-response';
import type { ExportFormat } from '../../../../platform/exports/table';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { MAX_AMOUNT } from '../../../../../libs/shared-kernel/src';
import { EntryResponse } from '../../../ledger';
import { IsCursor, IsIsoDate, IsUuid, NotBlank, PageLimit } from '../../../../platform/http/validators';
import { BANK_ACCOUNT_KINDS, type BankAccountKind } from '../../domain/bank-account';
import { MOVEMENT_SIDES, MOVEMENT_SOURCES, type MovementSide, type MovementSource } from '../../domain/bank-movement';
import { DESCRIPTION_MAX, REFERENCE_MAX } from '../../domain/statement';

const Nullable = () => ValidateIf((_, v) => v !== null && v !== undefined);

export class CreateBankAccountBody {
  @ApiProperty({ format: 'uuid' }) @IsUuid() id: string;
  @ApiProperty({ example: 'Cuenta corriente Banco de Chile' }) @IsString() @NotBlank() @MaxLength(200) name: string;
  @ApiProperty({ enum: BANK_ACCOUNT_KINDS, description: '`bank` maps an asset ledger account, `card` a liability' }) @IsIn(BANK_ACCOUNT_KINDS) kind: BankAccountKind;
  @ApiProperty({ format: 'uuid' }) @IsUuid() ledgerAccountId: string;
  @ApiProperty({ example: 'CLP', description: 'ISO 4217 code' }) @IsString() @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 currency code' }) currency: string;
}

export class RenameBankAccountBody {
  @ApiProperty({ description: 'Only the name is editable' }) @IsString() @NotBlank() @MaxLength(200) name: string;
}

export class BankFeedResponse {
  @ApiProperty({ format: 'uuid' }) bankConnectionId: string;
  @ApiProperty() providerAccountId: string;
  @ApiProperty() institutionName: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null until the first successful sync' }) lastSyncedAt: string | null;
}

export class BankAccountResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) entityId: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: BANK_ACCOUNT_KINDS }) kind: BankAccountKind;
  @ApiProperty({ format: 'uuid' }) ledgerAccountId: string;
  @ApiProperty({ example: 'CLP' }) currency: string;
  @ApiProperty({ type: BankFeedResponse, nullable: true, description: 'The active feed, null when none' }) feed: BankFeedResponse | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class BankAccountWithSummaryResponse extends BankAccountResponse {
  @ApiProperty({ type: 'integer', description: "The mapped ledger account's balance over live common entries, in its normal-side sign, minor units" }) balance: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Movements without a booking entry' }) unreconciledCount: number;
}

export class DeletedBankAccountResponse {
  @ApiProperty({ format: 'uuid' }) deletedBankAccountId: string;
}

export class MovementsQuery {
  @ApiPropertyOptional({ format: 'date', description: 'Inclusive (D64a)' }) @IsOptional() @IsIsoDate() from?: string;
  @ApiPropertyOptional({ format: 'date', description: 'Inclusive (D64a)' }) @IsOptional() @IsIsoDate() to?: string;
  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'Only booked (true) or only unbooked (false) movements' })
  @IsOptional()
  @IsIn(['true', 'false'])
  booked?: 'true' | 'false';

  @ApiPropertyOptional() @IsOptional() @IsCursor() cursor?: string;
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 }) @PageLimit() limit?: number;
  @ExportFormatParam() format?: ExportFormat;
}

export class CreateMovementBody {
  @ApiProperty({ format: 'uuid' }) @IsUuid() id: string;
  @ApiProperty({ format: 'date' }) @IsIsoDate() movementDate: string;
  @ApiProperty() @IsString() @NotBlank() @MaxLength(DESCRIPTION_MAX) description: string;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Positive, minor units of the bank account currency' }) @IsInt() @Min(1) @Max(MAX_AMOUNT) amount: number;
  @ApiProperty({ enum: MOVEMENT_SIDES, description: 'Side on the mapped ledger account: debit is money in for a bank, a payment to a card' })
  @IsIn(MOVEMENT_SIDES)
  side: MovementSide;

  @ApiPropertyOptional({ type: String, nullable: true }) @Nullable() @IsString() @MaxLength(REFERENCE_MAX) reference?: string | null;
}

export class BankMovementResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) entityId: string;
  @ApiProperty({ format: 'uuid' }) bankAccountId: string;
  @ApiProperty({ format: 'date' }) movementDate: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: 'integer', minimum: 1 }) amount: number;
  @ApiProperty({ enum: MOVEMENT_SIDES }) side: MovementSide;
  @ApiProperty({ type: String, nullable: true }) reference: string | null;
  @ApiProperty({ type: String, nullable: true }) counterpartyName: string | null;
  @ApiProperty({ type: String, nullable: true }) counterpartyTaxId: string | null;
  @ApiProperty({ enum: MOVEMENT_SOURCES }) source: MovementSource;
  @ApiProperty({ type: String, nullable: true }) providerMovementId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The entry that booked or matched it' }) ledgerEntryId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class MovementPageResponse {
  @ApiProperty({ type: BankMovementResponse, isArray: true, description: 'Newest first (movement date, then id)' }) rows: BankMovementResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}

export class ImportResultResponse {
  @ApiProperty({ type: 'integer', minimum: 0 }) landedCount: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Rows whose content the account already had' }) skippedCount: number;
}

export class BookMovementBody {
  @ApiProperty({ format: 'uuid', description: 'Id of the entry to post (idempotency id)' }) @IsUuid() entryId: string;
  @ApiProperty({ format: 'uuid', description: 'The ledger account the bank account is booked against' }) @IsUuid() counterAccountId: string;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true }) @Nullable() @IsUuid() partnerId?: string | null;
  @ApiPropertyOptional({ type: [String], description: 'Dimension Values of the counter line (Result Accounts only), at most one per Dimension' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsUuid({ each: true })
  dimensionValueIds?: string[];

  @ApiPropertyOptional({ description: "The entry's memo; the movement description when absent" }) @IsOptional() @IsString() @NotBlank() @MaxLength(1000) memo?: string;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'The Book of the entry; absent or null posts a Common Entry' })
  @Nullable()
  @IsUuid()
  bookId?: string | null;
}

export class MatchMovementBody {
  @ApiProperty({ format: 'uuid', description: 'Id of the entry to post (idempotency id)' }) @IsUuid() entryId: string;
  @ApiProperty({ type: [String], description: 'Open-item lines of one account and one Book; their open total must cover the movement amount' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @ArrayUnique()
  @IsUuid({ each: true })
  lineIds: string[];

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'The Book of the entry: the Book of the selected lines (absent or null: common lines)' })
  @Nullable()
  @IsUuid()
  bookId?: string | null;
}

export class CandidatesQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Required once the Entity keeps Books' }) @IsOptional() @IsUuid() bookId?: string;
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 }) @PageLimit() limit?: number;
}

export class AllocationOfMatchResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) entityId: string;
  @ApiProperty({ format: 'uuid' }) debitLineId: string;
  @ApiProperty({ format: 'uuid' }) creditLineId: string;
  @ApiProperty({ format: 'uuid' }) accountId: string;
  @ApiProperty({ type: 'integer', minimum: 1 }) amount: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class BookingResponse {
  @ApiProperty({ type: BankMovementResponse, description: 'The movement, now booked (ledgerEntryId set)' }) movement: BankMovementResponse;
  @ApiProperty({ type: EntryResponse, description: 'The posted entry with its lines' }) entry: EntryResponse;
}

export class MovementMatchResponse extends BookingResponse {
  @ApiProperty({ type: AllocationOfMatchResponse, isArray: true, description: "The allocations settling the entry's open-item line against the selected lines, oldest first" })
  allocations: AllocationOfMatchResponse[];
}

export class CandidateResponse {
  @ApiProperty({ format: 'uuid', description: 'The line id (as in the other line shapes)' }) id: string;
  @ApiProperty({ format: 'uuid', description: 'The line id again, named for what it is' }) lineId: string;
  @ApiProperty({ format: 'uuid' }) entryId: string;
  @ApiProperty({ format: 'date' }) entryDate: string;
  @ApiProperty() memo: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ format: 'uuid' }) ledgerAccountId: string;
  @ApiProperty({ enum: MOVEMENT_SIDES, description: "The movement's side: the side these lines are settled from" }) side: MovementSide;
  @ApiProperty({ type: 'integer' }) amount: number;
  @ApiProperty({ type: 'integer' }) openAmount: number;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) partnerId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) bookId: string | null;
  @ApiProperty({ description: 'Criterion 1: the open amount equals the movement amount' }) equalAmount: boolean;
  @ApiProperty({ description: "Criterion 2: the line's partner has the movement's counterparty RUT (or a RUT printed in its description)" }) partnerTaxIdMatch: boolean;
  @ApiProperty({ description: "Criterion 3: an invoice folio or a reference of the movement's description is the line's" }) folioOrReferenceMatch: boolean;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Criterion 4: days between the entry date and the movement date' }) daysApart: number;
}
