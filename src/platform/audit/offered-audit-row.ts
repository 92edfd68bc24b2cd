import { Injectable } from '@nestjs/common';
import { AuditContext } from './audit-context';
import { AuditRecorder } from './audit-recorder';

/**
 * For a handler that writes in its own transaction (an `ownTransaction` or `singleStatement`
 * route, a SystemWrites `ownTransaction` job): inserts, inside that transaction, the audit row
 * offered to this request, so the change and its row commit together. Nothing when none was
 * offered (a call from inside a larger mutation, whose own row is recorded by its caller).
 */
@Injectable()
export class OfferedAuditRow {
  constructor(
    private readonly context: AuditContext,
    private readonly recorder: AuditRecorder,
  ) {}

  async record(resourceId: string | null): Promise<void> {
    const row = this.context.statementRow(resourceId);
    if (row) await this.recorder.record(row);
  }
}
