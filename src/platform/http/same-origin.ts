import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../../../libs/shared-kernel/src';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

const crossOrigin = () =>
  new DomainError('PERMISSION_DENIED_ERROR', 'Cross-origin request refused: session requests must come from pages of this service', {
    header: 'origin',
  });

/**
 * CSRF defence for cookie-authenticated requests (issue 24, docs/DECISIONS.md): besides the
 * SameSite=Lax session cookie, a mutation that does not present an API key is refused with 403
 * when the browser says it comes from another site: an `Origin` header other than the service's
 * own origin (the one the request was addressed to, or `APP_BASE_URL`'s), `Origin: null`, or,
 * without `Origin`, `Sec-Fetch-Site` `cross-site` / `same-site`. Requests without these headers
 * (API clients, curl, the tests) are not browsers' and pass; keys are judged by the key alone.
 */
export function sameOriginMutations(appBaseUrl: string) {
  const configured = originOf(appBaseUrl);
  return (request: Request, _response: Response, next: NextFunction): void => {
    if (SAFE_METHODS.has(request.method) || request.headers['x-api-key'] !== undefined) return next();
    const origin = request.headers.origin;
    if (origin === undefined) {
      const site = request.headers['sec-fetch-site'];
      return next(site === 'cross-site' || site === 'same-site' ? crossOrigin() : undefined);
    }
    const own = request.headers.host ? originOf(`${request.protocol}://${request.headers.host}`) : null;
    next(origin === own || origin === configured ? undefined : crossOrigin());
  };
}
