import { characterCount, DomainError, errorCatalog, firstCharacters } from '../../../../libs/shared-kernel/src';

/**
 * Every code the agent gateway answers, with its HTTP status: the one place each is declared. The
 * compiler checks the table (D3: a *_NOT_FOUND_ERROR is 404) and that every error built here names
 * a code of it.
 */
export const AGENT_ERROR_STATUS = {
  AGENT_CONVERSATION_ALREADY_EXISTS_ERROR: 409,
  AGENT_CONVERSATION_NOT_FOUND_ERROR: 404,
  AGENT_MESSAGE_ALREADY_EXISTS_ERROR: 409,
  AGENT_MODEL_ERROR: 502,
  AGENT_NOT_CONFIGURED_ERROR: 503,
  AGENT_PROPOSAL_NOT_FOUND_ERROR: 404,
  AGENT_PROPOSAL_NOT_PENDING_ERROR: 409,
  AGENT_TURN_IN_PROGRESS_ERROR: 409,
} as const;

export const agentError = errorCatalog(AGENT_ERROR_STATUS);

/** The assistant's label in `declaredActor` (`erwin:<conversationId>`, spec "Assistant key lease"). */
export const ASSISTANT_LABEL = 'erwin';

export function declaredActorOf(conversationId: string): string {
  return `${ASSISTANT_LABEL}:${conversationId}`;
}

/** D88: the lease key of one user message lives one hour, with no refresh. */
export const LEASE_TTL_MS = 60 * 60 * 1000;
/** D88: a user message holds 1 to 8,000 characters after trimming. */
export const MESSAGE_MAX_CHARS = 8000;
/** D88: what a read tool answers the model is cut to this many characters. */
export const TOOL_RESULT_MAX_CHARS = 20_000;
export const TITLE_MAX_CHARS = 200;
export const SUMMARY_MAX_CHARS = 500;

export interface Conversation {
  entityId: string;
  id: string;
  userId: string;
  title: string | null;
  model: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const MESSAGE_ROLES = ['user', 'assistant', 'tool'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

/** A tool call as the model sent it: `arguments` is the model's JSON text, kept verbatim. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface Message {
  entityId: string;
  conversationId: string;
  id: string;
  role: MessageRole;
  content: string | null;
  toolCalls: ToolCall[] | null;
  toolCallId: string | null;
  createdAt: Date;
}

export const PROPOSAL_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type ProposalMethod = (typeof PROPOSAL_METHODS)[number];
export const PROPOSAL_STATUSES = ['pending', 'applied', 'failed', 'rejected'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

export interface Proposal {
  entityId: string;
  conversationId: string;
  id: string;
  method: ProposalMethod;
  path: string;
  body: unknown;
  summary: string;
  status: ProposalStatus;
  /** The answer of the write when applied: `{ status, body }`. */
  response: { status: number; body: unknown } | null;
  createdAt: Date;
  decidedAt: Date | null;
}

/**
 * Stop 17 review: an apply in flight. The proposal is claimed (committed) before the write is sent
 * and decided after it answered, so no transaction is open while the service is called.
 */
export interface ApplyClaim {
  /** The one-write API key the apply minted. */
  keyId: string;
  since: Date;
}

const e = (code: keyof typeof AGENT_ERROR_STATUS, message: string) => (params: Record<string, unknown> = {}) => agentError(code, message, params);

export const agentNotConfigured = e('AGENT_NOT_CONFIGURED_ERROR', 'No chat-completions server or no model is configured (AGENT_LLM_BASE_URL, AGENT_MODELS)');
export const agentModelError = e('AGENT_MODEL_ERROR', 'The model did not answer usably; the message was kept');
export const conversationNotFound = e('AGENT_CONVERSATION_NOT_FOUND_ERROR', 'No conversation of the caller with this id in the Entity');
export const conversationAlreadyExists = e('AGENT_CONVERSATION_ALREADY_EXISTS_ERROR', 'A conversation with this id already exists');
export const messageAlreadyExists = e('AGENT_MESSAGE_ALREADY_EXISTS_ERROR', 'A message with this id already exists');
export const turnInProgress = e('AGENT_TURN_IN_PROGRESS_ERROR', 'The conversation is answering another message; send this one when that turn has ended');
export const proposalNotFound = e('AGENT_PROPOSAL_NOT_FOUND_ERROR', 'No proposal with this id in the conversation');
/** The service could not be reached over HTTP by its own gateway (AGENT_SERVICE_URL, or its listening address). */
export const serviceUnreachable = (params: Record<string, unknown> = {}) =>
  new DomainError('SERVICE_UNAVAILABLE_ERROR', 'The gateway could not reach the service itself over HTTP', params);
export const proposalNotPending = e('AGENT_PROPOSAL_NOT_PENDING_ERROR', 'The proposal was already decided');
export const proposalBeingApplied = e('AGENT_PROPOSAL_NOT_PENDING_ERROR', 'The proposal is being applied by another request');

/** A path segment a proposal may name: letters, digits, `-` and `_` (no dots, escapes, queries). */
const SEGMENT = /^[A-Za-z0-9_-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ProposalCheck = { ok: true; method: ProposalMethod; path: string; body: unknown; summary: string } | { ok: false; reason: string };

/** Longest JSON text of a proposed body (the service takes at most 1 MB; a proposal is far smaller). */
export const PROPOSAL_BODY_MAX_CHARS = 200_000;

/**
 * D89: what `propose_write` may propose. The path lies under the conversation's Entity
 * (`/api/entities/{entityId}/...`), is not an agents route, and is plain segments only, so that
 * no dot segment, escape or query string can lead it elsewhere once a server normalises it.
 */
export function checkProposal(entityId: string, input: Record<string, unknown>): ProposalCheck {
  const { method, path, body, summary } = input;
  if (typeof method !== 'string' || !(PROPOSAL_METHODS as readonly string[]).includes(method)) {
    return { ok: false, reason: `method must be one of ${PROPOSAL_METHODS.join(', ')}` };
  }
  if (typeof path !== 'string' || path.length > 2000) return { ok: false, reason: 'path must be a string of at most 2,000 characters' };
  const segments = path.split('/');
  if (segments[0] !== '' || segments[1] !== 'api' || segments[2] !== 'entities' || !UUID.test(segments[3] ?? '')) {
    return { ok: false, reason: `path must lie under /api/entities/${entityId}/` };
  }
  if (segments[3].toLowerCase() !== entityId.toLowerCase()) return { ok: false, reason: `path must lie under /api/entities/${entityId}/ (the conversation's Entity)` };
  const rest = segments.slice(4);
  if (rest.length === 0) return { ok: false, reason: `path must lie under /api/entities/${entityId}/` };
  if (!rest.every((segment) => SEGMENT.test(segment))) {
    return { ok: false, reason: 'path segments may hold only letters, digits, - and _ (no query string, dots or escapes)' };
  }
  if (rest[0].toLowerCase() === 'agents') return { ok: false, reason: 'the agents routes cannot be proposed' };
  if (body !== undefined && body !== null && typeof body !== 'object') return { ok: false, reason: 'body must be a JSON object or array when given' };
  // Depth first: JSON.stringify of a body nested thousands deep would overflow the stack.
  const storableBody = body === undefined || body === null ? null : storableJson(body);
  if (storableBody === undefined) return { ok: false, reason: `body must nest at most ${PROPOSAL_BODY_MAX_DEPTH} levels deep` };
  if (storableBody !== null && JSON.stringify(storableBody).length > PROPOSAL_BODY_MAX_CHARS) {
    return { ok: false, reason: `body must be at most ${PROPOSAL_BODY_MAX_CHARS} characters of JSON` };
  }
  if (typeof summary !== 'string' || summary.trim() === '' || characterCount(summary.trim()) > SUMMARY_MAX_CHARS) {
    return { ok: false, reason: `summary must be 1 to ${SUMMARY_MAX_CHARS} characters` };
  }
  return {
    ok: true,
    method: method as ProposalMethod,
    path: ['', 'api', 'entities', entityId.toLowerCase(), ...rest].join('/'),
    body: storableBody,
    summary: storableText(summary.trim()),
  };
}

/** D89: only a pending proposal is applied or rejected. */
export function decide(proposal: Proposal, outcome: { status: 'applied' | 'failed' | 'rejected'; response: Proposal['response'] }, now: Date): Proposal {
  if (proposal.status !== 'pending') throw proposalNotPending({ proposalId: proposal.id, status: proposal.status });
  return { ...proposal, status: outcome.status, response: outcome.response, decidedAt: now };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text PostgreSQL can store: a lone surrogate (which jsonb refuses, and UTF-8 cannot encode) and
 * U+0000 (which text and jsonb refuse) become U+FFFD. Model output is stored as it came otherwise.
 */
export function storableText(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD').split('\u0000').join('\uFFFD');
}

/** Deepest JSON a proposal body may be. */
export const PROPOSAL_BODY_MAX_DEPTH = 32;

/** A JSON value with every string (keys too) storable; null when it nests deeper than `maxDepth`. */
export function storableJson(value: unknown, maxDepth = PROPOSAL_BODY_MAX_DEPTH): unknown {
  if (typeof value === 'string') return storableText(value);
  if (value === null || typeof value !== 'object') return value;
  if (maxDepth <= 0) return undefined;
  if (Array.isArray(value)) {
    const items = value.map((item) => storableJson(item, maxDepth - 1));
    return items.includes(undefined) ? undefined : items;
  }
  const entries = Object.entries(value).map(([key, item]) => [storableText(key), storableJson(item, maxDepth - 1)] as const);
  return entries.some(([, item]) => item === undefined) ? undefined : Object.fromEntries(entries);
}

/** Cuts a tool result to `max` characters (code points, never half a pair), saying how much was left out. */
export function truncateText(text: string, max = TOOL_RESULT_MAX_CHARS): string {
  // At most `max` UTF-16 units is at most `max` characters: no count needed.
  if (text.length <= max) return text;
  const length = characterCount(text);
  if (length <= max) return text;
  const note = `\n[truncated: ${length - max} more characters]`;
  return firstCharacters(text, max - note.length) + note;
}
