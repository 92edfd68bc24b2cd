/**
 * Issue 36c: folding the monthly totals of past months. A posting adds to one of 32 slots of its
 * account's (and partner's) month, so that concurrent postings do not queue on one row; readers
 * sum the slots. Once a month is over its slots are folded into one row, on a slot postings never
 * write, so that a balance over past months reads one row per account, Book and month.
 */

/** What one round of folding an Entity's past months did. */
export type FoldRound =
  /** Another round on the same Entity was running (another instance, or the CLI): nothing done. */
  | { status: 'busy' }
  /** `accountRows` and `partnerRows` slot rows folded (each bound by the round's limit). */
  | { status: 'folded'; accountRows: number; partnerRows: number };

export abstract class MonthlyTotalsFolds {
  /**
   * The Entities after `after` (uuid order; null: from the first) with a month before `before`
   * (the first day of a month) still on posting slots, at most `limit`. Reads without locks.
   */
  abstract entitiesWithUnfoldedMonths(before: string, after: string | null, limit: number): Promise<string[]>;

  /**
   * In the caller's transaction: folds at most `limit` slot rows of months before `before` of
   * each totals table of the Entity into their month's folded row. Never waits on a posting: a
   * row a posting holds is left for a later round. Busy when another round on the Entity runs.
   */
  abstract foldRound(entityId: string, before: string, limit: number): Promise<FoldRound>;
}
