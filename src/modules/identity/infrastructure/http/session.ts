import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import connectPgSimple from 'connect-pg-simple';
import type { RequestHandler, Request } from 'express';
import session from 'express-session';
import { AppLogger } from '../../../../platform/logging/logging.module';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { RuntimeConfig } from '../../../../platform/config/app-config';

export const SESSION_COOKIE = 'accounting.sid';
export const SESSION_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

declare module 'express-session' {
  interface SessionData {
    userId: string;
    /** User.passwordStamp at sign-in. */
    passwordStamp: string;
  }
}

/**
 * D11: express-session with its store in PostgreSQL (table user_sessions), so every instance
 * sees every session and revocation is immediate. Cookie httpOnly, SameSite=Lax, Secure when
 * COOKIE_SECURE=true.
 */
@Injectable()
export class SessionMiddleware implements OnApplicationShutdown {
  private readonly store: connectPgSimple.PGStore;
  readonly handler: RequestHandler;

  constructor(dataSource: DataSource, config: ConfigService<RuntimeConfig, true>, logger: AppLogger) {
    const PgStore = connectPgSimple(session);
    this.store = new PgStore({
      pool: (dataSource.driver as unknown as { master: Pool }).master,
      tableName: 'user_sessions',
      createTableIfMissing: false,
      pruneSessionInterval: 15 * 60,
      errorLog: (...args: unknown[]) => logger.pino.error({ args }, 'session store error'),
    });
    const sessions = session({
      name: SESSION_COOKIE,
      secret: config.get('sessionSecret', { infer: true }),
      store: this.store,
      resave: false,
      saveUninitialized: false,
      rolling: false,
      cookie: {
        httpOnly: true,
        sameSite: 'lax',
        secure: config.get('cookieSecure', { infer: true }),
        maxAge: SESSION_MAX_AGE_MS,
        path: '/',
      },
    });
    // A request that presents an API key is judged by the key alone: no session to load.
    this.handler = (request, response, next) => (request.headers['x-api-key'] !== undefined ? next() : sessions(request, response, next));
  }

  onApplicationShutdown(): void {
    this.store.close();
  }
}

function promisified(request: Request, method: 'regenerate' | 'save' | 'destroy'): Promise<void> {
  return new Promise((resolve, reject) => request.session[method]((error: unknown) => (error ? reject(error) : resolve())));
}

/** A new session id for the signed-in User (no session fixation). */
export async function startSession(request: Request, userId: string, passwordStamp: string): Promise<void> {
  await promisified(request, 'regenerate');
  request.session.userId = userId;
  request.session.passwordStamp = passwordStamp;
  await promisified(request, 'save');
}

export function endSession(request: Request): Promise<void> {
  return promisified(request, 'destroy');
}
