import { createServer, IncomingMessage, request as httpRequest, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OpenAI-compatible chat-completions server (phase2-anchors section 4) that plays the
 * replies a test scripts, in order: tool calls, final answers, error statuses, bodies that are
 * not JSON, a dropped connection, and answers held until the test releases them (slowness
 * without sleeps). With nothing scripted it answers "ok".
 */
export interface ChatRequestBody {
  model: string;
  messages: Array<{ role: string; content: string | null; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>; tool_call_id?: string }>;
  tools?: Array<{ type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown> } }>;
  stream?: boolean;
}

export type Reply =
  | { kind: 'json'; status: number; body: unknown }
  | { kind: 'raw'; status: number; text: string }
  | { kind: 'drop' }
  /** Never answers until `release()` is called (or the client gives up). */
  | { kind: 'held'; released: Promise<Reply>; taken: () => void };

export interface FakeLlm {
  baseUrl: string;
  /** Every request received, oldest first. */
  requests: Array<{ body: ChatRequestBody; authorization: string | undefined; path: string }>;
  script(...replies: Reply[]): void;
  /** A reply held until the returned `release` is called with the reply to give. */
  hold(): { reply: Reply; release: (reply: Reply) => void; received: Promise<void> };
  pending(): number;
  close(): Promise<void>;
}

let completionCounter = 0;

export function completion(message: { content: string | null; tool_calls?: unknown[] }): Reply {
  return {
    kind: 'json',
    status: 200,
    body: {
      id: `chatcmpl-${++completionCounter}`,
      object: 'chat.completion',
      created: 1_780_000_000,
      model: 'fake',
      choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    },
  };
}

export const answer = (content: string): Reply => completion({ content });

export function toolCalls(...calls: Array<[id: string, name: string, args: unknown]>): Reply {
  return completion({
    content: null,
    tool_calls: calls.map(([id, name, args]) => ({ id, type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } })),
  });
}

export const httpError = (status: number, message = 'fake failure'): Reply => ({ kind: 'json', status, body: { error: { message, type: 'server_error', param: null, code: null } } });

export async function startFakeLlm(): Promise<FakeLlm> {
  const queue: Reply[] = [];
  const requests: FakeLlm['requests'] = [];
  const sockets = new Set<import('node:net').Socket>();

  const send = async (reply: Reply, res: ServerResponse): Promise<void> => {
    if (reply.kind === 'held') return send(await reply.released, res);
    if (reply.kind === 'drop') {
      res.socket?.destroy();
      return;
    }
    const text = reply.kind === 'json' ? JSON.stringify(reply.body) : reply.text;
    res.writeHead(reply.status, { 'content-type': 'application/json' }).end(text);
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      requests.push({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequestBody, authorization: req.headers.authorization, path: req.url });
      const reply = queue.shift() ?? answer('ok');
      if (reply.kind === 'held') reply.taken();
      void send(reply, res);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...replies) => queue.push(...replies),
    hold: () => {
      let release!: (reply: Reply) => void;
      const released = new Promise<Reply>((resolve) => (release = resolve));
      let taken!: () => void;
      const received = new Promise<void>((resolve) => (taken = resolve));
      const reply: Reply = { kind: 'held', released, taken };
      queue.push(reply);
      return { reply, release, received };
    },
    pending: () => queue.length,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A pass-through HTTP proxy in front of the app that notes the API key of every request: the
 * test can then use the gateway's lease key itself (AGENT_SERVICE_URL points here).
 */
export async function startRecordingProxy(): Promise<{ url: string; target: (url: string) => void; apiKeys: string[]; close: () => Promise<void> }> {
  let targetUrl = '';
  const apiKeys: string[] = [];
  const server = createServer((req, res) => {
    const key = req.headers['x-api-key'];
    if (typeof key === 'string') apiKeys.push(key);
    const target = new URL(req.url ?? '/', targetUrl);
    const forward = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    target: (url) => (targetUrl = url),
    apiKeys,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
