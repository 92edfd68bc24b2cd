import { Injectable } from '@nestjs/common';
import { exactAmounts, validationError } from '../../../../libs/shared-kernel/src';
import { LedgerBookReads, ledgerAccountNotFound, splitBefore, splitRange, type BookLineRow, type BookSpans, type JournalFilter } from '../../ledger';
import { ReportQueries } from '../infrastructure/persistence/report-queries';
import { journalRow, type JournalRow } from './journal-rows';
import { withRunningBalance } from './running-balance';
import { ReportsService, type Scope } from './reports.service';

export type { JournalRow } from './journal-rows';

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

/** D55's line. */
export interface LedgerLine {
  lineId: string;
  entryId: string;
  entryDate: string;
  memo: string;
  side: string;
  amount: number;
  partnerId: string | null;
  description: string | null;
  runningBalance: number;
}

/** An account of the Libro Mayor before its lines. */
export interface BookAccount {
  accountId: string;
  code: string;
  name: string;
  openingBalance: number;
  closingBalance: number;
}

/** The Libro Mayor as its writers take it: the head, then per account its figures and its lines in batches. */
export interface GeneralLedgerBookStream {
  head: { from: string; to: string; currency: string; bookId: string | null };
  accounts: AsyncIterable<{
    account: BookAccount;
    lines: AsyncIterable<LedgerLine[]>;
    /** Instead of `lines`: the lines as CSV written by the database, `selectList` over D55's fields (`$7`, `$8`, `$9`: the account's id, code and name). */
    csvLines: (selectList: string) => AsyncIterable<Buffer>;
  }>;
}

const FAR_PAST = '0001-01-01';
const FAR_FUTURE = '9999-12-31';

function checkRange(from: string | undefined, to: string | undefined): void {
  if (from && to && to < from) throw validationError('to', 'must be on or after from');
}

/** The lines of `batches` with the balance after each (D55: debit-positive), from `start`. */
async function* withBatchesRunningBalance(batches: AsyncIterable<BookLineRow[]>, start: bigint): AsyncGenerator<LedgerLine[]> {
  let running = start;
  for await (const rows of batches) {
    yield withRunningBalance(rows, running, (r, runningBalance) => {
      running = runningBalance;
      return { partnerId: r.partner_id as string | null, description: r.description as string | null, runningBalance: Number(runningBalance) };
    });
  }
}

/** The spans of BookSpans for [from, to]. */
function spansOf(from: string, to: string): BookSpans {
  const before = splitBefore(from);
  const range = splitRange(from, to);
  return {
    monthsBefore: before.monthsBefore,
    openingDays: before.days,
    months: range.months ?? { first: '9999-12-01', last: '0001-01-01' },
    rangeDays: range.days,
  };
}

/**
 * D6a before the first byte: every running balance of an account lies within |opening| plus the
 * amounts it moves, so when that bound fits in JSON every figure streamed will too.
 */
function refuseInexact(field: string, opening: bigint, debit: bigint, credit: bigint): void {
  const bound = (opening < 0n ? -opening : opening) + debit + credit;
  if (bound > MAX_EXACT) exactAmounts({ [field]: bound });
}

/**
 * The books read whole and streamed (D2a, D93): the Libro Diario (the journal's every row of a
 * filter), one account's general ledger lines over a range, and the Libro Mayor (every account
 * with lines in a range, its opening balance, lines with running balance and closing balance).
 * Every refusal (the range, the Book, the account, D6a) comes before the first byte.
 */
@Injectable()
export class LedgerBooksService {
  constructor(
    private readonly reports: ReportsService,
    private readonly queries: ReportQueries,
    private readonly books: LedgerBookReads,
  ) {}

  /** D54, every row of the filter (no cursor): the Libro Diario. */
  async streamJournal(
    entityId: string,
    query: JournalFilter & { bookId?: string },
    signal: AbortSignal,
    send: (scope: Scope, rows: AsyncIterable<JournalRow[]>, csv: (selectList: string) => AsyncIterable<Buffer>) => Promise<void>,
  ): Promise<void> {
    checkRange(query.from, query.to);
    const scope = await this.reports.scope(entityId, query.bookId);
    await this.books.read(signal, async (reader) => {
      const filter = { from: query.from, to: query.to, search: query.search };
      await send(
        scope,
        (async function* () {
          for await (const batch of reader.journal(entityId, scope.bookId, filter)) yield batch.map(journalRow);
        })(),
        (selectList) => reader.journalCsv(entityId, scope.bookId, filter, selectList),
      );
    });
  }

  /** D55's lines of one account over the range, every one (no cursor), with their running balance. */
  async streamGeneralLedgerLines(
    entityId: string,
    query: { accountId: string; from?: string; to?: string; bookId?: string },
    signal: AbortSignal,
    send: (scope: Scope, lines: AsyncIterable<LedgerLine[]>, csv: (selectList: string) => AsyncIterable<Buffer>) => Promise<void>,
  ): Promise<void> {
    checkRange(query.from, query.to);
    const scope = await this.reports.scope(entityId, query.bookId);
    if (!(await this.queries.account(entityId, query.accountId))) throw ledgerAccountNotFound({ accountId: query.accountId });
    await this.books.read(signal, async (reader) => {
      const from = query.from ?? FAR_PAST;
      const [head] = await reader.accountHeads(entityId, scope.bookId, spansOf(from, query.to ?? FAR_FUTURE), query.accountId);
      // No line in the range: no row (the opening balance only starts the running balance).
      const opening = head && query.from ? head.openingRaw : 0n;
      if (head) refuseInexact('runningBalance', opening, head.debit, head.credit);
      const none = async function* () {};
      const lines = head ? reader.accountLines(entityId, scope.bookId, query.accountId, query.from ?? null, query.to ?? null) : none();
      await send(scope, withBatchesRunningBalance(lines, opening), (selectList) =>
        head ? reader.accountLinesCsv(entityId, scope.bookId, query.accountId, query.from ?? null, query.to ?? null, opening, selectList) : none(),
      );
    });
  }

  /**
   * D93's Libro Mayor: `{ from, to, currency, bookId, accounts: [{ accountId, code, name,
   * openingBalance, lines, closingBalance }] }`, every account with a live line in the range, by
   * code; lines as D55's, balances debit-positive from inception (D50's raw balance).
   */
  async streamGeneralLedgerBook(entityId: string, query: { from: string; to: string; bookId?: string }, signal: AbortSignal, send: (book: GeneralLedgerBookStream) => Promise<void>): Promise<void> {
    checkRange(query.from, query.to);
    const scope = await this.reports.scope(entityId, query.bookId);
    await this.books.read(signal, async (reader) => {
      const heads = await reader.accountHeads(entityId, scope.bookId, spansOf(query.from, query.to));
      heads.forEach((h, i) => refuseInexact(`accounts[${i}].lines`, h.openingRaw, h.debit, h.credit));
      await send({
        head: { from: query.from, to: query.to, currency: scope.currency, bookId: scope.bookId },
        accounts: (async function* () {
          for (const h of heads) {
            const closing = h.openingRaw + h.debit - h.credit;
            yield {
              account: { accountId: h.accountId, code: h.code, name: h.name, openingBalance: Number(h.openingRaw), closingBalance: Number(closing) },
              lines: withBatchesRunningBalance(reader.accountLines(entityId, scope.bookId, h.accountId, query.from, query.to), h.openingRaw),
              csvLines: (selectList: string) => reader.accountLinesCsv(entityId, scope.bookId, h.accountId, query.from, query.to, h.openingRaw, selectList, [h.accountId, h.code, h.name]),
            };
          }
        })(),
      });
    });
  }
}
