import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { Authenticated } from '../../../../platform/auth/decorators';
import { EntryPresenter } from '../../../ledger';
import { BankBookingService } from '../../application/bank-booking.service';
import { openAmount } from '../../domain/matching';
import { BookingResponse, BookMovementBody, CandidateResponse, CandidatesQuery, MatchMovementBody, MovementMatchResponse } from './banking.dto';
import { presentMovement } from './presenters';

@ApiTags('bank movements')
@Authenticated()
@Controller('entities/:entityId/bank-movements/:movementId')
export class BankBookingController {
  constructor(
    private readonly booking: BankBookingService,
    private readonly entries: EntryPresenter,
  ) {}

  @Post('book')
  @HttpCode(200)
  @Audit('bank_movement.book', 'bank_movement', { ownTransaction: true })
  @ApiOkResponse({ type: BookingResponse, description: 'The movement booked: bank account against the counter account, dated the movement date' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR, or a refusal of the posting (paths named as in this body)' })
  @ApiNotFoundResponse({ description: 'BANK_MOVEMENT_NOT_FOUND_ERROR, LEDGER_ACCOUNT_NOT_FOUND_ERROR, PARTNER_NOT_FOUND_ERROR, BOOK_NOT_FOUND_ERROR, DIMENSION_VALUE_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'BANK_MOVEMENT_ALREADY_BOOKED_ERROR, LEDGER_ENTRY_ALREADY_EXISTS_ERROR, a lock-date or entry-date refusal of the ledger' })
  async book(@Param('entityId') entityId: string, @Param('movementId') movementId: string, @Body() body: BookMovementBody): Promise<BookingResponse> {
    const { movement, entry } = await this.booking.book(entityId, movementId, body);
    return { movement: presentMovement(movement), entry: await this.entries.entry1(entityId, entry) };
  }

  @Post('match')
  @Audit('bank_movement.match', 'bank_movement')
  @ApiCreatedResponse({ type: MovementMatchResponse, description: 'The movement posted against the open-item account of the lines and allocated to them oldest first' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR' })
  @ApiNotFoundResponse({ description: 'BANK_MOVEMENT_NOT_FOUND_ERROR, RECONCILIATION_MATCH_LINE_NOT_FOUND_ERROR, BOOK_NOT_FOUND_ERROR' })
  @ApiConflictResponse({
    description:
      'BANK_MOVEMENT_ALREADY_BOOKED_ERROR, BANK_MOVEMENT_MATCH_AMOUNT_MISMATCH_ERROR, RECONCILIATION_MATCH_LINES_ON_DIFFERENT_ACCOUNTS_ERROR, RECONCILIATION_MATCH_LINES_IN_DIFFERENT_BOOKS_ERROR, RECONCILIATION_ALLOCATION_ACCOUNT_MUST_BE_OPEN_ITEM_ERROR, LEDGER_ENTRY_NOT_LIVE_ERROR, LEDGER_ENTRY_ALREADY_EXISTS_ERROR',
  })
  async match(@Param('entityId') entityId: string, @Param('movementId') movementId: string, @Body() body: MatchMovementBody): Promise<MovementMatchResponse> {
    const { movement, entry, allocations } = await this.booking.match(entityId, movementId, body);
    return { movement: presentMovement(movement), entry: await this.entries.entry1(entityId, entry), allocations: allocations.map((a) => this.entries.allocation(a)) };
  }

  @Get('match-candidates')
  @ApiOkResponse({ type: CandidateResponse, isArray: true, description: 'Unsettled open-item lines on the movement side, best first: equal amount, partner RUT, folio or reference, date proximity' })
  @ApiNotFoundResponse({ description: 'BANK_MOVEMENT_NOT_FOUND_ERROR or BOOK_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'BOOK_REQUIRED_ERROR' })
  async candidates(@Param('entityId') entityId: string, @Param('movementId') movementId: string, @Query() query: CandidatesQuery): Promise<CandidateResponse[]> {
    const { candidates } = await this.booking.candidates(entityId, movementId, query);
    return candidates.map(({ line, reasons }) => ({
      id: line.id,
      lineId: line.id,
      entryId: line.entryId,
      entryDate: line.entryDate,
      memo: line.memo,
      description: line.description,
      ledgerAccountId: line.ledgerAccountId,
      side: line.side,
      amount: line.amount,
      openAmount: openAmount(line),
      partnerId: line.partnerId,
      bookId: line.bookId,
      equalAmount: reasons.equalAmount,
      partnerTaxIdMatch: reasons.partnerTaxId,
      folioOrReferenceMatch: reasons.folioOrReference,
      daysApart: reasons.daysApart,
    }));
  }
}
