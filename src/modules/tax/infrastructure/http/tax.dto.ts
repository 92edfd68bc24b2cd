import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { ExportFormatParam } from '../../../../platform/exports/export-response';
import type { ExportFormat } from '../../../../platform/exports/table';
import { F29_CODES } from '../../domain/f29';
import { RECONCILIATION_STATUSES, ReconciliationStatus } from '../../domain/rcv-reconciliation';
import { PERIOD_PATTERN, TAX_DIRECTIONS, TaxDirection } from '../../domain/tax-period';

const PERIOD = { example: '2026-06', pattern: PERIOD_PATTERN.source, description: 'The tax period, YYYY-MM: invoices belong to the month of their issueDate' };

export class PeriodQuery {
  @ApiProperty(PERIOD) @IsString() @Matches(PERIOD_PATTERN, { message: 'period must be a month written YYYY-MM' }) period: string;
}

export class PeriodDirectionQuery extends PeriodQuery {
  @ApiProperty({ enum: TAX_DIRECTIONS, description: '`sales` (AR invoices) or `purchases` (AP invoices)' }) @IsIn(TAX_DIRECTIONS) direction: TaxDirection;
}

/** The register also answers as a file (D93). */
export class RegisterQuery extends PeriodDirectionQuery {
  @ExportFormatParam() format?: ExportFormat;
}

/** Checked by the use case's parsers (f29.ts): carriedCredit an integer, ppmRate a D7-shaped decimal. */
export class F29Query extends PeriodQuery {
  @ApiPropertyOptional({ type: String, example: '150000', description: 'Code 504: the credit carried from the previous month, a non-negative integer (pesos); default 0' })
  @IsOptional()
  @IsString()
  carriedCredit?: string;

  @ApiPropertyOptional({ type: String, example: '0.25', description: 'Code 115: the PPM rate, a percentage written as a D7 decimal string or 0; default "0"' })
  @IsOptional()
  @IsString()
  ppmRate?: string;

  @ExportFormatParam() format?: ExportFormat;
}

const PESOS = { type: 'integer', description: 'Pesos (CLP); a foreign-currency invoice converted by D7 at its exchangeRate' } as const;
const SIGNED_PESOS = { type: 'integer', description: 'Pesos (CLP); negative for credit notes (61, 112)' } as const;
const POSITIVE_PESOS = { type: 'integer', minimum: 0, description: 'Pesos (CLP), as a positive figure' } as const;

export class RegisterRowResponse {
  @ApiProperty({ format: 'uuid' }) invoiceId: string;
  @ApiProperty({ type: 'integer', example: 33, description: 'The SII document type (D60)' }) dteType: number;
  @ApiProperty({ type: 'integer', example: 1024, description: 'The folio, an integer (D63a)' }) folio: number;
  @ApiProperty({ type: String, nullable: true, example: '76086428-5' }) partnerTaxId: string | null;
  @ApiProperty({ type: String, nullable: true }) partnerName: string | null;
  @ApiProperty({ format: 'date' }) issueDate: string;
  @ApiProperty(PESOS) exemptAmount: number;
  @ApiProperty(PESOS) netAmount: number;
  @ApiProperty(PESOS) taxAmount: number;
  @ApiProperty(PESOS) totalAmount: number;
}

export class RegisterSummaryResponse {
  @ApiProperty({ type: 'integer' }) dteType: number;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Documents of the type (positive, credit notes too)' }) count: number;
  @ApiProperty(SIGNED_PESOS) exemptAmount: number;
  @ApiProperty(SIGNED_PESOS) netAmount: number;
  @ApiProperty(SIGNED_PESOS) taxAmount: number;
  @ApiProperty(SIGNED_PESOS) totalAmount: number;
}

export class PurchaseSalesRegisterResponse {
  @ApiProperty({ example: '2026-06' }) period: string;
  @ApiProperty({ enum: TAX_DIRECTIONS }) direction: TaxDirection;
  @ApiProperty({ type: [RegisterRowResponse], description: 'Every invoice of the period with an SII kind, booked or not, by dteType then folio' }) rows: RegisterRowResponse[];
  @ApiProperty({ type: [RegisterSummaryResponse], description: 'One entry per dteType that has rows, by dteType' }) summary: RegisterSummaryResponse[];
}

export class RcvImportResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: '2026-06' }) period: string;
  @ApiProperty({ enum: TAX_DIRECTIONS }) direction: TaxDirection;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Documents read from the file' }) rowCount: number;
}

export class ReconciliationAmountsResponse {
  @ApiProperty(POSITIVE_PESOS) exemptAmount: number;
  @ApiProperty(POSITIVE_PESOS) netAmount: number;
  @ApiProperty(POSITIVE_PESOS) taxAmount: number;
  @ApiProperty(POSITIVE_PESOS) totalAmount: number;
}

export class ReconciliationCountsResponse {
  @ApiProperty({ type: 'integer' }) matched: number;
  @ApiProperty({ type: 'integer' }) missing_in_books: number;
  @ApiProperty({ type: 'integer' }) missing_in_sii: number;
  @ApiProperty({ type: 'integer' }) amount_mismatch: number;
}

export class ReconciliationRowResponse {
  @ApiProperty({ type: 'integer' }) dteType: number;
  @ApiProperty({ type: 'integer' }) folio: number;
  @ApiProperty({ example: '76086428-5' }) partnerTaxId: string;
  @ApiProperty({ enum: RECONCILIATION_STATUSES }) status: ReconciliationStatus;
  @ApiProperty({ type: ReconciliationAmountsResponse, nullable: true, description: 'The SII file\'s amounts; null when the SII has no such document' }) sii: ReconciliationAmountsResponse | null;
  @ApiProperty({ type: ReconciliationAmountsResponse, nullable: true, description: 'The books\' amounts; null when the books have no such invoice' }) books: ReconciliationAmountsResponse | null;
}

export class RcvReconciliationResponse {
  @ApiProperty({ example: '2026-06' }) period: string;
  @ApiProperty({ enum: TAX_DIRECTIONS }) direction: TaxDirection;
  @ApiProperty({ type: ReconciliationCountsResponse }) counts: ReconciliationCountsResponse;
  @ApiProperty({ type: [ReconciliationRowResponse], description: 'By dteType, folio, partnerTaxId' }) rows: ReconciliationRowResponse[];
}

const CODE_DESCRIPTIONS: Record<(typeof F29_CODES)[number], string> = {
  '503': 'Facturas emitidas (33): count',
  '502': 'Facturas emitidas (33): débito fiscal',
  '110': 'Boletas (39): count',
  '111': 'Boletas (39): débito fiscal',
  '512': 'Notas de débito emitidas (56): count',
  '513': 'Notas de débito emitidas (56): débito fiscal',
  '509': 'Notas de crédito emitidas (61): count',
  '510': 'Notas de crédito emitidas (61): débito fiscal',
  '142': 'Ventas exentas: exempt amounts of the sales documents (credit notes subtract)',
  '538': 'Total débitos: 502 + 111 + 513 − 510',
  '519': 'Facturas recibidas (33, 46): count',
  '520': 'Facturas recibidas (33, 46): crédito fiscal',
  '527': 'Notas de crédito recibidas (61): count',
  '528': 'Notas de crédito recibidas (61): crédito fiscal',
  '531': 'Notas de débito recibidas (56): count',
  '532': 'Notas de débito recibidas (56): crédito fiscal',
  '504': 'Remanente de crédito del mes anterior (carriedCredit)',
  '537': 'Total créditos: 520 + 532 − 528 + 504',
  '089': 'IVA determinado: max(538 − 537, 0)',
  '077': 'Remanente para el período siguiente: max(537 − 538, 0)',
  '563': 'Base imponible PPM: net + exempt of the sales documents (credit notes subtract)',
  '115': 'Tasa PPM (ppmRate, a decimal string)',
  '062': 'PPM neto determinado: round_half_up(563 × 115 / 100)',
  '091': 'Total a pagar: 089 + 062',
};

export class F29CodesResponse {}
for (const code of F29_CODES) {
  ApiProperty(code === '115' ? { type: String, example: '0.25', description: CODE_DESCRIPTIONS[code] } : { type: 'integer', description: CODE_DESCRIPTIONS[code] })(F29CodesResponse.prototype, code);
}

export class F29Response {
  @ApiProperty({ example: '2026-06' }) period: string;
  @ApiProperty({ type: F29CodesResponse, description: 'Every code of the propuesta F29 (D92), keyed as printed on the form' }) codes: Record<string, number | string>;
}
