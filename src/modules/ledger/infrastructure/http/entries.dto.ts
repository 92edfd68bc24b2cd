import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ExportFormatParam } from '../../../../platform/exports/export-response';
import type { ExportFormat } from '../../../../platform/exports/table';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { MAX_AMOUNT } from '../../../../../libs/shared-kernel/src';
import { IfPresent, IsCursor, IsIsoDate, IsRate, IsUuid, NotBlank, PageLimit } from '../../../../platform/http/validators';
import type { EntrySource, EntryStatus, Side } from '../../domain/ledger-entry';
import type { RelatedDocuments, SeveredDocuments } from '../../application/entry-lifecycle';

const Nullable = () => ValidateIf((_, v) => v !== null && v !== undefined);
const STATUS_FILTERS = ['live', 'all', 'active', 'reversed', 'deleted', 'cancelled', 'scheduled'];

export class NewLineBody {
  @ApiPropertyOptional({ format: 'uuid', description: 'Made by the service when absent' }) @IsOptional() @IsUuid() id?: string;
  @ApiProperty({ enum: ['debit', 'credit'] }) @IsIn(['debit', 'credit']) side: Side;
  @ApiProperty({ format: 'uuid' }) @IsUuid() ledgerAccountId: string;
  @ApiProperty({ description: 'Positive integer, minor units of the functional currency' }) @IsInt() @Min(1) @Max(MAX_AMOUNT) amount: number;
  @ApiPropertyOptional({ type: String, nullable: true }) @Nullable() @IsString() @MaxLength(1000) description?: string | null;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true }) @Nullable() @IsUuid() partnerId?: string | null;

  @ApiPropertyOptional({ type: [String], description: 'At most one value per Dimension; only on Result Accounts' })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(20)
  @IsUuid({ each: true })
  dimensionValueIds?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, example: 'USD' }) @Nullable() @IsString() @Matches(/^[A-Z]{3}$/) transactionCurrency?: string | null;
  @ApiPropertyOptional({ type: Number, nullable: true }) @Nullable() @IsInt() @Min(1) @Max(MAX_AMOUNT) transactionAmount?: number | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: '950.5', description: 'Functional units per transaction unit (D7), greater than zero; answered in canonical form (950.50 is 950.5)' })
  @Nullable()
  @IsString()
  @IsRate()
  exchangeRate?: string | null;
}

class LinesBody {
  @ApiProperty({ type: NewLineBody, isArray: true })
  @IsArray()
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => NewLineBody)
  newLedgerEntryLines: NewLineBody[];
}

export class CreateEntryBody extends LinesBody {
  @ApiProperty({ format: 'uuid', description: 'Idempotency id' }) @IsUuid() id: string;
  @ApiProperty({ format: 'date' }) @IsIsoDate() entryDate: string;
  @ApiProperty() @IsString() @NotBlank() @MaxLength(1000) memo: string;
  @ApiPropertyOptional({ type: String, nullable: true }) @Nullable() @IsString() @MaxLength(10000) notes?: string | null;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'The Book of a Book Entry; absent or null posts a Common Entry, counted in every Book' })
  @Nullable()
  @IsUuid()
  bookId?: string | null;
}

/** Most entries one entry batch holds (the route and the import command). */
export const ENTRY_BATCH_MAX = 1000;

export class EntryBatchBody {
  @ApiProperty({
    type: CreateEntryBody,
    isArray: true,
    minItems: 1,
    maxItems: ENTRY_BATCH_MAX,
    description: 'Entries as POST .../ledger/entries takes them, posted all or nothing; an entry whose id is already in the books is skipped',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(ENTRY_BATCH_MAX)
  entries: unknown[];
}

export class EntryBatchResponse {
  @ApiProperty({ description: 'Entries of the batch written now' }) postedEntries: number;
  @ApiProperty({ description: 'Their lines' }) postedLines: number;
  @ApiProperty({ description: 'Entries of the batch already in the books, by id (written before, e.g. by an earlier attempt): not written again' }) skippedEntries: number;
  @ApiProperty({ type: [String], description: 'Their ids, in batch order' }) skippedEntryIds: string[];
}

export class ReplaceScheduledBody extends LinesBody {
  @ApiProperty({ format: 'date' }) @IsIsoDate() entryDate: string;
  @ApiProperty() @IsString() @NotBlank() @MaxLength(1000) memo: string;
  @ApiPropertyOptional({ type: String, nullable: true }) @Nullable() @IsString() @MaxLength(10000) notes?: string | null;
}

export class EditEntryBody {
  @ApiPropertyOptional({ format: 'date' }) @IfPresent() @IsIsoDate() entryDate?: string;
  @ApiPropertyOptional() @IfPresent() @IsString() @NotBlank() @MaxLength(1000) memo?: string;
  @ApiPropertyOptional({ type: String, nullable: true }) @Nullable() @IsString() @MaxLength(10000) notes?: string | null;
}

export class ReverseEntryBody {
  @ApiProperty({ format: 'uuid', description: 'Id of the reversal entry (idempotency id)' }) @IsUuid() id: string;
  @ApiProperty({ format: 'date', description: 'After the original entry date and the lock date' }) @IsIsoDate() reversalDate: string;
  @ApiPropertyOptional() @IfPresent() @IsString() @NotBlank() @MaxLength(1000) memo?: string;
}

export class EntriesQuery {
  @ApiPropertyOptional({ format: 'date' }) @IsOptional() @IsIsoDate() from?: string;
  @ApiPropertyOptional({ format: 'date' }) @IsOptional() @IsIsoDate() to?: string;
  @ApiPropertyOptional({ enum: STATUS_FILTERS, default: 'live' }) @IsOptional() @IsIn(STATUS_FILTERS) status?: string;
  @ApiPropertyOptional({ description: 'Case-insensitive part of memo or notes' }) @IsOptional() @IsString() @MaxLength(200) search?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUuid() accountId?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUuid() partnerId?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUuid() bookId?: string;
  @ApiPropertyOptional() @IsOptional() @IsCursor() cursor?: string;
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 }) @PageLimit() limit?: number;
  @ExportFormatParam() format?: ExportFormat;
}

export class LinesQuery {
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUuid() accountId?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUuid() partnerId?: string;
  @ApiPropertyOptional({ format: 'date' }) @IsOptional() @IsIsoDate() from?: string;
  @ApiPropertyOptional({ format: 'date' }) @IsOptional() @IsIsoDate() to?: string;
  @ApiPropertyOptional({ enum: STATUS_FILTERS, default: 'live' }) @IsOptional() @IsIn(STATUS_FILTERS) status?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUuid() bookId?: string;
  @ExportFormatParam() format?: ExportFormat;
}

export class LinePartnerBody {
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null clears' })
  @IsDefined()
  // Not Nullable(): that also skips undefined, and with it IsDefined (ValidateIf runs first), so
  // `{}` reached the service as a partner lookup. The field is required; only null clears (D38).
  @ValidateIf((_, v) => v !== null)
  @IsUuid()
  partnerId: string | null;
}

export class LineAccountBody {
  @ApiProperty({ format: 'uuid' }) @IsUuid() ledgerAccountId: string;
}

export class LineDimensionValuesBody {
  @ApiProperty({ type: [String], description: 'Replaces the tag set; an empty array untags' })
  @IsArray()
  @ArrayMaxSize(20)
  @IsUuid({ each: true })
  dimensionValueIds: string[];
}

export class DimensionValueTag {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) dimensionId: string;
  @ApiProperty() code: string;
  @ApiProperty() name: string;
}

export class LineResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['debit', 'credit'] }) side: Side;
  @ApiProperty({ format: 'uuid' }) ledgerAccountId: string;
  @ApiProperty() amount: number;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) partnerId: string | null;
  @ApiProperty({ type: String, nullable: true }) transactionCurrency: string | null;
  @ApiProperty({ type: Number, nullable: true }) transactionAmount: number | null;
  @ApiProperty({ type: String, nullable: true }) exchangeRate: string | null;
  @ApiProperty({ type: DimensionValueTag, isArray: true }) dimensionValues: DimensionValueTag[];
  @ApiProperty({ type: Number, nullable: true, description: 'Amount not yet settled; null on balance accounts' }) openAmount: number | null;
}

export class ListedLineResponse extends LineResponse {
  @ApiProperty({ format: 'uuid' }) entryId: string;
  @ApiProperty({ format: 'date' }) entryDate: string;
  @ApiProperty() memo: string;
  @ApiProperty() status: EntryStatus;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) bookId: string | null;
}

export class EntryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) entityId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) bookId: string | null;
  @ApiProperty({ format: 'date' }) entryDate: string;
  @ApiProperty() memo: string;
  @ApiProperty({ type: String, nullable: true }) notes: string | null;
  @ApiProperty({ enum: ['active', 'reversed', 'deleted', 'cancelled', 'scheduled'] }) status: EntryStatus;
  @ApiProperty({ enum: ['manual', 'scheduled', 'invoice', 'bank_movement', 'reversal', 'closing'] }) source: EntrySource;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) reversalOfEntryId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) reversedByEntryId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ type: LineResponse, isArray: true }) lines: LineResponse[];
}

export class AllocationResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) entityId: string;
  @ApiProperty({ format: 'uuid' }) debitLineId: string;
  @ApiProperty({ format: 'uuid' }) creditLineId: string;
  @ApiProperty({ format: 'uuid' }) accountId: string;
  @ApiProperty() amount: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/** An invoice as the entry routes name it (the fields of a to-do's invoice link). */
export class InvoiceSummaryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: '`ar` or `ap`' }) direction: string;
  @ApiProperty() documentKind: string;
  @ApiProperty({ type: String, nullable: true }) documentNumber: string | null;
  @ApiProperty({ type: String, nullable: true }) partnerName: string | null;
}

/** A bank movement as the entry routes name it (the fields of a to-do's bank movement link). */
export class BankMovementSummaryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) bankAccountId: string;
  @ApiProperty({ format: 'date' }) movementDate: string;
  @ApiProperty({ description: 'Minor units, positive' }) amount: number;
  @ApiProperty({ enum: ['debit', 'credit'] }) side: 'debit' | 'credit';
  @ApiProperty() bankAccountCurrency: string;
}

export class SeveredInvoiceResponse extends InvoiceSummaryResponse {
  @ApiProperty({ format: 'uuid', description: 'The entry that had booked it' }) entryId: string;
}

export class SeveredMovementResponse extends BankMovementSummaryResponse {
  @ApiProperty({ format: 'uuid', description: 'The entry that had booked it' }) entryId: string;
}

export class EntryDetailResponse extends EntryResponse {
  @ApiProperty({ type: InvoiceSummaryResponse, isArray: true, description: 'Invoices booked by this entry' }) relatedInvoices: InvoiceSummaryResponse[];
  @ApiProperty({ type: BankMovementSummaryResponse, isArray: true, description: 'Bank movements booked by this entry' }) relatedBankMovements: BankMovementSummaryResponse[];
  @ApiProperty({ type: AllocationResponse, isArray: true, description: 'Allocations settling its lines' }) allocations: AllocationResponse[];
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The year-end closing whose entry this is (source `closing`, D90); null for any other entry' })
  closingId: string | null;
}

export class EntriesPageResponse {
  @ApiProperty({ type: EntryResponse, isArray: true }) entries: EntryResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}

export class ReversalResponse {
  @ApiProperty({ type: EntryResponse }) reversalEntry: EntryResponse;
  @ApiProperty({ type: EntryResponse }) reversedEntry: EntryResponse;
  @ApiProperty({ type: SeveredInvoiceResponse, isArray: true, description: 'Invoices booked by the entries that left the books, back to unbooked' }) severedInvoices: SeveredInvoiceResponse[];
  @ApiProperty({ type: SeveredMovementResponse, isArray: true, description: 'Bank movements booked by the entries that left the books, back to unbooked' })
  severedMovements: SeveredMovementResponse[];
  @ApiProperty({ type: EntryResponse, isArray: true }) settledChainEntries: EntryResponse[];
}

/**
 * The documents a reversal or an unbooking severed as the routes answer them: each list the
 * interface spec names, empty when no module severed one (the kinds are the document modules').
 */
export function severedResponse(severed: SeveredDocuments): Pick<ReversalResponse, 'severedInvoices' | 'severedMovements'> {
  return { severedInvoices: [], severedMovements: [], ...severed };
}

/** The documents an entry booked as its detail answers them (each list empty when none). */
export function relatedResponse(related: RelatedDocuments): Pick<EntryDetailResponse, 'relatedInvoices' | 'relatedBankMovements'> {
  return { relatedInvoices: [], relatedBankMovements: [], ...related };
}

export class UnbookResponse {
  @ApiProperty({ type: EntryResponse }) unbookedEntry: EntryResponse;
  @ApiProperty({ type: SeveredInvoiceResponse, isArray: true, description: 'Invoices booked by the entries that left the books, back to unbooked' }) severedInvoices: SeveredInvoiceResponse[];
  @ApiProperty({ type: SeveredMovementResponse, isArray: true, description: 'Bank movements booked by the entries that left the books, back to unbooked' })
  severedMovements: SeveredMovementResponse[];
  @ApiProperty({ type: EntryResponse, isArray: true }) settledChainEntries: EntryResponse[];
}
