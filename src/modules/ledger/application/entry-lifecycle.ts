import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { discoverablePort } from '../../../platform/discovery/discoverable-port';
import type { AllocationRow, ListedLine } from '../domain/entry-ports';

/** Why entries changed in a way that documents booked by them must learn of. */
export type EntryLifecycleReason = 'reversed' | 'unbooked' | 'cancelled' | 'restored' | 'allocations_released' | 'allocations_made' | 'redated';

/** An allocation removed by the ledger (an unbooking, a reversal, a DELETE of the allocation). */
export interface ReleasedAllocation {
  id: string;
  debitLineId: string;
  creditLineId: string;
  accountId: string;
  amount: number;
  kind: 'manual' | 'reversal' | 'match';
}

/** An allocation just written, with the entry and date of each of its lines (issue 22: read models of settlements). */
export interface MadeAllocation extends ReleasedAllocation {
  debitEntryId: string;
  debitEntryDate: string;
  creditEntryId: string;
  creditEntryDate: string;
}

/**
 * What happened, told inside the transaction that did it (a listener's writes commit or roll back
 * with it; a listener that throws rolls the whole change back):
 * - `reversed`: `entryIds` are the originals just reversed (their mirrors were posted);
 * - `unbooked`: the entries that left the books (an unbooked original takes its reversal along);
 * - `cancelled`: scheduled entries cancelled;
 * - `restored`: originals put back to `active` because their reversal was unbooked (D35): the
 *   documents a reversal severed from them are booked by them again, unless booked since by
 *   another entry (or changed since): those stay as they are and the listener answers them as
 *   severed from the restored entry (the unbooking is never refused for a document);
 * - `allocations_released`: allocations removed; `entryIds` are the entries of both lines of
 *   each, in id order.
 * - `allocations_made`: allocations written (an allocation, a match, a reversal's netting);
 *   `entryIds` are the entries of both lines of each, in id order;
 * - `redated`: `entryIds` (one entry) moved to `entryDate`.
 * Each reason is told once per change, `allocations_released` (when any) before the others.
 * The last two change no document's booking: listeners that sever documents ignore them; read
 * models kept in the booking transaction (reports) follow them.
 */
export type EntryLifecycleEvent =
  | { entityId: string; entryIds: string[]; reason: 'reversed' | 'unbooked' | 'cancelled' | 'restored' }
  | { entityId: string; entryIds: string[]; reason: 'allocations_released'; allocations: ReleasedAllocation[] }
  | { entityId: string; entryIds: string[]; reason: 'allocations_made'; allocations: MadeAllocation[] }
  | { entityId: string; entryIds: string[]; reason: 'redated'; entryDate: string };

/**
 * The documents that entries book, declared by the modules that bring them (declaration merging,
 * docs/ARCHITECTURE.md): each adds the key under which a reversal or an unbooking answers the
 * documents it severed, with their type, e.g. in invoices
 * `declare module '../../../ledger' { interface SeveredDocumentKinds { severedInvoices: SeveredInvoice } }`.
 * The ledger names none of them.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the document modules
export interface SeveredDocumentKinds {}
/** The same for the documents an entry booked, on the entry detail (`relatedInvoices: InvoiceSummary`). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the document modules
export interface RelatedDocumentKinds {}

/** What a reversal or an unbooking answers about the documents it severed: a list per declared kind (absent: none). */
export type SeveredDocuments = { [K in keyof SeveredDocumentKinds]?: Array<SeveredDocumentKinds[K]> };
/** The documents an entry booked, a list per declared kind (absent: none). */
export type RelatedDocuments = { [K in keyof RelatedDocumentKinds]?: Array<RelatedDocumentKinds[K]> };

/** Document lists by kind, concatenated in order (what several listeners or events answered). */
function mergeLists<T extends object>(all: Array<T | void>): T {
  const merged: Record<string, unknown[]> = {};
  for (const lists of all) {
    for (const [kind, list] of Object.entries(lists ?? {})) (merged[kind] ??= []).push(...(list as unknown[]));
  }
  return merged as T;
}

/** Port: a module that must act when entries leave the books (sever what they booked, unlink to-dos). */
export interface EntryLifecycleListener {
  onEntryLifecycle(event: EntryLifecycleEvent): Promise<SeveredDocuments | void>;
}

/** Port: a module whose documents are booked by entries (invoices, bank movements). */
export interface EntryDocumentSource {
  /** The documents each of these entries booked (the entry detail reads one entry). */
  relatedDocuments(entityId: string, entryId: string): Promise<RelatedDocuments>;
  /**
   * Which of these lines a document is linked to: such a line keeps its account (spec, line
   * account change; LEDGER_LINE_DOCUMENT_LINKED_ERROR).
   */
  documentLinkedLines(entityId: string, lineIds: string[]): Promise<Set<string>>;
}

const LIFECYCLE_LISTENERS = discoverablePort<EntryLifecycleListener>();
const DOCUMENT_SOURCES = discoverablePort<EntryDocumentSource>();

/**
 * Marks a provider (an @Injectable of any module) as a lifecycle listener of the ledger: the
 * ledger finds every such provider through Nest's DiscoveryService. The class must implement
 * EntryLifecycleListener (checked by the compiler).
 */
export const LedgerLifecycleListener = LIFECYCLE_LISTENERS.Implementation;

/** Marks a provider as a source of the documents booked by entries (EntryDocumentSource). */
export const LedgerDocumentSource = DOCUMENT_SOURCES.Implementation;

/**
 * The ledger's side of both ports: the providers marked with the decorators above, found once in
 * the application's container (they are fixed once it is built; nothing registers at run time).
 */
@Injectable()
export class EntryLifecycle {
  private found?: { listeners: EntryLifecycleListener[]; sources: EntryDocumentSource[] };

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
  ) {}

  private providers() {
    this.found ??= { listeners: LIFECYCLE_LISTENERS.implementations(this.discovery), sources: DOCUMENT_SOURCES.implementations(this.discovery) };
    return this.found;
  }

  /** Tells every listener, in the caller's transaction; answers what they severed. */
  async notify(event: EntryLifecycleEvent): Promise<SeveredDocuments> {
    if (!this.txHost.isTransactionActive()) throw new Error(`Entry lifecycle event ${event.reason} told outside a transaction`);
    if (event.entryIds.length === 0) return {};
    const answers: Array<SeveredDocuments | void> = [];
    for (const listener of this.providers().listeners) answers.push(await listener.onEntryLifecycle(event));
    return mergeLists(answers);
  }

  async relatedDocuments(entityId: string, entryId: string): Promise<RelatedDocuments> {
    const answers: RelatedDocuments[] = [];
    for (const source of this.providers().sources) answers.push(await source.relatedDocuments(entityId, entryId));
    return mergeLists(answers);
  }

  /** No module links documents to lines: then no query at all. */
  async documentLinkedLines(entityId: string, lineIds: string[]): Promise<Set<string>> {
    const linked = new Set<string>();
    for (const source of this.providers().sources) {
      for (const lineId of await source.documentLinkedLines(entityId, lineIds)) linked.add(lineId);
    }
    return linked;
  }
}

export /** The event of allocations removed from these (locked) lines. */
function releasedEvent(entityId: string, allocations: AllocationRow[], lines: ListedLine[]): EntryLifecycleEvent {
  return {
    entityId,
    reason: 'allocations_released',
    entryIds: [...new Set(lines.map((l) => l.entryId))].sort(),
    allocations: allocations.map(({ id, debitLineId, creditLineId, accountId, amount, kind }) => ({ id, debitLineId, creditLineId, accountId, amount, kind })),
  };
}

/** The event of allocations just written between these lines (every line of each allocation among them). */
export function madeEvent(entityId: string, allocations: AllocationRow[], lines: Array<Pick<ListedLine, 'id' | 'entryId' | 'entryDate'>>): EntryLifecycleEvent {
  const byId = new Map(lines.map((l) => [l.id, l]));
  const made = allocations.map(({ id, debitLineId, creditLineId, accountId, amount, kind }) => {
    const debit = byId.get(debitLineId)!;
    const credit = byId.get(creditLineId)!;
    return { id, debitLineId, creditLineId, accountId, amount, kind, debitEntryId: debit.entryId, debitEntryDate: debit.entryDate, creditEntryId: credit.entryId, creditEntryDate: credit.entryDate };
  });
  return { entityId, reason: 'allocations_made', entryIds: [...new Set(made.flatMap((a) => [a.debitEntryId, a.creditEntryId]))].sort(), allocations: made };
}

/** Severed documents of several events, in order. */
export function mergeSevered(...all: SeveredDocuments[]): SeveredDocuments {
  return mergeLists(all);
}
