import { canonicalRut } from '../../../../libs/shared-kernel/src';
import { entityIdentityFieldsLocked, entitySelfParent } from './entity-errors';
import { entityError } from './entity-errors';

export interface LegalEntityState {
  id: string;
  organizationId: string;
  name: string;
  country: string;
  taxId: string;
  currency: string;
  ledgerLockDate: string | null;
  accountingPolicies: string | null;
  parentEntityId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** D23: Chilean tax ids are RUTs in canonical form; others are kept as given, trimmed. */
export function canonicalTaxId(country: string, taxId: string): string {
  if (country !== 'CL') return taxId.trim();
  const rut = canonicalRut(taxId);
  if (!rut) throw entityError('ENTITY_TAX_ID_INVALID_ERROR', 'The tax id is not a valid Chilean RUT', { taxId });
  return rut;
}

export interface IdentityChange {
  country?: string;
  taxId?: string;
  currency?: string;
}

/**
 * A legal company with its own books (the spec's "Entity"; named LegalEntity in code to keep
 * clear of ORM vocabulary).
 */
export class LegalEntity {
  private constructor(private state: LegalEntityState) {}

  static create(
    input: { id: string; organizationId: string; name: string; country: string; taxId: string; currency: string },
    now: Date,
  ): LegalEntity {
    return new LegalEntity({
      id: input.id,
      organizationId: input.organizationId,
      name: input.name.trim(),
      country: input.country,
      taxId: canonicalTaxId(input.country, input.taxId),
      currency: input.currency,
      ledgerLockDate: null,
      accountingPolicies: null,
      parentEntityId: null,
      createdAt: now,
      updatedAt: now,
    });
  }

  static restore(state: LegalEntityState): LegalEntity {
    return new LegalEntity({ ...state });
  }

  get id(): string {
    return this.state.id;
  }
  get organizationId(): string {
    return this.state.organizationId;
  }
  get ledgerLockDate(): string | null {
    return this.state.ledgerLockDate;
  }

  rename(name: string, now: Date): void {
    this.touch({ name: name.trim() }, now);
  }

  /**
   * D22: country, tax id and currency change only while the Entity has no ledger entry and no
   * invoice. Country and tax id travel together, so the tax id is judged in its country.
   */
  changeIdentity(change: IdentityChange, identityFieldsEditable: boolean, now: Date): void {
    if (Object.keys(change).length === 0) return;
    if (!identityFieldsEditable) throw entityIdentityFieldsLocked(this.state.id);
    const country = change.country ?? this.state.country;
    const taxId = change.taxId !== undefined ? canonicalTaxId(country, change.taxId) : this.state.taxId;
    this.touch({ country, taxId, currency: change.currency ?? this.state.currency }, now);
  }

  setLedgerLockDate(ledgerLockDate: string | null, now: Date): void {
    this.touch({ ledgerLockDate }, now);
  }

  setAccountingPolicies(accountingPolicies: string | null, now: Date): void {
    this.touch({ accountingPolicies }, now);
  }

  /** The cycle check needs the whole tree and is done by the caller under a lock. */
  setParent(parentEntityId: string | null, now: Date): void {
    if (parentEntityId === this.state.id) throw entitySelfParent(this.state.id);
    this.touch({ parentEntityId }, now);
  }

  moveTo(organizationId: string, now: Date): void {
    this.touch({ organizationId }, now);
  }

  snapshot(): LegalEntityState {
    return { ...this.state };
  }

  private touch(change: Partial<LegalEntityState>, now: Date): void {
    this.state = { ...this.state, ...change, updatedAt: now };
  }
}
