import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { canonicalRut, convertMinorUnits, newId } from '../../../../libs/shared-kernel/src';
import { Clock } from '../../../platform/clock/clock';
import { type Allocation, BooksService, type FieldPath, LedgerAllocations, LedgerPostings, type PostedEntry } from '../../ledger';
import { AuditContext } from '../../../platform/audit/audit-context';
import type { AuditRecord } from '../../../platform/audit/audit-recorder';
import { ReferenceDataService } from '../../reference';
import { assertBookable, BankMovement, bookingLines, MovementConversion } from '../domain/bank-movement';
import { bankMovementMatchAmountMismatch, bankMovementNotFound } from '../domain/banking-errors';
import { judgeMatch, RankedCandidate, rankCandidates, rutsIn, tokensOf } from '../domain/matching';
import { BankAccountRepository, BankMovementRepository, ExchangeRates, InvoiceFolios, OpenLineReader } from './banking-ports';

export interface BookInput {
  entryId: string;
  counterAccountId: string;
  partnerId?: string | null;
  dimensionValueIds?: string[];
  memo?: string;
  bookId?: string | null;
}

export interface MatchInput {
  entryId: string;
  lineIds: string[];
  bookId?: string | null;
}

/** The booking body's names for the posting's fields (refusals name what the caller sent). */
const bookingFieldPath: FieldPath = (path) =>
  path
    .replace(/^lines\[1\]\.ledgerAccountId/, 'counterAccountId')
    .replace(/^lines\[1\]\.partnerId/, 'partnerId')
    .replace(/^lines\[1\]\.dimensionValueIds/, 'dimensionValueIds')
    .replace(/^id$/, 'entryId');

const matchFieldPath: FieldPath = (path) => path.replace(/^id$/, 'entryId');

const CANDIDATES_PER_CRITERION = 50;

/**
 * D66: booking and matching post the movement through the ledger's posting API and settle lines
 * through its allocation API with the movement's link to its entry. Matching runs in the use
 * case's one transaction with the movement row locked first; booking posts under the movement's
 * precondition (see book). Either way two bookings of one movement serialize: the second finds
 * it booked (409 BANK_MOVEMENT_ALREADY_BOOKED_ERROR).
 */
@Injectable()
export class BankBookingService {
  constructor(
    private readonly accounts: BankAccountRepository,
    private readonly movements: BankMovementRepository,
    private readonly lines: OpenLineReader,
    private readonly folios: InvoiceFolios,
    private readonly postings: LedgerPostings,
    private readonly allocations: LedgerAllocations,
    private readonly books: BooksService,
    private readonly rates: ExchangeRates,
    private readonly reference: ReferenceDataService,
    private readonly clock: Clock,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly auditContext: AuditContext,
  ) {}

  /**
   * Bank account against the counter account, for the movement amount, dated the movement date
   * (D76). As an invoice is booked (issue 33, InvoiceBookingService): outside a transaction (its
   * route) the movement is read unlocked, and the posting statement writes the entry, the
   * movement's link and the route's audit row only while the movement is still unbooked and
   * unchanged since that read, checked under its row lock (LedgerPostings.postIf); one round
   * trip. Should it have changed (another booking, a deletion, an unbooking), nothing is written
   * and the booking starts again in a transaction with the movement locked from the start, so the
   * second attempt decides (409 BANK_MOVEMENT_ALREADY_BOOKED_ERROR, 404). Inside a caller's
   * transaction it takes that locked way at once.
   */
  async book(entityId: string, movementId: string, input: BookInput): Promise<{ movement: BankMovement; entry: PostedEntry }> {
    const audit = this.auditContext.takeStatementRow(movementId);
    if (audit && !this.txHost.isTransactionActive()) {
      const booked = await this.attemptBooking(entityId, movementId, input, audit, false);
      if (booked) return booked;
    }
    return this.txHost.withTransaction(async () => (await this.attemptBooking(entityId, movementId, input, audit, true))!);
  }

  /** One booking attempt; null when the movement changed between its unlocked read and the posting (nothing written). */
  private async attemptBooking(
    entityId: string,
    movementId: string,
    input: BookInput,
    audit: AuditRecord | null,
    locked: boolean,
  ): Promise<{ movement: BankMovement; entry: PostedEntry } | null> {
    const read = await this.movements.readForBooking(entityId, movementId, locked);
    if (!read) throw bankMovementNotFound({ movementId });
    const { movement, ledgerAccountId, conversion } = await this.bookingTerms(read.movement);
    const now = this.clock.now();
    const posting = {
      id: input.entryId,
      source: 'bank_movement' as const,
      entryDate: movement.movementDate,
      memo: input.memo ?? movement.description,
      bookId: input.bookId ?? null,
      lines: bookingLines(
        movement,
        ledgerAccountId,
        { ledgerAccountId: input.counterAccountId, partnerId: input.partnerId ?? null, dimensionValueIds: input.dimensionValueIds ?? [] },
        conversion,
      ),
    };
    // The movement's link, written by the posting statement with the entry.
    const alongside = (entry: PostedEntry) => this.movements.bookingParts(movement, entry.id, now);
    const entry = locked
      ? await this.postings.post(entityId, posting, { fieldPath: bookingFieldPath, alongside, audit })
      : await this.postings.postIf(entityId, posting, { fieldPath: bookingFieldPath, alongside, audit, precondition: this.movements.bookingPrecondition(entityId, movementId, read.version) });
    return entry ? { movement: { ...movement, ledgerEntryId: entry.id, updatedAt: now }, entry } : null;
  }

  /**
   * Bank against the open-item account of the selected lines, then the new open-item line is
   * allocated to them oldest first (the ledger's match). The lines are judged before posting;
   * should an allocation racing this one have taken part of their open amount meanwhile (the
   * ledger's match locks them), the new line is not settled whole and the match is refused
   * whole: nothing is ever allocated past an open amount.
   */
  match(entityId: string, movementId: string, input: MatchInput): Promise<{ movement: BankMovement; entry: PostedEntry; allocations: Allocation[] }> {
    return this.txHost.withTransaction(async () => {
      const { movement, ledgerAccountId, conversion } = await this.bookable(entityId, movementId);
      // A Book not in the Entity is 404 before the lines are judged against it.
      if (input.bookId) await this.books.get(entityId, input.bookId);
      const selected = await this.lines.linesByIds(entityId, input.lineIds);
      const posted = conversion?.functionalAmount ?? movement.amount;
      const { accountId, partnerId } = judgeMatch(movement, input.lineIds, selected, input.bookId ?? null, posted);
      const openLineId = newId();
      const entry = await this.postings.post(
        entityId,
        {
          id: input.entryId,
          source: 'bank_movement',
          entryDate: movement.movementDate,
          memo: movement.description,
          bookId: input.bookId ?? null,
          lines: bookingLines(movement, ledgerAccountId, { id: openLineId, ledgerAccountId: accountId, partnerId }, conversion),
        },
        { fieldPath: matchFieldPath },
      );
      const { allocations } = await this.allocations.match(entityId, [...input.lineIds, openLineId]);
      const settled = allocations.filter((a) => a.debitLineId === openLineId || a.creditLineId === openLineId).reduce((sum, a) => sum + a.amount, 0);
      if (settled !== posted) throw bankMovementMatchAmountMismatch({ movementAmount: posted, openTotal: settled });
      const lines = entry.lines.map((l) => (l.id === openLineId ? { ...l, allocatedAmount: settled } : l));
      return { movement: await this.link(movement, entry.id), entry: { ...entry, lines }, allocations };
    });
  }

  /** Book-scoped (BOOK_REQUIRED_ERROR once the Entity has Books): the best `limit` lines to match. */
  async candidates(entityId: string, movementId: string, query: { bookId?: string; limit?: number }): Promise<{ movement: BankMovement; candidates: RankedCandidate[] }> {
    const movement = await this.movements.find(entityId, movementId);
    if (!movement) throw bankMovementNotFound({ movementId });
    const bookId = await this.books.resolve(entityId, query.bookId);
    const taxIds = [movement.counterpartyTaxId, ...rutsIn(`${movement.description} ${movement.reference ?? ''}`)].flatMap((t) => {
      const rut = t ? canonicalRut(t) : null;
      return rut ? [rut] : [];
    });
    const folioLineIds = await this.folios.openItemLinesByFolios(entityId, [...tokensOf(`${movement.description} ${movement.reference ?? ''}`)].filter((t) => /\d/.test(t)));
    const found = await this.lines.candidates(entityId, {
      side: movement.side,
      amount: movement.amount,
      date: movement.movementDate,
      bookId,
      taxIds: [...new Set(taxIds)],
      lineIds: [...folioLineIds],
      perCriterion: CANDIDATES_PER_CRITERION,
    });
    const ranked = rankCandidates(movement, found, { taxIds: new Set(taxIds), folioLineIds });
    return { movement, candidates: ranked.slice(0, query.limit ?? 20) };
  }

  /**
   * The movement, locked, unbooked; its bank account's ledger account; and, for an account in
   * another currency than the Entity's, the movement amount converted at its date's rate.
   */
  private async bookable(entityId: string, movementId: string): Promise<{ movement: BankMovement; ledgerAccountId: string; conversion: MovementConversion | null }> {
    const movement = await this.movements.lock(entityId, movementId);
    if (!movement) throw bankMovementNotFound({ movementId });
    return this.bookingTerms(movement);
  }

  /** The movement unbooked (else 409), its bank account's ledger account and conversion. */
  private async bookingTerms(movement: BankMovement): Promise<{ movement: BankMovement; ledgerAccountId: string; conversion: MovementConversion | null }> {
    const entityId = movement.entityId;
    assertBookable(movement);
    const account = (await this.accounts.find(entityId, movement.bankAccountId))!;
    const functional = await this.accounts.functionalCurrency(entityId);
    if (account.currency === functional) return { movement, ledgerAccountId: account.ledgerAccountId, conversion: null };
    const rate = await this.rates.rateOn(account.currency, movement.movementDate, functional);
    const exponent = (code: string) => this.reference.findCurrency(code)!.minorUnits;
    const functionalAmount = convertMinorUnits(movement.amount, rate, exponent(account.currency), exponent(functional));
    return { movement, ledgerAccountId: account.ledgerAccountId, conversion: { currency: account.currency, rate, functionalAmount } };
  }

  private async link(movement: BankMovement, entryId: string): Promise<BankMovement> {
    const now = this.clock.now();
    await this.movements.setEntry(movement.entityId, movement.id, entryId, now);
    return { ...movement, ledgerEntryId: entryId, updatedAt: now };
  }
}
