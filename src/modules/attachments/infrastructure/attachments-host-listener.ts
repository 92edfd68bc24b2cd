import { Injectable } from '@nestjs/common';
import { Clock } from '../../../platform/clock/clock';
import { RecordHostKind, RecordHostListener, RecordHostListenerProvider } from '../../record-hosts';
import { AttachmentRepository } from '../domain/attachment-repository';

/**
 * A deleted record's attachments (and open upload slots) are discarded in its transaction: gone
 * from every answer at once; the sweeper then removes each object, then its row.
 */
@Injectable()
@RecordHostListenerProvider()
export class AttachmentsHostListener implements RecordHostListener {
  constructor(
    private readonly attachments: AttachmentRepository,
    private readonly clock: Clock,
  ) {}

  recordsRemoved(entityId: string, kind: RecordHostKind, ids: string[]): Promise<void> {
    return this.attachments.discardOfHosts(entityId, kind, ids, this.clock.now());
  }
}
