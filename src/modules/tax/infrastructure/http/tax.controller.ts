import { Controller, Get, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
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
import { exactAmount, exactAmounts, validationError } from '../../../../../libs/shared-kernel/src';
import type { TaxAmounts } from '../../domain/purchase-sales-register';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { Authenticated } from '../../../../platform/auth/decorators';
import { HeavyRead } from '../../../../platform/http/heavy-reads';
import { HeavyImport } from '../../../../platform/imports/heavy-import';
import { ApiExportable, answerJsonOrFile } from '../../../../platform/exports/export-response';
import { exportFileName, TableColumn } from '../../../../platform/exports/table';
import { EntitiesService } from '../../../entities';
import { IMPORT_MAX_TEXT } from '../../../../platform/imports/import-limits';
import { NoBody } from '../../../../platform/http/validation';
import { TaxBooksService } from '../../application/tax-books.service';
import { carriedCreditOf, ppmRateOf } from '../../domain/f29';
import { taxDirection, taxPeriod } from '../../domain/tax-period';
import type { RcvUploadRequest } from './rcv-upload.middleware';
import { TaxJurisdictionGuard } from './tax-jurisdiction.guard';
import { F29Query, F29Response, PeriodDirectionQuery, PurchaseSalesRegisterResponse, RcvImportResponse, RcvReconciliationResponse, RegisterQuery } from './tax.dto';

export const RCV_IMPORT_ROUTE = 'entities/:entityId/tax/rcv-imports';

const JURISDICTION_409 = 'TAX_JURISDICTION_NOT_SUPPORTED_ERROR: the Entity is not in CL or does not keep CLP (checked before anything else of the request)';
const RANGE_409 = 'AMOUNT_OUT_OF_RANGE_ERROR: a figure past 2^53 − 1 (D6a)';

/**
 * The four amounts as JSON numbers (D6a: past 2^53 − 1, 409 AMOUNT_OUT_OF_RANGE_ERROR naming the
 * field). Written out rather than through exactAmounts' walk of the whole answer, which costs more
 * than the rest of a 20,000-row register.
 */
const labels = (at: string) => ({ exempt: `${at}.exemptAmount`, net: `${at}.netAmount`, tax: `${at}.taxAmount`, total: `${at}.totalAmount` });
const AT = { rows: labels('rows'), summary: labels('summary'), sii: labels('rows.sii'), books: labels('rows.books') };
const amounts = (a: TaxAmounts, at: ReturnType<typeof labels>) => ({
  exemptAmount: exactAmount(a.exemptAmount, at.exempt),
  netAmount: exactAmount(a.netAmount, at.net),
  taxAmount: exactAmount(a.taxAmount, at.tax),
  totalAmount: exactAmount(a.totalAmount, at.total),
});

@ApiTags('tax')
@ApiConflictResponse({ description: JURISDICTION_409 })
@Authenticated()
@UseGuards(TaxJurisdictionGuard)
@Controller('entities/:entityId/tax')
export class TaxController {
  constructor(
    private readonly tax: TaxBooksService,
    private readonly entities: EntitiesService,
  ) {}

  private async fileName(entityId: string, report: string, period: string): Promise<string> {
    return exportFileName(report, (await this.entities.get(entityId)).snapshot().taxId, period);
  }

  @Get('purchase-sales-register')
  @HeavyRead()
  @ApiOkResponse({ type: PurchaseSalesRegisterResponse, description: 'D92 item 1: the Registro de Compras y Ventas from the books' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR (period, direction)' })
  @ApiTooManyRequestsResponse({ description: 'TOO_MANY_CONCURRENT_READS_ERROR (D2a), with Retry-After' })
  @ApiExportable()
  async register(@Param('entityId') entityId: string, @Query() query: RegisterQuery, @Res() res: Response): Promise<void> {
    await answerJsonOrFile(
      res,
      query.format,
      async (): Promise<PurchaseSalesRegisterResponse> => {
        const { period, direction, rows, summary } = await this.tax.register(entityId, taxPeriod(query.period), taxDirection(query.direction));
        return {
          period,
          direction,
          // Folios are integers (D63a): canonical digits, within 2^53 − 1 for any SII folio (10 digits).
          rows: rows.map((r) => ({ invoiceId: r.invoiceId, dteType: r.dteType, folio: Number(r.folio), partnerTaxId: r.partnerTaxId, partnerName: r.partnerName, issueDate: r.issueDate, ...amounts(r, AT.rows) })),
          summary: summary.map((s) => ({ dteType: s.dteType, count: s.count, ...amounts(s, AT.summary) })),
        };
      },
      async (body) => ({
        fileName: await this.fileName(entityId, `purchase-sales-register-${body.direction}`, body.period),
        sheetName: `register ${body.direction}`,
        columns: REGISTER_COLUMNS,
        // The rows, then the summary (section `summary`, with its count).
        rows: [...body.rows.map((r) => ({ section: 'rows', ...r, count: null })), ...body.summary.map((s) => ({ section: 'summary', ...s }))] as RegisterFileRow[],
      }),
    );
  }

  @Post('rcv-imports')
  @Audit('rcv.import', 'rcv_import', { ownTransaction: true })
  @HeavyImport()
  @ApiConsumes('multipart/form-data', 'text/csv')
  @ApiBody({
    description: "The SII's RCV file (D92): `;`-separated, its header row (purchases or sales layout), dates DD/MM/YYYY, UTF-8 or ISO-8859-1; as the `file` field of a form or as a text/csv body; up to 5 MB",
    schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } },
  })
  @ApiCreatedResponse({ type: RcvImportResponse, description: 'The import: the latest one of its period and direction is the one reconciled' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR: period, direction, no file, or a malformed file (params.row names its line, the header being 1); nothing written' })
  @ApiPayloadTooLargeResponse({ description: `PAYLOAD_TOO_LARGE_ERROR: the file is over ${IMPORT_MAX_TEXT}` })
  async importRcv(@Param('entityId') entityId: string, @Query() query: PeriodDirectionQuery, @Req() request: RcvUploadRequest, @NoBody() _fields: unknown): Promise<RcvImportResponse> {
    const period = taxPeriod(query.period);
    const direction = taxDirection(query.direction);
    if (request.rcvUploadError) throw request.rcvUploadError;
    if (!request.rcvFile || request.rcvFile.length === 0) {
      throw validationError('file', 'is required: send the RCV file as the file field of multipart/form-data or as a text/csv body');
    }
    const { id, rowCount } = await this.tax.importRcv(entityId, period, direction, request.rcvFile);
    return { id, period: period.period, direction, rowCount };
  }

  @Get('rcv-reconciliation')
  @HeavyRead()
  @ApiOkResponse({ type: RcvReconciliationResponse, description: "D92 item 2: the latest RCV import of the period and direction against the register" })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR (period, direction)' })
  @ApiNotFoundResponse({ description: 'RCV_IMPORT_NOT_FOUND_ERROR: no RCV file imported for the period and direction' })
  @ApiTooManyRequestsResponse({ description: 'TOO_MANY_CONCURRENT_READS_ERROR (D2a), with Retry-After' })
  async reconciliation(@Param('entityId') entityId: string, @Query() query: PeriodDirectionQuery): Promise<RcvReconciliationResponse> {
    const { period, direction, counts, rows } = await this.tax.reconciliation(entityId, taxPeriod(query.period), taxDirection(query.direction));
    return {
      period,
      direction,
      counts,
      rows: rows.map((r) => ({
        dteType: r.dteType,
        folio: Number(r.folio),
        partnerTaxId: r.partnerTaxId,
        status: r.status,
        sii: r.sii && amounts(r.sii, AT.sii),
        books: r.books && amounts(r.books, AT.books),
      })),
    };
  }

  @Get('f29')
  @ApiOkResponse({ type: F29Response, description: 'D92 item 3: the propuesta F29, every code an integer but 115' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR (period, carriedCredit, ppmRate)' })
  @ApiConflictResponse({ description: `${JURISDICTION_409}; ${RANGE_409}` })
  @ApiExportable()
  async f29(@Param('entityId') entityId: string, @Query() query: F29Query, @Res() res: Response): Promise<void> {
    await answerJsonOrFile(
      res,
      query.format,
      async (): Promise<F29Response> => {
        const period = taxPeriod(query.period);
        const options = { carriedCredit: carriedCreditOf(query.carriedCredit), ppmRate: ppmRateOf(query.ppmRate) };
        const { codes } = await this.tax.f29(entityId, period, options);
        return { period: period.period, codes: exactAmounts(codes, 'codes') };
      },
      async (body) => ({
        fileName: await this.fileName(entityId, 'f29', body.period),
        sheetName: 'propuesta f29',
        // One row per code: `value` the integer, `ppmRate` the rate's text on code 115.
        columns: F29_COLUMNS,
        rows: Object.entries(body.codes).map(([code, value]) => ({ code, value: typeof value === 'number' ? value : null, ppmRate: typeof value === 'string' ? value : null })),
      }),
    );
  }
}

interface RegisterFileRow {
  section: string;
  invoiceId?: string;
  dteType: number;
  folio?: number;
  partnerTaxId?: string | null;
  partnerName?: string | null;
  issueDate?: string;
  count: number | null;
  exemptAmount: number;
  netAmount: number;
  taxAmount: number;
  totalAmount: number;
}

const amountColumn = (header: 'exemptAmount' | 'netAmount' | 'taxAmount' | 'totalAmount'): TableColumn<RegisterFileRow> => ({ header, type: 'amount', exponent: 0, value: (r) => r[header] });
const REGISTER_COLUMNS: Array<TableColumn<RegisterFileRow>> = [
  { header: 'section', type: 'text', value: (r) => r.section },
  { header: 'invoiceId', type: 'text', value: (r) => r.invoiceId },
  { header: 'dteType', type: 'integer', value: (r) => r.dteType },
  { header: 'folio', type: 'integer', value: (r) => r.folio },
  { header: 'partnerTaxId', type: 'text', value: (r) => r.partnerTaxId },
  { header: 'partnerName', type: 'text', value: (r) => r.partnerName },
  { header: 'issueDate', type: 'date', value: (r) => r.issueDate },
  { header: 'count', type: 'integer', value: (r) => r.count },
  amountColumn('exemptAmount'),
  amountColumn('netAmount'),
  amountColumn('taxAmount'),
  amountColumn('totalAmount'),
];

const F29_COLUMNS: Array<TableColumn<{ code: string; value: number | null; ppmRate: string | null }>> = [
  { header: 'code', type: 'text', value: (r) => r.code },
  { header: 'value', type: 'amount', exponent: 0, value: (r) => r.value },
  { header: 'ppmRate', type: 'text', value: (r) => r.ppmRate },
];
