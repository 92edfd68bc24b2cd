// The comments module's API.
export { CommentsModule } from './comments.module';
export { CommentsService } from './application/comments.service';
import { CommentRecord } from './infrastructure/persistence/comment.record';
export const COMMENT_RECORDS = [CommentRecord];
