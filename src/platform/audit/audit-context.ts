import { Injectable } from '@nestjs/common';
import { ClsService } from 'nestjs-cls';
import type { AuditRecord } from './audit-recorder';

export interface AuditDetails {
  resourceId?: string | null;
  entityId?: string | null;
  organizationId?: string | null;
  /** The acting user when the request had none before the handler (sign-in). */
  actorUserId?: string | null;
}

const KEY = 'audit:details';
const RECORDER = 'audit:recorder';
const STATEMENT_ROW = 'audit:statement-row';

interface StatementRow {
  draft: AuditRecord;
  claimed: boolean;
  /** Taken by a use case (takeStatementRow): offered to nobody else. */
  taken?: boolean;
}

/** What a handler knows about the change it made, for the audit row written after it. */
@Injectable()
export class AuditContext {
  constructor(private readonly cls: ClsService) {}

  /**
   * Called by whatever records this context's audit row: AuditedMutations for an HTTP
   * mutation, SystemWrites for a job or the CLI. Writers refuse to run where nobody does.
   */
  open(recorder: 'http' | 'system'): void {
    this.cls.set(RECORDER, recorder);
  }

  /** Whether an audit row will be recorded for writes made now (see open). */
  isOpen(): boolean {
    return this.cls.isActive() && this.cls.get<string | undefined>(RECORDER) !== undefined;
  }

  describe(details: AuditDetails): void {
    this.cls.set(KEY, { ...this.details(), ...details });
  }

  details(): AuditDetails {
    return (this.cls.isActive() ? this.cls.get<AuditDetails>(KEY) : undefined) ?? {};
  }

  /** Set by AuditedMutations on a single-statement route (see AuditDescription). */
  offerStatementRow(draft: AuditRecord): void {
    this.cls.set<StatementRow>(STATEMENT_ROW, { draft, claimed: false });
  }

  /**
   * The audit row a single-statement write must insert together with its change, or null when
   * the request's transaction records it (any other route, or a call from inside a larger
   * mutation). Claiming it tells AuditedMutations that the write inserts it.
   */
  statementRow(resourceId: string | null): AuditRecord | null {
    const offered = this.cls.isActive() ? this.cls.get<StatementRow | undefined>(STATEMENT_ROW) : undefined;
    if (!offered || offered.taken) return null;
    offered.claimed = true;
    return { ...offered.draft, resourceId };
  }

  /**
   * As statementRow, for a use case that runs several statements in its own transaction and
   * inserts the row in its last one: the offer is withdrawn, so the writers it calls meanwhile
   * (a ledger posting) find none to insert. Null where the request's transaction records it.
   */
  takeStatementRow(resourceId: string | null): AuditRecord | null {
    const row = this.statementRow(resourceId);
    if (row) this.cls.set<StatementRow>(STATEMENT_ROW, { draft: row, claimed: true, taken: true });
    return row;
  }

  /** Whether the handler's own statement inserted the offered row. */
  statementRowClaimed(): boolean {
    return (this.cls.isActive() ? this.cls.get<StatementRow | undefined>(STATEMENT_ROW) : undefined)?.claimed ?? false;
  }
}
