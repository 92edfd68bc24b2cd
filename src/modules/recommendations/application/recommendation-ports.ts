import type { BookedRecord } from '../domain/similarity';

export type RecordKind = 'bank_movement' | 'invoice';

/** The record to recommend a booking for: what describes it, and which earlier records compare. */
export interface RecommendationTarget {
  kind: RecordKind;
  id: string;
  taxId: string | null;
  description: string;
  /** Movements: `debit` or `credit` (money in or out); invoices: `ar` or `ap`. Only records of the same flow compare. */
  flow: string;
}

/** How many similar booked records an answer compares: the newest sharing a RUT, and the newest sharing a word. */
export interface CandidateLimits {
  byRut: number;
  byWords: number;
}

/**
 * The booked records of an Entity and how each was booked (the counter line's account and
 * partner and its dimension values): a read model over the banking and invoices tables and the
 * lines of their live booking entries.
 */
export abstract class BookingHistory {
  abstract target(entityId: string, kind: RecordKind, id: string): Promise<RecommendationTarget | null>;
  /**
   * Booked records of `kind` and `flow` (not `excludeId`) that share one of `ruts` (as
   * counterparty or printed in the description) or one of `words` in their description, newest
   * first: bank movements at most `limit.byRut` of the counterparty's RUT and `limit.byWords`
   * sharing a word or a printed RUT; invoices at most their sum, either way.
   */
  abstract similarBooked(entityId: string, query: { kind: RecordKind; flow: string; ruts: string[]; words: string[]; excludeId: string; limit: CandidateLimits }): Promise<BookedRecord[]>;
}
