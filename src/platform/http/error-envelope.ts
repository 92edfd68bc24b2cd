import { HttpException, HttpStatus } from '@nestjs/common';
import { isNumericOutOfRange } from '../database/pg-errors';
import type { ErrorEnvelope } from '../../../libs/contracts/src';
import { DomainError, statusForErrorCode } from '../../../libs/shared-kernel/src';

export interface ErrorResponse {
  statusCode: number;
  body: Omit<ErrorEnvelope, 'requestId'>;
  /** The error is not the caller's fault: log it with its stack. */
  unexpected: boolean;
  headers?: Record<string, string>;
}

/**
 * Errors raised by body-parser carry a status and, mostly, a `type`; a body it could not decode
 * (corrupt gzip or brotli data) is the decoder's error with only the status and `expose` that
 * http-errors gives every client error.
 */
interface BodyParserError {
  type?: string;
  status: number;
  expose?: boolean;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  if (typeof error !== 'object' || error === null || typeof (error as BodyParserError).status !== 'number') return false;
  return typeof (error as BodyParserError).type === 'string' || (error as BodyParserError).expose === true;
}

function envelope(code: string, message: string, params: Record<string, unknown> = {}, status = statusForErrorCode(code)): ErrorResponse {
  return { statusCode: status, body: { statusCode: status, code, message, params }, unexpected: false };
}

/** Headers a DomainError asks for (e.g. Retry-After on 429). */
export class DomainErrorWithHeaders extends DomainError {
  constructor(code: string, message: string, params: Record<string, unknown>, readonly headers: Record<string, string>) {
    super(code, message, params);
  }
}

/** D1-D3: the one translation of any thrown value into a status and an error envelope. */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof DomainError) {
    const response = envelope(error.code, error.message, error.params, error.status);
    if (error instanceof DomainErrorWithHeaders) response.headers = error.headers;
    return response;
  }
  if (isBodyParserError(error)) {
    switch (error.type) {
      case 'entity.parse.failed':
        return envelope('MALFORMED_JSON_ERROR', 'The request body is not valid JSON');
      case 'entity.too.large':
        return envelope('PAYLOAD_TOO_LARGE_ERROR', 'The request body is larger than the limit of 1 MB');
      case 'charset.unsupported':
        return envelope('MALFORMED_JSON_ERROR', 'The request body is not JSON: JSON is sent in UTF-8');
      case 'encoding.unsupported':
        return envelope('MALFORMED_JSON_ERROR', 'The request body is not read: its Content-Encoding is not gzip, deflate or br');
      default:
        if (error.status >= 400 && error.status < 500) {
          return envelope('VALIDATION_ERROR', 'The request body could not be read', { errors: [] });
        }
    }
  }
  if (error instanceof HttpException) {
    return fromFrameworkException(error);
  }
  if (isNumericOutOfRange(error)) {
    // Amounts are each within D6, but a running total they add to (an account's monthly totals)
    // would pass what PostgreSQL's bigint holds: the write is refused whole, like bad input.
    // D6a: 409 AMOUNT_OUT_OF_RANGE_ERROR, nothing written.
    return envelope('AMOUNT_OUT_OF_RANGE_ERROR', 'The amounts would take a stored total past the largest amount the books hold (2^63 - 1)', { field: 'accountTotal' });
  }
  return {
    statusCode: 500,
    body: { statusCode: 500, code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error', params: {} },
    unexpected: true,
  };
}

/** Exceptions raised by NestJS itself (router, guards, terminus), never by our services. */
function fromFrameworkException(error: HttpException): ErrorResponse {
  const status = error.getStatus();
  switch (status) {
    case HttpStatus.NOT_FOUND:
      return envelope('ROUTE_NOT_FOUND_ERROR', 'No route matches this method and path');
    case HttpStatus.BAD_REQUEST:
      return envelope('VALIDATION_ERROR', error.message, { errors: [] });
    case HttpStatus.UNAUTHORIZED:
      return envelope('UNAUTHENTICATED_ERROR', 'A valid session or API key is required');
    case HttpStatus.FORBIDDEN:
      return envelope('PERMISSION_DENIED_ERROR', 'This operation is not permitted for the caller');
    case HttpStatus.PAYLOAD_TOO_LARGE:
      return envelope('PAYLOAD_TOO_LARGE_ERROR', 'The request body is larger than the limit of 1 MB');
    case HttpStatus.SERVICE_UNAVAILABLE: {
      const details = error.getResponse();
      return envelope('SERVICE_UNAVAILABLE_ERROR', 'A dependency of the service is unavailable', {
        ...(typeof details === 'object' && details !== null ? (details as Record<string, unknown>) : {}),
      });
    }
    default:
      if (status >= 500) {
        return { ...toErrorResponse(new Error(error.message)) };
      }
      return {
        statusCode: status,
        body: { statusCode: status, code: `HTTP_${status}_ERROR`, message: error.message, params: {} },
        unexpected: false,
      };
  }
}
