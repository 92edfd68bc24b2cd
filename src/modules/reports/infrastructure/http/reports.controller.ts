import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { HeavyRead } from '../../../../platform/http/heavy-reads';
import { sendJsonText, streamJson } from '../../../../platform/http/json-stream';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiPropertyOptional, ApiProperty, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { Authenticated } from '../../../../platform/auth/decorators';
import { IsCursor, IsIsoDate, IsUuid, PageLimit } from '../../../../platform/http/validators';
import { DashboardsService } from '../../application/dashboards.service';
import { PartnerLedgerStream, ReportsService } from '../../application/reports.service';
import {
  BalanceSheetResponse,
  EightColumnBalanceResponse,
  GeneralLedgerResponse,
  IncomeStatementByDimensionResponse,
  IncomeStatementResponse,
  JournalResponse,
  PartnerLedgerResponse,
} from './reports.dto';
import { HomeResponse, RevenueRealizationResponse } from './dashboards.dto';

class BookQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Required once the Entity keeps Books' }) @IsOptional() @IsUuid() bookId?: string;
}

class PresentationQuery extends BookQuery {
  @ApiPropertyOptional({ example: 'USD', description: 'Sent together with presentationRate (D57)' }) @IsOptional() @IsString() @MaxLength(3) presentationCurrency?: string;
  @ApiPropertyOptional({ example: '0.00105', description: 'Presentation units per functional unit' }) @IsOptional() @IsString() @MaxLength(30) presentationRate?: string;
}

class CutoffQuery extends PresentationQuery {
  @ApiProperty({ format: 'date' }) @IsIsoDate() exerciseStart: string;
  @ApiProperty({ format: 'date' }) @IsIsoDate() cutoffDate: string;
}

class RangeQuery extends PresentationQuery {
  @ApiProperty({ format: 'date' }) @IsIsoDate() from: string;
  @ApiProperty({ format: 'date' }) @IsIsoDate() to: string;
}

/** D82c: the `invoices` rows in pages; totals and months always cover every invoice of the range. */
class RevenueQuery extends RangeQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 1000, default: 200, description: 'Most `invoices` rows of one answer (D82c)' }) @PageLimit(1000) invoiceLimit?: number;
  @ApiPropertyOptional({ description: 'nextInvoiceCursor of the previous answer: continues the `invoices` rows' }) @IsOptional() @IsCursor() invoiceCursor?: string;
}

class DimensionQuery extends RangeQuery {
  @ApiProperty({ format: 'uuid' }) @IsUuid() dimensionId: string;
}

class JournalQuery extends BookQuery {
  @ApiPropertyOptional({ format: 'date' }) @IsOptional() @IsIsoDate() from?: string;
  @ApiPropertyOptional({ format: 'date' }) @IsOptional() @IsIsoDate() to?: string;
  @ApiPropertyOptional({ maxLength: 200 }) @IsOptional() @IsString() @MaxLength(200) search?: string;
  @ApiPropertyOptional({ description: 'date~entryId~lineId of the last row of the previous page' })
  @IsOptional()
  @Matches(/^[0-9A-Za-z~-]{1,100}$/, { message: '$property must be a cursor from a previous page' })
  cursor?: string;
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 100 }) @PageLimit(100) limit?: number;
}

class GeneralLedgerQuery extends BookQuery {
  @ApiProperty({ format: 'uuid' }) @IsUuid() accountId: string;
  @ApiPropertyOptional({ format: 'date' }) @IsOptional() @IsIsoDate() from?: string;
  @ApiPropertyOptional({ format: 'date' }) @IsOptional() @IsIsoDate() to?: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'Id of the last line of the previous page' }) @IsOptional() @IsUuid() cursor?: string;
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 }) @PageLimit(100) limit?: number;
}

class PartnerLedgerQuery extends BookQuery {
  @ApiProperty({ format: 'uuid', description: 'An open-item account' }) @IsUuid() accountId: string;
  @ApiProperty({ format: 'date' }) @IsIsoDate() from: string;
  @ApiProperty({ format: 'date' }) @IsIsoDate() to: string;

  @ApiPropertyOptional({ type: [String], description: 'Repeated parameter, at most 100' })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? [value] : value))
  @IsArray()
  @ArrayMaxSize(100)
  @IsUuid({ each: true })
  partnerIds?: string[];

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  includeUnassigned?: boolean;
}

const BOOK_404 = 'BOOK_NOT_FOUND_ERROR (a Book of another Entity, or any bookId on an Entity without Books)';
const BOOK_409 = 'BOOK_REQUIRED_ERROR; AMOUNT_OUT_OF_RANGE_ERROR (a figure past 2^53 - 1, params.field names it: D6a)';

@ApiTags('reports')
@ApiTooManyRequestsResponse({ description: 'TOO_MANY_CONCURRENT_READS_ERROR (every report but the general ledger): heavy reads at once beyond HEAVY_READS_PER_USER or HEAVY_READS_TOTAL (D2a), with Retry-After' })
@Authenticated()
@Controller('entities/:entityId')
export class ReportsController {
  constructor(
    private readonly reports: ReportsService,
    private readonly dashboards: DashboardsService,
  ) {}

  @Get('reports/home')
  @ApiOkResponse({ type: HomeResponse, description: 'D81, D81a: cash position, 60 daily balances, 6 months of income and expenses, open receivables and payables, unbooked invoices, unreconciled movements' })
  @ApiNotFoundResponse({ description: BOOK_404 })
  @ApiConflictResponse({ description: `${BOOK_409}; AMOUNT_OUT_OF_RANGE_ERROR` })
  home(@Param('entityId') entityId: string, @Query() query: BookQuery): Promise<HomeResponse> {
    return this.dashboards.home(entityId, query);
  }

  @Get('reports/revenue-realization')
  @ApiOkResponse({
    type: RevenueRealizationResponse,
    description: 'D82, D82a, D82b, D82c: recognized, billed, collected and outstanding by month and by invoice; the invoice rows in pages (issueDate, then invoice id)',
  })
  @ApiNotFoundResponse({ description: BOOK_404 })
  @ApiConflictResponse({ description: `${BOOK_409}; AMOUNT_OUT_OF_RANGE_ERROR` })
  revenueRealization(@Param('entityId') entityId: string, @Query() query: RevenueQuery): Promise<RevenueRealizationResponse> {
    return this.dashboards.revenueRealization(entityId, query);
  }

  @Get('reports/balance-sheet')
  @HeavyRead()
  @ApiOkResponse({ type: BalanceSheetResponse, description: 'D51: `{ exerciseStart, cutoffDate, currency, bookId, presentation, assets, liabilities, equity, totals }`' })
  @ApiNotFoundResponse({ description: BOOK_404 })
  @ApiConflictResponse({ description: BOOK_409 })
  balanceSheet(@Param('entityId') entityId: string, @Query() query: CutoffQuery): Promise<BalanceSheetResponse> {
    return this.reports.balanceSheet(entityId, query);
  }

  @Get('reports/income-statement')
  @HeavyRead()
  @ApiOkResponse({ type: IncomeStatementResponse, description: 'D52: sections income, costOfGoodsSold, operatingExpense, otherIncome, otherExpense and the results' })
  @ApiNotFoundResponse({ description: BOOK_404 })
  @ApiConflictResponse({ description: BOOK_409 })
  incomeStatement(@Param('entityId') entityId: string, @Query() query: RangeQuery): Promise<IncomeStatementResponse> {
    return this.reports.incomeStatement(entityId, query);
  }

  @Get('reports/income-statement-by-dimension')
  @HeavyRead()
  @ApiOkResponse({
    type: IncomeStatementByDimensionResponse,
    description: 'D52: `{ dimensionId, from, to, currency, bookId, presentation, columns: [{ dimensionValueId, code, name, statement }], unassigned }`; each statement is an income statement body',
  })
  @ApiNotFoundResponse({ description: `DIMENSION_NOT_FOUND_ERROR; ${BOOK_404}` })
  @ApiConflictResponse({ description: BOOK_409 })
  incomeStatementByDimension(@Param('entityId') entityId: string, @Query() query: DimensionQuery): Promise<IncomeStatementByDimensionResponse> {
    return this.reports.incomeStatementByDimension(entityId, query);
  }

  @Get('reports/journal')
  @HeavyRead()
  @ApiOkResponse({ type: JournalResponse, description: 'D54: `{ rows, nextCursor }`, live lines in (entryDate, entryId, lineId) order' })
  @ApiNotFoundResponse({ description: BOOK_404 })
  @ApiConflictResponse({ description: BOOK_409 })
  journal(@Param('entityId') entityId: string, @Query() query: JournalQuery): Promise<JournalResponse> {
    return this.reports.journal(entityId, query);
  }

  @Get('ledger/reports/eight-column-balance')
  @HeavyRead()
  @ApiOkResponse({
    type: EightColumnBalanceResponse,
    description:
      'D53: `{ exerciseStart, cutoffDate, currency, bookId, presentation, rows, subtotals, result, totals }`; with a presentation currency a `Presentation rounding difference` equity row keeps the identities',
  })
  @ApiNotFoundResponse({ description: BOOK_404 })
  @ApiConflictResponse({ description: BOOK_409 })
  eightColumnBalance(@Param('entityId') entityId: string, @Query() query: CutoffQuery): Promise<EightColumnBalanceResponse> {
    return this.reports.eightColumnBalance(entityId, query);
  }

  // Not a heavy read: a page costs O(page) whatever the history (D55's monthly totals).
  @Get('ledger/general-ledger')
  @ApiOkResponse({ type: GeneralLedgerResponse, description: 'D55: `{ lines, nextCursor, openingBalance, closingBalance, lineCount }`, running balance from inception' })
  @ApiNotFoundResponse({ description: `LEDGER_ACCOUNT_NOT_FOUND_ERROR; ${BOOK_404}` })
  @ApiConflictResponse({ description: BOOK_409 })
  generalLedger(@Param('entityId') entityId: string, @Query() query: GeneralLedgerQuery): Promise<GeneralLedgerResponse> {
    return this.reports.generalLedger(entityId, query);
  }

  @Get('ledger/partner-ledger')
  @HeavyRead()
  @ApiOkResponse({ type: PartnerLedgerResponse, description: 'D56: `{ accountId, from, to, currency, bookId, partners: [{ partnerId, partnerName, openingBalance, closingBalance, lines }] }`' })
  @ApiNotFoundResponse({ description: `LEDGER_ACCOUNT_NOT_FOUND_ERROR; PARTNER_NOT_FOUND_ERROR (a partnerIds entry); ${BOOK_404}` })
  @ApiConflictResponse({ description: BOOK_409 })
  async partnerLedger(@Param('entityId') entityId: string, @Query() query: PartnerLedgerQuery, @Res() res: Response): Promise<void> {
    // D2a: streamed from a database cursor, partner by partner.
    await streamJson(res, (signal) => this.reports.streamPartnerLedger(entityId, query, signal, (answer) => sendJsonText(res, partnerLedgerJson(answer))));
  }
}

/** The partner ledger's JSON text, piece by piece, in D56's field order. */
async function* partnerLedgerJson(answer: PartnerLedgerStream): AsyncGenerator<string> {
  if ('whole' in answer) {
    yield JSON.stringify(answer.whole);
    return;
  }
  yield `${JSON.stringify(answer.head).slice(0, -1)},"partners":[`;
  let partners = 0;
  let lines = 0;
  for await (const piece of answer.partners) {
    if ('group' in piece) {
      yield `${partners++ > 0 ? ',' : ''}${JSON.stringify(piece.group).slice(0, -1)},"lines":[`;
      lines = 0;
    } else if ('lines' in piece) {
      yield piece.lines.map((line) => `${lines++ > 0 ? ',' : ''}${JSON.stringify(line)}`).join('');
    } else {
      yield ']}';
    }
  }
  yield ']}';
}
