import { createServer } from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ApplicationConfig, NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { AppModule, AppModuleOptions } from './app.module';
import { SessionMiddleware } from './modules/identity';
import type { RuntimeConfig } from './platform/config/app-config';
import { authSurfaceMiddleware } from './platform/auth/guards/access.guards';
import { expressErrorHandler } from './platform/http/all-exceptions.filter';
import { answerClientErrorsWithEnvelope } from './platform/http/client-errors';
import { noStoreMiddleware, requestIdMiddleware } from './platform/http/request-id';
import { apiIndexMiddleware, faviconMiddleware } from './platform/http/api-index';
import { auditMutatingRoutes } from './platform/audit/audited-routes';
import { AppLogger } from './platform/logging/logging.module';
import { setUpOpenApi } from './platform/openapi/openapi';
import { sameOriginMutations } from './platform/http/same-origin';
import { mountWebPages } from './platform/web/web-pages';
import { rawXmlBody } from './platform/http/xml-body';
import { DTE_IMPORT_PATH, DTE_IMPORT_MAX_BYTES } from './modules/invoices';

/**
 * D2: request bodies above 1 MB are refused with 413. A megabyte is 1,000,000 bytes (SI), the
 * stricter reading: no valid body comes near it (the longest text taken is 20,000 characters).
 */
export const BODY_LIMIT = 1_000_000;

/** D2a: a request whose headers and body are not complete 30 seconds after it began is answered 408. */
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Node checks for expired requests every `connectionsCheckingInterval` (30 s by default, so a
 * trickled request could be held a minute): here every second, so the 408 (answered with the D1
 * envelope by answerClientErrorsWithEnvelope, connection closed) comes at most a second late.
 */
class TimedExpressAdapter extends ExpressAdapter {
  constructor(private readonly requestTimeoutMs: number) {
    super();
  }

  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions) return super.initHttpServer(options);
    const timeout = this.requestTimeoutMs;
    this.setHttpServer(createServer({ requestTimeout: timeout, headersTimeout: timeout, connectionsCheckingInterval: Math.min(1000, timeout) }, this.getInstance()));
  }
}

/**
 * nestjs-cls adds a global interceptor and a global guard even where it mounts neither (it runs as
 * middleware here): objects that do nothing. Yet one global interceptor, even an idle one, makes
 * Nest run its interceptor chain on every request (rxjs observables, an async resource bound
 * twice): about a tenth of a simple request's CPU (bench/README.md, issue 25). Taken out before
 * the routes are built; the application's own enhancers are all class instances and stay.
 */
export function withoutIdleClsEnhancers(app: NestExpressApplication): void {
  const config = (app as unknown as { config: ApplicationConfig }).config;
  const idle = (enhancer: object) => Object.getPrototypeOf(enhancer) === Object.prototype;
  for (const enhancers of [config.getGlobalInterceptors(), config.getGlobalGuards()] as object[][]) {
    for (let i = enhancers.length - 1; i >= 0; i--) if (idle(enhancers[i])) enhancers.splice(i, 1);
  }
}

/** Builds the application with its whole request pipeline; `main.ts` and the tests share it. */
export async function createApp(config: RuntimeConfig, options: AppModuleOptions & { requestTimeoutMs?: number } = {}): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, options), new TimedExpressAdapter(options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS), {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  const logger = app.get(AppLogger);
  app.useLogger(logger);
  withoutIdleClsEnhancers(app);
  auditMutatingRoutes(app);
  app.disable('x-powered-by');
  // No ETag: Express would hash every JSON answer (a report of megabytes included) for a
  // conditional GET nobody makes: authenticated answers are `no-store` (D2a), so no cache keeps
  // one to revalidate.
  app.set('etag', false);
  answerClientErrorsWithEnvelope(app.getHttpServer());
  app.set('trust proxy', config.trustProxy);
  app.use(requestIdMiddleware);
  app.use(logger.requests);
  app.use(noStoreMiddleware);
  app.use(apiIndexMiddleware);
  app.use(faviconMiddleware);
  app.use(authSurfaceMiddleware);
  app.use(sameOriginMutations(config.appBaseUrl));
  mountWebPages(app);
  // D65a: the DTE import takes raw XML up to 5 MB; every other body is JSON up to 1 MB.
  app.use(DTE_IMPORT_PATH, rawXmlBody(DTE_IMPORT_MAX_BYTES));
  app.useBodyParser('json', { limit: BODY_LIMIT });
  app.use(expressErrorHandler);
  app.use(app.get(SessionMiddleware).handler);
  app.setGlobalPrefix('api');
  setUpOpenApi(app, config.openApiUi);
  return app;
}
