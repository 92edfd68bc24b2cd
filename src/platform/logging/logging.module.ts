import { Module, RequestMethod } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { IncomingMessage } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import type { RuntimeConfig } from '../config/app-config';

/** Paths pino must never write: credentials travel in these headers. */
export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.token',
];

@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<RuntimeConfig, true>) => ({
        // Express 5 path syntax for "every route".
        forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
        pinoHttp: {
          level: config.get('logLevel', { infer: true }),
          genReqId: (request: IncomingMessage) => (request as IncomingMessage & { id: string }).id,
          redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
          customLogLevel: (_request, response, error) =>
            error || response.statusCode >= 500 ? 'error' : response.statusCode >= 400 ? 'warn' : 'info',
          // pino-http binds the serialized request to a child logger on every request, logged or
          // not: keep it to what identifies the request (headers carry credentials and cost a
          // redacted copy each time).
          serializers: {
            req: (request: { id: string; method: string; url: string }) => ({ id: request.id, method: request.method, url: request.url }),
          },
        },
      }),
    }),
  ],
})
export class LoggingModule {}
