import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsUuid } from '../../../../platform/http/validators';
import { MESSAGE_ROLES, PROPOSAL_METHODS, PROPOSAL_STATUSES } from '../../domain/conversation';

export class ModelResponse {
  @ApiProperty({ example: 'gpt-4o-mini' }) id: string;
  @ApiProperty({ description: 'The first configured model is the default' }) default: boolean;
}

export class CreateConversationBody {
  @ApiProperty({ format: 'uuid' }) @IsUuid() id: string;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, description: '1 to 200 characters after trimming' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  title?: string | null;

  @ApiPropertyOptional({ description: 'One of GET /api/agents/models; the default model when left out' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  model?: string;
}

export class PostMessageBody {
  @ApiProperty({ format: 'uuid' }) @IsUuid() id: string;
  @ApiProperty({ description: '1 to 8,000 characters after trimming' }) @IsString() content: string;
}

export class ConversationResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) entityId: string;
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ type: String, nullable: true }) title: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'null when no model was configured at creation' }) model: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class ToolCallResponse {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'The JSON text of the arguments, as the model sent it' }) arguments: string;
}

export class MessageResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: MESSAGE_ROLES }) role: string;
  @ApiProperty({ type: String, nullable: true }) content: string | null;
  @ApiProperty({ type: ToolCallResponse, isArray: true, nullable: true }) toolCalls: ToolCallResponse[] | null;
  @ApiProperty({ type: String, nullable: true, description: 'On a tool message: the call it answers' }) toolCallId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class WriteResponse {
  @ApiProperty({ description: 'HTTP status of the write' }) status: number;
  @ApiProperty({ description: 'Its JSON body (a string when it was not JSON; null when empty)', nullable: true, type: Object }) body: unknown;
}

export class ProposalResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) conversationId: string;
  @ApiProperty({ enum: PROPOSAL_METHODS }) method: string;
  @ApiProperty({ example: '/api/entities/6f1c.../partners' }) path: string;
  @ApiProperty({ type: Object, nullable: true, description: 'The JSON body the write would send' }) body: unknown;
  @ApiProperty() summary: string;
  @ApiProperty({ enum: PROPOSAL_STATUSES }) status: string;
  @ApiProperty({ type: WriteResponse, nullable: true }) response: WriteResponse | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) decidedAt: string | null;
}

export class ConversationDetailResponse extends ConversationResponse {
  @ApiProperty({ type: MessageResponse, isArray: true, description: 'Oldest first' }) messages: MessageResponse[];
  @ApiProperty({ type: ProposalResponse, isArray: true, description: 'Oldest first' }) proposals: ProposalResponse[];
}

export class ToolRunResponse {
  @ApiProperty() toolCallId: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'The JSON text of the arguments, as the model sent it' }) arguments: string;
  @ApiProperty({ description: 'HTTP status of the read; propose_write: 201 stored, 400 refused; 400 bad arguments, 404 unknown tool, 429 past the tool-call bound' })
  status: number;
}

export class TurnResponse {
  @ApiProperty({ type: MessageResponse, description: 'The user message' }) message: MessageResponse;
  @ApiProperty({ type: MessageResponse, description: "The assistant's answer" }) reply: MessageResponse;
  @ApiProperty({ type: ToolRunResponse, isArray: true }) toolRuns: ToolRunResponse[];
  @ApiProperty({ type: ProposalResponse, isArray: true, description: 'Proposals made in this turn' }) proposals: ProposalResponse[];
  @ApiProperty({ format: 'uuid', description: "The read-only lease key minted for this message (listed in the User's API keys)" }) leaseKeyId: string;
}

export class ApplyResponse {
  @ApiProperty({ type: ProposalResponse }) proposal: ProposalResponse;
  @ApiProperty({ type: WriteResponse }) response: WriteResponse;
}
