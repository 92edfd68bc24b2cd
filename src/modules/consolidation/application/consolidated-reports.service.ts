import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { canonicalRate, DomainError, exactAmounts, isRate, validationError } from '../../../../libs/shared-kernel/src';
import { permissionDenied } from '../../../platform/auth/guards/access-errors';
import { EntitiesService, EntityViewer } from '../../entities';
import { FxRatesService } from '../../fx';
import { BooksService } from '../../ledger';
import { ReferenceDataService } from '../../reference';
import { consolidatedBalanceSheet, consolidatedIncomeStatement, Group, Member, MemberAccount } from '../domain/consolidation';
import { rateMissing } from '../domain/consolidation-errors';
import { MemberBalances } from '../infrastructure/persistence/member-balances';

/** The rates a request sends, `CUR:rate` each, repeated (D91 item 3). */
export interface RateQuery {
  closingRate?: string | string[];
  averageRate?: string | string[];
  bookName?: string;
}

const RATE_PARAMETER = /^([A-Z]{3}):(.+)$/;

type Snapshot = { id: string; name: string; currency: string; taxId: string };
type SentRates = { closing: Map<string, string>; average: Map<string, string> };

/**
 * A report's reads in one REPEATABLE READ transaction (it only reads, so it never fails for
 * serialization): on one server one snapshot of the group; on Citus one snapshot per worker node,
 * taken when the transaction first reads there (Citus has no snapshot across nodes). Called inside
 * a transaction already open, it joins it and reads at that one's isolation.
 */
const OneSnapshot = () => Transactional<TransactionalAdapterTypeOrm>({ isolationLevel: 'REPEATABLE READ' });

/**
 * D91: consolidated balance sheet and income statement over an Entity's controlled tree: the tree,
 * who reads it, every member's Book, then each member's balances with their intercompany share (one
 * statement per member, each on the member's shard group on Citus, D94), and stored rates only for
 * a currency not sent, read in one transaction (`OneSnapshot`) once the query is found valid.
 */
@Injectable()
export class ConsolidatedReportsService {
  constructor(
    private readonly entities: EntitiesService,
    private readonly books: BooksService,
    private readonly balances: MemberBalances,
    private readonly fx: FxRatesService,
    private readonly reference: ReferenceDataService,
  ) {}

  async balanceSheet(entityId: string, viewer: EntityViewer, query: { exerciseStart: string; cutoffDate: string } & RateQuery) {
    if (query.cutoffDate < query.exerciseStart) throw validationError('cutoffDate', 'must be on or after exerciseStart');
    const sent = { closing: this.sentRates(query.closingRate, 'closingRate'), average: this.sentRates(query.averageRate, 'averageRate') };
    return this.readBalanceSheet(entityId, viewer, query, sent);
  }

  @OneSnapshot()
  private async readBalanceSheet(entityId: string, viewer: EntityViewer, query: { exerciseStart: string; cutoffDate: string } & RateQuery, sent: SentRates) {
    const tree = await this.readableTree(entityId, viewer);
    const bookIds = await this.bookIds(tree, query.bookName);
    const group = await this.group(tree, bookIds, query.exerciseStart, query.cutoffDate, sent, query.cutoffDate);
    return exactAmounts({
      exerciseStart: query.exerciseStart,
      cutoffDate: query.cutoffDate,
      currency: group.currency,
      members: membersEcho(group),
      ...consolidatedBalanceSheet(group),
    });
  }

  async incomeStatement(entityId: string, viewer: EntityViewer, query: { from: string; to: string } & RateQuery) {
    if (query.to < query.from) throw validationError('to', 'must be on or after from');
    const sent = { closing: this.sentRates(query.closingRate, 'closingRate'), average: this.sentRates(query.averageRate, 'averageRate') };
    return this.readIncomeStatement(entityId, viewer, query, sent);
  }

  @OneSnapshot()
  private async readIncomeStatement(entityId: string, viewer: EntityViewer, query: { from: string; to: string } & RateQuery, sent: SentRates) {
    const tree = await this.readableTree(entityId, viewer);
    const bookIds = await this.bookIds(tree, query.bookName);
    const group = await this.group(tree, bookIds, query.from, query.to, sent, null);
    return exactAmounts({
      from: query.from,
      to: query.to,
      currency: group.currency,
      members: membersEcho(group),
      ...consolidatedIncomeStatement(group),
    });
  }

  /** `CUR:rate` parameters (400 on a malformed one, or two rates for one currency). */
  private sentRates(values: string | string[] | undefined, field: string): Map<string, string> {
    const rates = new Map<string, string>();
    for (const value of values === undefined ? [] : Array.isArray(values) ? values : [values]) {
      const match = typeof value === 'string' ? RATE_PARAMETER.exec(value) : null;
      if (!match || !this.reference.findCurrency(match[1])) throw validationError(field, 'must be CUR:rate, CUR an ISO 4217 currency code');
      if (!isRate(match[2])) throw validationError(field, 'must be CUR:rate with a decimal rate greater than zero (D7)');
      const rate = canonicalRate(match[2]);
      if (rates.has(match[1]) && rates.get(match[1]) !== rate) throw validationError(field, `gives ${match[1]} two rates`);
      rates.set(match[1], rate);
    }
    return rates;
  }

  /** The members, once the caller is known to read every one (403 otherwise, naming none). */
  private async readableTree(entityId: string, viewer: EntityViewer): Promise<Snapshot[]> {
    const tree = await this.entities.controlledTree(entityId);
    if (!(await this.entities.readsEvery(viewer, tree))) throw permissionDenied('The caller cannot read every Entity of the group');
    return tree.map((e) => e.snapshot());
  }

  /** Each member's Book: the one named `bookName` in a member with Books, none in one without; the refusal is the first member's in member order. */
  private bookIds(tree: Snapshot[], bookName: string | undefined): Promise<Array<string | null>> {
    return this.books.resolveEachByName(
      tree.map((m) => m.id),
      bookName,
    );
  }

  private exponent(currency: string): number {
    return this.reference.findCurrency(currency)?.minorUnits ?? 0;
  }

  /**
   * A rate of `currency` into the root's: "1" for the root's own, else the one sent, else the
   * stored FX rate (quoted in the FX module's currency, so only for a root in that currency).
   */
  private async rate(currency: string, root: string, sent: Map<string, string>, stored: () => Promise<string>): Promise<string> {
    if (currency === root) return '1';
    const given = sent.get(currency);
    if (given) return given;
    if (root !== this.fx.functionalCurrency) throw rateMissing(currency);
    try {
      return canonicalRate(await stored());
    } catch (error) {
      if (error instanceof DomainError && (error.code === 'FX_RATE_NOT_FOUND_ERROR' || error.code === 'FX_RATE_STALE_ERROR')) throw rateMissing(currency);
      throw error;
    }
  }

  private async group(
    tree: Snapshot[],
    bookIds: Array<string | null>,
    from: string,
    to: string,
    sent: SentRates,
    closingDate: string | null,
  ): Promise<Group> {
    const root = tree[0].currency;
    const closing = new Map<string, string>();
    const average = new Map<string, string>();
    for (const currency of new Set(tree.map((m) => m.currency))) {
      if (closingDate !== null) closing.set(currency, await this.rate(currency, root, sent.closing, async () => (await this.fx.rateOn(currency, closingDate)).rate));
      average.set(currency, await this.rate(currency, root, sent.average, () => this.fx.averageRateOver(currency, from, to)));
    }
    const figures = await this.balances.read(
      tree.map((m, index) => ({ entityId: m.id, bookId: bookIds[index], taxId: m.taxId })),
      from,
      to,
      closingDate !== null,
    );
    const accounts = new Map<string, MemberAccount[]>(tree.map((m) => [m.id, []]));
    for (const a of figures) {
      accounts.get(a.entityId)!.push({
        code: a.code,
        name: a.name,
        type: a.type,
        beforeRaw: a.openingRaw,
        rangeRaw: a.periodRaw,
        intercompanyBeforeRaw: a.partnerOpeningRaw,
        intercompanyRangeRaw: a.partnerPeriodRaw,
      });
    }
    const members = tree.map(
      (member): Member => ({
        entityId: member.id,
        name: member.name,
        currency: member.currency,
        exponent: this.exponent(member.currency),
        closingRate: closingDate === null ? null : closing.get(member.currency)!,
        averageRate: average.get(member.currency)!,
        accounts: accounts.get(member.id)!,
      }),
    );
    return { currency: root, exponent: this.exponent(root), members };
  }
}

function membersEcho(group: Group) {
  return group.members.map((m) => ({ entityId: m.entityId, name: m.name, currency: m.currency, closingRate: m.closingRate, averageRate: m.averageRate }));
}
