/**
 * The organizations' read seam in SQL (issue 32): a part another module composes into its
 * statement (the tenant guard's one query), written over the caller's SQL expressions, so that
 * only this module names its tables.
 */

/** Scalar: the role of a User's Membership in an Organization, null when there is none (primary key lookup). */
export function membershipRoleSql(organizationId: string, userId: string): string {
  return `(SELECT mr.role FROM memberships mr WHERE mr.organization_id = ${organizationId} AND mr.user_id = ${userId})`;
}
