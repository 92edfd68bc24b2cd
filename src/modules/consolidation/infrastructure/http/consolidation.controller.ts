import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiExportable, answerJsonOrFile } from '../../../../platform/exports/export-response';
import { statementColumns, statementRows } from '../../../../platform/exports/statement-rows';
import { exportFileName } from '../../../../platform/exports/table';
import { EntitiesService } from '../../../entities';
import { ReferenceDataService } from '../../../reference';
import { ApiConflictResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '../../../../platform/auth/decorators';
import type { Principal } from '../../../../platform/auth/principal';
import { HeavyRead } from '../../../../platform/http/heavy-reads';
import { ConsolidatedReportsService } from '../../application/consolidated-reports.service';
import {
  ConsolidatedBalanceSheetQuery,
  ConsolidatedBalanceSheetResponse,
  ConsolidatedIncomeStatementQuery,
  ConsolidatedIncomeStatementResponse,
} from './consolidation.dto';

const FORBIDDEN = 'PERMISSION_DENIED_ERROR: the caller cannot read every member of the group (nothing about the members is said)';
const NOT_FOUND = 'BOOK_NOT_FOUND_ERROR (params.entityId: a member with Books has none of that name)';
const CONFLICT =
  'BOOK_REQUIRED_ERROR (params.entityId: a member keeps Books and no bookName was sent); CONSOLIDATION_RATE_MISSING_ERROR (params.currency); CONSOLIDATION_ACCOUNT_TYPE_CONFLICT_ERROR (params.code); AMOUNT_OUT_OF_RANGE_ERROR (D6a)';

const viewerOf = (principal: Principal) => ({ userId: principal.user.id, role: principal.user.role, scopedEntityId: principal.apiKey?.entityId ?? null });

@ApiTags('reports')
@ApiTooManyRequestsResponse({ description: 'TOO_MANY_CONCURRENT_READS_ERROR: heavy reads at once beyond HEAVY_READS_PER_USER or HEAVY_READS_TOTAL (D2a), with Retry-After' })
@Authenticated()
@Controller('entities/:entityId/reports')
export class ConsolidationController {
  constructor(
    private readonly reports: ConsolidatedReportsService,
    private readonly entities: EntitiesService,
    private readonly reference: ReferenceDataService,
  ) {}

  /** D93: the consolidated statement as a file, a row per account (by code), total and named figure. */
  private async file(entityId: string, report: string, range: { from: string; to: string }, body: { currency: string }) {
    const entity = (await this.entities.get(entityId)).snapshot();
    const exponent = this.reference.findCurrency(body.currency)?.minorUnits ?? 0;
    return { fileName: exportFileName(report, entity.taxId, range), sheetName: report.replace(/-/g, ' '), columns: statementColumns(exponent), rows: statementRows(body) };
  }

  @Get('consolidated-balance-sheet')
  @HeavyRead()
  @ApiOkResponse({
    type: ConsolidatedBalanceSheetResponse,
    description: 'D91: the Entity and every descendant as one, by chart code, intercompany lines eliminated, translated at closing and average rates',
  })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiConflictResponse({ description: CONFLICT })
  @ApiExportable()
  async balanceSheet(@Param('entityId') entityId: string, @Query() query: ConsolidatedBalanceSheetQuery, @CurrentPrincipal() principal: Principal, @Res() res: Response): Promise<void> {
    const id = entityId.toLowerCase();
    await answerJsonOrFile(res, query.format, (): Promise<ConsolidatedBalanceSheetResponse> => this.reports.balanceSheet(id, viewerOf(principal), query), (body) =>
      this.file(id, 'consolidated-balance-sheet', { from: query.exerciseStart, to: query.cutoffDate }, body),
    );
  }

  @Get('consolidated-income-statement')
  @HeavyRead()
  @ApiOkResponse({ type: ConsolidatedIncomeStatementResponse, description: "D91: D52's sections with flat rows by code over the group, at the average rates" })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiConflictResponse({ description: CONFLICT })
  @ApiExportable()
  async incomeStatement(@Param('entityId') entityId: string, @Query() query: ConsolidatedIncomeStatementQuery, @CurrentPrincipal() principal: Principal, @Res() res: Response): Promise<void> {
    const id = entityId.toLowerCase();
    await answerJsonOrFile(res, query.format, (): Promise<ConsolidatedIncomeStatementResponse> => this.reports.incomeStatement(id, viewerOf(principal), query), (body) =>
      this.file(id, 'consolidated-income-statement', { from: query.from, to: query.to }, body),
    );
  }
}
