import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity';
import { ConversationsService } from './application/conversations.service';
import { ChatModel, ServiceLoopback } from './application/gateway-ports';
import { ProposalsService } from './application/proposals.service';
import { TurnService } from './application/turn.service';
import { AgentRepository } from './domain/agent-ports';
import { AgentModelsController, ConversationsController } from './infrastructure/http/agents.controller';
import { HttpServiceLoopback } from './infrastructure/http-service-loopback';
import { OpenAiChatModel } from './infrastructure/openai-chat-model';
import { TypeOrmAgentRepository } from './infrastructure/persistence/agent.repository';

/** The agent gateway (D85-D89): conversations with a model that reads the books through lease keys. */
@Module({
  imports: [IdentityModule],
  controllers: [AgentModelsController, ConversationsController],
  providers: [
    { provide: AgentRepository, useClass: TypeOrmAgentRepository },
    { provide: ChatModel, useClass: OpenAiChatModel },
    { provide: ServiceLoopback, useClass: HttpServiceLoopback },
    ConversationsService,
    TurnService,
    ProposalsService,
  ],
})
export class AgentsModule {}
