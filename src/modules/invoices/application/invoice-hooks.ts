import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { StatementPart } from '../../../platform/database/statement-parts';
import { discoverablePort } from '../../../platform/discovery/discoverable-port';
import type { Invoice } from '../domain/invoice';

/** An invoice just booked: the invoice as booked and the facts of its entry (issue 22's read model). */
export interface InvoiceBooked {
  invoice: Invoice;
  entryId: string;
  entryDate: string;
  bookId: string | null;
  /** The open-item (receivable or payable) line: its id, side and functional amount. */
  openItemLine: { id: string; side: 'debit' | 'credit'; amount: number };
}

/**
 * Port: a module that must learn that an invoice was booked (by its booking, or again by its
 * original entry when the reversal that severed it is unbooked), inside that transaction: a read
 * model of booked invoices. Its unbooking comes from the ledger's lifecycle port, with the entry.
 *
 * It answers its writes as statement parts, which the booking's posting statement (or, when a
 * severed booking is restored, the invoice's own update) runs as CTEs: one round trip for the
 * entry, the invoice and every read model, and their rows locked for the shortest time (the
 * statement is the booking's last before COMMIT).
 */
export interface InvoiceBookingListener {
  /** The listener's writes, each under its host statement's condition (`host.written`: the posting statement's entry written, or the invoice's update). */
  invoiceBooked(entityId: string, booked: InvoiceBooked): StatementPart[];
  /** A booked invoice's due date changed (D61 allows it once booked), in that transaction. */
  bookedDueDateChanged?(entityId: string, invoiceId: string, dueDate: string | null): Promise<void>;
}

const INVOICE_BOOKING = discoverablePort<InvoiceBookingListener>();
/** Marks a provider of any module as an InvoiceBookingListener (found through Nest's DiscoveryService). */
export const InvoiceBookingListenerProvider = INVOICE_BOOKING.Implementation;

/** The invoices module's side of the port: every listener's writes, for the invoice's update to run. */
@Injectable()
export class InvoiceBookingListeners {
  private found?: InvoiceBookingListener[];

  constructor(private readonly discovery: DiscoveryService) {}

  invoiceBooked(entityId: string, booked: InvoiceBooked): StatementPart[] {
    return this.listeners().flatMap((listener) => listener.invoiceBooked(entityId, booked));
  }

  async bookedDueDateChanged(entityId: string, invoiceId: string, dueDate: string | null): Promise<void> {
    for (const listener of this.listeners()) await listener.bookedDueDateChanged?.(entityId, invoiceId, dueDate);
  }

  private listeners(): InvoiceBookingListener[] {
    this.found ??= INVOICE_BOOKING.implementations(this.discovery);
    return this.found;
  }
}
