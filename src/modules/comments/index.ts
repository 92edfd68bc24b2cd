// The comments module's API.
export { CommentsModule } from './comments.module';
export { CommentsService } from './application/comments.service';
