import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { NoBody } from '../../../../platform/http/validation';
import { HeavyExport, HeavyRead } from '../../../../platform/http/heavy-reads';
import { ApiExportable, fileFormat, sendListExport } from '../../../../platform/exports/export-response';
import { exportFileName, type FileFormat } from '../../../../platform/exports/table';
import { EntitiesService } from '../../../entities';
import { ReferenceDataService } from '../../../reference';
import { entryColumns, lineColumns } from './entry-exports';
import { streamJson, streamJsonArray } from '../../../../platform/http/json-stream';
import { Authenticated } from '../../../../platform/auth/decorators';
import { LedgerClosings } from '../../application/closings/closings';
import { EditEntry } from '../../application/edit-entry/edit-entry';
import { EntryQueries } from '../../application/entry-queries/entry-queries';
import { LineEdits } from '../../application/line-edits/line-edits';
import { ReverseEntry } from '../../application/reverse-entry/reverse-entry';
import { ScheduledEntries } from '../../application/scheduled-entries/scheduled-entries';
import { UnbookEntry } from '../../application/unbook-entry/unbook-entry';
import { ledgerRouteFieldPath } from '../../application/post-entry/field-paths';
import { LedgerPostings } from '../../application/post-entry/ledger-postings';
import { LedgerEntryBatches } from '../import/entry-batches';
import { validationError } from '../../domain/ledger-errors';
import {
  CreateEntryBody,
  EditEntryBody,
  EntriesPageResponse,
  EntriesQuery,
  EntryDetailResponse,
  EntryResponse,
  LineAccountBody,
  LineDimensionValuesBody,
  LinePartnerBody,
  LinesQuery,
  ListedLineResponse,
  EntryBatchBody,
  EntryBatchResponse,
  ReplaceScheduledBody,
  ReversalResponse,
  ReverseEntryBody,
  UnbookResponse,
  relatedResponse,
  severedResponse,
} from './entries.dto';
import { EntryPresenter } from './entry-presenter';

const POSTING_400 =
  'VALIDATION_ERROR, LEDGER_ENTRY_UNBALANCED_ERROR, LEDGER_ENTRY_LINE_COUNT_ERROR, LEDGER_LINE_TRANSACTION_AMOUNT_MISMATCH_ERROR, LEDGER_LINE_DUPLICATE_DIMENSION_ERROR';
const POSTING_404 = 'LEDGER_ACCOUNT_NOT_FOUND_ERROR, PARTNER_NOT_FOUND_ERROR, DIMENSION_VALUE_NOT_FOUND_ERROR, BOOK_NOT_FOUND_ERROR';

@ApiTags('ledger entries')
@Authenticated()
@Controller('entities/:entityId/ledger')
export class EntriesController {
  constructor(
    private readonly queries: EntryQueries,
    private readonly edits: EditEntry,
    private readonly reversal: ReverseEntry,
    private readonly unbooking: UnbookEntry,
    private readonly scheduled: ScheduledEntries,
    private readonly lineEdits: LineEdits,
    private readonly postings: LedgerPostings,
    private readonly present: EntryPresenter,
    private readonly batches: LedgerEntryBatches,
    private readonly closings: LedgerClosings,
    private readonly entities: EntitiesService,
    private readonly reference: ReferenceDataService,
  ) {}

  /** D93: a list's file name (the list, the Entity's taxId, the range) and its amounts' exponents. */
  private async file(entityId: string, list: string, range: { from?: string; to?: string }) {
    const entity = (await this.entities.get(entityId)).snapshot();
    const exponentOf = (currency: string) => this.reference.findCurrency(currency)?.minorUnits ?? 0;
    return { fileName: exportFileName(list, entity.taxId, range), exponent: exponentOf(entity.currency), exponentOf };
  }

  /** D93: the entries list's whole filtered range (no cursor), streamed from a database cursor. */
  private async exportEntries(entityId: string, query: EntriesQuery, format: FileFormat, res: Response): Promise<void> {
    await streamJson(res, (signal) =>
      this.queries.streamEntries(entityId, query, signal, async (batches) => {
        const { fileName, exponent } = await this.file(entityId, 'ledger-entries', query);
        await sendListExport(res, format, batches, (batch) => this.present.entries(entityId, batch), { fileName, sheetName: 'ledger entries', columns: entryColumns(exponent) });
      }),
    );
  }

  @Get('entries')
  @HeavyExport()
  @ApiExportable()
  @ApiOkResponse({
    type: EntriesPageResponse,
    description: 'Newest first by (entryDate, id), keyset pages; live entries by default (D37). D93 exports: every entry of the filter (no cursor), a row each with lineCount, debit and credit',
  })
  @ApiTooManyRequestsResponse({ description: 'TOO_MANY_CONCURRENT_READS_ERROR (exports only, D2a)' })
  async list(@Param('entityId') entityId: string, @Query() query: EntriesQuery, @Res() res: Response): Promise<void> {
    const format = fileFormat(query.format);
    if (format) return this.exportEntries(entityId, query, format, res);
    const page = await this.queries.list(entityId, query);
    const body: EntriesPageResponse = { entries: await this.present.entries(entityId, page.entries), nextCursor: page.nextCursor };
    res.status(200).json(body);
  }

  @Get('entries/:entryId')
  @ApiOkResponse({ type: EntryDetailResponse, description: 'The entry with lines, related invoices and bank movements, allocations, and the closing that posted it (D90)' })
  @ApiNotFoundResponse({ description: 'LEDGER_ENTRY_NOT_FOUND_ERROR' })
  async get(@Param('entityId') entityId: string, @Param('entryId') entryId: string): Promise<EntryDetailResponse> {
    const { entry, allocations, related } = await this.queries.get(entityId, entryId);
    return {
      ...(await this.present.entry1(entityId, entry)),
      ...relatedResponse(related),
      closingId: entry.snapshot().source === 'closing' ? await this.closings.closingIdOfEntry(entityId, entryId) : null,
      allocations: allocations.map((a) => this.present.allocation(a)),
    };
  }

  @Post('entries')
  @Audit('ledger_entry.create', 'ledger_entry', { singleStatement: true })
  @ApiCreatedResponse({ type: EntryResponse, description: 'The posted entry with its lines' })
  @ApiBadRequestResponse({ description: POSTING_400 })
  @ApiNotFoundResponse({ description: POSTING_404 })
  @ApiConflictResponse({
    description:
      'LEDGER_ENTRY_ALREADY_EXISTS_ERROR, LEDGER_LINE_ALREADY_EXISTS_ERROR, LEDGER_ENTRY_DATE_IN_FUTURE_ERROR, LEDGER_PERIOD_LOCKED_ERROR, LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR',
  })
  async create(@Param('entityId') entityId: string, @Body() body: CreateEntryBody): Promise<EntryResponse> {
    const entry = await this.postings.post(entityId, { ...body, source: 'manual', lines: body.newLedgerEntryLines }, { fieldPath: ledgerRouteFieldPath });
    return this.present.entry1(entityId, entry);
  }

  @Post('entry-batches')
  // One audit row per entry written (the request's row is their template), in the batch's statement.
  @Audit('ledger_entry.create', 'ledger_entry', { singleStatement: true })
  @ApiCreatedResponse({ type: EntryBatchResponse, description: 'Every entry of the batch posted (or already in the books by id, skipped), or none' })
  @ApiBadRequestResponse({
    description:
      'VALIDATION_ERROR: the batch is refused whole; params.errors names the first 100 refused entries as { index, path (entries[i]...), code, message }, the code being what POST .../ledger/entries answers for that entry',
  })
  async postBatch(@Param('entityId') entityId: string, @Body() body: EntryBatchBody): Promise<EntryBatchResponse> {
    const batch = await this.batches.post(entityId, body.entries);
    return { postedEntries: batch.postedEntries, postedLines: batch.postedLines, skippedEntries: batch.skippedEntryIds.length, skippedEntryIds: batch.skippedEntryIds };
  }

  @Patch('entries/:entryId')
  @Audit('ledger_entry.edit', 'ledger_entry')
  @ApiOkResponse({ type: EntryResponse, description: 'The entry with its new header' })
  @ApiNotFoundResponse({ description: 'LEDGER_ENTRY_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'LEDGER_ENTRY_NOT_LIVE_ERROR, LEDGER_PERIOD_LOCKED_ERROR, LEDGER_ENTRY_DATE_IN_FUTURE_ERROR, LEDGER_REVERSAL_DATE_INVALID_ERROR' })
  async edit(@Param('entityId') entityId: string, @Param('entryId') entryId: string, @Body() body: EditEntryBody): Promise<EntryResponse> {
    if (Object.keys(body).length === 0) throw validationError('body', 'must name at least one of entryDate, memo, notes');
    return this.present.entry1(entityId, await this.edits.editHeader(entityId, entryId, body));
  }

  @Post('entries/:entryId/reverse')
  @Audit('ledger_entry.reverse', 'ledger_entry')
  @ApiCreatedResponse({ type: ReversalResponse, description: 'The mirror entry and the reversed original (D36)' })
  @ApiNotFoundResponse({ description: 'LEDGER_ENTRY_NOT_FOUND_ERROR' })
  @ApiConflictResponse({
    description: 'LEDGER_ENTRY_NOT_REVERSIBLE_ERROR, LEDGER_REVERSAL_DATE_INVALID_ERROR, LEDGER_PERIOD_LOCKED_ERROR, LEDGER_ENTRY_ALREADY_EXISTS_ERROR',
  })
  async reverse(@Param('entityId') entityId: string, @Param('entryId') entryId: string, @Body() body: ReverseEntryBody): Promise<ReversalResponse> {
    const result = await this.reversal.reverse(entityId, entryId, body);
    const [reversalEntry, reversedEntry, ...settledChainEntries] = await this.present.entries(entityId, [
      result.reversalEntry,
      result.reversedEntry,
      ...result.settledChainEntries,
    ]);
    return { reversalEntry, reversedEntry, ...severedResponse(result.severed), settledChainEntries };
  }

  @Delete('entries/:entryId')
  @Audit('ledger_entry.unbook', 'ledger_entry')
  @ApiOkResponse({
    type: UnbookResponse,
    description:
      'The unbooked entry and what it severed; settled chain entries: the original of an unbooked reversal (active again, booking again the documents its reversal severed; those booked by another entry since, or invoices edited since, stay as they are and are listed as severed with the original as entryId), or the reversal of an unbooked original (deleted with it)',
  })
  @ApiNotFoundResponse({ description: 'LEDGER_ENTRY_NOT_FOUND_ERROR' })
  @ApiConflictResponse({
    description:
      'LEDGER_ENTRY_NOT_LIVE_ERROR, LEDGER_PERIOD_LOCKED_ERROR',
  })
  async unbook(@Param('entityId') entityId: string, @Param('entryId') entryId: string, @NoBody() _body: unknown): Promise<UnbookResponse> {
    const result = await this.unbooking.unbook(entityId, entryId);
    const [unbookedEntry, ...settledChainEntries] = await this.present.entries(entityId, [result.unbookedEntry, ...result.settledChainEntries]);
    return { unbookedEntry, ...severedResponse(result.severed), settledChainEntries };
  }

  @Post('scheduled-entries')
  @Audit('scheduled_entry.create', 'ledger_entry', { singleStatement: true })
  @ApiCreatedResponse({ type: EntryResponse, description: 'The scheduled entry with its lines' })
  @ApiBadRequestResponse({ description: `${POSTING_400}; transaction-currency lines are refused` })
  @ApiNotFoundResponse({ description: POSTING_404 })
  @ApiConflictResponse({ description: 'LEDGER_SCHEDULED_ENTRY_DATE_NOT_FUTURE_ERROR, LEDGER_ENTRY_ALREADY_EXISTS_ERROR, LEDGER_LINE_ALREADY_EXISTS_ERROR, LEDGER_PERIOD_LOCKED_ERROR' })
  async createScheduled(@Param('entityId') entityId: string, @Body() body: CreateEntryBody): Promise<EntryResponse> {
    const entry = await this.postings.schedule(entityId, { ...body, lines: body.newLedgerEntryLines }, { fieldPath: ledgerRouteFieldPath });
    return this.present.entry1(entityId, entry);
  }

  @Post('scheduled-entries/:entryId/book')
  @HttpCode(200)
  @Audit('scheduled_entry.book', 'ledger_entry')
  @ApiOkResponse({ type: EntryResponse, description: 'The booked entry (status active)' })
  @ApiNotFoundResponse({ description: 'LEDGER_ENTRY_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'LEDGER_SCHEDULED_ENTRY_NOT_DUE_ERROR, LEDGER_ENTRY_NOT_SCHEDULED_ERROR' })
  async book(@Param('entityId') entityId: string, @Param('entryId') entryId: string, @NoBody() _body: unknown): Promise<EntryResponse> {
    return this.present.entry1(entityId, await this.scheduled.bookScheduled(entityId, entryId));
  }

  @Patch('scheduled-entries/:entryId')
  @Audit('scheduled_entry.replace', 'ledger_entry')
  @ApiOkResponse({ type: EntryResponse, description: 'The scheduled entry with its new date, texts and line set' })
  @ApiBadRequestResponse({ description: POSTING_400 })
  @ApiNotFoundResponse({ description: `LEDGER_ENTRY_NOT_FOUND_ERROR, ${POSTING_404}` })
  @ApiConflictResponse({ description: 'LEDGER_ENTRY_NOT_SCHEDULED_ERROR, LEDGER_SCHEDULED_ENTRY_DATE_NOT_FUTURE_ERROR, LEDGER_LINE_ALREADY_EXISTS_ERROR, LEDGER_PERIOD_LOCKED_ERROR' })
  async replaceScheduled(@Param('entityId') entityId: string, @Param('entryId') entryId: string, @Body() body: ReplaceScheduledBody): Promise<EntryResponse> {
    const entry = await this.scheduled.replaceScheduled(entityId, entryId, { ...body, lines: body.newLedgerEntryLines }, { fieldPath: ledgerRouteFieldPath });
    return this.present.entry1(entityId, entry);
  }

  @Delete('scheduled-entries/:entryId')
  @Audit('scheduled_entry.cancel', 'ledger_entry')
  @ApiOkResponse({ type: EntryResponse, description: 'The cancelled entry' })
  @ApiNotFoundResponse({ description: 'LEDGER_ENTRY_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'LEDGER_ENTRY_NOT_SCHEDULED_ERROR' })
  async cancel(@Param('entityId') entityId: string, @Param('entryId') entryId: string, @NoBody() _body: unknown): Promise<EntryResponse> {
    return this.present.entry1(entityId, await this.scheduled.cancelScheduled(entityId, entryId));
  }

  @Get('lines')
  @ApiExportable()
  @ApiOkResponse({ type: ListedLineResponse, isArray: true, description: 'Lines with their entry date, memo, status and Book; live by default (D38). D93 exports: the same lines, the side as debit and credit' })
  @ApiTooManyRequestsResponse({ description: 'TOO_MANY_CONCURRENT_READS_ERROR: heavy reads at once beyond HEAVY_READS_PER_USER or HEAVY_READS_TOTAL (D2a), with Retry-After' })
  @HeavyRead()
  async lines(@Param('entityId') entityId: string, @Query() query: LinesQuery, @Res() res: Response): Promise<void> {
    const format = fileFormat(query.format);
    if (format) {
      await streamJson(res, (signal) =>
        this.queries.streamLines(entityId, query, signal, async (batches) => {
          const { fileName, exponent, exponentOf } = await this.file(entityId, 'ledger-lines', query);
          await sendListExport(res, format, batches, (batch) => this.present.lines(entityId, batch), { fileName, sheetName: 'ledger lines', columns: lineColumns(exponent, exponentOf) });
        }),
      );
      return;
    }
    await streamJsonArray(res, (signal, send) =>
      this.queries.streamLines(entityId, query, signal, (batches) => send(batches, (lines) => this.present.lines(entityId, lines))),
    );
  }

  @Patch('lines/:lineId/partner')
  @Audit('ledger_line.set_partner', 'ledger_line')
  @ApiOkResponse({ type: ListedLineResponse, description: 'The line with its new partner' })
  @ApiNotFoundResponse({ description: 'LEDGER_LINE_NOT_FOUND_ERROR or PARTNER_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'LEDGER_ENTRY_NOT_LIVE_ERROR or LEDGER_PERIOD_LOCKED_ERROR' })
  async setPartner(@Param('entityId') entityId: string, @Param('lineId') lineId: string, @Body() body: LinePartnerBody): Promise<ListedLineResponse> {
    return (await this.present.lines(entityId, [await this.lineEdits.setLinePartner(entityId, lineId, body.partnerId)]))[0];
  }

  @Patch('lines/:lineId/account')
  @Audit('ledger_line.set_account', 'ledger_line')
  @ApiOkResponse({ type: ListedLineResponse, description: 'The line on its new account, with named dimension values' })
  @ApiNotFoundResponse({ description: 'LEDGER_LINE_NOT_FOUND_ERROR or LEDGER_ACCOUNT_NOT_FOUND_ERROR' })
  @ApiConflictResponse({
    description:
      'LEDGER_LINE_HAS_ALLOCATIONS_ERROR, LEDGER_LINE_DOCUMENT_LINKED_ERROR, LEDGER_ENTRY_NOT_LIVE_ERROR, LEDGER_PERIOD_LOCKED_ERROR, LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR',
  })
  async setAccount(@Param('entityId') entityId: string, @Param('lineId') lineId: string, @Body() body: LineAccountBody): Promise<ListedLineResponse> {
    return (await this.present.lines(entityId, [await this.lineEdits.setLineAccount(entityId, lineId, body.ledgerAccountId)]))[0];
  }

  @Put('lines/:lineId/dimension-values')
  @Audit('ledger_line.set_dimension_values', 'ledger_line')
  @ApiOkResponse({ type: ListedLineResponse, description: 'The line with its new tags' })
  @ApiBadRequestResponse({ description: 'LEDGER_LINE_DUPLICATE_DIMENSION_ERROR or VALIDATION_ERROR' })
  @ApiNotFoundResponse({ description: 'LEDGER_LINE_NOT_FOUND_ERROR or DIMENSION_VALUE_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR, LEDGER_ENTRY_NOT_LIVE_ERROR, LEDGER_PERIOD_LOCKED_ERROR' })
  async setDimensionValues(
    @Param('entityId') entityId: string,
    @Param('lineId') lineId: string,
    @Body() body: LineDimensionValuesBody,
  ): Promise<ListedLineResponse> {
    return (await this.present.lines(entityId, [await this.lineEdits.setLineDimensionValues(entityId, lineId, body.dimensionValueIds)]))[0];
  }
}
