import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { AuditContext } from '../../../../platform/audit/audit-context';
import { Authenticated } from '../../../../platform/auth/decorators';
import { NoBody } from '../../../../platform/http/validation';
import { ChartService } from '../../application/chart.service';
import { templateSummaries } from '../../application/chart-templates';
import { validationError } from '../../domain/ledger-errors';
import {
  AccountGroupResponse,
  AccountResultResponse,
  ChartResponse,
  ChartTemplateResponse,
  CreateAccountBody,
  CreateGroupBody,
  DeletedAccountResponse,
  GroupCreatedResponse,
  InitializeChartBody,
  LedgerAccountResponse,
  UpdateAccountBody,
} from './ledger.dto';
import { presentAccount, presentGroup } from './presenters';

@ApiTags('chart of accounts')
@Authenticated()
@Controller('entities/:entityId/ledger')
export class ChartController {
  constructor(
    private readonly chart: ChartService,
    private readonly audit: AuditContext,
  ) {}

  @Get('chart-templates')
  @ApiOkResponse({ type: ChartTemplateResponse, isArray: true, description: 'Templates a chart can be initialized from (D32)' })
  templates(): ChartTemplateResponse[] {
    return templateSummaries();
  }

  @Get('chart-of-accounts')
  @ApiOkResponse({ type: ChartResponse, description: '`{ groups, accounts }` with the derived facts of each account' })
  async chartOfAccounts(@Param('entityId') entityId: string): Promise<ChartResponse> {
    const { groups, accounts } = await this.chart.chartOf(entityId);
    return { groups: groups.map(presentGroup), accounts: accounts.map(presentAccount) };
  }

  @Post('chart-initializations')
  @Audit('chart.initialize', 'chart_initialization')
  @ApiCreatedResponse({ type: ChartResponse, description: 'The chart copied from the template, with fresh ids' })
  @ApiNotFoundResponse({ description: 'CHART_TEMPLATE_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'CHART_INITIALIZATION_ALREADY_EXISTS_ERROR or CHART_TEMPLATE_REQUIRES_EMPTY_CHART_ERROR' })
  async initialize(@Param('entityId') entityId: string, @Body() body: InitializeChartBody): Promise<ChartResponse> {
    const { groups, accounts } = await this.chart.initialize(entityId, body);
    this.audit.describe({ resourceId: body.id });
    return { groups: groups.map(presentGroup), accounts: accounts.map(presentAccount) };
  }

  @Post('account-groups')
  @Audit('account_group.create', 'account_group')
  @ApiCreatedResponse({ type: GroupCreatedResponse, description: '`{ group }`' })
  @ApiNotFoundResponse({ description: 'LEDGER_ACCOUNT_GROUP_NOT_FOUND_ERROR (parent)' })
  @ApiConflictResponse({
    description: 'LEDGER_ACCOUNT_GROUP_ID_ALREADY_EXISTS_ERROR, LEDGER_ACCOUNT_GROUP_ALREADY_EXISTS_ERROR (prefix), LEDGER_ACCOUNT_GROUP_PARENT_TYPE_INCOMPATIBLE_ERROR',
  })
  async createGroup(@Param('entityId') entityId: string, @Body() body: CreateGroupBody): Promise<{ group: AccountGroupResponse }> {
    const group = await this.chart.createGroup(entityId, { ...body, parentGroupId: body.parentGroupId ?? null });
    this.audit.describe({ resourceId: group.id });
    return { group: presentGroup(group) };
  }

  @Get('accounts')
  @ApiOkResponse({ type: LedgerAccountResponse, isArray: true, description: 'Every ledger account, by code' })
  async accounts(@Param('entityId') entityId: string): Promise<LedgerAccountResponse[]> {
    return (await this.chart.accounts(entityId)).map(presentAccount);
  }

  @Post('accounts')
  @Audit('ledger_account.create', 'ledger_account')
  @ApiCreatedResponse({ type: AccountResultResponse, description: '`{ account }` with derived facts' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR (normalSide is never accepted; code outside the group prefix)' })
  @ApiNotFoundResponse({ description: 'LEDGER_ACCOUNT_GROUP_NOT_FOUND_ERROR' })
  @ApiConflictResponse({
    description:
      'LEDGER_ACCOUNT_ALREADY_EXISTS_ERROR, LEDGER_ACCOUNT_CODE_ALREADY_EXISTS_ERROR, LEDGER_ACCOUNT_GROUP_TYPE_INCOMPATIBLE_ERROR, LEDGER_ACCOUNT_SUBTYPE_TYPE_INCOMPATIBLE_ERROR, LEDGER_ACCOUNT_SUBTYPE_TRACKING_INCOMPATIBLE_ERROR',
  })
  async createAccount(@Param('entityId') entityId: string, @Body() body: CreateAccountBody): Promise<{ account: LedgerAccountResponse }> {
    const view = await this.chart.createAccount(entityId, { ...body, subtype: body.subtype ?? null, groupId: body.groupId ?? null });
    this.audit.describe({ resourceId: view.account.id });
    return { account: presentAccount(view) };
  }

  @Patch('accounts/:accountId')
  @Audit('ledger_account.update', 'ledger_account')
  @ApiOkResponse({ type: AccountResultResponse, description: '`{ account }`' })
  @ApiNotFoundResponse({ description: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR or LEDGER_ACCOUNT_GROUP_NOT_FOUND_ERROR' })
  @ApiConflictResponse({
    description:
      'LEDGER_ACCOUNT_TYPE_LOCKED_ERROR, LEDGER_ACCOUNT_TRACKING_LOCKED_ERROR, LEDGER_ACCOUNT_SUBTYPE_LOCKED_ERROR, LEDGER_ACCOUNT_CODE_ALREADY_EXISTS_ERROR, subtype and group compatibility codes',
  })
  async updateAccount(
    @Param('entityId') entityId: string,
    @Param('accountId') accountId: string,
    @Body() body: UpdateAccountBody,
  ): Promise<{ account: LedgerAccountResponse }> {
    if (Object.keys(body).length === 0) throw validationError('body', 'must name at least one of name, code, type, tracking, subtype, groupId');
    return { account: presentAccount(await this.chart.updateAccount(entityId, accountId, body)) };
  }

  @Delete('accounts/:accountId')
  @Audit('ledger_account.delete', 'ledger_account')
  @ApiOkResponse({ type: DeletedAccountResponse, description: '`{ deletedAccountId }`' })
  @ApiNotFoundResponse({ description: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'LEDGER_ACCOUNT_IN_USE_ERROR (params.blockedBy: entries, bank_account or default_purchase_account)' })
  async deleteAccount(@Param('entityId') entityId: string, @Param('accountId') accountId: string, @NoBody() _body: unknown): Promise<DeletedAccountResponse> {
    await this.chart.deleteAccount(entityId, accountId);
    return { deletedAccountId: accountId };
  }
}
