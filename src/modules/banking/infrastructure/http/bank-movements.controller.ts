import { Body, Controller, Delete, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
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
  ApiTooManyRequestsResponse,
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
import { EntitiesService } from '../../../entities';
import { ReferenceDataService } from '../../../reference';
import { ApiExportable, fileFormat, sendListExport } from '../../../../platform/exports/export-response';
import { exportFileName } from '../../../../platform/exports/table';
import { HeavyExport } from '../../../../platform/http/heavy-reads';
import { streamJson } from '../../../../platform/http/json-stream';
import { movementColumns } from './movement-exports';
import type { StatementUploadRequest } from './statement-upload.middleware';

export const IMPORT_ROUTE = 'entities/:entityId/bank-accounts/:bankAccountId/movements/import';

@ApiTags('bank movements')
@Authenticated()
@Controller('entities/:entityId')
export class BankMovementsController {
  constructor(
    private readonly movements: BankMovementsService,
    private readonly entities: EntitiesService,
    private readonly reference: ReferenceDataService,
  ) {}

  @Get('bank-accounts/:bankAccountId/movements')
  @HeavyExport()
  @ApiExportable()
  @ApiOkResponse({ type: MovementPageResponse, description: 'Movements of the bank account, newest first (keyset pages); D93 exports: every movement of the filter (no cursor), the side as debit and credit, streamed' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR (a filter or the cursor)' })
  @ApiNotFoundResponse({ description: 'BANK_ACCOUNT_NOT_FOUND_ERROR' })
  @ApiTooManyRequestsResponse({ description: 'TOO_MANY_CONCURRENT_READS_ERROR (exports only, D2a)' })
  async page(@Param('entityId') entityId: string, @Param('bankAccountId') bankAccountId: string, @Query() query: MovementsQuery, @Res() res: Response): Promise<void> {
    const booked = query.booked === undefined ? undefined : query.booked === 'true';
    const format = fileFormat(query.format);
    if (format) {
      await streamJson(res, (signal) =>
        this.movements.streamAll(entityId, bankAccountId, { from: query.from, to: query.to, booked }, signal, async (currency, batches) => {
          const entity = (await this.entities.get(entityId)).snapshot();
          const exponent = this.reference.findCurrency(currency)?.minorUnits ?? 0;
          await sendListExport(res, format, batches, (batch) => batch.map(presentMovement), { fileName: exportFileName('bank-movements', entity.taxId, query), sheetName: 'bank movements', columns: movementColumns(exponent) });
        }),
      );
      return;
    }
    const page = await this.movements.page(entityId, bankAccountId, { ...query, booked });
    const body: MovementPageResponse = { rows: page.rows.map(presentMovement), nextCursor: page.nextCursor };
    res.status(200).json(body);
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
