import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { PasswordHasher } from '../domain/identity-ports';

/** OWASP's argon2id parameters: 19 MiB of memory, 2 iterations, 1 lane. */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

@Injectable()
export class Argon2PasswordHasher extends PasswordHasher {
  private readonly dummyHash: Promise<string> = argon2.hash('no password: spend the same time', OPTIONS);

  hash(password: string): Promise<string> {
    return argon2.hash(password, OPTIONS);
  }

  async verify(passwordHash: string | null, password: string): Promise<boolean> {
    const matches = await argon2.verify(passwordHash ?? (await this.dummyHash), password).catch(() => false);
    return passwordHash !== null && matches;
  }
}
