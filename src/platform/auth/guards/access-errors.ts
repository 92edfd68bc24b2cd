import { DomainError } from '../../../../libs/shared-kernel/src';
import { DomainErrorWithHeaders } from '../../http/error-envelope';

export const unauthenticated = () => new DomainError('UNAUTHENTICATED_ERROR', 'A valid session or API key is required');

export const permissionDenied = (message = 'This operation is not permitted for the caller') =>
  new DomainError('PERMISSION_DENIED_ERROR', message);

export const rateLimited = (retryAfterSeconds: number) =>
  new DomainErrorWithHeaders(
    'RATE_LIMIT_EXCEEDED_ERROR',
    'Too many requests; try again later',
    { retryAfterSeconds },
    { 'Retry-After': String(retryAfterSeconds) },
  );
