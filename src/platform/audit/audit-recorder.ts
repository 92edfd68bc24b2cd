/** D18: one row per committed mutation. */
export interface AuditRecord {
  entityId: string | null;
  organizationId: string | null;
  actorUserId: string | null;
  declaredActor: string | null;
  credential: 'session' | 'api_key' | null;
  apiKeyId: string | null;
  method: string;
  path: string;
  action: string;
  resourceType: string | null;
  resourceId: string | null;
  requestId: string;
  reason: string | null;
}

/** Port: writes the audit row inside the mutation's transaction (implemented by the audit module). */
export abstract class AuditRecorder {
  abstract record(row: AuditRecord): Promise<void>;
}
