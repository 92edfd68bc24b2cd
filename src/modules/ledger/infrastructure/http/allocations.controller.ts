import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_AMOUNT } from '../../../../../libs/shared-kernel/src';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { NoBody } from '../../../../platform/http/validation';
import { Authenticated } from '../../../../platform/auth/decorators';
import { IsCursor, IsUuid, PageLimit } from '../../../../platform/http/validators';
import { LedgerAllocations } from '../../application/ledger-allocations';
import { AllocationResponse, ListedLineResponse } from './entries.dto';
import { EntryPresenter } from './entry-presenter';

class AllocationsQuery {
  @ApiProperty({ format: 'uuid', description: 'Allocations where the line is the debit or the credit side' }) @IsUuid() lineId: string;
}

class CreateAllocationBody {
  @ApiProperty({ format: 'uuid' }) @IsUuid() id: string;
  @ApiProperty({ format: 'uuid' }) @IsUuid() debitLineId: string;
  @ApiProperty({ format: 'uuid' }) @IsUuid() creditLineId: string;
  @ApiProperty({ description: 'Positive integer, not above either open amount' }) @IsInt() @Min(1) @Max(MAX_AMOUNT) amount: number;
}

class MatchBody {
  @ApiProperty({ type: [String], minItems: 2, maxItems: 500 })
  @IsArray()
  @ArrayMinSize(2)
  @ArrayMaxSize(500)
  @IsUuid({ each: true })
  lineIds: string[];
}

class MatchResponse {
  @ApiProperty({ type: AllocationResponse, isArray: true }) allocations: AllocationResponse[];
  @ApiProperty({ type: [String], description: 'Lines whose open amount reached 0' }) settledLines: string[];
  @ApiProperty({ description: 'Signed open total of the selection after matching, debit positive' }) openTotal: number;
}

class OpenItemQuery {
  @ApiProperty({ format: 'uuid' }) @IsUuid() accountId: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUuid() partnerId?: string;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  includeSettled?: boolean;

  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUuid() bookId?: string;
  @ApiPropertyOptional() @IsOptional() @IsCursor() cursor?: string;
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 }) @PageLimit() limit?: number;
}

class PartnerOption {
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) partnerId: string | null;
  @ApiProperty({ type: String, nullable: true }) partnerName: string | null;
  @ApiProperty() lineCount: number;
  @ApiProperty() openTotal: number;
}

class OpenItemResponse {
  @ApiProperty({ type: ListedLineResponse, isArray: true }) lines: ListedLineResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
  @ApiProperty({ description: 'Signed open total of the whole filtered set, debit positive' }) openTotal: number;
  @ApiProperty({ description: 'Lines in the whole filtered set' }) lineCount: number;
  @ApiProperty({ type: PartnerOption, isArray: true, description: 'Partners with lines in the set, whatever the partner filter' }) partnerOptions: PartnerOption[];
}

@ApiTags('reconciliation')
@Authenticated()
@Controller('entities/:entityId/ledger')
export class AllocationsController {
  constructor(
    private readonly allocations: LedgerAllocations,
    private readonly present: EntryPresenter,
  ) {}

  @Get('allocations')
  @ApiOkResponse({ type: AllocationResponse, isArray: true, description: 'Allocations settling the line' })
  @ApiNotFoundResponse({ description: 'LEDGER_LINE_NOT_FOUND_ERROR' })
  async list(@Param('entityId') entityId: string, @Query() query: AllocationsQuery): Promise<AllocationResponse[]> {
    return (await this.allocations.ofLine(entityId, query.lineId)).map((a) => this.present.allocation(a));
  }

  @Post('allocations')
  @Audit('allocation.create', 'allocation')
  @ApiCreatedResponse({ type: AllocationResponse, description: 'The allocation' })
  @ApiNotFoundResponse({ description: 'RECONCILIATION_ALLOCATION_DEBIT_LINE_NOT_FOUND_ERROR or RECONCILIATION_ALLOCATION_CREDIT_LINE_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'The other RECONCILIATION_ALLOCATION_* codes and LEDGER_ENTRY_NOT_LIVE_ERROR' })
  async create(@Param('entityId') entityId: string, @Body() body: CreateAllocationBody): Promise<AllocationResponse> {
    return this.present.allocation(await this.allocations.allocate(entityId, { id: body.id, debitLineId: body.debitLineId, creditLineId: body.creditLineId, amount: body.amount }));
  }

  @Delete('allocations/:allocationId')
  @Audit('allocation.delete', 'allocation')
  @ApiOkResponse({ type: AllocationResponse, description: 'The deleted allocation; both open amounts are restored' })
  @ApiNotFoundResponse({ description: 'RECONCILIATION_ALLOCATION_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'RECONCILIATION_ALLOCATION_NETS_REVERSAL_ERROR (made by a reversal)' })
  async delete(@Param('entityId') entityId: string, @Param('allocationId') allocationId: string, @NoBody() _body: unknown): Promise<AllocationResponse> {
    return this.present.allocation(await this.allocations.delete(entityId, allocationId));
  }

  @Post('allocations/match')
  @Audit('allocation.match', 'allocation')
  @ApiCreatedResponse({ type: MatchResponse, description: '`{ allocations, settledLines, openTotal }` (D39)' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR (2 to 500 line ids)' })
  @ApiNotFoundResponse({ description: 'RECONCILIATION_MATCH_LINE_NOT_FOUND_ERROR' })
  @ApiConflictResponse({
    description:
      'RECONCILIATION_MATCH_LINES_ON_DIFFERENT_ACCOUNTS_ERROR, RECONCILIATION_MATCH_LINES_IN_DIFFERENT_BOOKS_ERROR, RECONCILIATION_MATCH_NOTHING_TO_MATCH_ERROR, RECONCILIATION_ALLOCATION_ACCOUNT_MUST_BE_OPEN_ITEM_ERROR, LEDGER_ENTRY_NOT_LIVE_ERROR',
  })
  async match(@Param('entityId') entityId: string, @Body() body: MatchBody): Promise<MatchResponse> {
    const result = await this.allocations.match(entityId, body.lineIds);
    return { allocations: result.allocations.map((a) => this.present.allocation(a)), settledLines: result.settledLines, openTotal: result.openTotal };
  }

  @Get('open-item-lines')
  @ApiOkResponse({ type: OpenItemResponse, description: 'Open-item lines, oldest first, unsettled by default (D38)' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR (also an account that is not open-item)' })
  @ApiNotFoundResponse({ description: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR, BOOK_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'BOOK_REQUIRED_ERROR' })
  async openItems(@Param('entityId') entityId: string, @Query() query: OpenItemQuery): Promise<OpenItemResponse> {
    const result = await this.allocations.openItemLines(entityId, query);
    return { ...result, lines: await this.present.lines(entityId, result.lines) };
  }
}
