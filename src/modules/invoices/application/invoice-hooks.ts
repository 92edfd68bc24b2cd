import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
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
 */
export interface InvoiceBookingListener {
  invoiceBooked(entityId: string, booked: InvoiceBooked): Promise<void>;
}

const INVOICE_BOOKING = discoverablePort<InvoiceBookingListener>();
/** Marks a provider of any module as an InvoiceBookingListener (found through Nest's DiscoveryService). */
export const InvoiceBookingListenerProvider = INVOICE_BOOKING.Implementation;

/** The invoices module's side of the port: tells every listener, in the caller's transaction. */
@Injectable()
export class InvoiceBookingListeners {
  private found?: InvoiceBookingListener[];

  constructor(private readonly discovery: DiscoveryService) {}

  async invoiceBooked(entityId: string, booked: InvoiceBooked): Promise<void> {
    this.found ??= INVOICE_BOOKING.implementations(this.discovery);
    for (const listener of this.found) await listener.invoiceBooked(entityId, booked);
  }
}
