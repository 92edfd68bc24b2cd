import { DomainError } from '../../../../libs/shared-kernel/src';

/**
 * The records that attachments, comments and To-dos hang on (spec "Attachment", "To-do"; D70,
 * D72): invoices, bank movements and ledger entries. Each host module implements RecordHost for
 * its kind; the attachments, comments and to-dos modules reach hosts only through this port.
 */
export const RECORD_HOST_KINDS = ['invoice', 'bank_movement', 'ledger_entry'] as const;
export type RecordHostKind = (typeof RECORD_HOST_KINDS)[number];

/** The spec's `link` of a To-do, by kind. */
export interface InvoiceLinkSummary {
  kind: 'invoice';
  id: string;
  direction: string;
  documentKind: string;
  documentNumber: string;
  partnerName: string | null;
}

export interface BankMovementLinkSummary {
  kind: 'bank_movement';
  id: string;
  bankAccountId: string;
  movementDate: string;
  amount: number;
  side: string;
  bankAccountCurrency: string;
}

export interface LedgerEntryLinkSummary {
  kind: 'ledger_entry';
  id: string;
  entryDate: string;
  memo: string;
}

export type LinkSummary = InvoiceLinkSummary | BankMovementLinkSummary | LedgerEntryLinkSummary;

export interface HostedRecord {
  /**
   * Whether a new To-do may link to it: false for an unbooked (`deleted`) or `cancelled` ledger
   * entry (spec, To-dos). Attachments and comments may hang on any record that exists.
   */
  linkable: boolean;
}

/** Implemented once per kind by the module that owns the records. */
export interface RecordHost {
  readonly kind: RecordHostKind;
  /**
   * The record `id` of this kind in the Entity, or null. Inside a transaction the record is held
   * until it ends (`FOR KEY SHARE`, or `FOR SHARE` where a change of state makes it unlinkable),
   * so that a deletion waits for the attachment, comment or To-do being written on it, and then
   * removes or unlinks that too.
   */
  hold(entityId: string, id: string): Promise<HostedRecord | null>;
  /**
   * hold()'s SELECT as SQL text, the Entity id and the record id being `$1` and `$2` (renumber
   * with shiftPlaceholders): one row when the record exists, held as hold() holds it. For a single-statement write (one round trip, no transaction) to hold the host in one of
   * its CTEs, e.g. `WITH host AS (...) INSERT ... SELECT ... FROM host`.
   */
  holdQuery(): string;
  /** Whether the record exists, read without a lock (reads of what hangs on it). */
  exists(entityId: string, id: string): Promise<boolean>;
  /** The To-do link summaries of these records, by id (ids of no record are left out): one query. */
  linkSummaries(entityId: string, ids: string[]): Promise<Map<string, LinkSummary>>;
}

/**
 * What must follow a host's records when they are deleted, in the deleting transaction:
 * attachments are discarded (their objects removed by the sweeper, then their rows), comments
 * deleted, To-dos unlinked (docs/DECISIONS.md, issue 21).
 */
export interface RecordHostListener {
  recordsRemoved(entityId: string, kind: RecordHostKind, ids: string[]): Promise<void>;
}

/** The not-found code of a module hanging on hosts, built by its catalog, with `{ hostKind, hostId }` (D70, D75a). */
export function hostNotFound<C extends string>(
  error: (code: C, message: string, params: Record<string, unknown>) => DomainError,
  code: C,
  hostKind: RecordHostKind,
  hostId: string,
): DomainError {
  return error(code, `No ${hostKind.replace('_', ' ')} with this id in the Entity`, { hostKind, hostId });
}
