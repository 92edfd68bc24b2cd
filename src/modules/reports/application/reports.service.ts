import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Transactional } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { addDays, canonicalRate, compareText, exactAmounts, isIsoDate, isRate, isUuid, validationError } from '../../../../libs/shared-kernel/src';
import { EntitiesService } from '../../entities';
import { BooksService } from '../../ledger';
import { isResultType } from '../../ledger';
import { ledgerAccountNotFound, tooManyLines } from '../../ledger';
import { partnerNotFound } from '../../partners';
import type { RuntimeConfig } from '../../../platform/config/app-config';
import { ReferenceDataService } from '../../reference';
import { balanceSheet, Convert, eightColumnBalance, incomeStatement, presentationConverter } from '../domain/statements';
import { ReportQueries } from '../infrastructure/persistence/report-queries';
import { reportDimensionNotFound } from '../domain/report-errors';
import { journalRow } from './journal-rows';
import { withRunningBalance } from './running-balance';

export interface Presentation {
  presentationCurrency?: string;
  presentationRate?: string;
}

export interface Scope {
  bookId: string | null;
  currency: string;
  /** The Entity's ledger lock date as read (D90: every live closing entry is dated on or before it). */
  ledgerLockDate: string | null;
  presentation: { currency: string; rate: string } | null;
  convert: Convert;
}

export interface PartnerLedgerRequest {
  accountId: string;
  from: string;
  to: string;
  partnerIds?: string[];
  includeUnassigned?: boolean;
  bookId?: string;
}

/** Lines read from the cursor at a time. */
const PARTNER_LEDGER_BATCH = 250;

/** A line of the partner ledger (D56), its fields in the decision's order. */
export type PartnerLedgerLine = {
  lineId: string;
  entryId: string;
  entryDate: string;
  memo: string;
  side: string;
  amount: number;
  runningBalance: number;
  openAmount: number;
};

/** The partner ledger as the controller writes it: whole, or a head then per partner a group, its lines in batches and an end. */
export type PartnerLedgerStream =
  | { whole: Record<string, unknown> }
  | { head: Record<string, unknown>; partners: AsyncIterable<{ group: Record<string, unknown> } | { lines: PartnerLedgerLine[] } | { end: true }> };

/** D58: every report with a range refuses `to` before `from`. */
function checkRange(from: string, to: string, fromName = 'from', toName = 'to'): void {
  if (to < from) throw validationError(toName, `must be on or after ${fromName}`);
}

/** Journal cursor, in the spec's form `date~entryId~lineId`. */
function readJournalCursor(cursor: string): { entryDate: string; entryId: string; lineId: string } {
  const parts = cursor.split('~');
  const [entryDate, entryId, lineId] = parts;
  // Each part goes into the query: a date PostgreSQL refuses would be a 500.
  if (parts.length !== 3 || !isIsoDate(entryDate) || !isUuid(entryId) || !isUuid(lineId)) {
    throw validationError('cursor', 'must be date~entryId~lineId from a previous page');
  }
  return { entryDate, entryId: entryId.toLowerCase(), lineId: lineId.toLowerCase() };
}

/** What an income statement body says of itself before its sections (D52). */
function incomeStatementHeader(query: { from: string; to: string }, scope: Scope) {
  return { from: query.from, to: query.to, currency: scope.currency, bookId: scope.bookId, presentation: scope.presentation };
}

/**
 * A report's figures come from one state of the ledger. The balance sheet, income statement,
 * eight-column balance and journal read theirs in one SQL statement; a general ledger's lines,
 * line count and balances, a partner ledger's openings and lines, and the accounts and figures
 * of an income statement by dimension come from several, and a posting committed between two of
 * them made the report disagree with itself (two lines, `lineCount` 1). One REPEATABLE READ
 * transaction gives every statement the snapshot of the first; it only reads, so it never fails
 * for serialization.
 */
export const OneSnapshot = () => Transactional<TransactionalAdapterTypeOrm>({ isolationLevel: 'REPEATABLE READ' });

@Injectable()
export class ReportsService {
  constructor(
    private readonly queries: ReportQueries,
    private readonly books: BooksService,
    private readonly entities: EntitiesService,
    private readonly reference: ReferenceDataService,
    @Inject(ConfigService) private readonly config: ConfigService<RuntimeConfig, true>,
  ) {}

  /**
   * Book rules (spec "Books") and the presentation pair (D57), the same for every report. The
   * pair is request shape, so it is judged (400) before the Book and the Entity are read (404, 409).
   */
  async scope(entityId: string, bookId: string | undefined, presentation: Presentation = {}): Promise<Scope> {
    const { presentationCurrency, presentationRate } = presentation;
    if ((presentationCurrency === undefined) !== (presentationRate === undefined)) {
      // The one that is missing, named once: "presentationRate is required with presentationCurrency".
      const [missing, sent] = presentationCurrency === undefined ? ['presentationCurrency', 'presentationRate'] : ['presentationRate', 'presentationCurrency'];
      throw validationError(missing, `is required with ${sent}`);
    }
    const to = presentationCurrency === undefined ? null : this.reference.findCurrency(presentationCurrency);
    if (presentationCurrency !== undefined && !to) throw validationError('presentationCurrency', 'must be an ISO 4217 currency code');
    if (presentationRate !== undefined && !isRate(presentationRate)) throw validationError('presentationRate', 'must be a decimal string greater than zero');
    const resolvedBook = await this.books.resolve(entityId, bookId);
    const { currency, ledgerLockDate } = (await this.entities.get(entityId)).snapshot();
    if (!to || presentationCurrency === undefined || presentationRate === undefined) {
      return { bookId: resolvedBook, currency, ledgerLockDate, presentation: null, convert: presentationConverter(null) };
    }
    const fromExponent = this.reference.findCurrency(currency)?.minorUnits ?? 0;
    return {
      bookId: resolvedBook,
      currency,
      ledgerLockDate,
      // Rates are answered in their one canonical form (as on every line): `0.001250` is `0.00125`.
      presentation: { currency: presentationCurrency, rate: canonicalRate(presentationRate) },
      convert: presentationConverter({ rate: presentationRate, fromExponent, toExponent: to.minorUnits }),
    };
  }

  /** D51 */
  async balanceSheet(entityId: string, query: { exerciseStart: string; cutoffDate: string; bookId?: string } & Presentation) {
    checkRange(query.exerciseStart, query.cutoffDate, 'exerciseStart', 'cutoffDate');
    const scope = await this.scope(entityId, query.bookId, query);
    const figures = await this.queries.accountFigures(entityId, scope.bookId, query.exerciseStart, query.cutoffDate, scope.ledgerLockDate);
    const statement = balanceSheet(figures, await this.queries.groups(entityId), scope.convert, scope.presentation !== null);
    return exactAmounts({
      exerciseStart: query.exerciseStart,
      cutoffDate: query.cutoffDate,
      currency: scope.currency,
      bookId: scope.bookId,
      presentation: scope.presentation,
      ...statement,
    });
  }

  /** D52 */
  async incomeStatement(entityId: string, query: { from: string; to: string; bookId?: string } & Presentation) {
    checkRange(query.from, query.to);
    const scope = await this.scope(entityId, query.bookId, query);
    const figures = await this.queries.accountFigures(entityId, scope.bookId, query.from, query.to, scope.ledgerLockDate);
    const accounts = figures.filter((f) => isResultType(f.type)).map((f) => ({ ...f, raw: f.periodDebit - f.periodCredit, moved: f.periodLines > 0 }));
    return exactAmounts({ ...incomeStatementHeader(query, scope), ...incomeStatement(accounts, await this.queries.groups(entityId), scope.convert) });
  }

  /** D52: one income statement per value of the Dimension, and one for the lines without a value. */
  @OneSnapshot()
  async incomeStatementByDimension(entityId: string, query: { dimensionId: string; from: string; to: string; bookId?: string } & Presentation) {
    checkRange(query.from, query.to);
    const scope = await this.scope(entityId, query.bookId, query);
    if (!(await this.queries.dimensionExists(entityId, query.dimensionId))) {
      throw reportDimensionNotFound(query.dimensionId);
    }
    const [chart, groups, values, rows] = [
      await this.queries.accountFigures(entityId, scope.bookId, query.from, query.from, scope.ledgerLockDate),
      await this.queries.groups(entityId),
      await this.queries.dimensionValues(entityId, query.dimensionId),
      await this.queries.dimensionFigures(entityId, scope.bookId, query.dimensionId, query.from, query.to),
    ];
    const results = chart.filter((a) => isResultType(a.type));
    // Each column's `statement` is a whole income statement body, as GET income-statement gives it (D52).
    const statementFor = (valueId: string | null) => {
      const mine = new Map(rows.filter((r) => r.valueId === valueId).map((r) => [r.accountId, r]));
      const accounts = results.map((a) => ({ ...a, raw: mine.get(a.accountId)?.raw ?? 0n, moved: (mine.get(a.accountId)?.lines ?? 0) > 0 }));
      return { ...incomeStatementHeader(query, scope), ...incomeStatement(accounts, groups, scope.convert) };
    };
    return exactAmounts({
      dimensionId: query.dimensionId,
      from: query.from,
      to: query.to,
      currency: scope.currency,
      bookId: scope.bookId,
      presentation: scope.presentation,
      columns: values.map((v) => ({ dimensionValueId: v.id, code: v.code, name: v.name, statement: statementFor(v.id) })),
      unassigned: statementFor(null),
    });
  }

  /** D53 */
  async eightColumnBalance(entityId: string, query: { exerciseStart: string; cutoffDate: string; bookId?: string } & Presentation) {
    checkRange(query.exerciseStart, query.cutoffDate, 'exerciseStart', 'cutoffDate');
    const scope = await this.scope(entityId, query.bookId, query);
    const figures = await this.queries.accountFigures(entityId, scope.bookId, query.exerciseStart, query.cutoffDate, scope.ledgerLockDate);
    return exactAmounts({
      exerciseStart: query.exerciseStart,
      cutoffDate: query.cutoffDate,
      currency: scope.currency,
      bookId: scope.bookId,
      presentation: scope.presentation,
      ...eightColumnBalance(figures, scope.convert),
    });
  }

  /** D54 */
  async journal(entityId: string, query: { from?: string; to?: string; search?: string; cursor?: string; limit?: number; bookId?: string }) {
    if (query.from && query.to) checkRange(query.from, query.to);
    // The cursor is part of the query's shape (400), judged before the Book is looked up.
    const after = query.cursor ? readJournalCursor(query.cursor) : undefined;
    const scope = await this.scope(entityId, query.bookId);
    const limit = query.limit ?? 100;
    const rows = await this.queries.journal(entityId, scope.bookId, {
      from: query.from,
      to: query.to,
      search: query.search,
      after,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit).map(journalRow);
    const last = page[page.length - 1];
    return { rows: page, nextCursor: rows.length > limit && last ? `${last.entryDate}~${last.entryId}~${last.lineId}` : null };
  }

  /** D55: running balance from inception, debit-positive. */
  @OneSnapshot()
  async generalLedger(entityId: string, query: { accountId: string; from?: string; to?: string; cursor?: string; limit?: number; bookId?: string }) {
    if (query.from && query.to) checkRange(query.from, query.to);
    const scope = await this.scope(entityId, query.bookId);
    if (!(await this.queries.account(entityId, query.accountId))) throw ledgerAccountNotFound({ accountId: query.accountId });
    const limit = query.limit ?? 50;
    let after: { entryDate: string; entryId: string; lineId: string } | undefined;
    if (query.cursor) {
      const key = await this.queries.lineKey(entityId, query.cursor);
      // Only a line some page of this ledger ends with: the account's, in the Book read and in the
      // range (continuing from a line before `from` skipped the lines between it and `from` in the
      // running balance). A line unbooked since its page was served still continues the walk.
      const ends =
        key !== null &&
        key.accountId === query.accountId &&
        (key.bookId === null || key.bookId === scope.bookId) &&
        (!query.from || key.entryDate >= query.from) &&
        (!query.to || key.entryDate <= query.to);
      if (!key || !ends) throw validationError('cursor', 'must be the id of the last line of a previous page');
      after = { entryDate: key.entryDate, entryId: key.entryId, lineId: query.cursor };
    }
    const opening = query.from ? (await this.queries.accountRange(entityId, scope.bookId, query.accountId, null, addDays(query.from, -1))).raw : 0n;
    const range = await this.queries.accountRange(entityId, scope.bookId, query.accountId, query.from ?? null, query.to ?? null);
    const rows = await this.queries.accountLines(entityId, scope.bookId, query.accountId, { from: query.from, to: query.to, after, limit: limit + 1 });
    const page = rows.slice(0, limit);
    // The page costs O(page): its running balance starts from the monthly totals and that month's earlier lines.
    const start = after ? await this.queries.balanceThrough(entityId, scope.bookId, query.accountId, after) : opening;
    // D55's order: runningBalance last.
    const lines = withRunningBalance(page, start, (r, runningBalance) => ({ partnerId: r.partner_id as string | null, description: r.description as string | null, runningBalance }));
    return exactAmounts({
      lines,
      nextCursor: rows.length > limit && page.length > 0 ? (page[page.length - 1].line_id as string) : null,
      openingBalance: opening,
      closingBalance: opening + range.raw,
      lineCount: range.lines,
    });
  }

  /** D56's request judged: the range, the Book, the account (an open-item one) and the partners asked for. */
  private async partnerLedgerScope(entityId: string, query: PartnerLedgerRequest) {
    checkRange(query.from, query.to);
    const scope = await this.scope(entityId, query.bookId);
    const account = await this.queries.account(entityId, query.accountId);
    if (!account) throw ledgerAccountNotFound({ accountId: query.accountId });
    if (account.tracking !== 'open_item') throw validationError('accountId', 'must be an open-item account');
    const includeUnassigned = query.includeUnassigned ?? false;
    const ids = query.partnerIds && query.partnerIds.length > 0 ? [...new Set(query.partnerIds)] : null;
    const max = this.config.get('linesPerAnswerMax', { infer: true });
    return { scope, ids, includeUnassigned, max };
  }

  /**
   * D56 streamed (D2a): the head, then each partner with its lines read from a database cursor,
   * so that the service's memory does not grow with the answer. Every refusal (404, 409, 400, the
   * most lines of one answer) comes before the first piece. Where a running balance could pass
   * what JSON holds exactly (an opening plus the amounts moved past 2^53 - 1), the answer is built
   * whole instead, so D6a's 409 still comes before the first byte.
   */
  async streamPartnerLedger(entityId: string, query: PartnerLedgerRequest, signal: AbortSignal, send: (answer: PartnerLedgerStream) => Promise<void>): Promise<void> {
    const { scope, ids, includeUnassigned, max } = await this.partnerLedgerScope(entityId, query);
    await this.queries.readPartnerLedger(entityId, scope.bookId, query.accountId, query.from, query.to, ids, includeUnassigned, signal, async ({ openings, ranges, names }, lines) => {
      const unknown = ids?.find((id) => !names.has(id));
      if (unknown) throw partnerNotFound({ partnerId: unknown });
      const lineCount = [...ranges.values()].reduce((sum, r) => sum + r.lines, 0);
      if (lineCount > max) throw tooManyLines(max);
      const partners = ids
        ? ids
        : [...new Set([...[...openings].filter(([, opening]) => opening !== 0n).map(([id]) => id), ...ranges.keys()])].filter((id): id is string => id !== null);
      partners.sort((a, b) => compareText(names.get(a) ?? '', names.get(b) ?? '') || compareText(a, b));
      const order: Array<string | null> = [...partners, ...(includeUnassigned ? [null] : [])];
      const heads = order.map((partnerId) => {
        const openingBalance = openings.get(partnerId) ?? 0n;
        const range = ranges.get(partnerId);
        const bound = (openingBalance < 0n ? -openingBalance : openingBalance) + (range?.moved ?? 0n);
        return { partnerId, partnerName: partnerId ? (names.get(partnerId) ?? null) : null, openingBalance, closingBalance: openingBalance + (range?.raw ?? 0n), bound };
      });
      if (heads.some((h) => h.bound > BigInt(Number.MAX_SAFE_INTEGER))) {
        await send({ whole: await this.partnerLedger(entityId, query) });
        return;
      }
      const head = exactAmounts({ accountId: query.accountId, from: query.from, to: query.to, currency: scope.currency, bookId: scope.bookId });
      await send({
        head,
        partners: (async function* () {
          const rows = lines(partners, includeUnassigned, PARTNER_LEDGER_BATCH)[Symbol.asyncIterator]();
          try {
            // The cursor's batches cut across partners: `at` walks the batch in hand.
            let pending: Array<Record<string, unknown>> = [];
            let at = 0;
            let next = await rows.next();
            for (const { bound: _bound, ...group } of heads) {
              yield { group: exactAmounts(group) };
              // Every figure of this partner is within its bound (checked above), so plain numbers add exactly.
              let running = Number(group.openingBalance);
              for (;;) {
                if (at === pending.length) {
                  if (next.done) break;
                  pending = next.value;
                  at = 0;
                  next = await rows.next();
                }
                const shown: PartnerLedgerLine[] = [];
                for (; at < pending.length && (pending[at].partner_id as string | null) === group.partnerId; at++) {
                  const row = pending[at];
                  const amount = Number(row.amount);
                  running += row.side === 'debit' ? amount : -amount;
                  shown.push({
                    lineId: row.line_id as string,
                    entryId: row.entry_id as string,
                    entryDate: row.entry_date as string,
                    memo: row.memo as string,
                    side: row.side as string,
                    amount,
                    runningBalance: running,
                    openAmount: amount - Number(row.allocated_amount),
                  });
                }
                if (shown.length > 0) yield { lines: shown };
                if (at < pending.length) break;
              }
              yield { end: true };
            }
          } finally {
            // A client that went stops the answer: the cursor is closed before the snapshot ends.
            await rows.return?.();
          }
        })(),
      });
    });
  }

  /** D56, built whole (the streamed answer's fallback, see streamPartnerLedger) */
  @OneSnapshot()
  async partnerLedger(entityId: string, query: PartnerLedgerRequest) {
    const { scope, ids, includeUnassigned, max } = await this.partnerLedgerScope(entityId, query);
    const { openings, lines, lineCount, names } = await this.queries.partnerFigures(entityId, scope.bookId, query.accountId, query.from, query.to, ids, includeUnassigned, max + 1);
    // A partner asked for by id is shown even without figures, and must exist (the names read them all).
    const unknown = ids?.find((id) => !names.has(id));
    if (unknown) throw partnerNotFound({ partnerId: unknown });
    if (lineCount > max) throw tooManyLines(max);
    // Otherwise D56: every partner with an opening balance (not zero) or a line in the range.
    const partners = ids
      ? ids
      : [...new Set([...[...openings].filter(([, opening]) => opening !== 0n).map(([id]) => id), ...lines.keys()])].filter((id): id is string => id !== null);
    partners.sort((a, b) => compareText(names.get(a) ?? '', names.get(b) ?? '') || compareText(a, b));
    const group = (partnerId: string | null) => {
      const openingBalance = openings.get(partnerId) ?? 0n;
      const mine = withRunningBalance(lines.get(partnerId) ?? [], openingBalance, (row, runningBalance) => ({
        runningBalance,
        openAmount: Number(row.amount) - Number(row.allocated_amount),
      }));
      const closingBalance = mine.length > 0 ? mine[mine.length - 1].runningBalance : openingBalance;
      return { partnerId, partnerName: partnerId ? (names.get(partnerId) ?? null) : null, openingBalance, closingBalance, lines: mine };
    };
    return exactAmounts({
      accountId: query.accountId,
      from: query.from,
      to: query.to,
      currency: scope.currency,
      bookId: scope.bookId,
      partners: [...partners.map(group), ...(includeUnassigned ? [group(null)] : [])],
    });
  }
}

