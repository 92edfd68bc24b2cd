import { canonicalRut, errorCatalog } from '../../../../libs/shared-kernel/src';

/**
 * Every code partners answers, with its HTTP status: the one place each is declared. The compiler
 * checks the table (D3: a *_NOT_FOUND_ERROR is 404) and that every error built here names a code
 * of it.
 */
export const PARTNER_ERROR_STATUS = {
  PARTNER_ALREADY_EXISTS_ERROR: 409,
  PARTNER_IN_USE_ERROR: 409,
  PARTNER_NOT_FOUND_ERROR: 404,
  PARTNER_TAX_ID_ALREADY_EXISTS_ERROR: 409,
  PARTNER_TAX_ID_INVALID_ERROR: 400,
} as const;

export const partnerError = errorCatalog(PARTNER_ERROR_STATUS);

export const PARTNER_TYPES = ['company', 'individual'] as const;
export type PartnerType = (typeof PARTNER_TYPES)[number];

export interface Partner {
  entityId: string;
  id: string;
  name: string;
  type: PartnerType;
  country: string;
  taxId: string;
  defaultPurchaseAccountId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const e = (code: keyof typeof PARTNER_ERROR_STATUS, message: string) => (params: Record<string, unknown> = {}) => partnerError(code, message, params);

export const partnerNotFound = e('PARTNER_NOT_FOUND_ERROR', 'No partner with this id in the Entity');
export const partnerAlreadyExists = e('PARTNER_ALREADY_EXISTS_ERROR', 'A partner with this id already exists');
export const partnerTaxIdAlreadyExists = e('PARTNER_TAX_ID_ALREADY_EXISTS_ERROR', 'Another partner of the Entity has this tax id');
export const partnerInUse = e('PARTNER_IN_USE_ERROR', 'Ledger lines or invoices name the partner');

/** D23/D45: a partner in Chile is known by its RUT, stored canonical. */
export function partnerTaxId(country: string, taxId: string): string {
  if (country !== 'CL') return taxId.trim();
  const rut = canonicalRut(taxId);
  if (!rut) throw partnerError('PARTNER_TAX_ID_INVALID_ERROR', 'The tax id is not a valid Chilean RUT', { taxId });
  return rut;
}

export function newPartner(input: Omit<Partner, 'createdAt' | 'updatedAt'>, now: Date): Partner {
  return { ...input, name: input.name.trim(), taxId: partnerTaxId(input.country, input.taxId), createdAt: now, updatedAt: now };
}

export interface PartnerChange {
  name?: string;
  type?: PartnerType;
  country?: string;
  taxId?: string;
  defaultPurchaseAccountId?: string | null;
}

/** The tax id is judged in the (possibly new) country, so a move to CL needs a valid RUT. */
export function changePartner(partner: Partner, change: PartnerChange, now: Date): Partner {
  const country = change.country ?? partner.country;
  const taxId = change.taxId !== undefined || change.country !== undefined ? partnerTaxId(country, change.taxId ?? partner.taxId) : partner.taxId;
  return {
    ...partner,
    name: change.name !== undefined ? change.name.trim() : partner.name,
    type: change.type ?? partner.type,
    country,
    taxId,
    defaultPurchaseAccountId: change.defaultPurchaseAccountId !== undefined ? change.defaultPurchaseAccountId : partner.defaultPurchaseAccountId,
    updatedAt: now,
  };
}

export abstract class PartnerRepository {
  abstract list(entityId: string): Promise<Partner[]>;
  /** Keyset page by (name, id) after the cursor, at most `limit` + 1 rows. */
  abstract page(entityId: string, after: { name: string; id: string } | null, limit: number, search?: string): Promise<Partner[]>;
  abstract find(entityId: string, partnerId: string): Promise<Partner | null>;
  abstract lock(entityId: string, partnerId: string): Promise<Partner | null>;
  abstract insert(partner: Partner): Promise<'inserted' | 'tax_id_taken'>;
  abstract save(partner: Partner): Promise<'saved' | 'tax_id_taken'>;
  abstract delete(entityId: string, partnerId: string): Promise<void>;
  /** Which of these partners exist, key-share-locked (in id order) for the rest of the transaction: lines about to name them are being written. */
  abstract holdExisting(entityId: string, partnerIds: string[]): Promise<Set<string>>;
  abstract defaultPurchaseAccountIds(entityId: string, accountIds?: string[]): Promise<Set<string>>;
  /** The name and tax id of each of these partners that exists, by id (one query). */
  abstract identities(entityId: string, partnerIds: string[]): Promise<Map<string, PartnerIdentity>>;
}

/** What a document shows of its partner (the tax books, issue 37). */
export interface PartnerIdentity {
  name: string;
  taxId: string;
}
