import { Controller, Delete, Param, Post } from '@nestjs/common';
import { ApiBadGatewayResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { Authenticated } from '../../../../platform/auth/decorators';
import { NoBody } from '../../../../platform/http/validation';
import { BankAccountResponse, presentAccount } from '../../../banking';
import { FeedSyncService } from '../../application/feed-sync.service';
import { SyncResultResponse } from './bank-feeds.dto';

@ApiTags('bank accounts')
@Authenticated()
@Controller('entities/:entityId/bank-accounts/:bankAccountId/feed')
export class BankFeedsController {
  constructor(private readonly feeds: FeedSyncService) {}

  @Delete()
  @Audit('bank_feed.delete', 'bank_account')
  @ApiOkResponse({ type: BankAccountResponse, description: 'The Bank Account with feed null; it keeps its movements' })
  @ApiNotFoundResponse({ description: 'BANK_ACCOUNT_NOT_FOUND_ERROR or BANK_FEED_NOT_FOUND_ERROR' })
  async detach(@Param('entityId') entityId: string, @Param('bankAccountId') bankAccountId: string, @NoBody() _body: unknown): Promise<BankAccountResponse> {
    return presentAccount(await this.feeds.detach(entityId, bankAccountId));
  }

  @Post('sync')
  @Audit('bank_feed.sync', 'bank_account', { ownTransaction: true })
  @ApiCreatedResponse({ type: SyncResultResponse, description: "Reads the feed's window (D69) and lands each new movement once" })
  @ApiNotFoundResponse({ description: 'BANK_ACCOUNT_NOT_FOUND_ERROR or BANK_FEED_NOT_FOUND_ERROR' })
  @ApiBadGatewayResponse({ description: 'BANK_PROVIDER_ERROR: nothing of this sync landed; the connection status is updated' })
  async sync(@Param('entityId') entityId: string, @Param('bankAccountId') bankAccountId: string, @NoBody() _body: unknown): Promise<SyncResultResponse> {
    return this.feeds.sync(entityId, bankAccountId);
  }
}
