import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { validationError } from '../../../../../libs/shared-kernel/src';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { Authenticated } from '../../../../platform/auth/decorators';
import { NoBody } from '../../../../platform/http/validation';
import { LedgerReads } from '../../../ledger';
import { EntitiesService } from '../../../entities';
import { ReferenceDataService } from '../../../reference';
import { ApiExportable, fileFormat, sendListExport } from '../../../../platform/exports/export-response';
import { exportFileName, type FileFormat } from '../../../../platform/exports/table';
import { HeavyExport } from '../../../../platform/http/heavy-reads';
import { streamJson } from '../../../../platform/http/json-stream';
import { invoiceColumns } from './invoice-exports';
import { InvoicesService, InvoiceView } from '../../application/invoices.service';
import { InvoiceBookingService } from '../../application/invoice-booking.service';
import { presentInvoice } from './invoice-presenter';
import {
  BookInvoiceBody,
  BookInvoiceResponse,
  CreateInvoiceBody,
  InvoiceDetailResponse,
  InvoiceListQuery,
  InvoicePageQuery,
  InvoicePageResponse,
  InvoiceResponse,
  LinkDteBody,
  UpdateInvoiceBody,
} from './invoices.dto';

@ApiTags('invoices')
@Authenticated()
@Controller('entities/:entityId/invoices')
export class InvoicesController {
  constructor(
    private readonly invoices: InvoicesService,
    private readonly ledger: LedgerReads,
    private readonly booking: InvoiceBookingService,
    private readonly entities: EntitiesService,
    private readonly reference: ReferenceDataService,
  ) {}

  /** D93: every invoice of the filter (no cursor), newest first, streamed from a database cursor. */
  private async exportInvoices(entityId: string, query: InvoicePageQuery, format: FileFormat, res: Response): Promise<void> {
    await streamJson(res, (signal) =>
      this.invoices.streamAll(entityId, query, signal, async (batches) => {
        const entity = (await this.entities.get(entityId)).snapshot();
        const exponentOf = (currency: string) => this.reference.findCurrency(currency)?.minorUnits ?? 0;
        await sendListExport(res, format, batches, (batch) => batch.map(presentInvoice), { fileName: exportFileName('invoices', entity.taxId, query), sheetName: 'invoices', columns: invoiceColumns(exponentOf) });
      }),
    );
  }

  /** D64: detail, PATCH and the DTE link routes answer the invoice with its entry. */
  private async detail(entityId: string, view: InvoiceView): Promise<InvoiceDetailResponse> {
    const entryId = view.invoice.ledgerEntryId;
    return { ...presentInvoice(view), entry: entryId === null ? null : await this.ledger.entryWithLines(entityId, entryId) };
  }

  @Get()
  @HeavyExport()
  @ApiExportable()
  @ApiOkResponse({ type: InvoiceResponse, isArray: true, description: 'Every invoice matching the filters, newest issue date first; D93 exports: a row per invoice, streamed' })
  @ApiTooManyRequestsResponse({ description: 'TOO_MANY_CONCURRENT_READS_ERROR (exports only, D2a)' })
  async list(@Param('entityId') entityId: string, @Query() query: InvoiceListQuery, @Res() res: Response): Promise<void> {
    const format = fileFormat(query.format);
    if (format) return this.exportInvoices(entityId, query, format, res);
    res.status(200).json((await this.invoices.list(entityId, query)).map(presentInvoice));
  }

  /** Declared before `:invoiceId` so that `/pages` is not read as an id. */
  @Get('pages')
  @HeavyExport()
  @ApiExportable()
  @ApiOkResponse({ type: InvoicePageResponse, description: 'Keyset page, newest issue date first; D93 exports: every invoice of the filter (no cursor), a row each, streamed' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR (a filter, the cursor or the limit)' })
  @ApiTooManyRequestsResponse({ description: 'TOO_MANY_CONCURRENT_READS_ERROR (exports only, D2a)' })
  async pages(@Param('entityId') entityId: string, @Query() query: InvoicePageQuery, @Res() res: Response): Promise<void> {
    const format = fileFormat(query.format);
    if (format) return this.exportInvoices(entityId, query, format, res);
    const page = await this.invoices.page(entityId, query);
    const body: InvoicePageResponse = { rows: page.rows.map(presentInvoice), nextCursor: page.nextCursor };
    res.status(200).json(body);
  }

  @Post()
  @Audit('invoice.create', 'invoice')
  @ApiCreatedResponse({ type: InvoiceDetailResponse, description: 'The new invoice, unbooked (entry null)' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR: totals that do not add up, a foreign currency without exchangeRate, ...' })
  @ApiNotFoundResponse({ description: 'PARTNER_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'INVOICE_ALREADY_EXISTS_ERROR or INVOICE_DOCUMENT_NUMBER_ALREADY_EXISTS_ERROR' })
  async create(@Param('entityId') entityId: string, @Body() body: CreateInvoiceBody): Promise<InvoiceDetailResponse> {
    const view = await this.invoices.create(entityId, {
      ...body,
      dueDate: body.dueDate ?? null,
      exchangeRate: body.exchangeRate ?? null,
      exemptAmount: body.exemptAmount ?? 0,
      taxAmount: body.taxAmount ?? 0,
      servicePeriodStart: body.servicePeriodStart ?? null,
      servicePeriodEnd: body.servicePeriodEnd ?? null,
      description: body.description ?? null,
    });
    // The detail's shape (D64), `entry` null: a new invoice is unbooked.
    return { ...presentInvoice(view), entry: null };
  }

  @Get(':invoiceId')
  @ApiOkResponse({ type: InvoiceDetailResponse, description: 'The invoice with its DTE and its booked entry (or null)' })
  @ApiNotFoundResponse({ description: 'INVOICE_NOT_FOUND_ERROR' })
  async get(@Param('entityId') entityId: string, @Param('invoiceId') invoiceId: string): Promise<InvoiceDetailResponse> {
    return this.detail(entityId, await this.invoices.get(entityId, invoiceId));
  }

  @Patch(':invoiceId')
  @Audit('invoice.update', 'invoice')
  @ApiOkResponse({ type: InvoiceDetailResponse, description: 'The updated invoice with its entry' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR (also for naming id or direction, D61a)' })
  @ApiNotFoundResponse({ description: 'INVOICE_NOT_FOUND_ERROR or PARTNER_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'INVOICE_BOOKED_ERROR, INVOICE_DOCUMENT_NUMBER_ALREADY_EXISTS_ERROR or DTE_INVOICE_MISMATCH_ERROR' })
  async update(@Param('entityId') entityId: string, @Param('invoiceId') invoiceId: string, @Body() body: UpdateInvoiceBody): Promise<InvoiceDetailResponse> {
    if (Object.keys(body).length === 0) throw validationError('body', 'must name at least one field');
    return this.detail(entityId, await this.invoices.update(entityId, invoiceId, body));
  }

  @Delete(':invoiceId')
  @HttpCode(204)
  @Audit('invoice.delete', 'invoice')
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ description: 'INVOICE_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'INVOICE_BOOKED_ERROR' })
  async delete(@Param('entityId') entityId: string, @Param('invoiceId') invoiceId: string, @NoBody() _body: unknown): Promise<void> {
    await this.invoices.delete(entityId, invoiceId);
  }

  @Put(':invoiceId/dte')
  @Audit('invoice.dte.link', 'invoice')
  @ApiOkResponse({ type: InvoiceDetailResponse, description: 'The invoice with its linked DTE' })
  @ApiNotFoundResponse({ description: 'INVOICE_NOT_FOUND_ERROR or DTE_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'DTE_ALREADY_LINKED_ERROR or DTE_INVOICE_MISMATCH_ERROR (checked in that order)' })
  async linkDte(@Param('entityId') entityId: string, @Param('invoiceId') invoiceId: string, @Body() body: LinkDteBody): Promise<InvoiceDetailResponse> {
    return this.detail(entityId, await this.invoices.linkDte(entityId, invoiceId, body.dteId));
  }

  @Delete(':invoiceId/dte')
  @Audit('invoice.dte.unlink', 'invoice')
  @ApiOkResponse({ type: InvoiceDetailResponse, description: 'The invoice without a DTE (the DTE stays imported)' })
  @ApiNotFoundResponse({ description: 'INVOICE_NOT_FOUND_ERROR' })
  async unlinkDte(@Param('entityId') entityId: string, @Param('invoiceId') invoiceId: string, @NoBody() _body: unknown): Promise<InvoiceDetailResponse> {
    return this.detail(entityId, await this.invoices.unlinkDte(entityId, invoiceId));
  }

  @Post(':invoiceId/book')
  @HttpCode(200)
  // The booking runs its own transaction and inserts the audit row in its last statement.
  @Audit('invoice.book', 'invoice', { ownTransaction: true })
  @ApiOkResponse({ type: BookInvoiceResponse, description: 'The booked invoice and the entry posted for it (D62)' })
  @ApiBadRequestResponse({
    description:
      'VALIDATION_ERROR (also a missing default open-item account), INVOICE_COUNTER_ACCOUNT_REQUIRED_ERROR, INVOICE_TAX_ACCOUNT_REQUIRED_ERROR, LEDGER_ENTRY_LINE_COUNT_ERROR',
  })
  @ApiNotFoundResponse({ description: 'INVOICE_NOT_FOUND_ERROR, LEDGER_ACCOUNT_NOT_FOUND_ERROR, PARTNER_NOT_FOUND_ERROR, DIMENSION_VALUE_NOT_FOUND_ERROR, BOOK_NOT_FOUND_ERROR' })
  @ApiConflictResponse({
    description: 'INVOICE_ALREADY_BOOKED_ERROR, LEDGER_ENTRY_ALREADY_EXISTS_ERROR, LEDGER_PERIOD_LOCKED_ERROR, LEDGER_ENTRY_DATE_IN_FUTURE_ERROR, LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR',
  })
  async book(@Param('entityId') entityId: string, @Param('invoiceId') invoiceId: string, @Body() body: BookInvoiceBody): Promise<BookInvoiceResponse> {
    const { invoice, entry } = await this.booking.book(entityId, invoiceId, body);
    return { invoice: presentInvoice(invoice), entry: await this.ledger.presentPosted(entityId, entry) };
  }
}
