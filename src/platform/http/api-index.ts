import type { NextFunction, Request, Response } from 'express';

/**
 * Issue 33: `GET /api` (what the README's first command serves) answers where things are instead
 * of a 404: the documentation, the OpenAPI document, readiness and the admin screens. Public, no
 * data of anyone's; the same for every caller.
 */
export const API_INDEX = {
  service: 'Multi-entity accounting API',
  docs: '/api/docs',
  openApi: '/api/docs-json',
  health: '/api/health',
  admin: '/admin',
} as const;

export function apiIndexMiddleware(request: Request, response: Response, next: NextFunction): void {
  if ((request.method !== 'GET' && request.method !== 'HEAD') || (request.path !== '/api' && request.path !== '/api/')) return next();
  response.status(200).json(API_INDEX);
}

/**
 * Browsers ask every origin for `/favicon.ico`; the pages name no icon file (an empty data: icon
 * in their head), and a direct request is answered 204 rather than a 404 in every console.
 */
export function faviconMiddleware(request: Request, response: Response, next: NextFunction): void {
  if ((request.method !== 'GET' && request.method !== 'HEAD') || request.path !== '/favicon.ico') return next();
  response.setHeader('Cache-Control', 'public, max-age=86400');
  response.status(204).end();
}
