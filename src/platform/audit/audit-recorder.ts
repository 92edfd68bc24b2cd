/**
 * D18: one row per committed mutation. A write made outside an HTTP request (a job, the CLI) has
 * a declared system actor (`system:...`) and no method, path or request id.
 */
export interface AuditRecord {
  entityId: string | null;
  organizationId: string | null;
  actorUserId: string | null;
  declaredActor: string | null;
  credential: 'session' | 'api_key' | null;
  apiKeyId: string | null;
  /** Null (with `path` and `requestId`) for a write made outside an HTTP request. */
  method: string | null;
  path: string | null;
  action: string;
  resourceType: string | null;
  resourceId: string | null;
  requestId: string | null;
  reason: string | null;
}

/** Port: writes the audit row inside the mutation's transaction (implemented by the audit module). */
export abstract class AuditRecorder {
  abstract record(row: AuditRecord): Promise<void>;
  /**
   * The row's INSERT for a single-statement write to run as one of its data-modifying CTEs,
   * numbering its parameters from `firstParameter`; `when` is an SQL condition (e.g. that the
   * change was written) on which the row is inserted.
   */
  abstract insertion(row: AuditRecord, firstParameter: number, when: string): { sql: string; values: unknown[] };
  /**
   * The INSERT of one row per resource id, each a copy of `row` (as if each resource had been
   * written alone), for a batch write to run as one of its data-modifying CTEs; parameters are
   * numbered from `firstParameter`. `when` is an SQL condition on `r.resource_id` (uuid), e.g.
   * that the resource was written by the statement.
   */
  abstract insertionPerResource(row: AuditRecord, resourceIds: string[], firstParameter: number, when: string): { sql: string; values: unknown[] };
}
