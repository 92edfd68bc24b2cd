import { Transactional } from '@nestjs-cls/transactional';
import { Injectable } from '@nestjs/common';
import { newId } from '../../../../libs/shared-kernel/src';
import { Clock } from '../../../platform/clock/clock';
import { PasswordHasher, UserRepository } from '../domain/identity-ports';
import { normalizeEmail, passwordProblem, User } from '../domain/user';

/** D10: the first staff User, from configuration at start or from the CLI. */
@Injectable()
export class StaffProvisioningService {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
  ) {}

  /** Creates a staff User with this password unless a User has the e-mail; returns whether it did. */
  @Transactional()
  async ensureStaff(email: string, password: string, name = 'Staff'): Promise<{ created: boolean; userId: string }> {
    const problem = passwordProblem(password);
    if (problem) throw new Error(`password ${problem}`);
    const existing = await this.users.findByEmail(normalizeEmail(email));
    if (existing) return { created: false, userId: existing.id };
    const now = this.clock.now();
    const user = User.register({ id: newId(), email, name, role: 'staff' }, now);
    user.setPasswordHash(await this.hasher.hash(password), now);
    await this.users.insert(user);
    return { created: true, userId: user.id };
  }
}
