import { Injectable } from '@nestjs/common';
import type { Invoice, InvoiceListFilter } from '../domain/invoice';
import { InvoiceLinkSummary, InvoiceRepository } from '../domain/ports';

/**
 * The invoices module's read API for other modules (banking, attachments, to-dos, comments,
 * home, revenue realization). Reads join the caller's transaction when there is one.
 */
@Injectable()
export class InvoiceQueries {
  constructor(private readonly invoices: InvoiceRepository) {}

  /** A host check (attachments, to-dos, comments): the invoice exists in the Entity. */
  async exists(entityId: string, invoiceId: string): Promise<boolean> {
    return (await this.invoices.find(entityId, invoiceId)) !== null;
  }

  find(entityId: string, invoiceId: string): Promise<Invoice | null> {
    return this.invoices.find(entityId, invoiceId);
  }

  async findMany(entityId: string, invoiceIds: string[]): Promise<Map<string, Invoice>> {
    return new Map((await this.invoices.findMany(entityId, invoiceIds)).map((i) => [i.id, i]));
  }

  /** Every invoice matching the filter (D61 filters), newest issue date first. */
  list(entityId: string, filter: InvoiceListFilter): Promise<Invoice[]> {
    return this.invoices.list(entityId, filter);
  }

  /** Booked invoices by their receivable or payable line (what settles an invoice). */
  async byOpenItemLines(entityId: string, lineIds: string[]): Promise<Map<string, Invoice>> {
    return new Map((await this.invoices.byOpenItemLines(entityId, lineIds)).map((i) => [i.openItemLineId!, i]));
  }

  /** Home: unbooked invoice counts by direction. */
  unbookedCounts(entityId: string): Promise<{ ar: number; ap: number }> {
    return this.invoices.unbookedCounts(entityId);
  }

  /** Link fields (to-dos, attachments, entry routes): id, direction, kind, number and the partner's name; one query. */
  async linkSummaries(entityId: string, invoiceIds: string[]): Promise<Map<string, InvoiceLinkSummary>> {
    return new Map((await this.invoices.summaries(entityId, invoiceIds)).map((s) => [s.id, s]));
  }

  /** Banking candidates: invoices whose folio (document number) is one of these. */
  byDocumentNumbers(entityId: string, documentNumbers: string[], direction?: Invoice['direction']): Promise<Invoice[]> {
    return this.invoices.byDocumentNumbers(entityId, documentNumbers, direction);
  }
}
