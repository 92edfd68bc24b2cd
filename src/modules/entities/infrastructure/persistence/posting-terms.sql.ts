/**
 * The posting terms of an Entity (its id, functional currency and lock date) as an SQL subquery
 * for a statement of another module to embed (the ledger's posting statement, which must stay one
 * statement): `entityId` is an SQL expression of that statement; `share` share-locks the row, so
 * that a lock-date change waits for the posting (D24). The entities table is read here only;
 * EntitiesService.postingTerms answers the same question as a call.
 */
export function postingTermsSql(entityId: string, share: boolean): string {
  return `(SELECT e.id, e.currency, e.ledger_lock_date FROM entities e WHERE e.id = ${entityId}${share ? ' FOR SHARE' : ''})`;
}

/**
 * Read seam (issue 32): an Entity's facts other modules' statements need (`id, organization_id,
 * name, country, tax_id, currency, ledger_lock_date, parent_entity_id`), as a subquery over the
 * caller's SQL expression of its id.
 */
export function entityFactsSql(entityId: string): string {
  return `(SELECT ef.id, ef.organization_id, ef.name, ef.country, ef.tax_id, ef.currency, ef.ledger_lock_date, ef.parent_entity_id FROM entities ef WHERE ef.id = ${entityId})`;
}
