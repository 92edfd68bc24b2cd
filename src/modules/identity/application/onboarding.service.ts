import { Transactional } from '@nestjs-cls/transactional';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../../../platform/clock/clock';
import { translateUniqueViolation } from '../../../platform/database/pg-errors';
import type { RuntimeConfig } from '../../../platform/config/app-config';
import { hashSecret } from '../domain/api-key';
import { userAlreadyExists, userEmailAlreadyExists, userNotFound } from '../domain/identity-errors';
import { SecretGenerator, SetPasswordTokens, UserRepository, UserSessions } from '../domain/identity-ports';
import { GlobalRole, normalizeEmail, User } from '../domain/user';

/**
 * D15: `{APP_BASE_URL}/set-password?token=...`. The page sits under the base URL's own path (a web
 * app served at `https://host/erp` gets `https://host/erp/set-password`), whatever its trailing slash.
 */
export function setPasswordUrl(appBaseUrl: string, token: string): string {
  const url = new URL(appBaseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/set-password`;
  url.search = '';
  url.hash = '';
  url.searchParams.set('token', token);
  return url.toString();
}

@Injectable()
export class OnboardingService {
  constructor(
    private readonly users: UserRepository,
    private readonly tokens: SetPasswordTokens,
    private readonly sessions: UserSessions,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
    @Inject(ConfigService) private readonly config: ConfigService<RuntimeConfig, true>,
  ) {}

  @Transactional()
  async createUser(input: { id: string; email: string; name: string; role: GlobalRole }): Promise<User> {
    if (await this.users.findById(input.id)) throw userAlreadyExists(input.id);
    const user = User.register(input, this.clock.now());
    if (await this.users.findByEmail(user.email)) throw userEmailAlreadyExists(user.email);
    await translateUniqueViolation(() => this.users.insert(user), () => userAlreadyExists(user.id), {
      users_email_key: () => userEmailAlreadyExists(user.email),
    });
    return user;
  }

  async findByEmail(email: string): Promise<User> {
    const user = await this.users.findByEmail(normalizeEmail(email));
    if (!user) throw userNotFound({ email: normalizeEmail(email) });
    return user;
  }

  async getUser(userId: string): Promise<User> {
    const user = await this.users.findById(userId);
    if (!user) throw userNotFound({ userId });
    return user;
  }

  /** A single-use link the staff hands to the User; only the token's hash is stored. */
  @Transactional()
  async issueSetPasswordLink(userId: string): Promise<{ url: string; expiresAt: Date }> {
    await this.getUser(userId);
    const now = this.clock.now();
    const token = this.secrets.token();
    const expiresAt = new Date(now.getTime() + this.config.get('setPasswordLinkTtlHours', { infer: true }) * 3600_000);
    await this.tokens.endAll(userId, now); // D15a: only the newest link works
    await this.tokens.issue(userId, hashSecret(token), expiresAt, now);
    return { url: setPasswordUrl(this.config.get('appBaseUrl', { infer: true }), token), expiresAt };
  }

  @Transactional()
  async revokeSessions(userId: string): Promise<void> {
    await this.getUser(userId);
    await this.sessions.revokeAll(userId);
  }
}
