/**
 * The banking module's read seam in SQL (issue 32): relations another module composes into its
 * statement (the recommendations' booking history), written over the caller's SQL expression of
 * the Entity, so that only this module names its tables.
 */

/** Relation: the bank movements of an Entity (every column of a movement: `id, bank_account_id, movement_date, description, amount, side, reference, counterparty_name, counterparty_tax_id, source, ledger_entry_id, ...`). */
export function bankMovementsSql(entity: string): string {
  return `(SELECT bm.* FROM bank_movements bm WHERE bm.entity_id = ${entity})`;
}

/** Relation: the bank accounts of an Entity (`id, name, kind, ledger_account_id, currency, ...`). */
export function bankAccountsSql(entity: string): string {
  return `(SELECT ba.* FROM bank_accounts ba WHERE ba.entity_id = ${entity})`;
}
