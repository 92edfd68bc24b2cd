import { SetMetadata } from '@nestjs/common';

export const AUDIT_METADATA = 'audit:description';

export interface AuditDescription {
  /** What happened, e.g. `organization.create`. */
  action: string;
  /** The kind of record changed, e.g. `organization`. */
  resourceType: string;
}

/** Every mutating route names its audit action; a test walks the routes to check it. */
export const Audit = (action: string, resourceType: string) => SetMetadata(AUDIT_METADATA, { action, resourceType });
