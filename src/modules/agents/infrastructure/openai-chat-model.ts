import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AgentsConfig, RuntimeConfig } from '../../../platform/config/app-config';
import { ChatAnswer, ChatModel, ChatRequest, ChatTool, ModelFailure } from '../application/gateway-ports';
import { storableText } from '../domain/conversation';
import { scrubSecrets } from '../../../platform/http/scrub-secrets';
import { AnswerTooLarge, plainRequest } from './plain-http';

/** Longest answer read from the model (a chat completion is far smaller). */
const MAX_ANSWER_BYTES = 4_000_000;
/** More tool calls than this in one answer is no sensible answer (each would be stored, answered and sent back). */
const MAX_TOOL_CALLS_PER_ANSWER = 64;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * D86: `POST {AGENT_LLM_BASE_URL}/chat/completions`, non-streaming, in the OpenAI shapes
 * (phase2-anchors section 4), with `Authorization: Bearer AGENT_LLM_API_KEY` when set. Any
 * OpenAI-compatible server answers it: a hosted API, Ollama, llama.cpp's server, vLLM. No
 * retries: a failed request fails the turn (502 AGENT_MODEL_ERROR) and the User sends again.
 */
@Injectable()
export class OpenAiChatModel extends ChatModel {
  private readonly settings: AgentsConfig;
  /**
   * The tools as JSON, by list: the gateway builds its list once per process and sends it with
   * every request of every turn, so it is serialised once, not on every request.
   */
  private readonly toolsJson = new WeakMap<ChatTool[], string>();

  constructor(@Inject(ConfigService) config: ConfigService<RuntimeConfig, true>) {
    super();
    this.settings = config.get('agents', { infer: true });
  }

  async complete(request: ChatRequest): Promise<ChatAnswer> {
    const { llmBaseUrl, llmApiKey, llmTimeoutMs } = this.settings;
    if (!llmBaseUrl) throw new ModelFailure('no AGENT_LLM_BASE_URL');
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), llmTimeoutMs);
    let status: number;
    let text: string;
    try {
      ({ status, text } = await plainRequest(`${llmBaseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(llmApiKey ? { authorization: `Bearer ${llmApiKey}` } : {}) },
        body: this.body(request),
        signal: controller.signal,
        maxBytes: MAX_ANSWER_BYTES,
      }));
    } catch (error) {
      if (error instanceof AnswerTooLarge) throw new ModelFailure('answered more than 4 MB');
      if (controller.signal.aborted) throw new ModelFailure(`no answer within ${llmTimeoutMs} ms`);
      // Our own client's words (a refused connection, a reset), scrubbed of the key and anything like one.
      throw new ModelFailure(`unreachable: ${scrubSecrets((error as Error).message, [llmApiKey], 200)}`);
    } finally {
      clearTimeout(timer);
    }
    // Issue 33: the model server's own error text never reaches the caller (params.reason) nor
    // the log: it may echo the key, the prompt or its internals. Only its HTTP status does.
    if (status < 200 || status > 299) throw new ModelFailure(`answered HTTP ${status}`);
    return parseCompletion(text);
  }

  /** `{ model, messages, tools?, stream: false }` as JSON, the tools' part serialised once per list. */
  private body(request: ChatRequest): string {
    let tools = '';
    if (request.tools) {
      let json = this.toolsJson.get(request.tools);
      if (json === undefined) {
        json = JSON.stringify(request.tools);
        this.toolsJson.set(request.tools, json);
      }
      tools = `,"tools":${json}`;
    }
    return `{"model":${JSON.stringify(request.model)},"messages":${JSON.stringify(request.messages)}${tools},"stream":false}`;
  }
}

/** A chat completion's first choice, or ModelFailure when the answer is not one. */
export function parseCompletion(text: string): ChatAnswer {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ModelFailure('answered something that is not JSON');
  }
  const choice = isObject(body) && Array.isArray(body.choices) ? (body.choices[0] as unknown) : undefined;
  const message = isObject(choice) ? choice.message : undefined;
  if (!isObject(message)) throw new ModelFailure('answered no choices[0].message');
  const content = message.content;
  if (content !== null && content !== undefined && typeof content !== 'string') throw new ModelFailure('answered a message content that is not a string');
  const rawCalls = message.tool_calls ?? [];
  if (!Array.isArray(rawCalls)) throw new ModelFailure('answered tool_calls that are not an array');
  if (rawCalls.length > MAX_TOOL_CALLS_PER_ANSWER) throw new ModelFailure(`answered more than ${MAX_TOOL_CALLS_PER_ANSWER} tool calls at once`);
  const toolCalls = rawCalls.map((call: unknown) => {
    const fn = isObject(call) ? call.function : undefined;
    if (!isObject(call) || typeof call.id !== 'string' || call.id === '' || call.id.length > 200 || !isObject(fn) || typeof fn.name !== 'string') {
      throw new ModelFailure('answered a tool call without an id or a function name');
    }
    // Arguments that are not a string (some servers send the object itself) are kept as JSON text.
    const args = typeof fn.arguments === 'string' ? fn.arguments : fn.arguments === undefined ? '' : JSON.stringify(fn.arguments);
    return { id: storableText(call.id), name: storableText(fn.name.slice(0, 200)), arguments: storableText(args) };
  });
  return { content: typeof content === 'string' ? storableText(content) : null, toolCalls };
}
