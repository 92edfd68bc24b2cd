/**
 * The partners' read seam in SQL (issue 32): parts another module composes into its statement
 * (a report's partner names, a search over them), written over the caller's SQL expressions, so
 * that only this module names its table.
 */

/** Relation: the partners of an Entity (`id, name, tax_id, default_purchase_account_id`). */
export function partnerFactsSql(entity: string): string {
  return `(SELECT pn.id, pn.name, pn.tax_id, pn.default_purchase_account_id FROM partners pn WHERE pn.entity_id = ${entity})`;
}

/**
 * Relation: the partners of several Entities (`entity_id, id, tax_id`), `entities` a uuid[]
 * expression: a read over a group (consolidation, D91), multi-shard on Citus.
 */
export function groupPartnerFactsSql(entities: string): string {
  return `(SELECT gp.entity_id, gp.id, gp.tax_id FROM partners gp WHERE gp.entity_id = ANY(${entities}))`;
}

/** Scalar: one partner's name (null when there is none), a lookup by primary key. */
export function partnerNameSql(entity: string, partnerId: string): string {
  return `(SELECT pn.name FROM partners pn WHERE pn.entity_id = ${entity} AND pn.id = ${partnerId})`;
}

