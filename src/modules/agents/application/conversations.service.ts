import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Transactional } from '@nestjs-cls/transactional';
import { characterCount, validationError } from '../../../../libs/shared-kernel/src';
import { Clock } from '../../../platform/clock/clock';
import type { AgentsConfig, RuntimeConfig } from '../../../platform/config/app-config';
import { isUniqueViolation } from '../../../platform/database/pg-errors';
import { AgentRepository } from '../domain/agent-ports';
import { Conversation, conversationAlreadyExists, conversationNotFound, Message, Proposal, TITLE_MAX_CHARS } from '../domain/conversation';

export interface Caller {
  id: string;
  role: 'staff' | 'client';
}

/** D85-D87: the models on offer, and the conversations of a User in one Entity. */
@Injectable()
export class ConversationsService {
  readonly settings: AgentsConfig;

  constructor(
    private readonly repository: AgentRepository,
    private readonly clock: Clock,
    @Inject(ConfigService) config: ConfigService<RuntimeConfig, true>,
  ) {
    this.settings = config.get('agents', { infer: true });
  }

  /** D86: in configured order, the first the default; [] when none is configured. */
  models(): Array<{ id: string; default: boolean }> {
    return this.settings.models.map((id, index) => ({ id, default: index === 0 }));
  }

  @Transactional()
  async create(caller: Caller, entityId: string, input: { id: string; title?: string | null; model?: string }): Promise<Conversation> {
    const title = input.title === undefined || input.title === null ? null : input.title.trim();
    if (title !== null && (title === '' || characterCount(title) > TITLE_MAX_CHARS)) throw validationError('title', `must be 1 to ${TITLE_MAX_CHARS} characters after trimming`);
    if (input.model !== undefined && !this.settings.models.includes(input.model)) {
      throw validationError('model', this.settings.models.length === 0 ? 'cannot be chosen: no model is configured' : `must be one of ${this.settings.models.join(', ')}`);
    }
    const now = this.clock.now();
    const conversation: Conversation = {
      entityId,
      id: input.id,
      userId: caller.id,
      title,
      model: input.model ?? this.settings.models[0] ?? null,
      createdAt: now,
      updatedAt: now,
    };
    let outcome: 'inserted' | 'id_taken';
    try {
      outcome = await this.repository.insertConversation(conversation);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      outcome = 'id_taken';
    }
    if (outcome === 'id_taken') throw conversationAlreadyExists({ conversationId: input.id });
    return conversation;
  }

  list(caller: Caller, entityId: string): Promise<Conversation[]> {
    return this.repository.listConversations(entityId, caller.id);
  }

  async get(caller: Caller, entityId: string, conversationId: string): Promise<{ conversation: Conversation; messages: Message[]; proposals: Proposal[] }> {
    const conversation = await this.own(caller, entityId, conversationId);
    const [messages, proposals] = await Promise.all([
      this.repository.messages(entityId, conversationId),
      this.repository.proposals(entityId, conversationId),
    ]);
    return { conversation, messages, proposals };
  }

  /** D87, D89a: another User's conversation, or one of another Entity, is not found. */
  async own(caller: Caller, entityId: string, conversationId: string): Promise<Conversation> {
    const conversation = await this.repository.findConversation(entityId, conversationId);
    if (!conversation || conversation.userId !== caller.id) throw conversationNotFound({ conversationId });
    return conversation;
  }
}
