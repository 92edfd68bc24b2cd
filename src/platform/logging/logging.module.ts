import { Global, Injectable, LoggerService, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { NextFunction, Request, Response } from 'express';
import { CLS_REQ, ClsServiceManager } from 'nestjs-cls';
import pino, { Level, Logger as PinoLogger, stdSerializers } from 'pino';
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

/**
 * Nest's start-up lines, one per module and one per route (about 200): `debug`, not `info`
 * (issue 33), so a start at `info` shows what an operator reads (where it listens) and not the map.
 */
const START_UP_DETAIL = new Set(['RouterExplorer', 'RoutesResolver', 'InstanceLoader']);

interface LoggedRequest {
  id?: string;
  method: string;
  url: string;
  originalUrl?: string;
}

/** What identifies a request in a log line; its headers carry credentials and stay out. */
function requestOf(request: LoggedRequest): { id: string | undefined; method: string; url: string } {
  return { id: request.id, method: request.method, url: request.originalUrl || request.url };
}

/** The request being served, where a log line is written while serving one (nestjs-cls keeps it). */
function currentRequest(): LoggedRequest | undefined {
  const cls = ClsServiceManager.getClsService();
  return cls.isActive() ? cls.get<LoggedRequest | undefined>(CLS_REQ) : undefined;
}

/**
 * The service's one pino logger, as Nest's logger too. Lines written while a request is served
 * carry that request (`req`: id, method, url), found in the request's CLS store rather than in a
 * child logger made for every request: a child logger per request, and the second async-local
 * store that carried it (pino-http with nestjs-pino), cost every request, logged or not, about a
 * twentieth of its CPU (bench/README.md, issue 25).
 */
@Injectable()
export class AppLogger implements LoggerService {
  readonly pino: PinoLogger;

  constructor(config: ConfigService<RuntimeConfig, true>) {
    this.pino = pino({
      level: config.get('logLevel', { infer: true }),
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: { req: requestOf, res: stdSerializers.res, err: stdSerializers.err },
    });
  }

  log(message: unknown, ...rest: unknown[]): void {
    const context = rest.at(-1);
    this.write(typeof context === 'string' && START_UP_DETAIL.has(context) ? 'debug' : 'info', message, rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  /**
   * Nest's calling conventions: `(message, context?)`, `(message, stack, context)` for errors,
   * `(object, message?, context?)` as pino's own.
   */
  private write(level: Level, message: unknown, rest: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const params = [...rest];
    const context = params.length > 0 && typeof params.at(-1) === 'string' ? (params.pop() as string) : undefined;
    const request = currentRequest();
    const fields: Record<string, unknown> = { ...(context ? { context } : {}), ...(request ? { req: request } : {}) };
    if (message instanceof Error) {
      this.pino[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.pino[level]({ ...fields, ...message }, typeof params[0] === 'string' ? params[0] : undefined);
    } else {
      if (typeof params[0] === 'string') fields.stack = params[0];
      this.pino[level](fields, String(message));
    }
  }

  /**
   * One line per answered request, when it is done: `request completed` (info; warn from 400),
   * `request errored` (error, from 500) or `request aborted` (warn: the client left first), with
   * the request, the answer's status and headers (set-cookie redacted) and the time taken in ms.
   * Nothing is built for a request whose line the level leaves out.
   */
  readonly requests = (request: Request, response: Response, next: NextFunction): void => {
    if (this.pino.isLevelEnabled('error')) {
      const started = performance.now();
      response.once('close', () => {
        const finished = response.writableFinished;
        const level: Level = !finished ? 'warn' : response.statusCode >= 500 ? 'error' : response.statusCode >= 400 ? 'warn' : 'info';
        if (!this.pino.isLevelEnabled(level)) return;
        const message = !finished ? 'request aborted' : response.statusCode >= 500 ? 'request errored' : 'request completed';
        this.pino[level]({ req: request, res: response, responseTime: Math.round(performance.now() - started) }, message);
      });
    }
    next();
  };
}

@Global()
@Module({ providers: [AppLogger], exports: [AppLogger] })
export class LoggingModule {}
