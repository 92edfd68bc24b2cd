import { Injectable } from '@nestjs/common';

export interface SeveredRecords {
  severedInvoices: Array<Record<string, unknown>>;
  severedMovements: Array<Record<string, unknown>>;
}

/**
 * What other modules do when entries leave the books, inside the same transaction: invoices and
 * bank movements booked by them go back to unbooked (and are reported as severed), and to-dos
 * linked to them lose their link (D35, D71). Modules register when they start.
 */
export interface EntryLifecycleHook {
  /** Entries unbooked or reversed: sever what they booked. */
  entriesLeftBooks?(entityId: string, entryIds: string[]): Promise<Partial<SeveredRecords>>;
  /** Entries unbooked or cancelled: linked to-dos become stand-alone. */
  entriesGone?(entityId: string, entryIds: string[]): Promise<void>;
  /**
   * Which of these lines a document (an invoice, a bank movement) is linked to: such a line keeps
   * its account (spec, line account change; LEDGER_LINE_DOCUMENT_LINKED_ERROR).
   */
  documentLinkedLines?(entityId: string, lineIds: string[]): Promise<Set<string>>;
}

@Injectable()
export class EntryLifecycleHooks {
  private readonly hooks: EntryLifecycleHook[] = [];

  register(hook: EntryLifecycleHook): void {
    this.hooks.push(hook);
  }

  async entriesLeftBooks(entityId: string, entryIds: string[]): Promise<SeveredRecords> {
    const severed: SeveredRecords = { severedInvoices: [], severedMovements: [] };
    for (const hook of this.hooks) {
      const result = (await hook.entriesLeftBooks?.(entityId, entryIds)) ?? {};
      severed.severedInvoices.push(...(result.severedInvoices ?? []));
      severed.severedMovements.push(...(result.severedMovements ?? []));
    }
    return severed;
  }

  async entriesGone(entityId: string, entryIds: string[]): Promise<void> {
    for (const hook of this.hooks) await hook.entriesGone?.(entityId, entryIds);
  }

  /** No module links documents to lines yet (invoices, bank movements): then no query at all. */
  async documentLinkedLines(entityId: string, lineIds: string[]): Promise<Set<string>> {
    const linked = new Set<string>();
    for (const hook of this.hooks) {
      for (const lineId of (await hook.documentLinkedLines?.(entityId, lineIds)) ?? []) linked.add(lineId);
    }
    return linked;
  }
}

/**
 * Port to the partners module: which of these partners exist in the Entity, key-share-locked (in
 * id order) for the rest of the transaction, as ChartRepository.accountsByIds with `hold`: lines
 * about to name them are being written.
 */
export abstract class PartnerDirectory {
  abstract holdExisting(entityId: string, partnerIds: string[]): Promise<Set<string>>;
}
