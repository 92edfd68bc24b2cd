import { Injectable } from '@nestjs/common';
import { TransactionHost, Transactional } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { compareText, validationError } from '../../../../libs/shared-kernel/src';
import { Clock } from '../../../platform/clock/clock';
import { translateUniqueViolation } from '../../../platform/database/pg-errors';
import { MembershipsService } from '../../organizations';
import { organizationNotFound } from '../../organizations';
import { OrganizationsService } from '../../organizations';
import { ReferenceDataService } from '../../reference';
import { entityAlreadyExists, entityNotFound, entityParentCycle, entityParentNotFound, lockDateOverScheduledEntry } from '../domain/entity-errors';
import { EntityRepository } from '../domain/entity-ports';
import { IdentityChange, LegalEntity } from '../domain/legal-entity';
import { BookkeepingProbes } from './bookkeeping-probes';

export interface CreateEntityInput {
  id: string;
  name: string;
  country: string;
  taxId: string;
  currency: string;
  organizationId?: string;
}

export interface EntityViewer {
  userId: string;
  role: 'staff' | 'client';
  /** An entity-scoped key sees only its Entity. */
  scopedEntityId: string | null;
}

/** Parent changes take this lock, so two changes cannot close a cycle between them. */
const PARENT_CHANGE_LOCK = 7_301_945_013;

@Injectable()
export class EntitiesService {
  constructor(
    private readonly entities: EntityRepository,
    private readonly organizations: OrganizationsService,
    private readonly memberships: MembershipsService,
    private readonly reference: ReferenceDataService,
    private readonly bookkeeping: BookkeepingProbes,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly clock: Clock,
  ) {}

  @Transactional()
  async create(input: CreateEntityInput): Promise<LegalEntity> {
    this.checkCountry(input.country);
    this.checkCurrency(input.currency);
    if (await this.entities.findById(input.id)) throw entityAlreadyExists(input.id);
    const organizationId = input.organizationId
      ? (await this.organizations.holdForReference(input.organizationId)).id
      : (await this.organizations.createNamedAfter(input.name)).id;
    const entity = LegalEntity.create({ ...input, organizationId }, this.clock.now());
    await translateUniqueViolation(() => this.entities.insert(entity), () => entityAlreadyExists(input.id));
    return entity;
  }

  async get(entityId: string): Promise<LegalEntity> {
    const entity = await this.entities.findById(entityId);
    if (!entity) throw entityNotFound(entityId);
    return entity;
  }

  /** Staff see every Entity; clients those of their Organizations; a scoped key its own. */
  async listVisible(viewer: EntityViewer): Promise<LegalEntity[]> {
    if (viewer.scopedEntityId) {
      // The key reaches its Entity only while its owner does (as the tenant guard judges it).
      const entity = await this.entities.findById(viewer.scopedEntityId);
      if (!entity) return [];
      if (viewer.role === 'staff') return [entity];
      return (await this.memberships.organizationIdsOf(viewer.userId)).includes(entity.organizationId) ? [entity] : [];
    }
    if (viewer.role === 'staff') return this.entities.listAll();
    return this.entities.listInOrganizations(await this.memberships.organizationIdsOf(viewer.userId));
  }

  /**
   * D91: the controlled tree of an Entity, the Entity first, then its descendants depth-first,
   * siblings by name (then id). 404 when the Entity does not exist.
   */
  async controlledTree(entityId: string): Promise<LegalEntity[]> {
    const all = await this.entities.withDescendants(entityId);
    const root = all.find((e) => e.snapshot().id === entityId);
    if (!root) throw entityNotFound(entityId);
    const children = new Map<string, LegalEntity[]>();
    for (const entity of all) {
      const { id, parentEntityId } = entity.snapshot();
      if (id === entityId || parentEntityId === null) continue;
      children.set(parentEntityId, [...(children.get(parentEntityId) ?? []), entity]);
    }
    const ordered: LegalEntity[] = [];
    const visit = (entity: LegalEntity) => {
      ordered.push(entity);
      const below = (children.get(entity.snapshot().id) ?? []).sort((a, b) => compareText(a.snapshot().name, b.snapshot().name) || compareText(a.snapshot().id, b.snapshot().id));
      below.forEach(visit);
    };
    visit(root);
    return ordered;
  }

  /**
   * Whether the viewer reads every one of these Entities (as the tenant guard would let it read
   * each): a key confined to one Entity reads only that one; staff read any; a client needs a
   * Membership (any role: reading) in each Entity's Organization.
   */
  async readsEvery(viewer: EntityViewer, entities: LegalEntity[]): Promise<boolean> {
    const ids = entities.map((e) => e.snapshot());
    if (viewer.scopedEntityId !== null && ids.some((e) => e.id !== viewer.scopedEntityId)) return false;
    if (viewer.role === 'staff') return true;
    const organizations = new Set(await this.memberships.organizationIdsOf(viewer.userId));
    return ids.every((e) => organizations.has(e.organizationId));
  }

  /**
   * What a posting needs of its Entity: the functional currency and the lock date, read under a
   * share lock so that a concurrent lock-date change waits for the posting (D24).
   */
  async postingTerms(entityId: string): Promise<{ currency: string; ledgerLockDate: string | null }> {
    const terms = await this.entities.postingTerms(entityId);
    if (!terms) throw entityNotFound(entityId);
    return terms;
  }

  async identityFieldsEditable(entityId: string): Promise<boolean> {
    await this.get(entityId);
    return !(await this.bookkeeping.hasRecords(entityId));
  }

  @Transactional()
  async update(entityId: string, change: { name?: string } & IdentityChange): Promise<LegalEntity> {
    const entity = await this.locked(entityId);
    const now = this.clock.now();
    const { name, ...identity } = change;
    if (identity.country !== undefined) this.checkCountry(identity.country);
    if (identity.currency !== undefined) this.checkCurrency(identity.currency);
    if (name !== undefined) entity.rename(name, now);
    if (Object.keys(identity).length > 0) {
      entity.changeIdentity(identity, !(await this.bookkeeping.hasRecords(entityId)), now);
    }
    await this.entities.save(entity);
    return entity;
  }

  /** The lock date cannot reach a Scheduled Entry, nor move before an active closing (D90) (ledger probes). */
  @Transactional()
  async setLedgerLockDate(entityId: string, ledgerLockDate: string | null): Promise<LegalEntity> {
    const entity = await this.locked(entityId);
    if (ledgerLockDate !== null) {
      const scheduled = await this.bookkeeping.earliestScheduledEntryDate(entityId);
      if (scheduled !== null && scheduled <= ledgerLockDate) throw lockDateOverScheduledEntry(ledgerLockDate, scheduled);
    }
    // D90: not before an active closing's end, nor cleared while one is active (the ledger's code).
    const refusal = await this.bookkeeping.lockDateRefusal(entityId, ledgerLockDate);
    if (refusal) throw refusal;
    entity.setLedgerLockDate(ledgerLockDate, this.clock.now());
    await this.entities.save(entity);
    return entity;
  }

  /**
   * `scopedEntityId`: the caller is a key confined to that Entity (the one changed), which reaches
   * no other, so any other parent is one it cannot see: the same 404 as a missing one.
   */
  @Transactional()
  async setParent(entityId: string, parentEntityId: string | null, scopedEntityId: string | null = null): Promise<LegalEntity> {
    await this.txHost.tx.query('SELECT pg_advisory_xact_lock($1)', [PARENT_CHANGE_LOCK]);
    const entity = await this.locked(entityId);
    if (parentEntityId !== null && parentEntityId !== entityId) {
      const reachable = scopedEntityId === null || parentEntityId === scopedEntityId;
      if (!reachable || !(await this.entities.findById(parentEntityId))) throw entityParentNotFound(parentEntityId);
      if ((await this.entities.ancestorIds(parentEntityId)).includes(entityId)) throw entityParentCycle(entityId, parentEntityId);
    }
    entity.setParent(parentEntityId, this.clock.now());
    await this.entities.save(entity);
    return entity;
  }

  @Transactional()
  async setAccountingPolicies(entityId: string, accountingPolicies: string | null): Promise<LegalEntity> {
    const entity = await this.locked(entityId);
    entity.setAccountingPolicies(accountingPolicies, this.clock.now());
    await this.entities.save(entity);
    return entity;
  }

  /**
   * D21: move to another Organization; its Memberships reach the Entity from now on. A key
   * confined to one Entity (`scopedEntityId`) sees no Organization (spec): any other than the
   * Entity's own is the same 404 as a missing one, so it can neither probe Organizations nor hand
   * its Entity to another one's members.
   */
  @Transactional()
  async moveToOrganization(entityId: string, organizationId: string, scopedEntityId: string | null = null): Promise<LegalEntity> {
    const entity = await this.locked(entityId);
    if (scopedEntityId !== null && organizationId !== entity.organizationId) throw organizationNotFound(organizationId);
    await this.organizations.holdForReference(organizationId);
    entity.moveTo(organizationId, this.clock.now());
    await this.entities.save(entity);
    return entity;
  }

  private async locked(entityId: string): Promise<LegalEntity> {
    const entity = await this.entities.lock(entityId);
    if (!entity) throw entityNotFound(entityId);
    return entity;
  }

  private checkCountry(country: string): void {
    if (!this.reference.isCountry(country)) throw validationError('country', 'must be an ISO 3166-1 alpha-2 country code');
  }

  private checkCurrency(currency: string): void {
    if (!this.reference.findCurrency(currency)) throw validationError('currency', 'must be an ISO 4217 currency code');
  }
}
