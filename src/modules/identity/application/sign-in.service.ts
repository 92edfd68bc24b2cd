import { Injectable } from '@nestjs/common';
import { rateLimited } from '../../../platform/auth/guards/access-errors';
import { Clock } from '../../../platform/clock/clock';
import { invalidEmailOrPassword } from '../domain/identity-errors';
import { PasswordHasher, SignInFailures, UserRepository } from '../domain/identity-ports';
import { normalizeEmail, User } from '../domain/user';

/**
 * D11a: 10 failures for one e-mail from one client address within 15 minutes slow that pair down
 * (429), and so do 100 failures from one address across e-mails; a User is never locked out
 * from elsewhere.
 */
export const SIGN_IN_FAILURE_LIMIT = 10;
export const SIGN_IN_ADDRESS_FAILURE_LIMIT = 100;
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
  async verify(emailInput: string, password: string, clientAddress: string): Promise<User> {
    const email = normalizeEmail(emailInput);
    const now = this.clock.now();
    const recent = await this.failures.countSince(email, clientAddress, new Date(now.getTime() - SIGN_IN_FAILURE_WINDOW_MS));
    for (const [count, limit] of [
      [recent.pair, SIGN_IN_FAILURE_LIMIT],
      [recent.address, SIGN_IN_ADDRESS_FAILURE_LIMIT],
    ] as const) {
      if (count.count >= limit) {
        const reopensAt = (count.oldest?.getTime() ?? now.getTime()) + SIGN_IN_FAILURE_WINDOW_MS;
        throw rateLimited(Math.max(1, Math.ceil((reopensAt - now.getTime()) / 1000)));
      }
    }
    // Held until the sign-in commits, its new session written: a password change racing it
    // either comes first (the old password fails here) or waits and then ends that session.
    const user = await this.users.holdByEmail(email);
    // Unknown e-mail or no password yet: verify against nothing, taking the same time.
    const matches = await this.hasher.verify(user?.passwordHash ?? null, password);
    if (!user || !matches) {
      await this.failures.record(email, clientAddress, now);
      throw invalidEmailOrPassword();
    }
    if (recent.pair.count > 0) await this.failures.clear(email, clientAddress);
    return user;
  }
}
