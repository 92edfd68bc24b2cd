import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { validationError } from '../../../../../libs/shared-kernel/src';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { Authenticated } from '../../../../platform/auth/decorators';
import { NoBody } from '../../../../platform/http/validation';
import { PartnersService } from '../../application/partners.service';
import type { Partner } from '../../domain/partner';
import { CreatePartnerBody, PartnerPageQuery, PartnerPageResponse, PartnerResponse, UpdatePartnerBody } from './partners.dto';

function present(p: Partner): PartnerResponse {
  return {
    id: p.id,
    entityId: p.entityId,
    name: p.name,
    type: p.type,
    country: p.country,
    taxId: p.taxId,
    defaultPurchaseAccountId: p.defaultPurchaseAccountId,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

@ApiTags('partners')
@Authenticated()
@Controller('entities/:entityId/partners')
export class PartnersController {
  constructor(private readonly partners: PartnersService) {}

  @Get()
  @ApiOkResponse({ type: PartnerResponse, isArray: true, description: 'Every partner, by name (never names a Book)' })
  async list(@Param('entityId') entityId: string): Promise<PartnerResponse[]> {
    return (await this.partners.list(entityId)).map(present);
  }

  @Get('pages')
  @ApiOkResponse({ type: PartnerPageResponse, description: 'Partners by name with open receivable and payable balances in the Book read' })
  @ApiNotFoundResponse({ description: 'BOOK_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'BOOK_REQUIRED_ERROR' })
  async pages(@Param('entityId') entityId: string, @Query() query: PartnerPageQuery): Promise<PartnerPageResponse> {
    const page = await this.partners.page(entityId, query);
    return {
      rows: page.rows.map((row) => ({ ...present(row.partner), receivableOpenBalance: row.receivableOpenBalance, payableOpenBalance: row.payableOpenBalance })),
      nextCursor: page.nextCursor,
    };
  }

  @Post()
  @Audit('partner.create', 'partner')
  @ApiCreatedResponse({ type: PartnerResponse, description: 'The new partner' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR or PARTNER_TAX_ID_INVALID_ERROR' })
  @ApiNotFoundResponse({ description: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR (default purchase account)' })
  @ApiConflictResponse({ description: 'PARTNER_ALREADY_EXISTS_ERROR or PARTNER_TAX_ID_ALREADY_EXISTS_ERROR' })
  async create(@Param('entityId') entityId: string, @Body() body: CreatePartnerBody): Promise<PartnerResponse> {
    return present(await this.partners.create(entityId, { ...body, defaultPurchaseAccountId: body.defaultPurchaseAccountId ?? null }));
  }

  @Get(':partnerId')
  @ApiOkResponse({ type: PartnerResponse, description: 'The partner' })
  @ApiNotFoundResponse({ description: 'PARTNER_NOT_FOUND_ERROR' })
  async get(@Param('entityId') entityId: string, @Param('partnerId') partnerId: string): Promise<PartnerResponse> {
    return present(await this.partners.get(entityId, partnerId));
  }

  @Patch(':partnerId')
  @Audit('partner.update', 'partner')
  @ApiOkResponse({ type: PartnerResponse, description: 'The updated partner' })
  @ApiNotFoundResponse({ description: 'PARTNER_NOT_FOUND_ERROR or LEDGER_ACCOUNT_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'PARTNER_TAX_ID_ALREADY_EXISTS_ERROR' })
  async update(@Param('entityId') entityId: string, @Param('partnerId') partnerId: string, @Body() body: UpdatePartnerBody): Promise<PartnerResponse> {
    if (Object.keys(body).length === 0) {
      throw validationError('body', 'must name at least one field');
    }
    return present(await this.partners.update(entityId, partnerId, body));
  }

  @Delete(':partnerId')
  @Audit('partner.delete', 'partner')
  @ApiOkResponse({ type: PartnerResponse, description: 'The deleted partner' })
  @ApiNotFoundResponse({ description: 'PARTNER_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'PARTNER_IN_USE_ERROR: ledger lines or invoices name it' })
  async delete(@Param('entityId') entityId: string, @Param('partnerId') partnerId: string, @NoBody() _body: unknown): Promise<PartnerResponse> {
    return present(await this.partners.delete(entityId, partnerId));
  }
}
