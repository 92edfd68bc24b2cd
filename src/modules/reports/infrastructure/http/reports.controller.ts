import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { HeavyExport, HeavyRead } from '../../../../platform/http/heavy-reads';
import { sendJsonText, streamJson } from '../../../../platform/http/json-stream';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiPropertyOptional, ApiProperty, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { Authenticated } from '../../../../platform/auth/decorators';
import { IsCursor, IsIsoDate, IsUuid, PageLimit } from '../../../../platform/http/validators';
import { crlfRecords, csvSelectList } from '../../../../platform/exports/csv-copy';
import { ApiExportable, answerJsonOrFile, ExportFormatParam, fileFormat, sendTableExport } from '../../../../platform/exports/export-response';
import { exportFileName, type ExportFormat } from '../../../../platform/exports/table';
import { statementColumns, statementRows } from '../../../../platform/exports/statement-rows';
import { EntitiesService } from '../../../entities';
import { ReferenceDataService } from '../../../reference';
import { DashboardsService } from '../../application/dashboards.service';
import { LedgerBooksService, type GeneralLedgerBookStream } from '../../application/ledger-books.service';
import {
  dimensionColumns,
  dimensionRows,
  eightColumnColumns,
  eightColumnRows,
  generalLedgerBookColumns,
  generalLedgerBookCsv,
  generalLedgerBookRows,
  generalLedgerColumns,
  homeColumns,
  homeRows,
  journalColumns,
  partnerLedgerColumns,
  partnerLedgerRows,
  revenueColumns,
  revenueRows,
} from './report-exports';
import { PartnerLedgerStream, ReportsService } from '../../application/reports.service';
import {
  BalanceSheetResponse,
  EightColumnBalanceResponse,
  GeneralLedgerBookResponse,
  GeneralLedgerResponse,
  IncomeStatementByDimensionResponse,
  IncomeStatementResponse,
  JournalResponse,
  PartnerLedgerResponse,
} from './reports.dto';
import { HomeResponse, RevenueRealizationResponse } from './dashboards.dto';

class BookQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Required once the Entity keeps Books' }) @IsOptional() @IsUuid() bookId?: string;
  @ExportFormatParam() format?: ExportFormat;
}

class GeneralLedgerBookQuery extends BookQuery {
  @ApiProperty({ format: 'date' }) @IsIsoDate() from: string;
  @ApiProperty({ format: 'date' }) @IsIsoDate() to: string;
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
@ApiTooManyRequestsResponse({ description: 'TOO_MANY_CONCURRENT_READS_ERROR (every report and every export; the general ledger, home and revenue realization only for their exports): heavy reads at once beyond HEAVY_READS_PER_USER or HEAVY_READS_TOTAL (D2a), with Retry-After' })
@Authenticated()
@Controller('entities/:entityId')
export class ReportsController {
  constructor(
    private readonly reports: ReportsService,
    private readonly dashboards: DashboardsService,
    private readonly books: LedgerBooksService,
    private readonly entities: EntitiesService,
    private readonly reference: ReferenceDataService,
  ) {}

  /** What a file of this Entity's report is named (D93) and the exponent of the currency its amounts are in. */
  private async file(entityId: string, report: string, range: Parameters<typeof exportFileName>[2], currency?: string) {
    const entity = (await this.entities.get(entityId)).snapshot();
    const exponent = this.reference.findCurrency(currency ?? entity.currency)?.minorUnits ?? 0;
    return { fileName: exportFileName(report, entity.taxId, range), exponent };
  }

  /**
   * D82c pages the `invoices` rows; a file holds them all (D93: no cursor): every page is read and
   * their rows joined (`totals` and `months` are the same on every page).
   */
  private async revenueRealizationWhole(entityId: string, query: RevenueQuery, whole: boolean) {
    if (!whole) return this.dashboards.revenueRealization(entityId, query);
    const first = await this.dashboards.revenueRealization(entityId, { ...query, invoiceCursor: undefined, invoiceLimit: 1000 });
    const invoices = [...first.invoices];
    for (let cursor = first.nextInvoiceCursor; cursor; ) {
      const page = await this.dashboards.revenueRealization(entityId, { ...query, invoiceCursor: cursor, invoiceLimit: 1000 });
      invoices.push(...page.invoices);
      cursor = page.nextInvoiceCursor;
    }
    return { ...first, invoices, nextInvoiceCursor: null };
  }

  /** The currency a report body's amounts are in: its presentation currency, else the functional one. */
  private static currencyOf(body: { currency: string; presentation?: { currency: string } | null }): string {
    return body.presentation?.currency ?? body.currency;
  }

  @Get('reports/home')
  @HeavyExport()
  @ApiExportable()
  @ApiOkResponse({ type: HomeResponse, description: 'D81, D81a: cash position, 60 daily balances, 6 months of income and expenses, open receivables and payables, unbooked invoices, unreconciled movements; D93 exports: one row per figure' })
  @ApiNotFoundResponse({ description: BOOK_404 })
  @ApiConflictResponse({ description: `${BOOK_409}; AMOUNT_OUT_OF_RANGE_ERROR` })
  async home(@Param('entityId') entityId: string, @Query() query: BookQuery, @Res() res: Response): Promise<void> {
    await answerJsonOrFile(res, query.format, () => this.dashboards.home(entityId, query), async (body) => {
      const days = body.dailyBalances;
      const { fileName, exponent } = await this.file(entityId, 'home', days.length > 0 ? days[days.length - 1].date : null, body.currency);
      return { fileName, sheetName: 'home', columns: homeColumns(exponent), rows: homeRows(body as unknown as Record<string, unknown>) };
    });
  }

  @Get('reports/revenue-realization')
  @HeavyExport()
  @ApiExportable()
  @ApiOkResponse({ type: RevenueRealizationResponse, description: 'D82, D82a, D82b, D82c: recognized, billed, collected and outstanding by month and by invoice; the invoice rows in pages (issueDate, then invoice id). D93 exports: the totals row, a row per month and one per invoice of every page' })
  @ApiNotFoundResponse({ description: BOOK_404 })
  @ApiConflictResponse({ description: `${BOOK_409}; AMOUNT_OUT_OF_RANGE_ERROR` })
  async revenueRealization(@Param('entityId') entityId: string, @Query() query: RevenueQuery, @Res() res: Response): Promise<void> {
    await answerJsonOrFile(res, query.format, (() => this.revenueRealizationWhole(entityId, query, fileFormat(query.format) !== null)), async (body) => {
      const { fileName, exponent } = await this.file(entityId, 'revenue-realization', query, ReportsController.currencyOf(body));
      return { fileName, sheetName: 'revenue realization', columns: revenueColumns(exponent), rows: revenueRows(body as unknown as Parameters<typeof revenueRows>[0]) };
    });
  }

  @Get('reports/balance-sheet')
  @HeavyRead()
  @ApiExportable()
  @ApiOkResponse({ type: BalanceSheetResponse, description: 'D51: `{ exerciseStart, cutoffDate, currency, bookId, presentation, assets, liabilities, equity, totals }`; D93 exports: a row per group, account, total and named figure' })
  @ApiNotFoundResponse({ description: BOOK_404 })
  @ApiConflictResponse({ description: BOOK_409 })
  async balanceSheet(@Param('entityId') entityId: string, @Query() query: CutoffQuery, @Res() res: Response): Promise<void> {
    await answerJsonOrFile(res, query.format, () => this.reports.balanceSheet(entityId, query), async (body) => {
      const { fileName, exponent } = await this.file(entityId, 'balance-sheet', { from: query.exerciseStart, to: query.cutoffDate }, ReportsController.currencyOf(body));
      return { fileName, sheetName: 'balance sheet', columns: statementColumns(exponent), rows: statementRows(body) };
    });
  }

  @Get('reports/income-statement')
  @HeavyRead()
  @ApiExportable()
  @ApiOkResponse({ type: IncomeStatementResponse, description: 'D52: sections income, costOfGoodsSold, operatingExpense, otherIncome, otherExpense and the results; D93 exports: a row per group, account, total and named figure' })
  @ApiNotFoundResponse({ description: BOOK_404 })
  @ApiConflictResponse({ description: BOOK_409 })
  async incomeStatement(@Param('entityId') entityId: string, @Query() query: RangeQuery, @Res() res: Response): Promise<void> {
    await answerJsonOrFile(res, query.format, () => this.reports.incomeStatement(entityId, query), async (body) => {
      const { fileName, exponent } = await this.file(entityId, 'income-statement', query, ReportsController.currencyOf(body));
      return { fileName, sheetName: 'income statement', columns: statementColumns(exponent), rows: statementRows(body) };
    });
  }

  @Get('reports/income-statement-by-dimension')
  @HeavyRead()
  @ApiExportable()
  @ApiOkResponse({
    type: IncomeStatementByDimensionResponse,
    description:
      'D52: `{ dimensionId, from, to, currency, bookId, presentation, columns: [{ dimensionValueId, code, name, statement }], unassigned }`; each statement is an income statement body; D93 exports: each statement\'s rows with its value',
  })
  @ApiNotFoundResponse({ description: `DIMENSION_NOT_FOUND_ERROR; ${BOOK_404}` })
  @ApiConflictResponse({ description: BOOK_409 })
  async incomeStatementByDimension(@Param('entityId') entityId: string, @Query() query: DimensionQuery, @Res() res: Response): Promise<void> {
    await answerJsonOrFile(res, query.format, () => this.reports.incomeStatementByDimension(entityId, query), async (body) => {
      const { fileName, exponent } = await this.file(entityId, 'income-statement-by-dimension', query, ReportsController.currencyOf(body));
      return { fileName, sheetName: 'income statement by dimension', columns: dimensionColumns(exponent), rows: dimensionRows(body) };
    });
  }

  @Get('reports/journal')
  @HeavyRead()
  @ApiExportable()
  @ApiOkResponse({ type: JournalResponse, description: 'D54: `{ rows, nextCursor }`, live lines in (entryDate, entryId, lineId) order; D93 exports (the Libro Diario): every row of the filter, no cursor, streamed' })
  @ApiNotFoundResponse({ description: BOOK_404 })
  @ApiConflictResponse({ description: BOOK_409 })
  async journal(@Param('entityId') entityId: string, @Query() query: JournalQuery, @Res() res: Response): Promise<void> {
    const format = fileFormat(query.format);
    if (!format) {
      res.status(200).json(await this.reports.journal(entityId, query));
      return;
    }
    // D93: the whole filtered range, without cursor or limit, streamed from a database cursor.
    await streamJson(res, (signal) =>
      this.books.streamJournal(entityId, query, signal, async (scope, rows, csv) => {
        const { fileName, exponent } = await this.file(entityId, 'journal', query, scope.currency);
        const columns = journalColumns(exponent);
        // The CSV written by the database (a million lines: the service only moves its bytes).
        const csvRecords = format === 'csv' ? crlfRecords(csv(csvSelectList(columns))) : undefined;
        await sendTableExport(res, format, { fileName, sheetName: 'journal', columns, rows, csvRecords });
      }),
    );
  }

  @Get('ledger/reports/eight-column-balance')
  @HeavyRead()
  @ApiExportable()
  @ApiOkResponse({
    type: EightColumnBalanceResponse,
    description:
      'D53: `{ exerciseStart, cutoffDate, currency, bookId, presentation, rows, subtotals, result, totals }`; with a presentation currency a `Presentation rounding difference` equity row keeps the identities; D93 exports: the rows, then subtotals, result and totals rows',
  })
  @ApiNotFoundResponse({ description: BOOK_404 })
  @ApiConflictResponse({ description: BOOK_409 })
  async eightColumnBalance(@Param('entityId') entityId: string, @Query() query: CutoffQuery, @Res() res: Response): Promise<void> {
    await answerJsonOrFile(res, query.format, () => this.reports.eightColumnBalance(entityId, query), async (body) => {
      const { fileName, exponent } = await this.file(entityId, 'eight-column-balance', { from: query.exerciseStart, to: query.cutoffDate }, ReportsController.currencyOf(body));
      return { fileName, sheetName: 'eight-column balance', columns: eightColumnColumns(exponent), rows: eightColumnRows(body as unknown as Parameters<typeof eightColumnRows>[0]) };
    });
  }

  // Not a heavy read: a page costs O(page) whatever the history (D55's monthly totals). Its exports are.
  @Get('ledger/general-ledger')
  @HeavyExport()
  @ApiExportable()
  @ApiOkResponse({ type: GeneralLedgerResponse, description: 'D55: `{ lines, nextCursor, openingBalance, closingBalance, lineCount }`, running balance from inception; D93 exports: every line of the range, no cursor, streamed' })
  @ApiNotFoundResponse({ description: `LEDGER_ACCOUNT_NOT_FOUND_ERROR; ${BOOK_404}` })
  @ApiConflictResponse({ description: BOOK_409 })
  async generalLedger(@Param('entityId') entityId: string, @Query() query: GeneralLedgerQuery, @Res() res: Response): Promise<void> {
    const format = fileFormat(query.format);
    if (!format) {
      res.status(200).json(await this.reports.generalLedger(entityId, query));
      return;
    }
    await streamJson(res, (signal) =>
      this.books.streamGeneralLedgerLines(entityId, query, signal, async (scope, lines) => {
        const { fileName, exponent } = await this.file(entityId, 'general-ledger', query, scope.currency);
        await sendTableExport(res, format, { fileName, sheetName: 'general ledger', columns: generalLedgerColumns(exponent), rows: lines });
      }),
    );
  }

  @Get('ledger/partner-ledger')
  @HeavyRead()
  @ApiExportable()
  @ApiOkResponse({
    type: PartnerLedgerResponse,
    description: 'D56: `{ accountId, from, to, currency, bookId, partners: [{ partnerId, partnerName, openingBalance, closingBalance, lines }] }`; D93 exports: per partner an opening row, its lines and a closing row',
  })
  @ApiNotFoundResponse({ description: `LEDGER_ACCOUNT_NOT_FOUND_ERROR; PARTNER_NOT_FOUND_ERROR (a partnerIds entry); ${BOOK_404}` })
  @ApiConflictResponse({ description: BOOK_409 })
  async partnerLedger(@Param('entityId') entityId: string, @Query() query: PartnerLedgerQuery, @Res() res: Response): Promise<void> {
    const format = fileFormat(query.format);
    // D2a: streamed from a database cursor, partner by partner.
    await streamJson(res, (signal) =>
      this.reports.streamPartnerLedger(entityId, query, signal, async (answer) => {
        if (!format) return sendJsonText(res, partnerLedgerJson(answer));
        const { fileName, exponent } = await this.file(entityId, 'partner-ledger', query);
        return sendTableExport(res, format, { fileName, sheetName: 'partner ledger', columns: partnerLedgerColumns(exponent), rows: partnerLedgerRows(answer) });
      }),
    );
  }

  @Get('reports/general-ledger-book')
  @HeavyRead()
  @ApiExportable()
  @ApiOkResponse({
    type: GeneralLedgerBookResponse,
    description:
      'D93, the Libro Mayor: `{ from, to, currency, bookId, accounts: [{ accountId, code, name, openingBalance, lines, closingBalance }] }`, every account with a line in the range, by code; lines as D55 with their running balance; streamed. Exports: per account an opening row, its lines and a closing row',
  })
  @ApiNotFoundResponse({ description: BOOK_404 })
  @ApiConflictResponse({ description: BOOK_409 })
  async generalLedgerBook(@Param('entityId') entityId: string, @Query() query: GeneralLedgerBookQuery, @Res() res: Response): Promise<void> {
    const format = fileFormat(query.format);
    await streamJson(res, (signal) =>
      this.books.streamGeneralLedgerBook(entityId, query, signal, async (book) => {
        if (!format) return sendJsonText(res, generalLedgerBookJson(book));
        const { fileName, exponent } = await this.file(entityId, 'general-ledger-book', query, book.head.currency);
        const columns = generalLedgerBookColumns(exponent);
        const csvRecords = format === 'csv' ? generalLedgerBookCsv(book, columns) : undefined;
        return sendTableExport(res, format, { fileName, sheetName: 'general ledger book', columns, rows: generalLedgerBookRows(book), csvRecords });
      }),
    );
  }
}

/** The Libro Mayor's JSON text, piece by piece: each account's lines come between its openingBalance and closingBalance. */
async function* generalLedgerBookJson(book: GeneralLedgerBookStream): AsyncGenerator<string> {
  yield `${JSON.stringify(book.head).slice(0, -1)},"accounts":[`;
  let accounts = 0;
  for await (const { account, lines } of book.accounts) {
    const { closingBalance, ...head } = account;
    yield `${accounts++ > 0 ? ',' : ''}${JSON.stringify(head).slice(0, -1)},"lines":[`;
    let n = 0;
    for await (const batch of lines) yield batch.map((line) => `${n++ > 0 ? ',' : ''}${JSON.stringify(line)}`).join('');
    yield `],"closingBalance":${closingBalance}}`;
  }
  yield ']}';
}

/** Characters of a streamed answer gathered before a write. */
const JSON_WRITE_SIZE = 64 * 1024;

/** The partner ledger's JSON text, piece by piece, in D56's field order. */
async function* partnerLedgerJson(answer: PartnerLedgerStream): AsyncGenerator<string> {
  if ('whole' in answer) {
    yield JSON.stringify(answer.whole);
    return;
  }
  yield `${JSON.stringify(answer.head).slice(0, -1)},"partners":[`;
  // The pieces go out in writes of about JSON_WRITE_SIZE: a write per partner's piece cost a system call each.
  let out = '';
  let partners = 0;
  let lines = 0;
  for await (const piece of answer.partners) {
    if ('group' in piece) {
      out += `${partners++ > 0 ? ',' : ''}${JSON.stringify(piece.group).slice(0, -1)},"lines":[`;
      lines = 0;
    } else if ('lines' in piece) {
      for (const line of piece.lines) out += `${lines++ > 0 ? ',' : ''}${JSON.stringify(line)}`;
    } else {
      out += ']}';
    }
    if (out.length >= JSON_WRITE_SIZE) {
      yield out;
      out = '';
    }
  }
  yield `${out}]}`;
}
