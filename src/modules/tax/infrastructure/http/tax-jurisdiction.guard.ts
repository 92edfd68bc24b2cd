import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { tenantOf } from '../../../../platform/auth/guards/tenant.guard';
import { EntitiesService } from '../../../entities';
import { taxJurisdictionNotSupported } from '../../domain/tax-errors';

/**
 * D92: the tax books are Chilean: an Entity not in CL or not keeping CLP is refused with 409
 * TAX_JURISDICTION_NOT_SUPPORTED_ERROR before anything else of the request (query, body, file)
 * is looked at. A guard: it runs after the tenant guard (access first) and before the pipes.
 */
@Injectable()
export class TaxJurisdictionGuard implements CanActivate {
  constructor(private readonly entities: EntitiesService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const tenant = tenantOf(context.switchToHttp().getRequest<Request>());
    if (!tenant) return true;
    const entity = (await this.entities.get(tenant.entityId)).snapshot();
    if (entity.country !== 'CL' || entity.currency !== 'CLP') throw taxJurisdictionNotSupported(entity.country, entity.currency);
    return true;
  }
}
