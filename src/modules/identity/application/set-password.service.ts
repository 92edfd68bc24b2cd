import { Transactional } from '@nestjs-cls/transactional';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../../platform/clock/clock';
import { hashSecret } from '../domain/api-key';
import { setPasswordTokenInvalid } from '../domain/identity-errors';
import { PasswordHasher, SetPasswordTokens, UserRepository, UserSessions } from '../domain/identity-ports';

@Injectable()
export class SetPasswordService {
  constructor(
    private readonly tokens: SetPasswordTokens,
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly sessions: UserSessions,
    private readonly clock: Clock,
  ) {}

  /** D12: consumes the one-time token, sets the password and ends every session of the User. */
  @Transactional()
  async setPassword(token: string, newPassword: string): Promise<string> {
    const now = this.clock.now();
    const userId = await this.tokens.consume(hashSecret(token), now);
    const user = userId ? await this.users.findById(userId) : null;
    if (!user) throw setPasswordTokenInvalid();
    user.setPasswordHash(await this.hasher.hash(newPassword), now);
    await this.users.save(user);
    await this.tokens.endAll(user.id, now); // D15a: setting the password ends every link
    await this.sessions.revokeAll(user.id);
    return user.id;
  }
}
