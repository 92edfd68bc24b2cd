import { Injectable } from '@nestjs/common';
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
 * What other modules do when invoices change, inside the same transaction: to-dos linked to them
 * become stand-alone, attachments and comments hosted by them go (spec "To-do": linked record
 * deleted); read models of booked invoices learn of a booking (their unbooking comes from the
 * ledger's lifecycle port, with the entry). Modules register when they start.
 */
export interface InvoiceLifecycleListener {
  invoicesDeleted?(entityId: string, invoiceIds: string[]): Promise<void>;
  invoiceBooked?(entityId: string, booked: InvoiceBooked): Promise<void>;
}

@Injectable()
export class InvoiceLifecycleHooks {
  private readonly listeners: InvoiceLifecycleListener[] = [];

  register(listener: InvoiceLifecycleListener): void {
    this.listeners.push(listener);
  }

  async invoicesDeleted(entityId: string, invoiceIds: string[]): Promise<void> {
    for (const listener of this.listeners) await listener.invoicesDeleted?.(entityId, invoiceIds);
  }

  async invoiceBooked(entityId: string, booked: InvoiceBooked): Promise<void> {
    for (const listener of this.listeners) await listener.invoiceBooked?.(entityId, booked);
  }
}
