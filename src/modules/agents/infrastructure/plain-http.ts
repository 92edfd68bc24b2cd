import * as http from 'node:http';
import * as https from 'node:https';

/**
 * Kept-alive connections to the model server and to the service itself, one pool per scheme. An
 * idle connection is closed after 4 s (or the server's `Keep-Alive: timeout` hint if shorter),
 * before a server's own idle timeout (Node's default is 5 s) can close it under a new request.
 * The timeout closes idle connections only: a slow answer is bounded by the request's signal.
 */
const IDLE = { keepAlive: true, timeout: 4_000 };
const AGENTS: Record<string, http.Agent> = { 'http:': new http.Agent(IDLE), 'https:': new https.Agent(IDLE) };

export interface PlainRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Aborts the request (a timeout): it then fails with the signal's reason. */
  signal: AbortSignal;
  /** An answer longer than this fails the request, read no further. */
  maxBytes: number;
}

export class AnswerTooLarge extends Error {}

/**
 * One HTTP exchange over `node:http` with a keep-alive agent, the answer read as UTF-8 text.
 * The gateway makes four such exchanges per turn (two model requests, two tool requests); `fetch`
 * cost several times the CPU for each (its Request, Response and WHATWG stream objects), which
 * showed in the gateway's own cost per turn. Redirects are not followed.
 */
export function plainRequest(url: string, request: PlainRequest): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const agent = AGENTS[target.protocol];
    if (!agent) {
      reject(new Error(`${target.protocol} URLs are not requested`));
      return;
    }
    const headers = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body, 'utf8'));
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(target, { method: request.method, headers, agent, signal: request.signal }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > request.maxBytes) {
          reject(new AnswerTooLarge(`answered more than ${request.maxBytes} bytes`));
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
      res.on('close', () => {
        if (!res.complete) reject(new Error('the answer was cut off'));
      });
    });
    req.on('error', reject);
    req.end(request.body);
  });
}
