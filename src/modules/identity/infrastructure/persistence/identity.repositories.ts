import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { preparedQuery } from '../../../../platform/database/prepared-query';
import { DataSource, EntityManager, In } from 'typeorm';
import { newId } from '../../../../../libs/shared-kernel/src';
import { ApiKey, ApiKeyPermissions } from '../../domain/api-key';
import {
  ApiKeyRepository,
  AuthenticatedKey,
  SetPasswordTokens,
  FailureCount,
  SignInFailures,
  UserRepository,
  UserSessions,
} from '../../domain/identity-ports';
import { User } from '../../domain/user';
import { ApiKeyRecord, SetPasswordTokenRecord, SignInFailureRecord, UserRecord } from './identity.records';

const toUser = (record: UserRecord) => User.restore({ ...record });
const toApiKey = (record: ApiKeyRecord) => ApiKey.restore({ ...record });

@Injectable()
export class TypeOrmUserRepository extends UserRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private get records() {
    return this.txHost.tx.getRepository(UserRecord);
  }

  async findById(userId: string): Promise<User | null> {
    const record = await this.records.findOneBy({ id: userId });
    return record ? toUser(record) : null;
  }

  async findByEmail(email: string): Promise<User | null> {
    const record = await this.records.findOneBy({ email });
    return record ? toUser(record) : null;
  }

  async holdByEmail(email: string): Promise<User | null> {
    const record = await this.records.findOne({ where: { email }, lock: { mode: 'pessimistic_read' } });
    return record ? toUser(record) : null;
  }

  async findByIds(userIds: string[]): Promise<User[]> {
    if (userIds.length === 0) return [];
    return (await this.records.findBy({ id: In(userIds) })).map(toUser);
  }

  async insert(user: User): Promise<void> {
    await this.records.insert(user.snapshot());
  }

  async save(user: User): Promise<void> {
    const { id, ...rest } = user.snapshot();
    await this.records.update({ id }, rest);
  }
}

@Injectable()
export class TypeOrmApiKeyRepository extends ApiKeyRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private get records() {
    return this.txHost.tx.getRepository(ApiKeyRecord);
  }

  /** On every key request: one call (migration ApiKeyAuthenticationWithTenant). */
  async authenticate(prefix: string, secretHash: string, limitPerHour: number, now: Date, entityId: string | null): Promise<AuthenticatedKey | null> {
    const [row] = await preparedQuery<Record<string, unknown>>(this.txHost.tx, 'SELECT * FROM authenticate_api_key($1, $2, $3, $4, $5)', [
      prefix,
      secretHash,
      limitPerHour,
      now,
      entityId,
    ]);
    if (!row) return null;
    return {
      apiKeyId: row.api_key_id as string,
      permissions: row.permissions as ApiKeyPermissions,
      entityId: row.entity_id as string | null,
      owner: { id: row.user_id as string, email: row.email as string, name: row.name as string, role: row.role as 'staff' | 'client' },
      rateLimit: { allowed: row.allowed as boolean, retryAfterSeconds: row.retry_after_seconds as number },
      tenant:
        entityId === null
          ? undefined
          : row.tenant_found
            ? { organizationId: row.tenant_organization_id as string, membershipRole: row.tenant_membership_role as 'staff' | 'client' | 'viewer' | null }
            : null,
    };
  }

  async findOwned(userId: string, apiKeyId: string): Promise<ApiKey | null> {
    const record = await this.records.findOneBy({ id: apiKeyId, userId });
    return record ? toApiKey(record) : null;
  }

  async listOwned(userId: string): Promise<ApiKey[]> {
    const records = await this.records.find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return records.map(toApiKey);
  }

  async insert(apiKey: ApiKey): Promise<void> {
    await this.records.insert(apiKey.snapshot());
  }

  async recordRevocation(apiKey: ApiKey): Promise<void> {
    const { id, revokedAt } = apiKey.snapshot();
    await this.txHost.tx.query('UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [id, revokedAt]);
  }

  async deleteExpiredOwned(userId: string, apiKeyIds: string[], now: Date): Promise<number> {
    if (apiKeyIds.length === 0) return 0;
    const deleted: unknown[] = await this.txHost.tx.query(
      'DELETE FROM api_keys WHERE user_id = $1 AND id = ANY($2::uuid[]) AND expires_at <= $3 RETURNING id',
      [userId, apiKeyIds, now],
    );
    return deleted.length;
  }
}

@Injectable()
export class TypeOrmSetPasswordTokens extends SetPasswordTokens {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  async issue(userId: string, tokenHash: string, expiresAt: Date, now: Date): Promise<void> {
    await this.txHost.tx.getRepository(SetPasswordTokenRecord).insert({ id: newId(), userId, tokenHash, expiresAt, createdAt: now });
  }

  async consume(tokenHash: string, now: Date): Promise<string | null> {
    // One statement: two racing uses of the same link cannot both succeed. (TypeORM answers an
    // UPDATE with [rows, count].)
    const [rows]: [Array<{ user_id: string }>, number] = await this.txHost.tx.query(
      `UPDATE set_password_tokens SET used_at = $2
        WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
        RETURNING user_id`,
      [tokenHash, now],
    );
    return rows[0]?.user_id ?? null;
  }

  async endAll(userId: string, now: Date): Promise<void> {
    await this.txHost.tx.query(`UPDATE set_password_tokens SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL`, [userId, now]);
  }
}

@Injectable()
export class PgUserSessions extends UserSessions {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  async revokeAll(userId: string): Promise<number> {
    const result: [unknown[], number] = await this.txHost.tx.query(
      `DELETE FROM user_sessions WHERE sess->>'userId' = $1`,
      [userId],
    );
    return result[1];
  }
}

/** Uses its own connection, never the request's transaction: a refused sign-in must still count. */
@Injectable()
export class PgSignInFailures extends SignInFailures {
  private readonly manager: EntityManager;

  constructor(dataSource: DataSource) {
    super();
    this.manager = dataSource.manager;
  }

  async countSince(email: string, clientAddress: string, since: Date): Promise<{ pair: FailureCount; address: FailureCount }> {
    const [row]: Array<{ pair_count: number; pair_oldest: Date | null; address_count: number; address_oldest: Date | null }> = await this.manager.query(
      `SELECT count(*) FILTER (WHERE email = $1)::int AS pair_count, min(failed_at) FILTER (WHERE email = $1) AS pair_oldest,
              count(*)::int AS address_count, min(failed_at) AS address_oldest
         FROM sign_in_failures WHERE client_address = $2 AND failed_at > $3`,
      [email, clientAddress, since],
    );
    return { pair: { count: row.pair_count, oldest: row.pair_oldest }, address: { count: row.address_count, oldest: row.address_oldest } };
  }

  async record(email: string, clientAddress: string, now: Date): Promise<void> {
    await this.manager.getRepository(SignInFailureRecord).insert({ id: newId(), email, clientAddress, failedAt: now });
  }

  async clear(email: string, clientAddress: string): Promise<void> {
    await this.manager.getRepository(SignInFailureRecord).delete({ email, clientAddress });
  }
}
