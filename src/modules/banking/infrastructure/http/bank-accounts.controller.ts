import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { Authenticated } from '../../../../platform/auth/decorators';
import { NoBody } from '../../../../platform/http/validation';
import { BankAccountsService } from '../../application/bank-accounts.service';
import { BankAccountResponse, BankAccountWithSummaryResponse, CreateBankAccountBody, DeletedBankAccountResponse, RenameBankAccountBody } from './banking.dto';
import { presentAccount, presentSummary } from './presenters';

@ApiTags('bank accounts')
@Authenticated()
@Controller('entities/:entityId/bank-accounts')
export class BankAccountsController {
  constructor(private readonly accounts: BankAccountsService) {}

  @Get()
  @ApiOkResponse({ type: BankAccountWithSummaryResponse, isArray: true, description: 'Every bank account by name, with balance and unreconciled count' })
  async list(@Param('entityId') entityId: string): Promise<BankAccountWithSummaryResponse[]> {
    return (await this.accounts.list(entityId)).map(presentSummary);
  }

  @Post()
  @Audit('bank_account.create', 'bank_account')
  @ApiCreatedResponse({ type: BankAccountWithSummaryResponse, description: 'The new bank account' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR or BANK_ACCOUNT_KIND_LEDGER_TYPE_MISMATCH_ERROR' })
  @ApiNotFoundResponse({ description: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'BANK_ACCOUNT_ALREADY_EXISTS_ERROR' })
  async create(@Param('entityId') entityId: string, @Body() body: CreateBankAccountBody): Promise<BankAccountWithSummaryResponse> {
    return presentSummary(await this.accounts.create(entityId, body));
  }

  @Patch(':bankAccountId')
  @Audit('bank_account.update', 'bank_account')
  @ApiOkResponse({ type: BankAccountResponse, description: 'The renamed bank account' })
  @ApiNotFoundResponse({ description: 'BANK_ACCOUNT_NOT_FOUND_ERROR' })
  async rename(@Param('entityId') entityId: string, @Param('bankAccountId') bankAccountId: string, @Body() body: RenameBankAccountBody): Promise<BankAccountResponse> {
    return presentAccount(await this.accounts.rename(entityId, bankAccountId, body.name));
  }

  @Delete(':bankAccountId')
  @Audit('bank_account.delete', 'bank_account')
  @ApiOkResponse({ type: DeletedBankAccountResponse })
  @ApiNotFoundResponse({ description: 'BANK_ACCOUNT_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'BANK_ACCOUNT_HAS_MOVEMENTS_ERROR or BANK_ACCOUNT_HAS_FEED_ERROR' })
  async delete(@Param('entityId') entityId: string, @Param('bankAccountId') bankAccountId: string, @NoBody() _body: unknown): Promise<DeletedBankAccountResponse> {
    return this.accounts.delete(entityId, bankAccountId);
  }
}
