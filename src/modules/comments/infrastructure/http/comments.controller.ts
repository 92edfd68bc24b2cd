import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { Authenticated, CurrentPrincipal } from '../../../../platform/auth/decorators';
import { tenantOf } from '../../../../platform/auth/guards/tenant.guard';
import type { Principal } from '../../../../platform/auth/principal';
import { NoBody } from '../../../../platform/http/validation';
import { CommentsService } from '../../application/comments.service';
import type { Comment, CommentActor } from '../../domain/comment';
import { CommentHostQuery, CommentResponse, CreateCommentBody, UpdateCommentBody } from './comments.dto';

function present(c: Comment): CommentResponse {
  return {
    id: c.id,
    entityId: c.entityId,
    hostKind: c.hostKind,
    hostId: c.hostId,
    authorUserId: c.authorUserId,
    text: c.text,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

function actorOf(principal: Principal, request: Request): CommentActor {
  return { userId: principal.user.id, isOrganizationStaff: principal.user.role === 'staff' || tenantOf(request)?.membershipRole === 'staff' };
}

const HOST_404 = 'COMMENT_HOST_NOT_FOUND_ERROR (`params { hostKind, hostId }`): no such record of that kind in the Entity';

@ApiTags('comments')
@Authenticated()
@Controller('entities/:entityId/comments')
export class CommentsController {
  constructor(private readonly comments: CommentsService) {}

  @Get()
  @ApiOkResponse({ type: CommentResponse, isArray: true, description: 'The comments of one record, oldest first' })
  @ApiNotFoundResponse({ description: HOST_404 })
  async list(@Param('entityId') entityId: string, @Query() query: CommentHostQuery): Promise<CommentResponse[]> {
    return (await this.comments.list(entityId, query.hostKind, query.hostId)).map(present);
  }

  @Post()
  @Audit('comment.create', 'comment')
  @ApiCreatedResponse({ type: CommentResponse, description: 'The new comment; its author is the caller' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR' })
  @ApiNotFoundResponse({ description: HOST_404 })
  @ApiConflictResponse({ description: 'COMMENT_ALREADY_EXISTS_ERROR' })
  async create(@Param('entityId') entityId: string, @Body() body: CreateCommentBody, @CurrentPrincipal() principal: Principal): Promise<CommentResponse> {
    return present(await this.comments.create(entityId, principal.user.id, body));
  }

  @Patch(':commentId')
  @Audit('comment.update', 'comment')
  @ApiOkResponse({ type: CommentResponse, description: 'The comment with its new text' })
  @ApiForbiddenResponse({ description: 'PERMISSION_DENIED_ERROR: only the author edits' })
  @ApiNotFoundResponse({ description: 'COMMENT_NOT_FOUND_ERROR' })
  async update(
    @Param('entityId') entityId: string,
    @Param('commentId') commentId: string,
    @Body() body: UpdateCommentBody,
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
  ): Promise<CommentResponse> {
    return present(await this.comments.update(entityId, commentId, actorOf(principal, request), body.text));
  }

  @Delete(':commentId')
  @Audit('comment.delete', 'comment')
  @ApiOkResponse({ type: CommentResponse, description: 'The deleted comment' })
  @ApiForbiddenResponse({ description: 'PERMISSION_DENIED_ERROR: neither the author nor staff of the Organization' })
  @ApiNotFoundResponse({ description: 'COMMENT_NOT_FOUND_ERROR' })
  async delete(
    @Param('entityId') entityId: string,
    @Param('commentId') commentId: string,
    @NoBody() _body: unknown,
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
  ): Promise<CommentResponse> {
    return present(await this.comments.delete(entityId, commentId, actorOf(principal, request)));
  }
}
