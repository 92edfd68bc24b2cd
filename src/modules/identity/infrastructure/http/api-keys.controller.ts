import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { ApiKeyCreated, ApiKeySummary } from '../../../../../libs/contracts/src';
import { Authenticated, CurrentPrincipal } from '../../../../platform/auth/decorators';
import type { Principal } from '../../../../platform/auth/principal';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { NoBody } from '../../../../platform/http/validation';
import { ApiKeysService } from '../../application/api-keys.service';
import { ApiKeyCreatedResponse, ApiKeySummaryResponse, MintApiKeyBody } from './identity.dto';
import { presentApiKey, presentCreatedApiKey } from './presenters';

/** D13: keys are minted, listed and revoked by their owner over the session. */
@ApiTags('auth')
@Authenticated()
@Controller('auth/api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Post()
  @Audit('api_key.mint', 'api_key')
  @ApiCreatedResponse({ type: ApiKeyCreatedResponse, description: 'The key; its secret is shown only here' })
  @ApiNotFoundResponse({ description: 'ENTITY_NOT_FOUND_ERROR: the owner cannot reach `entityId`' })
  async mint(@Body() body: MintApiKeyBody, @CurrentPrincipal() principal: Principal): Promise<ApiKeyCreated> {
    const { apiKey, plaintext } = await this.apiKeys.mint(principal.user, {
      name: body.name,
      expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
      permissions: body.permissions ? { erp: ['read'] } : null,
      entityId: body.entityId ?? null,
    });
    return presentCreatedApiKey(apiKey, plaintext);
  }

  @Get()
  @ApiOkResponse({ type: ApiKeySummaryResponse, isArray: true, description: "The caller's keys, without secrets" })
  async list(@CurrentPrincipal() principal: Principal): Promise<ApiKeySummary[]> {
    return (await this.apiKeys.list(principal.user.id)).map(presentApiKey);
  }

  @Delete(':apiKeyId')
  @HttpCode(204)
  @Audit('api_key.revoke', 'api_key')
  @ApiNoContentResponse({ description: 'Revoked: the next request with the key gets 401' })
  @ApiNotFoundResponse({ description: 'API_KEY_NOT_FOUND_ERROR: no key of the caller has this id' })
  async revoke(@Param('apiKeyId') apiKeyId: string, @NoBody() _body: unknown, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.apiKeys.revoke(principal.user.id, apiKeyId);
  }
}
