import { Injectable } from '@nestjs/common';
import { PartnerDirectoryPort, PartnerDirectoryProvider } from '../../ledger';
import { partnerNotFound, PartnerRepository } from '../domain/partner';
import type { DomainError } from '../../../../libs/shared-kernel/src';

/** What the ledger asks of partners (its PartnerDirectoryPort): the partners table is read here only. */
@PartnerDirectoryProvider()
@Injectable()
export class PartnerDirectoryAdapter implements PartnerDirectoryPort {
  constructor(private readonly partners: PartnerRepository) {}

  holdExisting(entityId: string, partnerIds: string[]): Promise<Set<string>> {
    return this.partners.holdExisting(entityId, partnerIds);
  }

  notFound(partnerId: string): DomainError {
    return partnerNotFound({ partnerId });
  }

  namesSql(entityId: string): string {
    return `(SELECT p.id, p.name FROM partners p WHERE p.entity_id = ${entityId})`;
  }

  existingIdsSql(entityId: string, partnerIds: string, hold: boolean, rowEntityId?: string): string {
    const correlated = rowEntityId ? ` AND p.entity_id = ${rowEntityId}` : '';
    return `ARRAY(SELECT p.id FROM partners p WHERE p.entity_id = ${entityId}${correlated} AND p.id = ANY(${partnerIds}) ORDER BY p.id${hold ? ' FOR KEY SHARE' : ''})`;
  }
}
