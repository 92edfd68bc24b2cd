import { ExportFormatParam } from '../../../../platform/exports/export-response';
import type { ExportFormat } from '../../../../platform/exports/table';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsIsoDate } from '../../../../platform/http/validators';

// Query and response schemas of the consolidated reports (D91). Amounts are exact JSON integers
// (D6a) in minor units of the root Entity's currency.

const amount = (description?: string) => ApiProperty({ type: 'integer', format: 'int64', description });
const asList = ({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value);

class ConsolidationQuery {
  @ExportFormatParam() format?: ExportFormat;

  @ApiPropertyOptional({ description: 'The Book read in every member that keeps Books (by name); members without Books read their one set of books' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  bookName?: string;

  @ApiPropertyOptional({ type: [String], example: ['USD:950.5'], description: 'Repeated `CUR:rate`: root-currency units per one CUR unit on the cut-off (D7); else stored FX rates (D80)' })
  @IsOptional()
  @Transform(asList)
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(40, { each: true })
  closingRate?: string[];

  @ApiPropertyOptional({ type: [String], example: ['USD:940.25'], description: 'Repeated `CUR:rate`: the average rate of the range (D7); else the mean of the stored daily rates (D80)' })
  @IsOptional()
  @Transform(asList)
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(40, { each: true })
  averageRate?: string[];
}

export class ConsolidatedBalanceSheetQuery extends ConsolidationQuery {
  @ApiProperty({ format: 'date' }) @IsIsoDate() exerciseStart: string;
  @ApiProperty({ format: 'date' }) @IsIsoDate() cutoffDate: string;
}

export class ConsolidatedIncomeStatementQuery extends ConsolidationQuery {
  @ApiProperty({ format: 'date' }) @IsIsoDate() from: string;
  @ApiProperty({ format: 'date' }) @IsIsoDate() to: string;
}

export class ConsolidationMemberResponse {
  @ApiProperty({ format: 'uuid' }) entityId: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ type: String, nullable: true, example: '950.5', description: 'Decimal string ("1" for the root currency); null in the income statement' }) closingRate: string | null;
  @ApiProperty({ example: '940.25', description: 'Decimal string ("1" for the root currency)' }) averageRate: string;
}

export class ConsolidatedEntityBalanceResponse {
  @ApiProperty({ format: 'uuid' }) entityId: string;
  @amount('Translated, after eliminations, in the normal-side sign') balance: number;
}

export class ConsolidatedRowResponse {
  @ApiProperty() code: string;
  @ApiProperty({ description: 'From the first member (root, then depth-first by name) having the code' }) name: string;
  @amount('Sum of byEntity, normal-side sign (D50)') balance: number;
  @ApiProperty({ type: [ConsolidatedEntityBalanceResponse], description: 'Members with a balance on the code, in member order' }) byEntity: ConsolidatedEntityBalanceResponse[];
}

export class ConsolidatedSectionResponse {
  @amount() total: number;
  @ApiProperty({ type: [ConsolidatedRowResponse], description: 'Flat, by code; zero rows left out' }) accounts: ConsolidatedRowResponse[];
}

export class ConsolidatedEquityResponse extends ConsolidatedSectionResponse {
  @amount('Result Accounts exerciseStart..cutoffDate at the average rates, profit positive') currentPeriodResult: number;
  @amount('Result Accounts before exerciseStart at the closing rates, profit positive') priorPeriodsResult: number;
  @amount('What the translated balances leave unbalanced') translationDifference: number;
  @amount('Minus the sum of the intercompany lines left out (debit positive), at the closing rates') eliminationDifference: number;
}

export class ConsolidatedTotalsResponse {
  @amount() assets: number;
  @amount() liabilitiesAndEquity: number;
}

export class ConsolidatedBalanceSheetResponse {
  @ApiProperty({ format: 'date' }) exerciseStart: string;
  @ApiProperty({ format: 'date' }) cutoffDate: string;
  @ApiProperty({ example: 'CLP', description: "The root Entity's currency" }) currency: string;
  @ApiProperty({ type: [ConsolidationMemberResponse] }) members: ConsolidationMemberResponse[];
  @ApiProperty({ type: ConsolidatedSectionResponse }) assets: ConsolidatedSectionResponse;
  @ApiProperty({ type: ConsolidatedSectionResponse }) liabilities: ConsolidatedSectionResponse;
  @ApiProperty({ type: ConsolidatedEquityResponse }) equity: ConsolidatedEquityResponse;
  @ApiProperty({ type: ConsolidatedTotalsResponse }) totals: ConsolidatedTotalsResponse;
}

export class ConsolidatedIncomeStatementResponse {
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiProperty({ example: 'CLP' }) currency: string;
  @ApiProperty({ type: [ConsolidationMemberResponse] }) members: ConsolidationMemberResponse[];
  @ApiProperty({ type: ConsolidatedSectionResponse }) income: ConsolidatedSectionResponse;
  @ApiProperty({ type: ConsolidatedSectionResponse }) costOfGoodsSold: ConsolidatedSectionResponse;
  @amount() grossProfit: number;
  @ApiProperty({ type: ConsolidatedSectionResponse }) operatingExpense: ConsolidatedSectionResponse;
  @amount() operatingResult: number;
  @ApiProperty({ type: ConsolidatedSectionResponse }) otherIncome: ConsolidatedSectionResponse;
  @ApiProperty({ type: ConsolidatedSectionResponse }) otherExpense: ConsolidatedSectionResponse;
  @amount('Profit positive') netResult: number;
}
