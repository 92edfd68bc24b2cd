import { Module } from '@nestjs/common';
import { RecordHostsModule } from '../record-hosts';
import { CommentsService } from './application/comments.service';
import { CommentRepository } from './domain/comment';
import { CommentsHostListener } from './infrastructure/comments-host-listener';
import { CommentsController } from './infrastructure/http/comments.controller';
import { SqlCommentRepository } from './infrastructure/persistence/comment.repository';

/** Comments on invoices, bank movements and ledger entries (D72, D75, D75a). */
@Module({
  imports: [RecordHostsModule],
  controllers: [CommentsController],
  providers: [{ provide: CommentRepository, useClass: SqlCommentRepository }, CommentsService, CommentsHostListener],
  exports: [CommentsService],
})
export class CommentsModule {}
