import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Transactional } from '@nestjs-cls/transactional';
import { isUuid, textProblem, validationError } from '../../../../libs/shared-kernel/src';
import { Clock } from '../../../platform/clock/clock';
import { discoverablePort } from '../../../platform/discovery/discoverable-port';
import { translateForeignKeyViolation, translateUniqueViolation } from '../../../platform/database/pg-errors';
import { BooksService, ChartService, LedgerPartnerFacts } from '../../ledger';
import { ReferenceDataService } from '../../reference';
import {
  changePartner,
  newPartner,
  Partner,
  partnerAlreadyExists,
  PartnerChange,
  PartnerIdentity,
  partnerInUse,
  partnerNotFound,
  PartnerRepository,
  partnerTaxIdAlreadyExists,
  PartnerType,
} from '../domain/partner';

/**
 * Port: whether a module's records (ledger lines, invoices) name a partner, which then cannot be
 * deleted (D45). A provider of such a module, decorated @PartnerUsageProvider(), answers; the
 * partners module finds it through DiscoveryService.
 */
export interface PartnerUsageProbe {
  isNamed(entityId: string, partnerId: string): Promise<boolean>;
}

const PARTNER_USAGE = discoverablePort<PartnerUsageProbe>();
/** Marks a provider of any module as a PartnerUsageProbe. */
export const PartnerUsageProvider = PARTNER_USAGE.Implementation;

export interface PartnerPageRow {
  partner: Partner;
  receivableOpenBalance: number;
  payableOpenBalance: number;
}

function cursorOf(partner: Partner): string {
  return Buffer.from(JSON.stringify([partner.name, partner.id]), 'utf8').toString('base64url');
}

function readCursor(cursor: string): { name: string; id: string } {
  try {
    const [name, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    // Both go into SQL: a forged id that is no UUID, or a name PostgreSQL text cannot hold, must not reach it (500).
    if (typeof name === 'string' && textProblem(name) === null && isUuid(id)) return { name, id };
  } catch {
    // fall through
  }
  throw validationError('cursor', 'is not a cursor of this list');
}

@Injectable()
export class PartnersService {
  private found?: PartnerUsageProbe[];

  constructor(
    private readonly partners: PartnerRepository,
    private readonly chart: ChartService,
    private readonly books: BooksService,
    /** The open receivable and payable balances of the partners' lines, in one Book. */
    private readonly ledger: LedgerPartnerFacts,
    private readonly discovery: DiscoveryService,
    private readonly reference: ReferenceDataService,
    private readonly clock: Clock,
  ) {}

  private get probes(): PartnerUsageProbe[] {
    return (this.found ??= PARTNER_USAGE.implementations(this.discovery));
  }

  list(entityId: string): Promise<Partner[]> {
    return this.partners.list(entityId);
  }

  /** The name and tax id of each of these partners, by id, in one query (the tax books, issue 37). */
  identities(entityId: string, partnerIds: string[]): Promise<Map<string, PartnerIdentity>> {
    return this.partners.identities(entityId, partnerIds);
  }

  async get(entityId: string, partnerId: string): Promise<Partner> {
    const partner = await this.partners.find(entityId, partnerId);
    if (!partner) throw partnerNotFound({ partnerId });
    return partner;
  }

  @Transactional()
  async create(
    entityId: string,
    input: { id: string; name: string; type: PartnerType; country: string; taxId: string; defaultPurchaseAccountId: string | null },
  ): Promise<Partner> {
    this.checkCountry(input.country);
    if (await this.partners.find(entityId, input.id)) throw partnerAlreadyExists({ partnerId: input.id });
    if (input.defaultPurchaseAccountId) await this.chart.holdAccountForReference(entityId, input.defaultPurchaseAccountId);
    const partner = newPartner({ entityId, ...input }, this.clock.now());
    if ((await translateUniqueViolation(() => this.partners.insert(partner), () => partnerAlreadyExists({ partnerId: partner.id }))) === 'tax_id_taken') throw partnerTaxIdAlreadyExists({ taxId: partner.taxId });
    return partner;
  }

  @Transactional()
  async update(entityId: string, partnerId: string, change: PartnerChange): Promise<Partner> {
    const partner = await this.partners.lock(entityId, partnerId);
    if (!partner) throw partnerNotFound({ partnerId });
    if (change.country !== undefined) this.checkCountry(change.country);
    if (change.defaultPurchaseAccountId) await this.chart.holdAccountForReference(entityId, change.defaultPurchaseAccountId);
    const next = changePartner(partner, change, this.clock.now());
    if ((await this.partners.save(next)) === 'tax_id_taken') throw partnerTaxIdAlreadyExists({ taxId: next.taxId });
    return next;
  }

  /**
   * The partner is locked before its use is looked up: lines being written that name it (which
   * hold it until they commit) are seen, or wait and then find no partner (404).
   */
  @Transactional()
  async delete(entityId: string, partnerId: string): Promise<Partner> {
    const partner = await this.partners.lock(entityId, partnerId);
    if (!partner) throw partnerNotFound({ partnerId });
    // Its own ledger first (a line of any status names it), then the other modules' records.
    if (await this.ledger.partnerIsNamed(entityId, partnerId)) throw partnerInUse({ partnerId });
    for (const probe of this.probes) {
      if (await probe.isNamed(entityId, partnerId)) throw partnerInUse({ partnerId });
    }
    // A line the probes did not see names it: it is in use, as for any line.
    await translateForeignKeyViolation(() => this.partners.delete(entityId, partnerId), () => partnerInUse({ partnerId }));
    return partner;
  }

  /** Book-scoped: the balances are read in one Book (common entries plus that Book's). */
  async page(
    entityId: string,
    query: { bookId?: string; cursor?: string; limit?: number; search?: string },
  ): Promise<{ rows: PartnerPageRow[]; nextCursor: string | null }> {
    // The cursor is part of the query's shape (400), judged before the Book is looked up.
    const after = query.cursor ? readCursor(query.cursor) : null;
    const bookId = await this.books.resolve(entityId, query.bookId);
    const limit = query.limit ?? 50;
    const found = await this.partners.page(entityId, after, limit, query.search);
    const page = found.slice(0, limit);
    const balances = await this.ledger.partnerOpenBalances(
      entityId,
      bookId,
      page.map((p) => p.id),
    );
    return {
      rows: page.map((partner) => ({
        partner,
        receivableOpenBalance: balances.get(partner.id)?.receivable ?? 0,
        payableOpenBalance: balances.get(partner.id)?.payable ?? 0,
      })),
      nextCursor: found.length > limit ? cursorOf(page[page.length - 1]) : null,
    };
  }

  private checkCountry(country: string): void {
    if (!this.reference.isCountry(country)) {
      throw validationError('country', 'must be an ISO 3166-1 alpha-2 country code');
    }
  }
}
