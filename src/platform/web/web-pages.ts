import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';

/** Where `npm run build` (vite build) writes the admin screens and the set-password page. */
export const WEB_BUILD_RELATIVE = join('dist', 'web');

/** The project root: the nearest folder above this file holding package.json (src/ in tests, dist/src/ built). */
export function projectRoot(from: string = __dirname): string {
  let folder = from;
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) return from;
    folder = parent;
  }
  return folder;
}

export function webBuildDirectory(): string {
  return join(projectRoot(), WEB_BUILD_RELATIVE);
}

/**
 * Issue 24: the pages people open in a browser, same origin as the API (the session cookie is
 * SameSite=Lax and httpOnly). Strict CSP: scripts, styles and connections from this origin only,
 * no inline script or style, no framing, forms post nowhere else; no referrer (the set-password
 * token is in the URL).
 */
export const pageSecurityHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      manifestSrc: ["'self'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
    },
  },
  crossOriginEmbedderPolicy: true,
  referrerPolicy: { policy: 'no-referrer' },
  strictTransportSecurity: false,
});

const htmlHeaders = (response: Response) => {
  response.setHeader('Cache-Control', 'no-store');
};

function notBuilt(_request: Request, response: Response): void {
  response
    .status(503)
    .type('text/plain')
    .send('The admin screens are not built: run `npm run build` (or `npm start`, which builds them when missing).\n');
}

/**
 * Mounts `/admin` (the staff screens, a single page routed by the URL hash) and
 * `/set-password` (the page a set-password link opens), both static files from dist/web.
 */
export function mountWebPages(app: NestExpressApplication, directory: string = webBuildDirectory()): void {
  const hstsWhenSecure = (request: Request, response: Response, next: NextFunction) => {
    if (request.secure) response.setHeader('Strict-Transport-Security', 'max-age=15552000; includeSubDomains');
    next();
  };
  app.use(['/admin', '/set-password'], pageSecurityHeaders, hstsWhenSecure);
  const built = existsSync(join(directory, 'index.html')) && existsSync(join(directory, 'set-password.html'));
  if (!built) {
    app.use(['/admin', '/set-password'], notBuilt);
    return;
  }
  app.use('/set-password', (request: Request, response: Response, next: NextFunction) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    if (request.path !== '/') return next();
    htmlHeaders(response);
    response.sendFile(join(directory, 'set-password.html'));
  });
  app.useStaticAssets(directory, {
    prefix: '/admin',
    index: 'index.html',
    redirect: true,
    fallthrough: true,
    setHeaders: (response, path) => {
      if (path.endsWith('.html')) htmlHeaders(response);
      else if (path.includes(`${join('/', 'assets', '/')}`)) response.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    },
  });
}
