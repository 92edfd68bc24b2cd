import { Injectable } from '@nestjs/common';
import { ClsService } from 'nestjs-cls';

export interface AuditDetails {
  resourceId?: string | null;
  entityId?: string | null;
  organizationId?: string | null;
  /** The acting user when the request had none before the handler (sign-in). */
  actorUserId?: string | null;
}

const KEY = 'audit:details';

/** What a handler knows about the change it made, for the audit row written after it. */
@Injectable()
export class AuditContext {
  constructor(private readonly cls: ClsService) {}

  describe(details: AuditDetails): void {
    this.cls.set(KEY, { ...this.details(), ...details });
  }

  details(): AuditDetails {
    return (this.cls.isActive() ? this.cls.get<AuditDetails>(KEY) : undefined) ?? {};
  }
}
