import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { Authenticated } from '../../../../platform/auth/decorators';
import { NoBody } from '../../../../platform/http/validation';
import { LedgerClosings } from '../../application/closings/closings';
import { CloseExerciseBody, closingResponse, ClosingResponse, ClosingsQuery, ClosingsResponse } from './closings.dto';

/** D90 Year-end closing: access and audit as for ledger entries (D16, D18). */
@ApiTags('ledger closings')
@Authenticated()
@Controller('entities/:entityId/ledger/closings')
export class ClosingsController {
  constructor(private readonly closings: LedgerClosings) {}

  @Post()
  @Audit('ledger_closing.create', 'ledger_closing')
  @ApiOperation({
    summary: 'Close an exercise (cierre del ejercicio)',
    description:
      'Posts one entry (source `closing`, dated exerciseEnd, into the locked period) that brings every Result Account with a live balance over the exercise in the Book read to zero, the net on the retained-earnings account.',
  })
  @ApiCreatedResponse({ type: ClosingResponse, description: 'The closing, active' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR (exerciseStart after exerciseEnd), LEDGER_CLOSING_ACCOUNT_NOT_EQUITY_ERROR' })
  @ApiNotFoundResponse({ description: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR, BOOK_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'LEDGER_CLOSING_ALREADY_EXISTS_ERROR, BOOK_REQUIRED_ERROR, LEDGER_CLOSING_PERIOD_NOT_LOCKED_ERROR, LEDGER_CLOSING_SEQUENCE_ERROR' })
  async close(@Param('entityId') entityId: string, @Body() body: CloseExerciseBody): Promise<ClosingResponse> {
    return closingResponse(await this.closings.close(entityId, body));
  }

  @Get()
  @ApiOperation({ summary: 'Closings of the Entity, every status, newest exerciseEnd first' })
  @ApiOkResponse({ type: ClosingsResponse })
  @ApiNotFoundResponse({ description: 'BOOK_NOT_FOUND_ERROR (bookId names no Book of the Entity)' })
  async list(@Param('entityId') entityId: string, @Query() query: ClosingsQuery): Promise<ClosingsResponse> {
    return { closings: (await this.closings.list(entityId, query.bookId)).map(closingResponse) };
  }

  @Get(':closingId')
  @ApiOperation({ summary: 'One closing' })
  @ApiOkResponse({ type: ClosingResponse })
  @ApiNotFoundResponse({ description: 'LEDGER_CLOSING_NOT_FOUND_ERROR' })
  async get(@Param('entityId') entityId: string, @Param('closingId') closingId: string): Promise<ClosingResponse> {
    return closingResponse(await this.closings.get(entityId, closingId));
  }

  @Delete(':closingId')
  @Audit('ledger_closing.reopen', 'ledger_closing')
  @ApiOperation({ summary: 'Reopen the latest active closing of its Book: the closing becomes `reopened`, its entry `deleted`' })
  @ApiOkResponse({ type: ClosingResponse, description: 'The closing, reopened' })
  @ApiNotFoundResponse({ description: 'LEDGER_CLOSING_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'LEDGER_CLOSING_NOT_LATEST_ERROR' })
  async reopen(@Param('entityId') entityId: string, @Param('closingId') closingId: string, @NoBody() _body: unknown): Promise<ClosingResponse> {
    return closingResponse(await this.closings.reopen(entityId, closingId));
  }
}
