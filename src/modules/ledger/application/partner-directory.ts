import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { discoverablePort } from '../../../platform/discovery/discoverable-port';
import { DomainError } from '../../../../libs/shared-kernel/src';

/**
 * Port to the partners module: what the ledger needs of partners, without reading their table.
 * The partners module provides it (decorated @PartnerDirectoryProvider()); the ledger finds it
 * through DiscoveryService, so neither module imports the other's Nest module for it.
 */
export interface PartnerDirectoryPort {
  /**
   * Which of these partners exist in the Entity, key-share-locked (in id order) for the rest of
   * the transaction, as ChartRepository.accountsByIds with `hold`: lines about to name them are
   * being written.
   */
  holdExisting(entityId: string, partnerIds: string[]): Promise<Set<string>>;
  /**
   * The same question as holdExisting as an SQL expression (a uuid[] in id order) that the
   * posting statement embeds, so that a posting stays one statement (one round trip) and judges
   * its facts under the locks it takes: `entityId` and `partnerIds` are SQL expressions of the
   * statement (an Entity id, a uuid[]); `hold` key-share-locks the rows found. `rowEntityId`, the
   * outer row's Entity id, correlates the subquery to that row, so that it runs after the row is
   * locked (the shared lock order: the Entity first) and not before, as an uncorrelated one would.
   */
  existingIdsSql(entityId: string, partnerIds: string, hold: boolean, rowEntityId?: string): string;
  /**
   * The Entity's partners as an SQL relation `(id, name)`, for reads that list figures per
   * partner by name in one statement (the open-item summary's partner options, 2,000 in the bench
   * seed): `entityId` is an SQL expression of the statement.
   */
  namesSql(entityId: string): string;
  /** 404 PARTNER_NOT_FOUND_ERROR: the partners' code, declared by them, for a line naming a missing partner. */
  notFound(partnerId: string): DomainError;
}

const PARTNER_DIRECTORY = discoverablePort<PartnerDirectoryPort>();
/** Marks the partners module's provider of PartnerDirectoryPort. */
export const PartnerDirectoryProvider = PARTNER_DIRECTORY.Implementation;

/** The ledger's side of the port: the one provider found, or none (then no partner exists). */
@Injectable()
export class PartnerDirectory implements PartnerDirectoryPort {
  private found?: PartnerDirectoryPort | null;

  constructor(private readonly discovery: DiscoveryService) {}

  private get port(): PartnerDirectoryPort | null {
    if (this.found === undefined) {
      const all = PARTNER_DIRECTORY.implementations(this.discovery);
      if (all.length > 1) throw new Error('Two providers of PartnerDirectoryPort');
      this.found = all[0] ?? null;
    }
    return this.found;
  }

  async holdExisting(entityId: string, partnerIds: string[]): Promise<Set<string>> {
    return this.port ? this.port.holdExisting(entityId, partnerIds) : new Set();
  }

  namesSql(entityId: string): string {
    // With no partners module, no partner: an empty relation of the same shape.
    return this.port ? this.port.namesSql(entityId) : `(SELECT NULL::uuid AS id, NULL::text AS name WHERE false)`;
  }

  notFound(partnerId: string): DomainError {
    // With no partners module (a test app without it) the same code and status, not declared here.
    return this.port ? this.port.notFound(partnerId) : new DomainError('PARTNER_NOT_FOUND_ERROR', 'No partner with this id in the Entity', { partnerId }, 404);
  }

  existingIdsSql(entityId: string, partnerIds: string, hold: boolean, rowEntityId?: string): string {
    // With no partners module, none exists: the empty slice of the ids keeps their parameter typed.
    return this.port ? this.port.existingIdsSql(entityId, partnerIds, hold, rowEntityId) : `(${partnerIds})[1:0]`;
  }
}
