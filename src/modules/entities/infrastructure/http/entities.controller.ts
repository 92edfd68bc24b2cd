import { Body, Controller, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Entity, EntityEditability } from '../../../../../libs/contracts/src';
import { validationError } from '../../../../../libs/shared-kernel/src';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { AuditContext } from '../../../../platform/audit/audit-context';
import { Authenticated, CurrentPrincipal, StaffOnly } from '../../../../platform/auth/decorators';
import type { Principal } from '../../../../platform/auth/principal';
import { EntitiesService } from '../../application/entities.service';
import type { LegalEntity } from '../../domain/legal-entity';
import {
  AccountingPoliciesBody,
  CreateEntityBody,
  EditabilityResponse,
  EntityResponse,
  LedgerLockDateBody,
  MoveEntityBody,
  ParentBody,
  UpdateEntityBody,
} from './entities.dto';

export function presentEntity(entity: LegalEntity): Entity {
  const s = entity.snapshot();
  return {
    id: s.id,
    organizationId: s.organizationId,
    name: s.name,
    country: s.country,
    taxId: s.taxId,
    currency: s.currency,
    ledgerLockDate: s.ledgerLockDate,
    accountingPolicies: s.accountingPolicies,
    parentEntityId: s.parentEntityId,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

const NOT_FOUND = 'ENTITY_NOT_FOUND_ERROR: missing, or not reachable by the caller (the same answer)';

@ApiTags('entities')
@Authenticated()
@Controller('entities')
export class EntitiesController {
  constructor(
    private readonly entities: EntitiesService,
    private readonly audit: AuditContext,
  ) {}

  @Post()
  @StaffOnly()
  @Audit('entity.create', 'entity')
  @ApiCreatedResponse({ type: EntityResponse, description: 'The new Entity' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR (country, currency) or ENTITY_TAX_ID_INVALID_ERROR' })
  @ApiNotFoundResponse({ description: 'ORGANIZATION_NOT_FOUND_ERROR' })
  @ApiConflictResponse({ description: 'ENTITY_ALREADY_EXISTS_ERROR' })
  async create(@Body() body: CreateEntityBody): Promise<Entity> {
    const entity = await this.entities.create(body);
    this.audit.describe({ entityId: entity.id, organizationId: entity.organizationId });
    return presentEntity(entity);
  }

  @Get()
  @ApiOkResponse({ type: EntityResponse, isArray: true, description: 'Staff: every Entity; others: those they reach' })
  async list(@CurrentPrincipal() principal: Principal): Promise<Entity[]> {
    const entities = await this.entities.listVisible({
      userId: principal.user.id,
      role: principal.user.role,
      scopedEntityId: principal.apiKey?.entityId ?? null,
    });
    return entities.map(presentEntity);
  }

  @Get(':entityId')
  @ApiOkResponse({ type: EntityResponse, description: 'The Entity' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async get(@Param('entityId') entityId: string): Promise<Entity> {
    return presentEntity(await this.entities.get(entityId));
  }

  @Get(':entityId/editability')
  @ApiOkResponse({ type: EditabilityResponse, description: 'Whether country, tax id and currency may still change' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async editability(@Param('entityId') entityId: string): Promise<EntityEditability> {
    return { identityFieldsEditable: await this.entities.identityFieldsEditable(entityId) };
  }

  @Patch(':entityId')
  @Audit('entity.update', 'entity')
  @ApiOkResponse({ type: EntityResponse, description: 'The updated Entity' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR (nothing to change; country without taxId) or ENTITY_TAX_ID_INVALID_ERROR' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiConflictResponse({ description: 'ENTITY_IDENTITY_FIELDS_LOCKED_ERROR' })
  async update(@Param('entityId') entityId: string, @Body() body: UpdateEntityBody): Promise<Entity> {
    if (Object.keys(body).length === 0) throw validationError('body', 'must name at least one of name, country, taxId, currency');
    if ((body.country === undefined) !== (body.taxId === undefined)) {
      throw validationError(body.country === undefined ? 'country' : 'taxId', 'country and taxId must be sent together');
    }
    return presentEntity(await this.entities.update(entityId, body));
  }

  @Patch(':entityId/ledger-lock-date')
  @Audit('entity.set_ledger_lock_date', 'entity')
  @ApiOkResponse({ type: EntityResponse, description: 'The Entity with its new lock date' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiConflictResponse({ description: 'ENTITY_LOCK_DATE_OVER_SCHEDULED_ENTRY_ERROR, LEDGER_LOCK_DATE_BEFORE_CLOSING_ERROR (D90: not before an active closing, nor cleared while one is active)' })
  async setLedgerLockDate(@Param('entityId') entityId: string, @Body() body: LedgerLockDateBody): Promise<Entity> {
    return presentEntity(await this.entities.setLedgerLockDate(entityId, body.ledgerLockDate));
  }

  @Patch(':entityId/parent')
  @StaffOnly()
  @Audit('entity.set_parent', 'entity')
  @ApiOkResponse({ type: EntityResponse, description: 'The Entity with its new controlling Entity' })
  @ApiNotFoundResponse({ description: `${NOT_FOUND}; ENTITY_PARENT_NOT_FOUND_ERROR (also any other Entity, for a key confined to this one)` })
  @ApiConflictResponse({ description: 'ENTITY_SELF_PARENT_ERROR or ENTITY_PARENT_CYCLE_ERROR' })
  async setParent(@Param('entityId') entityId: string, @Body() body: ParentBody, @CurrentPrincipal() principal: Principal): Promise<Entity> {
    return presentEntity(await this.entities.setParent(entityId, body.parentEntityId, principal.apiKey?.entityId ?? null));
  }

  @Patch(':entityId/accounting-policies')
  @StaffOnly()
  @Audit('entity.set_accounting_policies', 'entity')
  @ApiOkResponse({ type: EntityResponse, description: 'The Entity with its accounting policies' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async setAccountingPolicies(@Param('entityId') entityId: string, @Body() body: AccountingPoliciesBody): Promise<Entity> {
    return presentEntity(await this.entities.setAccountingPolicies(entityId, body.accountingPolicies));
  }

  @Patch(':entityId/organization')
  @StaffOnly()
  @Audit('entity.move', 'entity')
  @ApiOkResponse({ type: EntityResponse, description: 'The Entity in its new Organization (D21)' })
  @ApiNotFoundResponse({ description: `${NOT_FOUND}; ORGANIZATION_NOT_FOUND_ERROR (also any other Organization, for a key confined to this Entity)` })
  async move(@Param('entityId') entityId: string, @Body() body: MoveEntityBody, @CurrentPrincipal() principal: Principal): Promise<Entity> {
    const entity = await this.entities.moveToOrganization(entityId, body.organizationId, principal.apiKey?.entityId ?? null);
    this.audit.describe({ organizationId: entity.organizationId });
    return presentEntity(entity);
  }
}
