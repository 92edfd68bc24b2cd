import type { ErrorEnvelope } from '../../libs/contracts/src';
import { ApiError } from './api-error';

export { ApiError };
export { formErrors, NO_ERRORS, type FormErrors } from './form-errors';

/** Fired on the window when a call is answered 401: the session is gone. */
export const SESSION_ENDED = 'accounting:session-ended';

function isEnvelope(body: unknown): body is ErrorEnvelope {
  return typeof body === 'object' && body !== null && typeof (body as ErrorEnvelope).code === 'string' && typeof (body as ErrorEnvelope).message === 'string';
}

/**
 * Every call goes through the public API with the session cookie, as any client would: the
 * screens hold no privilege of their own, the API's guards decide.
 */
export async function api<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const response = await fetch(`/api${path}`, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (response.status === 401 && path !== '/auth/session' && path !== '/auth/sign-in/email') {
    // The session ended (signed out elsewhere, revoked, expired): the screens go back to sign-in.
    dispatchEvent(new CustomEvent(SESSION_ENDED));
  }
  if (!response.ok) {
    const envelope: ErrorEnvelope = isEnvelope(parsed)
      ? parsed
      : { requestId: response.headers.get('x-request-id') ?? '', statusCode: response.status, code: 'HTTP_ERROR', message: `The service answered ${response.status}`, params: {} };
    throw new ApiError(response.status, envelope);
  }
  return parsed as T;
}

/** A fresh id for the idempotent creates (crypto.randomUUID needs a secure context; this does not). */
export function newId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
