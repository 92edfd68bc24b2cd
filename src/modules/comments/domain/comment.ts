import { characterCount, DomainError, errorCatalog, validationError } from '../../../../libs/shared-kernel/src';
import { hostNotFound, RecordHostKind } from '../../record-hosts';

/**
 * Every code comments answers, with its HTTP status: the one place each is declared. The compiler
 * checks the table (D3: a *_NOT_FOUND_ERROR is 404) and that every error built here names a code
 * of it.
 */
export const COMMENT_ERROR_STATUS = {
  COMMENT_ALREADY_EXISTS_ERROR: 409,
  COMMENT_HOST_NOT_FOUND_ERROR: 404,
  COMMENT_NOT_FOUND_ERROR: 404,
} as const;

export const commentError = errorCatalog(COMMENT_ERROR_STATUS);

/** D72: 1 to 2,000 characters; like a To-do's text, judged and stored trimmed. */
export const COMMENT_TEXT_MAX = 2000;

export interface Comment {
  entityId: string;
  id: string;
  hostKind: RecordHostKind;
  hostId: string;
  authorUserId: string;
  text: string;
  createdAt: Date;
  updatedAt: Date;
}

export function commentText(text: string): string {
  const trimmed = text.trim();
  const length = characterCount(trimmed);
  if (length === 0 || length > COMMENT_TEXT_MAX) throw validationError('text', `must contain 1 to ${COMMENT_TEXT_MAX} characters after trimming`);
  return trimmed;
}

/** Who may change a comment (D75): its author edits; its author, global staff and staff Members delete. */
export interface CommentActor {
  userId: string;
  /** Global staff, or a `staff` Membership in the Entity's Organization. */
  isOrganizationStaff: boolean;
}

export const commentNotFound = (commentId: string) => commentError('COMMENT_NOT_FOUND_ERROR', 'No comment with this id in the Entity', { commentId });
export const commentAlreadyExists = (commentId: string) => commentError('COMMENT_ALREADY_EXISTS_ERROR', 'A comment with this id already exists', { commentId });
export const commentHostNotFound = (hostKind: RecordHostKind, hostId: string) => hostNotFound(commentError, 'COMMENT_HOST_NOT_FOUND_ERROR', hostKind, hostId);
export const notTheAuthor = (commentId: string, action: 'edit' | 'delete') =>
  new DomainError('PERMISSION_DENIED_ERROR', action === 'edit' ? 'Only its author edits a comment' : 'Only its author or staff of the Organization delete a comment', { commentId });

export abstract class CommentRepository {
  abstract insert(comment: Comment): Promise<boolean>;
  abstract lock(entityId: string, id: string): Promise<Comment | null>;
  abstract saveText(comment: Comment): Promise<void>;
  abstract delete(entityId: string, id: string): Promise<void>;
  /** Oldest first (createdAt, id). */
  abstract listOfHost(entityId: string, hostKind: RecordHostKind, hostId: string): Promise<Comment[]>;
  abstract deleteOfHosts(entityId: string, hostKind: RecordHostKind, hostIds: string[]): Promise<void>;
}
