import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule, AppModuleOptions } from './app.module';
import { SessionMiddleware } from './modules/identity';
import type { RuntimeConfig } from './platform/config/app-config';
import { authSurfaceMiddleware } from './platform/auth/guards/access.guards';
import { expressErrorHandler } from './platform/http/all-exceptions.filter';
import { answerClientErrorsWithEnvelope } from './platform/http/client-errors';
import { requestIdMiddleware } from './platform/http/request-id';
import { setUpOpenApi } from './platform/openapi/openapi';
import { sameOriginMutations } from './platform/http/same-origin';
import { mountWebPages } from './platform/web/web-pages';

/**
 * D2: request bodies above 1 MB are refused with 413. A megabyte is 1,000,000 bytes (SI), the
 * stricter reading: no valid body comes near it (the longest text taken is 20,000 characters).
 */
export const BODY_LIMIT = 1_000_000;

/** Builds the application with its whole request pipeline; `main.ts` and the tests share it. */
export async function createApp(config: RuntimeConfig, options: AppModuleOptions = {}): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, options), {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  answerClientErrorsWithEnvelope(app.getHttpServer());
  app.set('trust proxy', 'loopback');
  app.use(requestIdMiddleware);
  app.use(authSurfaceMiddleware);
  app.use(sameOriginMutations(config.appBaseUrl));
  mountWebPages(app);
  app.useBodyParser('json', { limit: BODY_LIMIT });
  app.use(expressErrorHandler);
  app.use(app.get(SessionMiddleware).handler);
  app.setGlobalPrefix('api');
  setUpOpenApi(app);
  return app;
}
