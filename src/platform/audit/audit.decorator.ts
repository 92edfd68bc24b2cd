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
  /**
   * The handler asks an outside service (a bank provider, the service itself over HTTP) before it
   * writes, so no transaction may be held open around it: it writes in its own transaction and
   * inserts the offered row there (AuditContext.statementRow), as a single-statement route does.
   */
  ownTransaction?: boolean;
}

/** Every mutating route names its audit action; a test walks the routes to check it. */
export const Audit = (action: string, resourceType: string, options: Pick<AuditDescription, 'singleStatement' | 'ownTransaction'> = {}) =>
  SetMetadata(AUDIT_METADATA, { action, resourceType, ...options });
