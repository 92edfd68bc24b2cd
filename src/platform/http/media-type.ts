import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../../../libs/shared-kernel/src';

/** The request carries body bytes (an empty body, `Content-Length: 0`, is none). */
function hasBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) > 0);
}

/**
 * Request bodies are JSON. A body that no parser read (it is not `application/json`: text, a
 * form, none named) is refused with 415 UNSUPPORTED_MEDIA_TYPE_ERROR and writes nothing, rather
 * than reaching the route as an empty body and being answered as if its fields were missing.
 * Runs after the body parsers: a route that takes another media type registers its parser first.
 * GET and HEAD ignore a body.
 */
export function jsonBodiesOnlyMiddleware(request: Request, _response: Response, next: NextFunction): void {
  // A parser that read the body set `request.body` (body-parser leaves it undefined otherwise).
  if (request.method === 'GET' || request.method === 'HEAD' || request.body !== undefined || !hasBody(request)) {
    next();
    return;
  }
  const contentType = request.headers['content-type'] ?? null;
  next(
    new DomainError('UNSUPPORTED_MEDIA_TYPE_ERROR', 'Request bodies must be JSON, sent with content-type application/json', {
      contentType,
    }),
  );
}
