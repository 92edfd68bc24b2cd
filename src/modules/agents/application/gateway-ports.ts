import type { JsonSchema, OpenApiDocument } from '../domain/tools';

/** A message of the chat-completions protocol (phase2-anchors section 4). */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** Absent: the model is asked to answer without tools. */
  tools?: ChatTool[];
}

export interface ChatAnswer {
  content: string | null;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
}

/** The model was unreachable, too slow, or answered an error or something not a chat completion. */
export class ModelFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ModelFailure';
  }
}

/** Port: one OpenAI-compatible chat completion (D86), bounded by AGENT_LLM_TIMEOUT_MS. */
export abstract class ChatModel {
  /** Throws ModelFailure. */
  abstract complete(request: ChatRequest): Promise<ChatAnswer>;
}

export interface LoopbackRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path and query, e.g. `/api/entities/<id>/partners?limit=5`. */
  path: string;
  apiKey: string;
  auditActor?: string;
  body?: unknown;
}

/**
 * Port: a real HTTP request to this service itself, so that every guard, the rate limit and the
 * audit apply to what the assistant does exactly as to anyone else.
 */
export abstract class ServiceLoopback {
  /** The status and the body text of the answer. */
  abstract request(request: LoopbackRequest): Promise<{ status: number; body: string }>;
  /** The service's own OpenAPI document. */
  abstract openApiDocument(): Promise<OpenApiDocument>;
}
