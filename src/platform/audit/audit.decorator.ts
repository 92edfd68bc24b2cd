import { SetMetadata } from '@nestjs/common';

export const AUDIT_METADATA = 'audit:description';

export interface AuditDescription {
  /** What happened, e.g. `organization.create`. */
  action: string;
  /** The kind of record changed, e.g. `organization`. */
  resourceType: string;
  /**
   * The handler writes its whole change as one SQL statement that also inserts the audit row
   * (AuditContext.statementRow), so no transaction is opened around it: one round trip instead
   * of BEGIN, the write, the audit insert and COMMIT.
   */
  singleStatement?: boolean;
}

/** Every mutating route names its audit action; a test walks the routes to check it. */
export const Audit = (action: string, resourceType: string, options: { singleStatement?: boolean } = {}) =>
  SetMetadata(AUDIT_METADATA, { action, resourceType, ...options });
