import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { Clock } from '../../../platform/clock/clock';
import { RecordHostKind, RecordHosts } from '../../record-hosts';
import { Comment, CommentActor, commentAlreadyExists, commentHostNotFound, commentNotFound, CommentRepository, commentText, notTheAuthor } from '../domain/comment';

/** D72, D75, D75a. */
@Injectable()
export class CommentsService {
  constructor(
    private readonly comments: CommentRepository,
    private readonly hosts: RecordHosts,
    private readonly clock: Clock,
  ) {}

  async list(entityId: string, hostKind: RecordHostKind, hostId: string): Promise<Comment[]> {
    // A read: the host must exist; nothing to hold.
    if (!(await this.hosts.exists(entityId, hostKind, hostId))) throw commentHostNotFound(hostKind, hostId);
    return this.comments.listOfHost(entityId, hostKind, hostId);
  }

  /** Refusals in order: the id taken (409), the host (404). */
  @Transactional()
  async create(entityId: string, author: string, input: { id: string; hostKind: RecordHostKind; hostId: string; text: string }): Promise<Comment> {
    const text = commentText(input.text);
    if (await this.comments.lock(entityId, input.id)) throw commentAlreadyExists(input.id);
    await this.holdHost(entityId, input.hostKind, input.hostId);
    const now = this.clock.now();
    const comment: Comment = { entityId, id: input.id, hostKind: input.hostKind, hostId: input.hostId, authorUserId: author, text, createdAt: now, updatedAt: now };
    if (!(await this.comments.insert(comment))) throw commentAlreadyExists(input.id);
    return comment;
  }

  @Transactional()
  async update(entityId: string, commentId: string, actor: CommentActor, text: string): Promise<Comment> {
    const comment = await this.comments.lock(entityId, commentId);
    if (!comment) throw commentNotFound(commentId);
    if (comment.authorUserId !== actor.userId) throw notTheAuthor(commentId, 'edit');
    const next = { ...comment, text: commentText(text), updatedAt: this.clock.now() };
    await this.comments.saveText(next);
    return next;
  }

  @Transactional()
  async delete(entityId: string, commentId: string, actor: CommentActor): Promise<Comment> {
    const comment = await this.comments.lock(entityId, commentId);
    if (!comment) throw commentNotFound(commentId);
    if (comment.authorUserId !== actor.userId && !actor.isOrganizationStaff) throw notTheAuthor(commentId, 'delete');
    await this.comments.delete(entityId, commentId);
    return comment;
  }

  @Transactional()
  removeOfHosts(entityId: string, hostKind: RecordHostKind, hostIds: string[]): Promise<void> {
    return this.comments.deleteOfHosts(entityId, hostKind, hostIds);
  }

  private async holdHost(entityId: string, hostKind: RecordHostKind, hostId: string): Promise<void> {
    if (!(await this.hosts.hold(entityId, hostKind, hostId))) throw commentHostNotFound(hostKind, hostId);
  }
}
