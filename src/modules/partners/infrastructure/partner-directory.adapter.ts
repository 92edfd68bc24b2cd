import { Injectable } from '@nestjs/common';
import { PartnerDirectory } from '../../ledger/application/entry-hooks';
import { PartnerRepository } from '../domain/partner';

@Injectable()
export class PartnerDirectoryAdapter extends PartnerDirectory {
  constructor(private readonly partners: PartnerRepository) {
    super();
  }

  existing(entityId: string, partnerIds: string[], hold = false): Promise<Set<string>> {
    return this.partners.existingIds(entityId, partnerIds, hold);
  }
}
