import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export const REQUEST_ID_HEADER = 'x-request-id';

/** D1: 1 to 128 visible ASCII characters. */
const ACCEPTABLE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

export function requestIdOf(request: Request): string {
  return (request as Request & { id?: string }).id ?? 'unknown';
}

/** First middleware of every request: keeps a valid incoming id or makes one, and echoes it. */
export function requestIdMiddleware(request: Request, response: Response, next: NextFunction): void {
  const incoming = request.headers[REQUEST_ID_HEADER];
  const id = typeof incoming === 'string' && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  (request as Request & { id: string }).id = id;
  response.setHeader(REQUEST_ID_HEADER, id);
  next();
}

/**
 * D2a: answers to authenticated requests (a session cookie or an API key) carry
 * `Cache-Control: no-store`, so that no shared or browser cache keeps a tenant's figures. Set
 * before the handler runs, it covers error answers and streamed ones alike.
 */
export function noStoreMiddleware(request: Request, response: Response, next: NextFunction): void {
  if (request.headers['x-api-key'] !== undefined || request.headers.cookie !== undefined) response.setHeader('Cache-Control', 'no-store');
  next();
}
