import { hashSecret } from './api-key';
export type GlobalRole = 'staff' | 'client';
export const GLOBAL_ROLES: readonly GlobalRole[] = ['staff', 'client'];

/** D11: passwords have at least this many characters. */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1024;

/** E-mails are compared and stored trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  return null;
}

export interface UserState {
  id: string;
  email: string;
  name: string;
  role: GlobalRole;
  passwordHash: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A person who can sign in. The global Role gates which Entities they reach. */
export class User {
  private constructor(private state: UserState) {}

  static register(input: { id: string; email: string; name: string; role: GlobalRole }, now: Date): User {
    return new User({
      id: input.id,
      email: normalizeEmail(input.email),
      name: input.name.trim(),
      role: input.role,
      passwordHash: null,
      createdAt: now,
      updatedAt: now,
    });
  }

  static restore(state: UserState): User {
    return new User({ ...state });
  }

  get id(): string {
    return this.state.id;
  }
  get email(): string {
    return this.state.email;
  }
  get name(): string {
    return this.state.name;
  }
  get role(): GlobalRole {
    return this.state.role;
  }
  get passwordHash(): string | null {
    return this.state.passwordHash;
  }
  get hasPassword(): boolean {
    return this.state.passwordHash !== null;
  }
  /**
   * Names the password a session was signed in with (a digest of its hash, never the hash): a
   * session is the User's only while it is the same, so setting a password ends every session
   * signed in before, also one whose row is written after the change removed the others.
   */
  get passwordStamp(): string | null {
    return this.state.passwordHash === null ? null : hashSecret(this.state.passwordHash).slice(0, 32);
  }
  get createdAt(): Date {
    return this.state.createdAt;
  }

  setPasswordHash(passwordHash: string, now: Date): void {
    this.state = { ...this.state, passwordHash, updatedAt: now };
  }

  snapshot(): UserState {
    return { ...this.state };
  }
}
