import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { requestIdOf } from './request-id';
import { toErrorResponse } from './error-envelope';

const logger = new Logger('Errors');

function send(error: unknown, request: Request, response: Response): void {
  const result = toErrorResponse(error);
  const requestId = requestIdOf(request);
  if (result.unexpected) {
    logger.error({ err: error, requestId }, 'unhandled error');
  }
  if (response.headersSent) {
    response.end();
    return;
  }
  for (const [name, value] of Object.entries(result.headers ?? {})) response.setHeader(name, value);
  response.status(result.statusCode).json({ requestId, ...result.body });
}

/** The one place that turns errors into the D1 envelope. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    send(exception, http.getRequest<Request>(), http.getResponse<Response>());
  }
}

/** The same envelope for errors raised by Express middleware before NestJS routing (body parsing). */
export function expressErrorHandler(error: unknown, request: Request, response: Response, next: NextFunction): void {
  if (!error) return next();
  send(error, request, response);
}
