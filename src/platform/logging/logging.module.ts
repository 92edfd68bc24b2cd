import { Module, RequestMethod } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { IncomingMessage } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { stdSerializers } from 'pino';
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
          // Not wrapped by pino-std-serializers, whose request serializer copies every header
          // before ours picks three fields (issue 25): the same three, read from the request itself.
          wrapSerializers: false,
          serializers: {
            req: (request: { id: string; method: string; url: string; originalUrl?: string }) => ({ id: request.id, method: request.method, url: request.originalUrl || request.url }),
            // Those pino-http would use: the standard ones.
            res: stdSerializers.res,
            err: stdSerializers.err,
          },
        },
      }),
    }),
  ],
})
export class LoggingModule {}
