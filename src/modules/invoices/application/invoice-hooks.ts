import { Injectable } from '@nestjs/common';

/**
 * What other modules do when invoices go, inside the same transaction: to-dos linked to them
 * become stand-alone, attachments and comments hosted by them go (spec "To-do": linked record
 * deleted). Modules register when they start.
 */
export interface InvoiceLifecycleListener {
  invoicesDeleted(entityId: string, invoiceIds: string[]): Promise<void>;
}

@Injectable()
export class InvoiceLifecycleHooks {
  private readonly listeners: InvoiceLifecycleListener[] = [];

  register(listener: InvoiceLifecycleListener): void {
    this.listeners.push(listener);
  }

  async invoicesDeleted(entityId: string, invoiceIds: string[]): Promise<void> {
    for (const listener of this.listeners) await listener.invoicesDeleted(entityId, invoiceIds);
  }
}
