import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

@Entity('users')
@Check('users_role_check', `"role" IN ('staff', 'client')`)
@Check('users_email_lower_check', `"email" = lower("email")`)
export class UserRecord {
  @PrimaryColumn('uuid')
  id: string;

  @Index('users_email_key', { unique: true })
  @Column('text')
  email: string;

  @Column('text')
  name: string;

  @Column('text')
  role: 'staff' | 'client';

  @Column('text', { nullable: true })
  passwordHash: string | null;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}

@Entity('api_keys')
@Index('api_keys_user_idx', ['userId', 'createdAt'])
export class ApiKeyRecord {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  userId: string;

  @ManyToOne(() => UserRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'api_keys_user_fk' })
  user?: UserRecord;

  @Column('text')
  name: string;

  @Index('api_keys_prefix_key', { unique: true })
  @Column('text')
  prefix: string;

  @Column('text')
  secretHash: string;

  @Column('jsonb', { nullable: true })
  permissions: { erp: ['read'] } | null;

  @Column('uuid', { nullable: true })
  entityId: string | null;

  @Column('timestamptz', { nullable: true })
  expiresAt: Date | null;

  @Column('timestamptz', { nullable: true })
  revokedAt: Date | null;

  @Column('timestamptz', { nullable: true })
  lastUsedAt: Date | null;

  @Column('timestamptz')
  createdAt: Date;
}

/** D14: requests per key per minute; the sliding hour is the sum of the last 60 buckets. */
@Entity('api_key_usage')
export class ApiKeyUsageRecord {
  @PrimaryColumn('uuid')
  apiKeyId: string;

  @PrimaryColumn('timestamptz')
  windowStart: Date;

  @ManyToOne(() => ApiKeyRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'api_key_id', foreignKeyConstraintName: 'api_key_usage_api_key_fk' })
  apiKey?: ApiKeyRecord;

  @Column('integer')
  requestCount: number;
}

@Entity('sign_in_failures')
@Index('sign_in_failures_pair_idx', ['email', 'clientAddress', 'failedAt'])
@Index('sign_in_failures_address_idx', ['clientAddress', 'failedAt'])
export class SignInFailureRecord {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text')
  email: string;

  /** D11a: the client's address (the socket's, or the one TRUST_PROXY allows). */
  @Column('text')
  clientAddress: string;

  @Column('timestamptz')
  failedAt: Date;
}

@Entity('set_password_tokens')
export class SetPasswordTokenRecord {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  userId: string;

  @ManyToOne(() => UserRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'set_password_tokens_user_fk' })
  user?: UserRecord;

  @Index('set_password_tokens_token_hash_key', { unique: true })
  @Column('text')
  tokenHash: string;

  @Column('timestamptz')
  expiresAt: Date;

  @Column('timestamptz', { nullable: true })
  usedAt: Date | null;

  @Column('timestamptz')
  createdAt: Date;
}

export const IDENTITY_RECORDS = [UserRecord, ApiKeyRecord, ApiKeyUsageRecord, SignInFailureRecord, SetPasswordTokenRecord];
