import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { Authenticated, CurrentPrincipal, StaffOnly } from '../../../../platform/auth/decorators';
import type { Principal } from '../../../../platform/auth/principal';
import { NoBody } from '../../../../platform/http/validation';
import { Caller, ConversationsService } from '../../application/conversations.service';
import { ProposalsService } from '../../application/proposals.service';
import { TurnService } from '../../application/turn.service';
import type { Conversation, Message, Proposal } from '../../domain/conversation';
import {
  ApplyResponse,
  ConversationDetailResponse,
  ConversationResponse,
  CreateConversationBody,
  MessageResponse,
  ModelResponse,
  PostMessageBody,
  ProposalResponse,
  TurnResponse,
} from './agents.dto';

const callerOf = (principal: Principal): Caller => ({ id: principal.user.id, role: principal.user.role });

function presentConversation(c: Conversation): ConversationResponse {
  return { id: c.id, entityId: c.entityId, userId: c.userId, title: c.title, model: c.model, createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString() };
}

function presentMessage(m: Message): MessageResponse {
  return { id: m.id, role: m.role, content: m.content, toolCalls: m.toolCalls, toolCallId: m.toolCallId, createdAt: m.createdAt.toISOString() };
}

function presentProposal(p: Proposal): ProposalResponse {
  return {
    id: p.id,
    conversationId: p.conversationId,
    method: p.method,
    path: p.path,
    body: p.body,
    summary: p.summary,
    status: p.status,
    response: p.response,
    createdAt: p.createdAt.toISOString(),
    decidedAt: p.decidedAt ? p.decidedAt.toISOString() : null,
  };
}

@ApiTags('agents')
@Authenticated()
@StaffOnly()
@Controller('agents')
export class AgentModelsController {
  constructor(private readonly conversations: ConversationsService) {}

  @Get('models')
  @ApiOkResponse({ type: ModelResponse, isArray: true, description: 'D86: the configured models in order, the first the default; [] when none' })
  models(): ModelResponse[] {
    return this.conversations.models();
  }
}

@ApiTags('agents')
@Authenticated()
@StaffOnly()
@Controller('entities/:entityId/agents/conversations')
export class ConversationsController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly turns: TurnService,
    private readonly proposals: ProposalsService,
  ) {}

  @Post()
  @Audit('agent.conversation.create', 'agent_conversation')
  @ApiCreatedResponse({ type: ConversationResponse, description: 'The new conversation' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR (an unknown model among them)' })
  @ApiConflictResponse({ description: 'AGENT_CONVERSATION_ALREADY_EXISTS_ERROR' })
  async create(@CurrentPrincipal() principal: Principal, @Param('entityId') entityId: string, @Body() body: CreateConversationBody): Promise<ConversationResponse> {
    return presentConversation(await this.conversations.create(callerOf(principal), entityId, body));
  }

  @Get()
  @ApiOkResponse({ type: ConversationResponse, isArray: true, description: "The caller's conversations of the Entity, most recently updated first" })
  async list(@CurrentPrincipal() principal: Principal, @Param('entityId') entityId: string): Promise<ConversationResponse[]> {
    return (await this.conversations.list(callerOf(principal), entityId)).map(presentConversation);
  }

  @Get(':conversationId')
  @ApiOkResponse({ type: ConversationDetailResponse, description: 'The conversation with its messages (oldest first) and proposals' })
  @ApiNotFoundResponse({ description: "AGENT_CONVERSATION_NOT_FOUND_ERROR (also another User's)" })
  async get(@CurrentPrincipal() principal: Principal, @Param('entityId') entityId: string, @Param('conversationId') conversationId: string): Promise<ConversationDetailResponse> {
    const { conversation, messages, proposals } = await this.conversations.get(callerOf(principal), entityId, conversationId);
    return { ...presentConversation(conversation), messages: messages.map(presentMessage), proposals: proposals.map(presentProposal) };
  }

  @Post(':conversationId/messages')
  @Audit('agent.message.create', 'agent_message', { singleStatement: true })
  @ApiCreatedResponse({ type: TurnResponse, description: "D88: one turn: the user message, the assistant's reply, the tool runs and the proposals made" })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR (content 1 to 8,000 characters after trimming)' })
  @ApiNotFoundResponse({ description: 'AGENT_CONVERSATION_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'AGENT_MESSAGE_ALREADY_EXISTS_ERROR, or AGENT_TURN_IN_PROGRESS_ERROR while another message of the conversation is being answered' })
  @ApiBadGatewayResponse({ description: 'AGENT_MODEL_ERROR: the model was unreachable, too slow or answered an error or no chat completion; the user message is kept' })
  @ApiServiceUnavailableResponse({ description: 'AGENT_NOT_CONFIGURED_ERROR' })
  async post(
    @CurrentPrincipal() principal: Principal,
    @Param('entityId') entityId: string,
    @Param('conversationId') conversationId: string,
    @Body() body: PostMessageBody,
  ): Promise<TurnResponse> {
    const turn = await this.turns.run(callerOf(principal), entityId, conversationId, body);
    return {
      message: presentMessage(turn.message),
      reply: presentMessage(turn.reply),
      toolRuns: turn.toolRuns,
      proposals: turn.proposals.map(presentProposal),
      leaseKeyId: turn.leaseKeyId,
    };
  }

  @Post(':conversationId/proposals/:proposalId/apply')
  @HttpCode(200)
  @Audit('agent.proposal.apply', 'agent_proposal', { ownTransaction: true })
  @ApiOkResponse({ type: ApplyResponse, description: 'D89: the write was made as the caller with declared actor erwin:<conversationId>; status applied (2xx) or failed' })
  @ApiNotFoundResponse({ description: 'AGENT_CONVERSATION_NOT_FOUND_ERROR or AGENT_PROPOSAL_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'AGENT_PROPOSAL_NOT_PENDING_ERROR' })
  async apply(
    @CurrentPrincipal() principal: Principal,
    @Param('entityId') entityId: string,
    @Param('conversationId') conversationId: string,
    @Param('proposalId') proposalId: string,
    @NoBody() _body: unknown,
  ): Promise<ApplyResponse> {
    const { proposal, response } = await this.proposals.apply(callerOf(principal), entityId, conversationId, proposalId);
    return { proposal: presentProposal(proposal), response };
  }

  @Post(':conversationId/proposals/:proposalId/reject')
  @HttpCode(200)
  @Audit('agent.proposal.reject', 'agent_proposal')
  @ApiOkResponse({ type: ProposalResponse, description: 'The rejected proposal' })
  @ApiNotFoundResponse({ description: 'AGENT_CONVERSATION_NOT_FOUND_ERROR or AGENT_PROPOSAL_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'AGENT_PROPOSAL_NOT_PENDING_ERROR' })
  async reject(
    @CurrentPrincipal() principal: Principal,
    @Param('entityId') entityId: string,
    @Param('conversationId') conversationId: string,
    @Param('proposalId') proposalId: string,
    @NoBody() _body: unknown,
  ): Promise<ProposalResponse> {
    return presentProposal(await this.proposals.reject(callerOf(principal), entityId, conversationId, proposalId));
  }
}
