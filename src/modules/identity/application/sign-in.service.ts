import { Injectable } from '@nestjs/common';
import { rateLimited } from '../../../platform/auth/guards/access-errors';
import { Clock } from '../../../platform/clock/clock';
import { invalidEmailOrPassword } from '../domain/identity-errors';
import { PasswordHasher, SignInFailures, UserRepository } from '../domain/identity-ports';
import { normalizeEmail, User } from '../domain/user';

/** D11: 10 failures for one e-mail within 15 minutes slow sign-in down (429). */
export const SIGN_IN_FAILURE_LIMIT = 10;
export const SIGN_IN_FAILURE_WINDOW_MS = 15 * 60 * 1000;

@Injectable()
export class SignInService {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly failures: SignInFailures,
    private readonly clock: Clock,
  ) {}

  /** The User whose e-mail and password match; the same refusal (and similar time) otherwise. */
  async verify(emailInput: string, password: string): Promise<User> {
    const email = normalizeEmail(emailInput);
    const now = this.clock.now();
    const recent = await this.failures.countSince(email, new Date(now.getTime() - SIGN_IN_FAILURE_WINDOW_MS));
    if (recent.count >= SIGN_IN_FAILURE_LIMIT) {
      const reopensAt = (recent.oldest?.getTime() ?? now.getTime()) + SIGN_IN_FAILURE_WINDOW_MS;
      throw rateLimited(Math.max(1, Math.ceil((reopensAt - now.getTime()) / 1000)));
    }
    // Held until the sign-in commits, its new session written: a password change racing it
    // either comes first (the old password fails here) or waits and then ends that session.
    const user = await this.users.holdByEmail(email);
    // Unknown e-mail or no password yet: verify against nothing, taking the same time.
    const matches = await this.hasher.verify(user?.passwordHash ?? null, password);
    if (!user || !matches) {
      await this.failures.record(email, now);
      throw invalidEmailOrPassword();
    }
    if (recent.count > 0) await this.failures.clear(email);
    return user;
  }
}
