import { ExportFormatParam } from '../../../../platform/exports/export-response';
import type { ExportFormat } from '../../../../platform/exports/table';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { MAX_AMOUNT } from '../../../../../libs/shared-kernel/src';
import { LedgerEntryResponse } from '../../../ledger';
import { IfPresent, IsCursor, IsIsoDate, IsRate, IsUuid, NotBlank, PageLimit } from '../../../../platform/http/validators';
import { BOOK_STATUSES, BookStatus, Direction, DIRECTIONS, DOCUMENT_KINDS, DocumentKind } from '../../domain/invoice';

const AMOUNT = { minimum: 0, maximum: MAX_AMOUNT, description: 'Integer, minor units of the invoice currency' };

/** Optional and nullable: absent leaves it, null clears it, else it must be valid. */
const Nullable = () => ValidateIf((_, value) => value !== null && value !== undefined);

export class CreateInvoiceBody {
  @ApiProperty({ format: 'uuid' }) @IsUuid() id: string;
  @ApiProperty({ enum: DIRECTIONS }) @IsIn(DIRECTIONS) direction: Direction;
  @ApiProperty({ enum: DOCUMENT_KINDS }) @IsIn(DOCUMENT_KINDS) documentKind: DocumentKind;
  @ApiProperty({ example: '1024', description: 'The folio (digits) for kinds with a DTE; unique per direction, kind and partner' })
  @IsString()
  @IsNotEmpty()
  @NotBlank()
  @MaxLength(40)
  documentNumber: string;

  @ApiProperty({ format: 'date' }) @IsIsoDate() issueDate: string;
  @ApiPropertyOptional({ type: String, format: 'date', nullable: true }) @Nullable() @IsIsoDate() dueDate?: string | null;
  @ApiProperty({ format: 'uuid' }) @IsUuid() partnerId: string;
  @ApiProperty({ example: 'CLP', description: 'ISO 4217 code' }) @IsString() @Matches(/^[A-Z]{3}$/) currency: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: '950.25', description: "Required when the currency is not the Entity's (D7 decimal string)" })
  @Nullable()
  @IsRate()
  exchangeRate?: string | null;

  @ApiProperty(AMOUNT) @IsInt() @Min(0) @Max(MAX_AMOUNT) netAmount: number;
  @ApiPropertyOptional({ ...AMOUNT, default: 0 }) @IfPresent() @IsInt() @Min(0) @Max(MAX_AMOUNT) exemptAmount?: number;
  @ApiPropertyOptional({ ...AMOUNT, default: 0 }) @IfPresent() @IsInt() @Min(0) @Max(MAX_AMOUNT) taxAmount?: number;
  @ApiProperty({ ...AMOUNT, description: 'netAmount + exemptAmount + taxAmount' }) @IsInt() @Min(0) @Max(MAX_AMOUNT) totalAmount: number;
  @ApiPropertyOptional({ type: String, format: 'date', nullable: true }) @Nullable() @IsIsoDate() servicePeriodStart?: string | null;
  @ApiPropertyOptional({ type: String, format: 'date', nullable: true }) @Nullable() @IsIsoDate() servicePeriodEnd?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000 }) @Nullable() @IsString() @MaxLength(2000) description?: string | null;
}

/** D61, D61a: `id` and `direction` are not fields of the change (naming them is a 400). */
export class UpdateInvoiceBody {
  @ApiPropertyOptional({ enum: DOCUMENT_KINDS }) @IfPresent() @IsIn(DOCUMENT_KINDS) documentKind?: DocumentKind;
  @ApiPropertyOptional() @IfPresent() @IsString() @IsNotEmpty() @NotBlank() @MaxLength(40) documentNumber?: string;
  @ApiPropertyOptional({ format: 'date' }) @IfPresent() @IsIsoDate() issueDate?: string;
  @ApiPropertyOptional({ type: String, format: 'date', nullable: true }) @Nullable() @IsIsoDate() dueDate?: string | null;
  @ApiPropertyOptional({ format: 'uuid' }) @IfPresent() @IsUuid() partnerId?: string;
  @ApiPropertyOptional() @IfPresent() @IsString() @Matches(/^[A-Z]{3}$/) currency?: string;
  @ApiPropertyOptional({ type: String, nullable: true }) @Nullable() @IsRate() exchangeRate?: string | null;
  @ApiPropertyOptional(AMOUNT) @IfPresent() @IsInt() @Min(0) @Max(MAX_AMOUNT) netAmount?: number;
  @ApiPropertyOptional(AMOUNT) @IfPresent() @IsInt() @Min(0) @Max(MAX_AMOUNT) exemptAmount?: number;
  @ApiPropertyOptional(AMOUNT) @IfPresent() @IsInt() @Min(0) @Max(MAX_AMOUNT) taxAmount?: number;
  @ApiPropertyOptional(AMOUNT) @IfPresent() @IsInt() @Min(0) @Max(MAX_AMOUNT) totalAmount?: number;
  @ApiPropertyOptional({ type: String, format: 'date', nullable: true }) @Nullable() @IsIsoDate() servicePeriodStart?: string | null;
  @ApiPropertyOptional({ type: String, format: 'date', nullable: true }) @Nullable() @IsIsoDate() servicePeriodEnd?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) @Nullable() @IsString() @MaxLength(2000) description?: string | null;
}

export class InvoiceListQuery {
  @ApiPropertyOptional({ enum: DIRECTIONS }) @IsOptional() @IsIn(DIRECTIONS) direction?: Direction;
  @ApiPropertyOptional({ enum: DOCUMENT_KINDS }) @IsOptional() @IsIn(DOCUMENT_KINDS) documentKind?: DocumentKind;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUuid() partnerId?: string;
  @ApiPropertyOptional({ enum: BOOK_STATUSES }) @IsOptional() @IsIn(BOOK_STATUSES) bookStatus?: BookStatus;
  @ApiPropertyOptional({ format: 'date', description: 'Issue date on or after (inclusive)' }) @IsOptional() @IsIsoDate() from?: string;
  @ApiPropertyOptional({ format: 'date', description: 'Issue date on or before (inclusive)' }) @IsOptional() @IsIsoDate() to?: string;
  @ExportFormatParam() format?: ExportFormat;
}

export class InvoicePageQuery extends InvoiceListQuery {
  @ApiPropertyOptional({ description: 'Case-insensitive part of the document number, partner name or description' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional() @IsOptional() @IsCursor() cursor?: string;
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 }) @PageLimit() limit?: number;
}

export class LinkDteBody {
  @ApiProperty({ format: 'uuid' }) @IsUuid() dteId: string;
}

export class DteReferenceResponse {
  @ApiProperty({ type: Number, nullable: true, description: 'NroLinRef' }) lineNumber: number | null;
  @ApiProperty({ description: 'TpoDocRef (1 to 3 characters, as written)' }) documentType: string;
  @ApiProperty({ description: 'FolioRef, as written' }) folio: string;
  @ApiProperty({ type: String, format: 'date', nullable: true, description: 'FchRef' }) date: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'CodRef: 1 cancels, 2 corrects text, 3 corrects amounts' }) code: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'RazonRef' }) reason: string | null;
}

export class DteForeignTotalsResponse {
  @ApiProperty({ type: String, nullable: true, example: 'USD', description: 'ISO 4217 code of TpoMoneda; null when the customs name has none (OTRAS MONEDAS, a retired currency)' })
  currency: string | null;
  @ApiProperty({ example: 'DOLAR USA', description: 'Totales.TpoMoneda as written (the customs currency table)' }) currencyName: string;
  @ApiProperty({ example: '1250.5', description: 'Totales.MntExe in that currency: an exact decimal string (up to 4 decimals), plain form' }) exemptAmount: string;
  @ApiProperty({ example: '1250.5', description: 'Totales.MntTotal in that currency: an exact decimal string (up to 4 decimals), plain form' }) totalAmount: string;
  @ApiProperty({ type: String, nullable: true, example: '950.25', description: 'OtraMoneda.TpoCambio (pesos per unit) when the other currency is PESO CL' })
  exchangeRate: string | null;
}

export class DteResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'SII document type (TipoDTE)' }) dteType: number;
  @ApiProperty({ description: 'Folio as written (digits)' }) folio: string;
  @ApiProperty({ example: '76086428-5' }) issuerTaxId: string;
  @ApiProperty() issuerName: string;
  @ApiProperty() receiverTaxId: string;
  @ApiProperty({ type: String, nullable: true }) receiverName: string | null;
  @ApiProperty({ format: 'date' }) issueDate: string;
  @ApiProperty({ description: 'Pesos (integer); negative only on a liquidación-factura (43); 0 on an export document' }) netAmount: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Pesos (integer); on an export document its peso figure (null when it states none)' }) exemptAmount: number | null;
  @ApiProperty({ description: 'Pesos (integer); 0 on an export document' }) taxAmount: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Pesos (integer); negative only on a liquidación-factura (43); on an export document its peso figure (OtraMoneda in PESO CL, rounded to the peso), null when it states none' })
  totalAmount: number | null;
  @ApiProperty({ type: DteForeignTotalsResponse, nullable: true, description: 'Export documents (110, 111, 112): their totals in their own currency, exact; null for every other type' })
  foreignTotals: DteForeignTotalsResponse | null;
  @ApiProperty({ enum: DIRECTIONS, description: '`ar` when the Entity issued it (46: the mirror)' }) direction: Direction;
  @ApiProperty({ type: DteReferenceResponse, isArray: true }) references: DteReferenceResponse[];
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) invoiceId: string | null;
}

export class InvoiceResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) entityId: string;
  @ApiProperty({ enum: DIRECTIONS }) direction: Direction;
  @ApiProperty({ enum: DOCUMENT_KINDS }) documentKind: DocumentKind;
  @ApiProperty() documentNumber: string;
  @ApiProperty({ format: 'date' }) issueDate: string;
  @ApiProperty({ type: String, format: 'date', nullable: true }) dueDate: string | null;
  @ApiProperty({ format: 'uuid' }) partnerId: string;
  @ApiProperty() currency: string;
  @ApiProperty({ type: String, nullable: true }) exchangeRate: string | null;
  @ApiProperty() netAmount: number;
  @ApiProperty() exemptAmount: number;
  @ApiProperty() taxAmount: number;
  @ApiProperty() totalAmount: number;
  @ApiProperty({ type: String, format: 'date', nullable: true }) servicePeriodStart: string | null;
  @ApiProperty({ type: String, format: 'date', nullable: true }) servicePeriodEnd: string | null;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ enum: BOOK_STATUSES }) bookStatus: BookStatus;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) ledgerEntryId: string | null;
  @ApiProperty({ type: DteResponse, nullable: true }) dte: DteResponse | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class InvoiceDetailResponse extends InvoiceResponse {
  @ApiProperty({ type: LedgerEntryResponse, nullable: true, description: 'The booked entry with its lines (D34 shape), or null' }) entry: LedgerEntryResponse | null;
}

export class InvoicePageResponse {
  @ApiProperty({ type: InvoiceResponse, isArray: true }) rows: InvoiceResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}

export class DteListQuery {
  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'true: only DTEs linked to an invoice; false: only unlinked ones' })
  @IsOptional()
  @IsIn(['true', 'false'])
  linked?: 'true' | 'false';

  @ApiPropertyOptional({ format: 'date', description: 'Issue date on or after (inclusive)' }) @IsOptional() @IsIsoDate() from?: string;
  @ApiPropertyOptional({ format: 'date', description: 'Issue date on or before (inclusive)' }) @IsOptional() @IsIsoDate() to?: string;
}

export class DtePageQuery extends DteListQuery {
  @ApiPropertyOptional() @IsOptional() @IsCursor() cursor?: string;
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 }) @PageLimit() limit?: number;
}

export class DtePageResponse {
  @ApiProperty({ type: DteResponse, isArray: true }) rows: DteResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}

export class DteImportResponse {
  @ApiProperty() importedCount: number;
  @ApiProperty({ description: 'Documents already imported (issuer RUT, type, folio), or repeated in the file' }) skippedCount: number;
  @ApiProperty({ type: DteResponse, isArray: true, description: 'The DTEs this file imported' }) dtes: DteResponse[];
}

/** D62: booking instructions; every account is optional where D62 gives a default. */
export class BookInvoiceBody {
  @ApiProperty({ format: 'uuid', description: 'The id of the entry to post (idempotency id of the entry)' }) @IsUuid() entryId: string;
  @ApiPropertyOptional({ format: 'date', description: 'Defaults to the issue date' }) @IfPresent() @IsIsoDate() entryDate?: string;
  @ApiPropertyOptional({ format: 'uuid', description: "Income (AR) or expense (AP) account; AP defaults to the partner's default purchase account" })
  @IfPresent()
  @IsUuid()
  counterAccountId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: "Defaults to the Entity's only account of subtype receivable (AR) or payable (AP)" })
  @IfPresent()
  @IsUuid()
  openItemAccountId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Required when the tax is above zero' }) @IfPresent() @IsUuid() taxAccountId?: string;
  @ApiPropertyOptional({ format: 'uuid', description: "The lines' partner; defaults to the invoice's" }) @IfPresent() @IsUuid() partnerId?: string;
  @ApiPropertyOptional({ type: String, format: 'uuid', isArray: true, description: 'Dimension Values of the counter line' })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(50)
  @IsUuid({ each: true })
  dimensionValueIds?: string[];

  @ApiPropertyOptional({ maxLength: 500 }) @IfPresent() @IsString() @NotBlank() @MaxLength(500) memo?: string;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'The Book of the entry; absent or null: a common entry' })
  @Nullable()
  @IsUuid()
  bookId?: string | null;
}

export class BookInvoiceResponse {
  @ApiProperty({ type: InvoiceResponse, description: 'The invoice, booked' }) invoice: InvoiceResponse;
  @ApiProperty({ type: LedgerEntryResponse, description: 'The posted entry with its lines (D34 shape)' }) entry: LedgerEntryResponse;
}
