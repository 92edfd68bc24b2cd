import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiConsumes, ApiCreatedResponse, ApiOkResponse, ApiPayloadTooLargeResponse, ApiTags } from '@nestjs/swagger';
import { DomainError } from '../../../../../libs/shared-kernel/src';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { Authenticated } from '../../../../platform/auth/decorators';
import { HeavyImport } from '../../../../platform/imports/heavy-import';
import { IMPORT_MAX_TEXT } from '../../../../platform/imports/import-limits';
import { DtesService } from '../../application/dtes.service';
import { presentDte } from './invoice-presenter';
import { DteImportResponse, DteListQuery, DtePageQuery, DtePageResponse, DteResponse } from './invoices.dto';

const linkedOf = (query: DteListQuery) => (query.linked === undefined ? undefined : query.linked === 'true');

@ApiTags('invoices')
@Authenticated()
@Controller('entities/:entityId/dtes')
export class DtesController {
  constructor(private readonly dtes: DtesService) {}

  @Get()
  @ApiOkResponse({ type: DteResponse, isArray: true, description: 'Every imported DTE matching the filters, newest issue date first (D63, D8: a bare array)' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR' })
  async list(@Param('entityId') entityId: string, @Query() query: DteListQuery): Promise<DteResponse[]> {
    return (await this.dtes.list(entityId, { ...query, linked: linkedOf(query) })).map(presentDte);
  }

  /** The same list in keyset pages; declared before any `:id` route of this controller. */
  @Get('pages')
  @ApiOkResponse({ type: DtePageResponse, description: 'Imported DTEs, newest issue date first, keyset pages' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR' })
  async pages(@Param('entityId') entityId: string, @Query() query: DtePageQuery): Promise<DtePageResponse> {
    const page = await this.dtes.page(entityId, { ...query, linked: linkedOf(query) });
    return { rows: page.rows.map(presentDte), nextCursor: page.nextCursor };
  }

  /** D63, D65a: the raw SII XML is the body (`application/xml` or `text/xml`, at most 5 MB = 5,242,880 bytes). D2b: heavy work. */
  @Post('import')
  @Audit('dte.import', 'dte', { ownTransaction: true })
  @HeavyImport()
  @ApiConsumes('application/xml', 'text/xml')
  @ApiBody({ description: 'One DTE, an EnvioDTE (up to 2,000 documents) or an EnvioBOLETA, signed or not; ISO-8859-1, windows-1252 or UTF-8 as declared', schema: { type: 'string' } })
  @ApiCreatedResponse({ type: DteImportResponse, description: 'What the file imported; duplicates (issuer RUT, type, folio) skipped' })
  @ApiBadRequestResponse({
    description:
      'VALIDATION_ERROR: not well-formed (line, column), DOCTYPE or entities, an encoding other than ISO-8859-1, windows-1252 or UTF-8, beyond the SII schema\'s bounds (nesting, element count, a field\'s length, more than 40 Referencia), a document with a bad field (document, field), a folio of 0 or not a number (D63a)',
  })
  @ApiPayloadTooLargeResponse({ description: `PAYLOAD_TOO_LARGE_ERROR: over ${IMPORT_MAX_TEXT}` })
  async import(@Param('entityId') entityId: string, @Body() body: Buffer): Promise<DteImportResponse> {
    if (!Buffer.isBuffer(body)) {
      throw new DomainError('VALIDATION_ERROR', 'Send the DTE XML as the body with content-type application/xml or text/xml', {
        errors: [{ path: 'body', message: 'must be XML (content-type application/xml or text/xml)' }],
      });
    }
    const result = await this.dtes.import(entityId, body);
    return { importedCount: result.importedCount, skippedCount: result.skippedCount, dtes: result.dtes.map(presentDte) };
  }
}
