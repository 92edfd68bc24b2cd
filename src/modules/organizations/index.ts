/** The Organizations module's API for other modules; import from here only (eslint `boundaries` rule). */
export { OrganizationsModule } from './organizations.module';
export { OrganizationsService } from './application/organizations.service';
export { MembershipsService } from './application/memberships.service';
export { organizationNotFound } from './domain/organization-errors';
export { OrganizationEntities } from './domain/organization-ports';
export { ORGANIZATION_RECORDS } from './infrastructure/persistence/organization.records';
// Read seam (issue 32): the Membership role as an SQL part, for the tenant guard's one query.
export { membershipRoleSql } from './infrastructure/persistence/membership-read.sql';
