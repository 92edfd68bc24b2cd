import { Transactional } from '@nestjs-cls/transactional';
import { Injectable } from '@nestjs/common';
import { newId } from '../../../../libs/shared-kernel/src';
import { Clock } from '../../../platform/clock/clock';
import { RequestValidationError } from '../../../platform/http/validation';
import { ApiKey, ApiKeyPermissions } from '../domain/api-key';
import { apiKeyNotFound } from '../domain/identity-errors';
import { ApiKeyRepository, SecretGenerator } from '../domain/identity-ports';
import { EntityReachability } from './entity-reachability';

export interface MintApiKeyInput {
  name: string;
  expiresAt: Date | null;
  permissions: ApiKeyPermissions;
  entityId: string | null;
}

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly apiKeys: ApiKeyRepository,
    private readonly secrets: SecretGenerator,
    private readonly reachability: EntityReachability,
    private readonly clock: Clock,
  ) {}

  @Transactional()
  async mint(owner: { id: string; role: 'staff' | 'client' }, input: MintApiKeyInput): Promise<{ apiKey: ApiKey; plaintext: string }> {
    const now = this.clock.now();
    if (input.expiresAt && input.expiresAt.getTime() <= now.getTime()) {
      throw new RequestValidationError([{ path: 'expiresAt', message: 'expiresAt must be in the future' }]);
    }
    if (input.entityId && !(await this.reachability.canReach(owner, input.entityId))) {
      throw this.reachability.notFound(input.entityId);
    }
    const minted = ApiKey.mint({ id: newId(), userId: owner.id, ...input }, this.secrets.apiKeyMaterial(), now);
    await this.apiKeys.insert(minted.apiKey);
    return minted;
  }

  list(ownerId: string): Promise<ApiKey[]> {
    return this.apiKeys.listOwned(ownerId);
  }

  @Transactional()
  async revoke(ownerId: string, apiKeyId: string): Promise<ApiKey> {
    const apiKey = await this.apiKeys.findOwned(ownerId, apiKeyId);
    if (!apiKey) throw apiKeyNotFound(apiKeyId);
    apiKey.revoke(this.clock.now());
    await this.apiKeys.recordRevocation(apiKey);
    return apiKey;
  }

  /**
   * Removes keys of the owner that can no longer authenticate (expired): the agent gateway's
   * hour-long lease keys once their hour is over (D88). Only the ids given are considered.
   */
  @Transactional()
  deleteExpired(ownerId: string, apiKeyIds: string[]): Promise<number> {
    return this.apiKeys.deleteExpiredOwned(ownerId, apiKeyIds, this.clock.now());
  }
}
