import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { canonicalRate, validationError } from '../../../../libs/shared-kernel/src';
import { Clock } from '../../../platform/clock/clock';
import { EntitiesService } from '../../entities';
import { PartnersService } from '../../partners';
import { ReferenceDataService } from '../../reference';
import { Dte, dteMismatches } from '../domain/dte';
import {
  checkChangeAllowed,
  canonicalDocumentNumber,
  checkInvoiceFields,
  dteAlreadyLinked,
  dteInvoiceMismatch,
  dteNotFound,
  fieldsAfter,
  Invoice,
  invoiceAlreadyExists,
  invoiceBooked,
  InvoiceChange,
  invoiceDocumentNumberTaken,
  InvoiceFields,
  InvoiceListFilter,
  invoiceNotFound,
  Direction,
} from '../domain/invoice';
import { DteRepository, InvoiceRepository } from '../domain/ports';
import { issueDatePage } from './issue-date-pages';
import { InvoiceBookingListeners } from './invoice-hooks';
import { RecordHosts } from '../../record-hosts';

/** An invoice with the DTE it is linked to (D60 `dte`). */
export interface InvoiceView {
  invoice: Invoice;
  dte: Dte | null;
}

export interface InvoicePage {
  rows: InvoiceView[];
  nextCursor: string | null;
}

@Injectable()
export class InvoicesService {
  constructor(
    private readonly invoices: InvoiceRepository,
    private readonly dtes: DteRepository,
    private readonly partners: PartnersService,
    private readonly entities: EntitiesService,
    private readonly reference: ReferenceDataService,
    /** Issue 21: a deleted invoice's attachments are discarded, its comments deleted, its To-dos unlinked, in its transaction. */
    private readonly recordHosts: RecordHosts,
    private readonly bookingListeners: InvoiceBookingListeners,
    private readonly clock: Clock,
  ) {}

  @Transactional()
  async create(entityId: string, input: InvoiceFields & { id: string; direction: Direction }): Promise<InvoiceView> {
    // The id is the idempotency key: a reused one is answered first (spec, Conventions).
    if (await this.invoices.find(entityId, input.id)) throw invoiceAlreadyExists({ invoiceId: input.id });
    const fields = await this.checked(entityId, { ...input, exchangeRate: input.exchangeRate === null ? null : canonicalRate(input.exchangeRate) });
    const now = this.clock.now();
    const invoice: Invoice = { ...fields, entityId, id: input.id, direction: input.direction, bookStatus: 'unbooked', ledgerEntryId: null, openItemLineId: null, dteId: null, createdAt: now, updatedAt: now };
    const result = await this.invoices.insert(invoice);
    if (result === 'id_taken') throw invoiceAlreadyExists({ invoiceId: input.id });
    if (result === 'number_taken') throw this.numberTaken(invoice);
    return { invoice, dte: null };
  }

  async list(entityId: string, filter: InvoiceListFilter): Promise<InvoiceView[]> {
    return this.withDtes(entityId, await this.invoices.list(entityId, filter));
  }

  async page(entityId: string, filter: InvoiceListFilter & { search?: string; cursor?: string; limit?: number }): Promise<InvoicePage> {
    const page = await issueDatePage(filter, (after, limit) => this.invoices.page(entityId, filter, filter.search, after, limit));
    return { rows: await this.withDtes(entityId, page.rows), nextCursor: page.nextCursor };
  }

  /** D93: the list's whole filtered range (no cursor), newest first, streamed to `send` in batches. */
  async streamAll(entityId: string, filter: InvoiceListFilter & { search?: string }, signal: AbortSignal, send: (batches: AsyncIterable<InvoiceView[]>) => Promise<void>): Promise<void> {
    const withDtes = (invoices: Invoice[]) => this.withDtes(entityId, invoices);
    await this.invoices.readAll(entityId, filter, filter.search, signal, (batches) =>
      send(
        (async function* () {
          for await (const batch of batches) yield await withDtes(batch);
        })(),
      ),
    );
  }

  async get(entityId: string, invoiceId: string): Promise<InvoiceView> {
    const invoice = await this.invoices.find(entityId, invoiceId);
    if (!invoice) throw invoiceNotFound({ invoiceId });
    return (await this.withDtes(entityId, [invoice]))[0];
  }

  /** D61: any field but id and direction while unbooked; description and dueDate once booked. */
  @Transactional()
  async update(entityId: string, invoiceId: string, change: InvoiceChange): Promise<InvoiceView> {
    const invoice = await this.invoices.lock(entityId, invoiceId);
    if (!invoice) throw invoiceNotFound({ invoiceId });
    checkChangeAllowed(invoice, change);
    const normalized = change.exchangeRate ? { ...change, exchangeRate: canonicalRate(change.exchangeRate) } : change;
    const fields = await this.checked(entityId, fieldsAfter(invoice, normalized), change.partnerId !== undefined);
    const next: Invoice = { ...invoice, ...fields, updatedAt: this.clock.now() };
    const dte = next.dteId ? await this.dtes.find(entityId, next.dteId) : null;
    // A linked DTE must still match what the invoice says it is (D65a).
    if (dte) await this.checkMatch(entityId, dte, next);
    if ((await this.invoices.save(next)) === 'number_taken') throw this.numberTaken(next);
    if (invoice.bookStatus === 'booked' && next.dueDate !== invoice.dueDate) await this.bookingListeners.bookedDueDateChanged(entityId, invoiceId, next.dueDate);
    return { invoice: next, dte };
  }

  @Transactional()
  async delete(entityId: string, invoiceId: string): Promise<void> {
    const invoice = await this.invoices.lock(entityId, invoiceId);
    if (!invoice) throw invoiceNotFound({ invoiceId });
    if (invoice.bookStatus === 'booked') throw invoiceBooked({ invoiceId, ledgerEntryId: invoice.ledgerEntryId });
    await this.recordHosts.recordsRemoved(entityId, 'invoice', [invoiceId]);
    await this.invoices.delete(entityId, invoiceId);
  }

  /** D63/D65a: checks in this order: DTE not found, already linked elsewhere, mismatch. */
  @Transactional()
  async linkDte(entityId: string, invoiceId: string, dteId: string): Promise<InvoiceView> {
    const invoice = await this.invoices.lock(entityId, invoiceId);
    if (!invoice) throw invoiceNotFound({ invoiceId });
    // Held until commit: a second link of the same DTE waits here and then sees this one.
    const dte = await this.dtes.lock(entityId, dteId);
    if (!dte) throw dteNotFound({ dteId });
    const linkedTo = await this.invoices.linkedToDte(entityId, dteId);
    if (linkedTo !== null && linkedTo !== invoiceId) throw dteAlreadyLinked({ dteId, invoiceId: linkedTo });
    await this.checkMatch(entityId, dte, invoice);
    const next: Invoice = { ...invoice, dteId, updatedAt: this.clock.now() };
    await this.invoices.save(next);
    return { invoice: next, dte: { ...dte, invoiceId } };
  }

  /** Clears the link only; the DTE stays imported. */
  @Transactional()
  async unlinkDte(entityId: string, invoiceId: string): Promise<InvoiceView> {
    const invoice = await this.invoices.lock(entityId, invoiceId);
    if (!invoice) throw invoiceNotFound({ invoiceId });
    const next: Invoice = invoice.dteId === null ? invoice : { ...invoice, dteId: null, updatedAt: this.clock.now() };
    if (next !== invoice) await this.invoices.save(next);
    return { invoice: next, dte: null };
  }

  private async checkMatch(entityId: string, dte: Dte, invoice: Invoice): Promise<void> {
    const partner = await this.partners.get(entityId, invoice.partnerId);
    const mismatches = dteMismatches(dte, invoice, { country: partner.country, taxId: partner.taxId ?? null }, (code) => this.reference.findCurrency(code)?.minorUnits);
    if (mismatches.length > 0) throw dteInvoiceMismatch({ dteId: dte.id, invoiceId: invoice.id, fields: mismatches });
  }

  /**
   * The field rules (D60, D64) against the Entity's currency, the currency code, and the partner
   * (404 PARTNER_NOT_FOUND_ERROR for one of another Entity, D4).
   */
  private async checked(entityId: string, fields: InvoiceFields, partnerNamed = true): Promise<InvoiceFields> {
    if (!this.reference.findCurrency(fields.currency)) throw validationError('currency', 'must be an ISO 4217 currency code');
    const entity = (await this.entities.get(entityId)).snapshot();
    // A rate of exactly 1 on an invoice in the Entity's own currency says nothing: it is taken as none.
    if (fields.currency === entity.currency && fields.exchangeRate !== null && canonicalRate(fields.exchangeRate) === '1') fields = { ...fields, exchangeRate: null };
    checkInvoiceFields(fields, entity.currency);
    if (partnerNamed) await this.partners.get(entityId, fields.partnerId);
    return { ...fields, documentNumber: canonicalDocumentNumber(fields), description: fields.description === null ? null : fields.description.trim() };
  }

  private numberTaken(invoice: Invoice) {
    return invoiceDocumentNumberTaken({
      direction: invoice.direction,
      documentKind: invoice.documentKind,
      partnerId: invoice.partnerId,
      documentNumber: invoice.documentNumber,
    });
  }

  /** The linked DTEs of a list in one query (no N+1). */
  private async withDtes(entityId: string, invoices: Invoice[]): Promise<InvoiceView[]> {
    const dtes = await this.dtes.findMany(entityId, invoices.flatMap((i) => (i.dteId ? [i.dteId] : [])));
    return invoices.map((invoice) => ({ invoice, dte: invoice.dteId ? (dtes.get(invoice.dteId) ?? null) : null }));
  }
}
