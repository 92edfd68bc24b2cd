import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBadGatewayResponse, ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { Authenticated } from '../../../../platform/auth/decorators';
import { NoBody } from '../../../../platform/http/validation';
import { BankAccountResponse, BankAccountWithSummaryResponse, presentAccount, presentSummary } from '../../../banking';
import { BankConnectionsService } from '../../application/bank-connections.service';
import {
  AttachFeedBody,
  BankConnectionWithFedAccountsResponse,
  CreateFedBankAccountBody,
  DeletedBankConnectionResponse,
  DiscoveredAccountResponse,
  FinalizeConnectionBody,
  LinkIntentBody,
  LinkIntentResponse,
  PublishAccountsBody,
  ReconnectBody,
} from './bank-feeds.dto';
import { presentConnection, presentPanelAccount } from './presenters';

const PROVIDER_FAILURE = 'BANK_PROVIDER_ERROR: the provider failed or refused (the connection status says login_required or error); never carries a token';

@ApiTags('bank connections')
@Authenticated()
@Controller('entities/:entityId/bank-connections')
export class BankConnectionsController {
  constructor(private readonly connections: BankConnectionsService) {}

  @Post('link-intents')
  @Audit('bank_connection.link_intent', 'bank_connection', { ownTransaction: true })
  @ApiCreatedResponse({ type: LinkIntentResponse, description: "Starts the connect flow: the widget's token and public key" })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR (a provider that is not enabled included)' })
  @ApiBadGatewayResponse({ description: PROVIDER_FAILURE })
  async linkIntent(@Param('entityId') entityId: string, @Body() body: LinkIntentBody): Promise<LinkIntentResponse> {
    const intent = await this.connections.linkIntent(entityId, body);
    return { provider: intent.provider, widgetToken: intent.widgetToken, publicKey: intent.publicKey, expiresAt: intent.expiresAt.toISOString() };
  }

  @Post()
  @Audit('bank_connection.create', 'bank_connection', { ownTransaction: true })
  @ApiCreatedResponse({ type: BankConnectionWithFedAccountsResponse, description: 'The finalized connection, with no fed accounts' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR' })
  @ApiConflictResponse({ description: 'BANK_CONNECTION_ALREADY_EXISTS_ERROR' })
  @ApiBadGatewayResponse({ description: PROVIDER_FAILURE })
  async finalize(@Param('entityId') entityId: string, @Body() body: FinalizeConnectionBody): Promise<BankConnectionWithFedAccountsResponse> {
    return presentConnection(await this.connections.finalize(entityId, body));
  }

  @Post(':bankConnectionId/reconnect')
  @HttpCode(200)
  @Audit('bank_connection.reconnect', 'bank_connection', { ownTransaction: true })
  @ApiOkResponse({ type: BankConnectionWithFedAccountsResponse, description: 'The restored connection (status active)' })
  @ApiNotFoundResponse({ description: 'BANK_CONNECTION_NOT_FOUND_ERROR' })
  @ApiBadGatewayResponse({ description: PROVIDER_FAILURE })
  async reconnect(@Param('entityId') entityId: string, @Param('bankConnectionId') bankConnectionId: string, @Body() body: ReconnectBody): Promise<BankConnectionWithFedAccountsResponse> {
    return presentConnection(await this.connections.reconnect(entityId, bankConnectionId, body.exchangeToken));
  }

  @Get()
  @ApiOkResponse({ type: BankConnectionWithFedAccountsResponse, isArray: true, description: 'Every connection of the Entity (oldest first) with the Bank Accounts it feeds' })
  async list(@Param('entityId') entityId: string): Promise<BankConnectionWithFedAccountsResponse[]> {
    return (await this.connections.list(entityId)).map(presentConnection);
  }

  @Get(':bankConnectionId/accounts')
  @ApiOkResponse({ type: DiscoveredAccountResponse, isArray: true, description: "Live panel: the provider's accounts on this connection, read now, each with the Bank Account it feeds" })
  @ApiNotFoundResponse({ description: 'BANK_CONNECTION_NOT_FOUND_ERROR' })
  @ApiBadGatewayResponse({ description: PROVIDER_FAILURE })
  async panel(@Param('entityId') entityId: string, @Param('bankConnectionId') bankConnectionId: string): Promise<DiscoveredAccountResponse[]> {
    return (await this.connections.panel(entityId, bankConnectionId)).map(presentPanelAccount);
  }

  @Post(':bankConnectionId/accounts')
  @HttpCode(200)
  @Audit('bank_connection.publish_accounts', 'bank_connection')
  @ApiOkResponse({ type: BankConnectionWithFedAccountsResponse, description: 'For providers that need account ids published (none today)' })
  @ApiNotFoundResponse({ description: 'BANK_CONNECTION_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'BANK_CONNECTION_ACCOUNT_PUBLICATION_UNSUPPORTED_ERROR' })
  async publish(@Param('entityId') entityId: string, @Param('bankConnectionId') bankConnectionId: string, @Body() _body: PublishAccountsBody): Promise<BankConnectionWithFedAccountsResponse> {
    return presentConnection(await this.connections.publish(entityId, bankConnectionId));
  }

  @Post(':bankConnectionId/feeds')
  @Audit('bank_feed.attach', 'bank_account', { ownTransaction: true })
  @ApiCreatedResponse({ type: BankAccountResponse, description: 'The Bank Account with its feed' })
  @ApiNotFoundResponse({ description: 'BANK_CONNECTION_NOT_FOUND_ERROR, BANK_ACCOUNT_NOT_FOUND_ERROR or BANK_PROVIDER_ACCOUNT_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'BANK_ACCOUNT_ALREADY_FED_ERROR or BANK_FEED_CURRENCY_MISMATCH_ERROR' })
  @ApiBadGatewayResponse({ description: PROVIDER_FAILURE })
  async attach(@Param('entityId') entityId: string, @Param('bankConnectionId') bankConnectionId: string, @Body() body: AttachFeedBody): Promise<BankAccountResponse> {
    return presentAccount(await this.connections.attachFeed(entityId, bankConnectionId, body));
  }

  @Post(':bankConnectionId/bank-accounts')
  @Audit('bank_account.create_fed', 'bank_account', { ownTransaction: true })
  @ApiCreatedResponse({ type: BankAccountWithSummaryResponse, description: 'The new Bank Account (kind bank, currency of the provider account) with its feed' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR or BANK_ACCOUNT_KIND_LEDGER_TYPE_MISMATCH_ERROR (not an asset ledger account)' })
  @ApiNotFoundResponse({ description: 'BANK_CONNECTION_NOT_FOUND_ERROR, LEDGER_ACCOUNT_NOT_FOUND_ERROR or BANK_PROVIDER_ACCOUNT_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'BANK_ACCOUNT_ALREADY_EXISTS_ERROR or BANK_ACCOUNT_ALREADY_FED_ERROR' })
  @ApiBadGatewayResponse({ description: PROVIDER_FAILURE })
  async createFed(
    @Param('entityId') entityId: string,
    @Param('bankConnectionId') bankConnectionId: string,
    @Body() body: CreateFedBankAccountBody,
  ): Promise<BankAccountWithSummaryResponse> {
    return presentSummary(await this.connections.createAndFeed(entityId, bankConnectionId, body));
  }

  @Delete(':bankConnectionId')
  @Audit('bank_connection.delete', 'bank_connection')
  @ApiOkResponse({ type: DeletedBankConnectionResponse, description: 'The deleted connection and each Bank Account that lost its feed' })
  @ApiNotFoundResponse({ description: 'BANK_CONNECTION_NOT_FOUND_ERROR' })
  async delete(@Param('entityId') entityId: string, @Param('bankConnectionId') bankConnectionId: string, @NoBody() _body: unknown): Promise<DeletedBankConnectionResponse> {
    return this.connections.deleteConnection(entityId, bankConnectionId);
  }
}
