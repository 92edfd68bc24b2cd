import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError } from '../../../libs/shared-kernel/src';

/** The request carries body bytes (an empty body, `Content-Length: 0`, is none). */
function hasBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) > 0);
}

/**
 * Request bodies are JSON. A body that no parser read (it is not `application/json`: text, a
 * form, none named) is not a JSON body: 400 MALFORMED_JSON_ERROR (the spec's statuses have no
 * 415), writing nothing, rather than reaching the route as an empty body and being answered as if
 * its fields were missing.
 * The last global guard: the caller's access is judged first. GET and HEAD ignore a body.
 */
@Injectable()
export class JsonBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    // A parser that read the body set `request.body` (body-parser leaves it undefined otherwise).
    if (request.method === 'GET' || request.method === 'HEAD' || request.body !== undefined || !hasBody(request)) return true;
    throw new DomainError('MALFORMED_JSON_ERROR', 'The request body is not JSON: send it with content-type application/json', {
      contentType: request.headers['content-type'] ?? null,
    });
  }
}
