import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { statusForErrorCode } from '../../../libs/shared-kernel/src';
import { REQUEST_ID_HEADER } from './request-id';

/** Node's own refusals of a request it could not parse, as Node answers them (status by cause). */
const CODE_BY_PARSER_ERROR: Record<string, { code: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { code: 'HEADERS_TOO_LARGE_ERROR', message: 'The request headers are larger than the limit of 16 KB' },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'REQUEST_TIMEOUT_ERROR', message: 'The request was not received in time' },
};
const MALFORMED = { code: 'MALFORMED_REQUEST_ERROR', message: 'The request is not valid HTTP' };

/**
 * A request Node's HTTP parser refuses (headers over 16 KB, a malformed request line) never
 * reaches Express: Node answers it with a bare status. Here it gets the D1 envelope and an
 * `x-request-id` like every other answer. Nothing runs per request.
 */
export function answerClientErrorsWithEnvelope(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { code, message } = CODE_BY_PARSER_ERROR[error.code ?? ''] ?? MALFORMED;
    const statusCode = statusForErrorCode(code);
    const requestId = randomUUID();
    const body = JSON.stringify({ requestId, statusCode, code, message, params: {} });
    socket.end(
      `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `${REQUEST_ID_HEADER}: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
