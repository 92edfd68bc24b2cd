import { Injectable } from '@nestjs/common';
import { PartnerDirectory } from '../../ledger';
import { PartnerRepository } from '../domain/partner';

@Injectable()
export class PartnerDirectoryAdapter extends PartnerDirectory {
  constructor(private readonly partners: PartnerRepository) {
    super();
  }

  holdExisting(entityId: string, partnerIds: string[]): Promise<Set<string>> {
    return this.partners.holdExisting(entityId, partnerIds);
  }
}
