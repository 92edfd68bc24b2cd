import { Body, Controller, Delete, Get, Param, Post, Query, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiPayloadTooLargeResponse,
  ApiTags,
} from '@nestjs/swagger';
import { validationError } from '../../../../../libs/shared-kernel/src';
import { HeavyImport } from '../../../../platform/imports/heavy-import';
import { IMPORT_MAX_TEXT } from '../../../../platform/imports/import-limits';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { Authenticated } from '../../../../platform/auth/decorators';
import { NoBody } from '../../../../platform/http/validation';
import { BankMovementsService } from '../../application/bank-movements.service';
import { BankMovementResponse, CreateMovementBody, ImportResultResponse, MovementPageResponse, MovementsQuery } from './banking.dto';
import { presentMovement } from './presenters';
import type { StatementUploadRequest } from './statement-upload.middleware';

export const IMPORT_ROUTE = 'entities/:entityId/bank-accounts/:bankAccountId/movements/import';

@ApiTags('bank movements')
@Authenticated()
@Controller('entities/:entityId')
export class BankMovementsController {
  constructor(private readonly movements: BankMovementsService) {}

  @Get('bank-accounts/:bankAccountId/movements')
  @ApiOkResponse({ type: MovementPageResponse, description: 'Movements of the bank account, newest first (keyset pages)' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR (a filter or the cursor)' })
  @ApiNotFoundResponse({ description: 'BANK_ACCOUNT_NOT_FOUND_ERROR' })
  async page(@Param('entityId') entityId: string, @Param('bankAccountId') bankAccountId: string, @Query() query: MovementsQuery): Promise<MovementPageResponse> {
    const booked = query.booked === undefined ? undefined : query.booked === 'true';
    const page = await this.movements.page(entityId, bankAccountId, { ...query, booked });
    return { rows: page.rows.map(presentMovement), nextCursor: page.nextCursor };
  }

  @Post('bank-accounts/:bankAccountId/movements')
  @Audit('bank_movement.create', 'bank_movement')
  @ApiCreatedResponse({ type: BankMovementResponse, description: 'The manual movement (D76)' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR (counterparty fields are not taken: D76a)' })
  @ApiNotFoundResponse({ description: 'BANK_ACCOUNT_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'BANK_MOVEMENT_ALREADY_EXISTS_ERROR' })
  async create(@Param('entityId') entityId: string, @Param('bankAccountId') bankAccountId: string, @Body() body: CreateMovementBody): Promise<BankMovementResponse> {
    return presentMovement(await this.movements.create(entityId, bankAccountId, body));
  }

  @Post('bank-accounts/:bankAccountId/movements/import')
  @Audit('bank_movement.import', 'bank_account', { ownTransaction: true })
  @HeavyImport()
  @ApiConsumes('multipart/form-data', 'text/csv')
  @ApiBody({
    description: `A CSV statement (D78): header date,description,amount[,reference]; as the file field of a form or as the body; up to ${IMPORT_MAX_TEXT}`,
    schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } },
  })
  @ApiCreatedResponse({ type: ImportResultResponse, description: 'Rows landed, and rows skipped because the account already had their content' })
  @ApiBadRequestResponse({ description: 'BANK_IMPORT_ROW_INVALID_ERROR with params { row, reason }, or VALIDATION_ERROR (no file, an empty file)' })
  @ApiNotFoundResponse({ description: 'BANK_ACCOUNT_NOT_FOUND_ERROR' })
  @ApiPayloadTooLargeResponse({ description: `PAYLOAD_TOO_LARGE_ERROR: the file is over ${IMPORT_MAX_TEXT}` })
  async import(
    @Param('entityId') entityId: string,
    @Param('bankAccountId') bankAccountId: string,
    @Req() request: StatementUploadRequest,
    @NoBody() _fields: unknown,
  ): Promise<ImportResultResponse> {
    if (request.statementUploadError) throw request.statementUploadError;
    if (!request.statementFile) throw validationError('file', 'is required: send the statement as the file field of multipart/form-data or as a text/csv body');
    return this.movements.import(entityId, bankAccountId, request.statementFile);
  }

  @Get('bank-movements/:movementId')
  @ApiOkResponse({ type: BankMovementResponse })
  @ApiNotFoundResponse({ description: 'BANK_MOVEMENT_NOT_FOUND_ERROR' })
  async get(@Param('entityId') entityId: string, @Param('movementId') movementId: string): Promise<BankMovementResponse> {
    return presentMovement(await this.movements.get(entityId, movementId));
  }

  @Delete('bank-movements/:movementId')
  @Audit('bank_movement.delete', 'bank_movement')
  @ApiOkResponse({ type: BankMovementResponse, description: 'The deleted movement' })
  @ApiNotFoundResponse({ description: 'BANK_MOVEMENT_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'BANK_MOVEMENT_BOOKED_ERROR' })
  async delete(@Param('entityId') entityId: string, @Param('movementId') movementId: string, @NoBody() _body: unknown): Promise<BankMovementResponse> {
    return presentMovement(await this.movements.delete(entityId, movementId));
  }
}
