import { Injectable } from '@nestjs/common';
import { RecordHostKind, RecordHostListener, RecordHostListenerProvider } from '../../record-hosts';
import { CommentsService } from '../application/comments.service';

/** A deleted record's comments are deleted with it, in its transaction. */
@Injectable()
@RecordHostListenerProvider()
export class CommentsHostListener implements RecordHostListener {
  constructor(private readonly comments: CommentsService) {}

  recordsRemoved(entityId: string, kind: RecordHostKind, ids: string[]): Promise<void> {
    return this.comments.removeOfHosts(entityId, kind, ids);
  }
}
