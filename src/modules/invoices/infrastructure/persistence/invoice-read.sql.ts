/**
 * The invoices module's read seam in SQL (issue 32): a relation another module composes into its
 * statement (the recommendations' booking history), written over the caller's SQL expression of
 * the Entity, so that only this module names its table.
 */

/** Relation: the invoices of an Entity (every column: `id, direction, partner_id, issue_date, description, book_status, ledger_entry_id, open_item_line_id, ...`). */
export function invoicesSql(entity: string): string {
  return `(SELECT iv.* FROM invoices iv WHERE iv.entity_id = ${entity})`;
}
